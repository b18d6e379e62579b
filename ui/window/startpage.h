#pragma once
// What a first start shows: what the app is for and the three ways in — open a log directory,
// open the bundled samples, run a benchmark.

#include <QWidget>

class QPushButton;

namespace sv::ui {

class StartPage : public QWidget {
    Q_OBJECT
  public:
    explicit StartPage(QWidget* parent = nullptr);

    // The bundled sample logs: installed next to the binary (…/share/scaleview/samples), or the
    // source tree's in a build; empty when neither is there.
    static QString samplesDirectory();

    QPushButton* openButton() const { return m_open; }
    QPushButton* samplesButton() const { return m_samples; }
    QPushButton* runButton() const { return m_run; }

  signals:
    void openRequested();
    void samplesRequested(const QString& directory);
    void runRequested();

  private:
    QPushButton* m_open;
    QPushButton* m_samples;
    QPushButton* m_run;
};

} // namespace sv::ui
