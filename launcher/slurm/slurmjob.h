#pragma once
// One Slurm job followed from submission (or reattachment) to its end, without waiting on
// anything in the caller's thread: sbatch, then squeue polled for the queue state (the reason a
// job waits, its estimated start), the job's output file read as it grows (compute nodes write
// it over a shared file system, so it is polled, not watched), and at the end sacct, falling
// back to scontrol, for how it ended. Cancel is scancel: Slurm signals the tasks itself (TERM,
// then KILL after its KillWait); the srun client is never killed.

#include "launcher/slurm/slurmjobscript.h"
#include "launcher/slurm/slurmstatus.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>
#include <functional>
#include <string>

namespace sv::launcher {

class SlurmJob : public QObject {
    Q_OBJECT
  public:
    SlurmJob(SlurmSubmission submission, QObject* parent = nullptr);

    // Writes the job script, then sbatch; submitted() or submitFailed() follows.
    void submit();
    // Follows a job submitted earlier (resume): its output from where `outputBytes` already
    // read it, its state, its end.
    void attach(const std::string& jobId, qint64 outputBytes = 0);
    // scancel; kill: KILL to every process of the job, batch script included (after the grace).
    void cancel(bool kill = false);
    const std::string& jobId() const { return m_jobId; }
    const SlurmQueueState& queueState() const { return m_queue; }

    // Every poll's period; tests shorten it.
    static void setPollInterval(int ms);

  signals:
    void submitted(const QString& jobId);
    void submitFailed(const QString& reason);
    // The queue state or its reason changed (PENDING with Resources, then RUNNING, ...).
    void queueChanged();
    // The job's output, whole lines, as the file grows.
    void output(const QByteArray& lines);
    // The job has left the queue (nothing of it runs any more); its output is read to the end.
    void ended(const sv::launcher::SlurmJobEnd& end);

  private:
    void poll();
    void readOutput(bool last, std::function<void()> then);
    void onQueue(int exitCode, const std::string& out);
    void lookUpEnd();
    void endWith(SlurmJobEnd end);

    SlurmSubmission m_submission;
    std::string m_jobId;
    std::string m_outputPath;
    qint64 m_offset = 0;
    QByteArray m_partial;
    SlurmQueueState m_queue;
    QTimer m_timer;
    bool m_busy = false;
    bool m_cancelled = false; // before sbatch answered: scancel as soon as the id is known
    bool m_ending = false;
    int m_failedPolls = 0;
};

} // namespace sv::launcher
