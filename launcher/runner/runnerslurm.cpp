// How a Runner runs one run as a Slurm job: submitted with sbatch, followed through the queue
// (the start and wall-clock timeouts count from RUNNING, not from submission), its output file
// read as the run's output, and its end taken from Slurm's own accounting of it.

#include "launcher/runner/runner.h"

#include "launcher/runner/runverdict.h"

#include <utility>

namespace sv::launcher {

void Runner::startSlurmJob(int index, const QString& command) {
    const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
    m_jobStarted = false;
    m_slurm = new SlurmJob(*m_submission, this);
    connect(m_slurm, &SlurmJob::output, this, [this](const QByteArray& lines) {
        if (m_phase == Phase::Running || m_phase == Phase::Terminating) onOutput(0, lines);
    });
    connect(m_slurm, &SlurmJob::queueChanged, this, &Runner::onSlurmQueue);
    connect(m_slurm, &SlurmJob::ended, this, &Runner::onSlurmEnded);
    connect(m_slurm, &SlurmJob::submitted, this, [this](const QString& id) {
        // Said by the progress (job id and queue state), not as a message: nothing is wrong.
        std::string error;
        // The job id beside the run's start record: resume finds the job again.
        if (!m_journal.appendJob(m_runs[static_cast<std::size_t>(m_current)].id, m_tag,
                                 id.toStdString(), &error))
            emit message(QString::fromStdString(error));
        emitProgress();
    });
    connect(m_slurm, &SlurmJob::submitFailed, this, [this](const QString& why) {
        SlurmJobEnd end;
        end.state = "FAILED";
        end.exitCode = 1;
        end.reason = why.toStdString();
        onSlurmEnded(end);
    });
    enter(Phase::Running);
    // Queued is not started: the timers wait for RUNNING (onSlurmQueue).
    m_startTimer.stop();
    m_wallTimer.stop();
    emit runStarted(index, QString::fromStdString(planned.id), command);
    if (m_reattachJob.empty()) return m_slurm->submit();
    // Resume: the job of the session that died is followed, not submitted again; its output
    // file is read from the start into the new log (the old one is kept aside).
    emit message(QString::fromStdString(planned.id + ": reattaching Slurm job " + m_reattachJob));
    std::string error;
    if (!m_journal.appendJob(planned.id, m_tag, m_reattachJob, &error))
        emit message(QString::fromStdString(error));
    m_slurm->attach(std::exchange(m_reattachJob, {}));
    emitProgress();
}

void Runner::onSlurmQueue() {
    const SlurmQueueState& q = m_slurm->queueState();
    if (q.running() && !m_jobStarted && m_phase == Phase::Running) {
        m_jobStarted = true;
        m_runClock.start();
        m_startTimer.start(m_campaign.startTimeout());
        m_wallTimer.start(m_campaign.wallTimeout());
    }
    emitProgress();
}

void Runner::onSlurmEnded(const SlurmJobEnd& job) {
    if (m_phase != Phase::Running && m_phase != Phase::Terminating) return;
    enter(Phase::Settling);
    const PlannedRun& run = m_runs[static_cast<std::size_t>(m_current)];
    RunOutcome o;
    o.forced = m_forcedState;
    o.forcedReason = m_forcedReason;
    o.exits.push_back(LaunchExit{job.exitCode, {}});
    o.tail = m_tail;
    m_analyzer->finish(o.result, m_parser->counters(), m_parser->pendingBytes() > 0);
    RunEnd end = judgeRun(m_builder, run, o);
    const std::string jobId = m_slurm->jobId();
    if (!m_forcedState) {
        if (auto slurmEnd = runEndOfJob(jobId.empty() ? "(not submitted)" : jobId, job)) {
            const auto throughput = end.timeThroughput;
            const auto speed = end.speedThroughput;
            end = *slurmEnd;
            end.timeThroughput = throughput;
            end.speedThroughput = speed;
            if (jobId.empty()) end.reason = job.reason;
            // Only a failed job is a task's doing; a timeout, a node failure or a cancel stops
            // the tasks, and their exit codes say only that they were stopped.
            if (auto task = job.state == "FAILED" ? firstFailedTask(m_tail) : std::nullopt) {
                // The task that failed first, not the 143 of those Slurm stopped after it.
                end.exitCode = task->exitCode;
                end.host = task->node;
                end.reason += ": " + task->line;
            } else if (const std::string last = lastTellingLine(m_tail); !last.empty()) {
                end.reason += ": " + last;
            }
        }
    } else if (!jobId.empty()) {
        end.reason += " (Slurm job " + jobId + " " + job.state + ")";
    }
    if (end.host.empty() || end.host == "this machine") end.host = job.nodes;
    m_slurm->disconnect(this);
    m_slurm->deleteLater();
    m_slurm = nullptr;
    m_submission.reset();
    // Nothing to sweep here: the job left squeue, so none of its processes runs.
    record(end);
}

} // namespace sv::launcher
