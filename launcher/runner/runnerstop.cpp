// How a Runner stops a run: cancel, TERM with a grace period then KILL, signals to the run's
// process groups and tagged processes here and on every host, and abandon when the app quits.

#include "launcher/runner/runner.h"

#include "launcher/container/containerlifecycle.h"
#include "launcher/container/containersshd.h"
#include "launcher/exec/processtree.h"

#include <QProcess>
#include <csignal>
#include <utility>

namespace sv::launcher {
namespace {
// A scan of /proc here that takes longer is stuck on a process in D state: said, not waited on.
constexpr std::chrono::seconds kScanDeadline{10};
} // namespace

void Runner::cancel() {
    if (std::exchange(m_cancelRequested, true)) return;
    if (m_probeCancel) m_probeCancel->store(true); // the probes end, then startNext stops
    if (m_phase == Phase::Running) {
        terminate(RunState::Cancelled, "cancelled");
    } else if (m_phase == Phase::Cooldown) {
        QTimer::singleShot(0, this, &Runner::startNext);
    }
    // Idle: start() ends at once, cancelled (the window's controller ends the campaign itself
    // without waiting for the capture). Setup (address resolution, staging) and Settling go on
    // to a check of the flag, and startNext stops.
    // Terminating: the run is being stopped already.
}

RunSweep Runner::sweep() const {
    return RunSweep(m_builder,
                    m_builder.sweepHostCount(m_runs[static_cast<std::size_t>(m_current)]), m_tag,
                    static_cast<int>(std::chrono::milliseconds(m_campaign.connectTimeout() +
                                                               std::chrono::seconds(20))
                                         .count()));
}

void Runner::terminate(std::optional<RunState> why, const std::string& reason) {
    if (m_phase != Phase::Running) return;
    enter(Phase::Terminating);
    m_forcedState = why;
    m_forcedReason = reason;
    emit message(QString::fromStdString(m_runs[static_cast<std::size_t>(m_current)].id + ": " +
                                        reason + (why ? "; stopping it (TERM)" : " (TERM)")));
    if (m_slurm) return m_slurm->cancel(); // Slurm signals the tasks; never the srun client
    signalLocal(SIGTERM);
    sweep().signal("TERM", this);
}

void Runner::escalate() {
    if (m_phase != Phase::Terminating) return;
    emit message(QString::fromStdString(
        m_runs[static_cast<std::size_t>(m_current)].id + ": still running after " +
        std::to_string(m_campaign.graceSeconds) + " s grace; KILL"));
    if (m_slurm) return m_slurm->cancel(true);
    signalLocal(SIGKILL);
    sweep().signal("KILL", this);
    m_group->kill();
}

void Runner::signalLocal(int sig) {
    // Each launch's process group (the ssh clients and mpirun, even before the tag reaches a
    // payload) at once; every tagged process here from a worker thread.
    if (m_group)
        for (qint64 group : m_group->processGroups())
            ::kill(-static_cast<pid_t>(group), sig);
    ProcessTree(m_tag).inBackground(sig, 0, this, kScanDeadline, [this](ProcessTree::Scan scan) {
        if (!scan.finished)
            emit message(tr("The scan of this machine's processes did not finish within %1 s (a "
                            "process stuck in the kernel?); the sweep goes on without it.")
                             .arg(kScanDeadline.count()));
    });
}

void Runner::abandon() {
    if (m_probeCancel) m_probeCancel->store(true); // the probes' worker kills their ranks
    // The probes' Slurm allocation outlives this process unless cancelled: by its job name,
    // detached (the worker may not get to give it back before the process ends).
    if (!m_probeSlurmJob.empty())
        QProcess::startDetached(QStringLiteral("timeout"),
                                {QStringLiteral("-s"), QStringLiteral("KILL"), QStringLiteral("30"),
                                 QStringLiteral("scancel"), QStringLiteral("--name"),
                                 QString::fromStdString(m_probeSlurmJob)});
    // The containers go whatever the phase: removing one ends everything in it.
    if (m_containersUp && !m_builder.containers().keep()) {
        const auto limit = m_campaign.connectTimeout() + std::chrono::seconds(30);
        auto removals = ContainerLifecycle::removals(m_builder);
        if (m_builder.containerSsh().needed())
            for (auto& argv : ContainerSshd::removals(m_builder))
                removals.push_back(std::move(argv));
        for (const auto& argv : removals) {
            QStringList args{QStringLiteral("-s"), QStringLiteral("KILL"),
                             QString::number(limit.count())};
            for (const auto& a : argv)
                args << QString::fromStdString(a);
            QProcess::startDetached(QStringLiteral("timeout"), args);
        }
    }
    // Setup's commands (address resolution, staging) are KILLed, group and all, by their
    // CommandBatch going away with this Runner.
    if (m_phase != Phase::Running && m_phase != Phase::Terminating && m_phase != Phase::Settling)
        return;
    m_cancelRequested = true;
    // A job outlives this process unless it is cancelled: scancel, detached.
    if (m_slurm && !m_slurm->jobId().empty())
        QProcess::startDetached(QStringLiteral("scancel"),
                                {QString::fromStdString(m_slurm->jobId())});
    if (m_group)
        for (qint64 group : m_group->processGroups())
            ::kill(-static_cast<pid_t>(group), SIGKILL);
    // Detached sweeps, each bounded by timeout(1): this process may be gone before they end.
    Campaign here = m_campaign;
    here.hosts.clear();
    here.container = {};
    std::vector<std::vector<std::string>> sweeps{
        CommandBuilder(here, m_profile, {}).sweepArgv(0, m_tag, "KILL")};
    const PlannedRun& run = m_runs[static_cast<std::size_t>(m_current)];
    for (int h = 0; h < m_builder.sweepHostCount(run); ++h)
        sweeps.push_back(m_builder.sweepArgv(h, m_tag, "KILL"));
    const auto limit = m_campaign.connectTimeout() + std::chrono::seconds(20);
    // Each sweep runs twice, the second time a moment later: a payload forking while the
    // first looked (its parent then killed) is caught by the second.
    for (const auto& argv : sweeps) {
        QStringList args{
            QStringLiteral("-s"), QStringLiteral("KILL"), QString::number(limit.count()),
            QStringLiteral("sh"), QStringLiteral("-c"),   QStringLiteral("\"$@\"; sleep 2; \"$@\""),
            QStringLiteral("sh")};
        for (const auto& a : argv)
            args << QString::fromStdString(a);
        QProcess::startDetached(QStringLiteral("timeout"), args);
    }
    // The app's last act: the run's end record, written here and now (nothing else writes the
    // journal while a run runs; Settling has its close, end record included, under way), so
    // that resume finds it cancelled rather than guessing it interrupted.
    if (m_phase != Phase::Settling) {
        if (m_log) m_log->close();
        RunEnd end;
        // Being stopped for a timeout already: that stays its state.
        end.state = m_forcedState.value_or(RunState::Cancelled);
        end.reason = m_forcedReason.empty() ? "the app quit during the run"
                                            : m_forcedReason + "; the app quit while stopping it";
        std::string error;
        m_journal.appendEnd(run.id, m_tag, run.logPath, end, &error);
        m_states[static_cast<std::size_t>(m_current)] = end.state;
    }
}

void Runner::removeContainers(std::function<void()> then) {
    const ContainerCommands& containers = m_builder.containers();
    const ContainerSsh& ssh = m_builder.containerSsh();
    if (containers.keep()) {
        for (int h = 0; h < ContainerLifecycle::hostCount(m_builder); ++h)
            emit message(QString::fromStdString(
                "kept the container " + containers.name(h) + " on " + m_builder.hostName(h) +
                " (keep); remove it with docker rm -f " + containers.name(h)));
        // Their sshd reads the host key at each connection: the keys stay with them.
        if (ssh.needed())
            emit message(QString::fromStdString(
                "kept the campaign's ssh keys in " + ssh.dir() +
                " on every host with the containers' sshd (port " + std::to_string(ssh.port()) +
                "); remove them with rm -rf " + ssh.dir() + " after the containers"));
        return then();
    }
    auto said = [this](std::function<void()> next) {
        return [this, next = std::move(next)](ContainerLifecycle::Outcome o) {
            for (const auto& m : o.messages)
                emit message(QString::fromStdString(m));
            if (!o.failure.empty()) emit message(QString::fromStdString(o.failure));
            next();
        };
    };
    // The keys after the containers, whose sshd goes with them.
    ContainerLifecycle::remove(m_builder, m_journal, this,
                               said([this, ssh = ssh.needed(), said, then = std::move(then)] {
                                   if (!ssh) return then();
                                   ContainerSshd::remove(m_builder, this, said(then));
                               }));
}

} // namespace sv::launcher
