#pragma once
// The Environment page: the campaign file and the environment files the launcher captured
// beside the logs (hostname, kernel, nvidia-smi, container image, versions), each readable in
// full, with a one-line summary (hosts, GPU, driver, CUDA, image). Read on a worker thread.

#include "core/report/reportdocument.h"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPlainTextEdit;

namespace sv::ui {

class EnvironmentPage : public QWidget {
    Q_OBJECT
  public:
    explicit EnvironmentPage(QWidget* parent = nullptr);

    // The directory shown; its files are read again when it changes or when asked to.
    void showDirectory(const QString& root, bool force = false);
    const std::vector<ReportFile>& files() const { return m_files; }
    QListWidget* fileList() const { return m_list; }
    QPlainTextEdit* text() const { return m_text; }
    QString summaryText() const;

  signals:
    void loaded(); // the files of the directory asked last are shown

  private:
    void showFiles(std::vector<ReportFile> files);

    QString m_root;
    quint64 m_generation = 0;
    std::vector<ReportFile> m_files;
    QLabel* m_summary;
    QListWidget* m_list;
    QPlainTextEdit* m_text;
};

} // namespace sv::ui
