#include "launcher/runner/slurmrun.h"

#include "launcher/runner/runverdict.h"

#include <QProcess>
#include <utility>

namespace sv::launcher {

SlurmRun::SlurmRun(SlurmSubmission submission, Journal journal, std::string runId, std::string tag,
                   QObject* parent)
    : QObject(parent), m_job(new SlurmJob(std::move(submission), this)),
      m_journal(std::move(journal)), m_runId(std::move(runId)), m_tag(std::move(tag)) {
    connect(m_job, &SlurmJob::output, this, &SlurmRun::output);
    connect(m_job, &SlurmJob::queueChanged, this, &SlurmRun::onQueue);
    connect(m_job, &SlurmJob::ended, this, &SlurmRun::ended);
    connect(m_job, &SlurmJob::submitted, this, [this](const QString& id) {
        // Said by the progress (job id and queue state), not as a message: nothing is wrong.
        // The job id beside the run's start record: resume finds the job again.
        std::string error;
        if (!m_journal.appendJob(m_runId, m_tag, id.toStdString(), &error))
            emit message(QString::fromStdString(error));
        emit queueChanged();
    });
    connect(m_job, &SlurmJob::submitFailed, this, [this](const QString& why) {
        SlurmJobEnd end;
        end.state = "FAILED";
        end.exitCode = 1;
        end.reason = why.toStdString();
        emit ended(end);
    });
}

void SlurmRun::start(const std::string& reattach) {
    if (reattach.empty()) return m_job->submit();
    // Resume: the job of the session that died is followed, not submitted again; its output
    // file is read from the start into the new log (the old one is kept aside).
    emit message(QString::fromStdString(m_runId + ": reattaching Slurm job " + reattach));
    std::string error;
    if (!m_journal.appendJob(m_runId, m_tag, reattach, &error))
        emit message(QString::fromStdString(error));
    m_job->attach(reattach);
    emit queueChanged();
}

void SlurmRun::abandon() const {
    if (!jobId().empty())
        QProcess::startDetached(QStringLiteral("scancel"), {QString::fromStdString(jobId())});
}

void SlurmRun::onQueue() {
    if (m_job->queueState().running() && !std::exchange(m_running, true)) emit startedRunning();
    emit queueChanged();
}

void SlurmRun::describe(RunProgress& p) const {
    p.jobId = jobId();
    const SlurmQueueState& q = m_job->queueState();
    if (!m_running)
        p.queue = (q.state.empty() ? std::string("SUBMITTED") : q.state) +
                  (q.reason.empty() ? "" : " (" + q.reason + ")") +
                  (q.start.empty() ? "" : ", expected start " + q.start);
}

RunEnd slurmRunEnd(RunEnd end, const std::string& jobId, const SlurmJobEnd& job, bool forced,
                   const std::string& tail) {
    if (!forced) {
        if (auto slurmEnd = runEndOfJob(jobId.empty() ? "(not submitted)" : jobId, job)) {
            const auto throughput = end.timeThroughput;
            const auto speed = end.speedThroughput;
            end = *slurmEnd;
            end.timeThroughput = throughput;
            end.speedThroughput = speed;
            if (jobId.empty()) end.reason = job.reason;
            // Only a failed job is a task's doing; a timeout, a node failure or a cancel stops
            // the tasks, and their exit codes say only that they were stopped.
            if (auto task = job.state == "FAILED" ? firstFailedTask(tail) : std::nullopt) {
                // The task that failed first, not the 143 of those Slurm stopped after it.
                end.exitCode = task->exitCode;
                end.host = task->node;
                end.reason += ": " + task->line;
            } else if (const std::string last = lastTellingLine(tail); !last.empty()) {
                end.reason += ": " + last;
            }
        }
    } else if (!jobId.empty()) {
        end.reason += " (Slurm job " + jobId + " " + job.state + ")";
    }
    if (end.host.empty() || end.host == "this machine") end.host = job.nodes;
    return end;
}

} // namespace sv::launcher
