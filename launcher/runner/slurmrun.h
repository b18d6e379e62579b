#pragma once
// One run as a Slurm job, from the Runner's side: submitted with sbatch (or, on resume, the job
// an earlier session submitted followed again), its id beside the run's start record so that a
// resume finds it, its queue state for the progress, its output file read as the run's output,
// and its end: Slurm's own accounting of the job, with the figures read from its output.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/slurm/slurmjob.h"

#include <QByteArray>
#include <QObject>
#include <string>

namespace sv::launcher {

class SlurmRun : public QObject {
    Q_OBJECT
  public:
    SlurmRun(SlurmSubmission submission, Journal journal, std::string runId, std::string tag,
             QObject* parent = nullptr);

    // reattach: the job of a session that died (resume), whose output file is read from its
    // start into the new log; empty: the run is submitted.
    void start(const std::string& reattach);
    // scancel: Slurm signals the tasks (never the srun client); kill: KILL at once.
    void cancel(bool kill = false) { m_job->cancel(kill); }
    // The app quits: a job outlives this process unless it is cancelled (scancel, detached).
    void abandon() const;
    const std::string& jobId() const { return m_job->jobId(); }
    // The job id, and while it waits, its queue state in words.
    void describe(RunProgress& progress) const;

  signals:
    void output(const QByteArray& lines);
    // Seen RUNNING for the first time: the run's timers count from here, not from submission.
    void startedRunning();
    void queueChanged();
    void ended(const sv::launcher::SlurmJobEnd& end);
    void message(const QString& text);

  private:
    void onQueue();

    SlurmJob* m_job;
    Journal m_journal;
    std::string m_runId, m_tag;
    bool m_running = false;
};

// The run's end from its job's (Slurm's accounting: the state, the exit code of the task that
// failed first, the nodes), the figures of the end judged from the output kept; forced: the
// Runner stopped it itself (a timeout, a cancel), whose state and reason stay.
RunEnd slurmRunEnd(RunEnd judged, const std::string& jobId, const SlurmJobEnd& job, bool forced,
                   const std::string& tail);

} // namespace sv::launcher
