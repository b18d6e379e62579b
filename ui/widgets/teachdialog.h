#pragma once
// "Teach ScaleView this log": a thin view of FormatDraft (core/formats/formatdraft.h). The log's
// first lines; the user clicks a throughput line; the numbers in it are offered as value and
// step; the drafted pattern is editable; a live preview (off the GUI thread) shows the lines it
// matches and the figure it gives on this file; Save writes the format file into the user's
// format directory (off the GUI thread) and says so with formatSaved.

#include "core/formats/formatdraft.h"

#include <QDialog>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTimer;

namespace sv {
class UserFormat;
}

namespace sv::ui {

class TeachDialog : public QDialog {
    Q_OBJECT
  public:
    // formatDir: where Save writes (userFormatDirectory() when empty).
    explicit TeachDialog(const QString& log, QWidget* parent = nullptr,
                         const QString& formatDir = QString());

    // For tests and the screenshot: the state as shown.
    bool ready() const { return m_draft.has_value(); }
    QString loadError() const { return m_loadError; }
    QListWidget* lines() const { return m_lines; }
    QComboBox* valueChoice() const { return m_value; }
    QComboBox* stepChoice() const { return m_step; }
    QLineEdit* patternEdit() const { return m_pattern; }
    QLineEdit* idEdit() const { return m_id; }
    QLabel* previewLabel() const { return m_preview; }
    QCheckBox* stepRateChoice() const { return m_stepRate; }
    QSpinBox* batchEdit() const { return m_batch; }
    QLineEdit* gpusEdit() const { return m_gpusPattern; }
    QPushButton* saveButton() const { return m_save; }
    // The preview's figures as last shown (nullopt while one is running or none applies).
    std::optional<std::int64_t> previewMatches() const { return m_previewMatches; }
    std::optional<double> previewFigure() const { return m_previewFigure; }
    bool previewRunning() const { return m_running; }
    void chooseLine(int row);
    // The line (1-based) to start from, where the scan found one (its best rate line): chosen
    // once the first lines are read, instead of the dialog's own guess.
    void setCandidateLine(int line) { m_candidateLine = line; }

  signals:
    // The format file was written: its path, and the format as loaded from it.
    void formatSaved(const QString& path, std::shared_ptr<const sv::UserFormat> format);

  private:
    // The constructor's steps.
    void makeWidgets();
    void layOut();
    void connectFields();
    void readFirstLines();

    void opened(std::optional<FormatDraft> draft, QString error);
    void fillNumbers();
    void syncFromFields();
    void schedulePreview();
    void runPreview();
    void showMatches(const std::vector<int>& rows);
    void showPreview(const UserFormatPreview& p);
    void save();

    QString m_logPath, m_formatDir;
    std::optional<FormatDraft> m_draft;
    QString m_loadError;
    QLabel* m_intro = nullptr;
    QListWidget* m_lines = nullptr;
    QComboBox* m_value = nullptr;
    QComboBox* m_step = nullptr;
    QCheckBox* m_stepTime = nullptr;
    QCheckBox* m_stepRate = nullptr;
    QSpinBox* m_batch = nullptr;
    QCheckBox* m_perGpu = nullptr;
    QLineEdit* m_gpusPattern = nullptr;
    QLineEdit* m_pattern = nullptr;
    QLineEdit* m_id = nullptr;
    QLineEdit* m_name = nullptr;
    QComboBox* m_unit = nullptr;
    QLabel* m_preview = nullptr;
    QPushButton* m_save = nullptr;
    QTimer* m_previewTimer = nullptr;
    int m_generation = 0;
    bool m_running = false;
    bool m_filling = false;
    int m_candidateLine = 0;
    std::optional<std::int64_t> m_previewMatches;
    std::optional<double> m_previewFigure;
};

// Opens the dialog on log (non-modal, deleted on close). A saved format is registered with the
// engine (registerUserFormat), then what setAfterTeach gave runs (the main window: reload).
// line: the candidate line to start from (0: the dialog's own guess).
TeachDialog* openTeachDialog(QWidget* parent, const QString& log, int line = 0);
void setAfterTeach(std::function<void(const QString& formatId)> afterSave);

} // namespace sv::ui
