#pragma once
// Turns the RunLogs in memory and the user's options into an Analysis, on a worker thread: a
// change of method or reference recomputes from what is kept; a change of window reads the logs
// again on the worker (each log keeps its figures for one window), once: the logs read for the
// new window are kept for the next recomputes. Requests arriving while one runs are coalesced
// into one; a result computed for a directory that is no longer open (clear() since) is dropped.

#include "ui/analysis/analysis.h"

#include <QObject>

#include <map>

namespace sv::ui {

class AnalysisController : public QObject {
    Q_OBJECT
  public:
    explicit AnalysisController(QObject* parent = nullptr);

    void setSnapshot(const LogSnapshot& snapshot);
    void setOptions(const AnalysisOptions& options);
    // The logs a campaign is writing now (none: empty): shown as running, not as problems.
    void setLogsInProgress(std::vector<std::filesystem::path> paths);
    // A comparison: the open directory's name as a series and the other directories as loaded so
    // far; measured with the same options. Kept across clear() (the SeriesSet decides).
    void setSeries(std::string label, std::vector<SeriesInput> others);
    const AnalysisOptions& options() const { return m_options; }
    const LogSnapshot& snapshot() const { return m_snapshot; }
    AnalysisPtr current() const { return m_current; }
    bool isBusy() const { return m_running || m_pending; }
    void clear();
    // The directory at root could not be opened: an analysis with nothing in it but the reason,
    // at once, so no page and no export shows what was open before.
    void showEmpty(const QString& root, const QString& error);

  signals:
    void analysisReady(sv::ui::AnalysisPtr analysis);
    void invalidOptions(const QString& why);

  private:
    void request();
    void start();
    // Logs of the snapshot read again for another window: by the log they stand for (held, so
    // its address is not reused), with the log read for the window now chosen.
    struct Remeasured {
        RunLogPtr original;
        RunLogPtr log;
    };
    void remember(const std::vector<RunLogPtr>& sent, const std::vector<RunLogPtr>& got);

    LogSnapshot m_snapshot;
    AnalysisOptions m_options;
    std::vector<std::filesystem::path> m_inProgress;
    std::string m_label;
    std::vector<SeriesInput> m_others;
    AnalysisPtr m_current;
    std::map<const RunLog*, Remeasured> m_remeasured;
    quint64 m_epoch = 0; // bumped by clear(): results from before are stale
    bool m_pending = false;
    bool m_running = false; // a job is on the work pool (one at a time)
};

} // namespace sv::ui
