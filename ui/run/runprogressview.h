#pragma once
// The Run panel's right column while a campaign runs: the current run and the campaign as
// progress bars with ETA (a range with adaptive repeats), the current throughput, every planned
// run with its state and figures (adaptive top-ups added as they start),
// and a live console (the current run's log tail, warnings and errors highlighted).

#ifndef Q_MOC_RUN
#include "launcher/campaign/journal.h"
#include "launcher/campaign/runprogress.h"
#endif

#include <QElapsedTimer>
#include <QWidget>

#include <map>
#include <string>

class QColor;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTableWidget;

namespace sv::ui {

class RunProgressView : public QWidget {
    Q_OBJECT
  public:
    explicit RunProgressView(QWidget* parent = nullptr);

    // The planned runs, with what a journal says of them (finished, interrupted) or pending.
    void setPlan(const QStringList& ids,
                 const std::map<std::string, launcher::JournalEntry>& journal, int iterations);
    void runStarted(int index, const QString& id);
    void showProgress(const launcher::RunProgress& progress);
    void runFinished(int index, const launcher::RunEnd& end);
    // disturbed: runs among the ok ones the monitor found disturbed; the headline says so.
    void campaignFinished(bool cancelled, int ok, int total, int disturbed = 0);
    // Another campaign opened: the previous one's headline, bars, figure and output go.
    void clearCampaign(const QString& headline);
    void appendLog(const QString& text);
    // A line of the panel's own (preflight, errors): shown in the console, coloured.
    void appendNote(const QString& text, bool problem);

    QProgressBar* runBar() const { return m_runBar; }
    QProgressBar* campaignBar() const { return m_campaignBar; }
    QTableWidget* runsTable() const { return m_runs; }
    QPlainTextEdit* console() const { return m_console; }
    QString currentText() const;
    // The headline figure: the current iteration's pace while running, the run's time-method
    // result once it ended.
    QString speedText() const;

  private:
    // evidence: why an ok run was disturbed (RunEnd::isDisturbed); empty: it was not.
    void setState(int row, launcher::RunState state, const QString& disturbedBy = {});
    // etaMaxSeconds above etaSeconds: a range (adaptive repeats).
    void updateCampaignBar(double etaSeconds, double etaMaxSeconds);
    void ensureRow(int index, const QString& id);
    void writeLine(const QString& line, const QColor& colour, bool bold);

    QLabel* m_current;
    QLabel* m_speed;
    QProgressBar* m_runBar;
    QProgressBar* m_campaignBar;
    QTableWidget* m_runs;
    QPlainTextEdit* m_console;
    int m_iterations = 0;
    int m_done = 0; // runs that ended, in any state
    // The runs this view saw from start to end, and their wall time: between two runs the
    // campaign's ETA is their mean pace times the runs left (the launcher's own estimate comes
    // only with the next run's progress).
    QElapsedTimer m_runClock;
    double m_runSeconds = 0;
    int m_timed = 0;
    std::int64_t m_iteration = 0;
    bool m_following = true; // the console keeps its last line in view
    bool m_writing = false;   // the console's bar moves by a write, not by the user
};

} // namespace sv::ui
