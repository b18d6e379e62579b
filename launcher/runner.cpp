#include "runner.h"

#include "campaigndirectory.h"
#include "hostaddresses.h"
#include "processtree.h"
#include "rendezvousfailure.h"
#include "runsweep.h"
#include "runverdict.h"
#include "shellquote.h"

#include <QRandomGenerator>
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <unistd.h>

namespace sv::launcher {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kTailBytes = 16384;

std::string newTag() {
    const quint64 r = QRandomGenerator::global()->generate64();
    char buf[32];
    std::snprintf(buf, sizeof buf, "sv%016llx", static_cast<unsigned long long>(r));
    return buf;
}

} // namespace

Runner::Runner(Campaign campaign, WorkloadProfile profile, QObject* parent)
    : QObject(parent), m_campaign(std::move(campaign)), m_profile(std::move(profile)),
      m_builder(m_campaign, m_profile, workloadDirOf(m_campaign)),
      m_journal((fs::absolute(m_campaign.outputDir) / "journal.jsonl").string()) {
    m_runs = planRuns(m_campaign, m_profile);
    m_states.assign(m_runs.size(), RunState::Pending);
    for (QTimer* t : {&m_startTimer, &m_wallTimer, &m_graceTimer, &m_cooldownTimer})
        t->setSingleShot(true);
    connect(&m_startTimer, &QTimer::timeout, this, [this] {
        terminate(RunState::Timeout, "start timeout: no speed line within " +
                                         std::to_string(m_campaign.startTimeoutSeconds) + " s");
    });
    connect(&m_wallTimer, &QTimer::timeout, this, [this] {
        terminate(RunState::Timeout, "wall-clock timeout: still running after " +
                                         std::to_string(m_campaign.wallTimeoutSeconds) + " s");
    });
    connect(&m_graceTimer, &QTimer::timeout, this, &Runner::escalate);
    connect(&m_cooldownTimer, &QTimer::timeout, this, &Runner::startNext);
}

bool Runner::prepare(bool resume, std::string* error) {
    if (!m_profile.launchers.count(m_builder.launcherName())) {
        *error =
            "profile " + m_profile.name + " has no launcher '" + m_builder.launcherName() + "'";
        return false;
    }
    if (!prepareCampaignDirectory(m_campaign, m_profile, m_builder.scriptPath(), m_journal.path(),
                                  resume, error))
        return false;
    m_previous = m_journal.read();
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        auto it = m_previous.find(m_runs[i].id);
        if (it != m_previous.end()) m_states[i] = it->second.state();
    }
    return closeInterruptedRuns(m_journal, m_previous, m_runs, error);
}

void Runner::start() {
    m_running = true;
    // Ranks meet at real addresses: an ssh_config alias is resolved first, as ssh does.
    if (!m_campaign.hosts.empty() && !m_builder.hasRendezvousAddresses()) {
        resolveHostAddresses(m_campaign, this, [this](HostAddresses a) {
            for (const auto& p : a.problems)
                emit message(QString::fromStdString(p));
            m_builder.setRendezvousAddresses(std::move(a.addresses));
            start();
        });
        return;
    }
    // Before the first run: leftovers of interrupted runs are killed, and the workload script
    // reaches every remote host at the same absolute path.
    std::vector<BatchCommand> setup;
    const int hostCount = static_cast<int>(m_campaign.hosts.size());
    for (const auto& [id, entry] : m_previous) {
        if (entry.state() != RunState::Interrupted || entry.tag.empty()) continue;
        ProcessTree(entry.tag).signal(SIGKILL);
        for (int h = 0; h < m_builder.sweepHostCount(); ++h)
            setup.push_back({m_builder.sweepArgv(h, entry.tag, "KILL"),
                             {},
                             (m_campaign.connectTimeoutSeconds + 20) * 1000});
    }
    const std::size_t staging = setup.size(); // the script copies follow the sweeps
    if (!m_profile.scriptText.empty())
        for (int h = 0; h < hostCount; ++h)
            setup.push_back(
                {m_builder.onHost(h,
                                  {"sh", "-c", "mkdir -p \"$1\" && cat > \"$1/$2\"", "sh",
                                   workloadDirOf(m_campaign), m_profile.scriptName},
                                  false),
                 m_profile.scriptText, (m_campaign.connectTimeoutSeconds + 20) * 1000});
    CommandBatch::run(std::move(setup), this, [this, staging](std::vector<BatchResult> results) {
        for (std::size_t i = staging; i < results.size(); ++i)
            if (results[i].exitCode != 0)
                emit message(QString::fromStdString(
                    "could not copy the workload script to " +
                    m_builder.hostName(static_cast<int>(i - staging)) + " (" +
                    (results[i].timedOut ? std::string("no answer") : results[i].errors) +
                    "); its runs will fail"));
        startNext();
    });
}

void Runner::startNext() {
    if (m_cancelRequested) {
        m_running = false;
        emit finished(true);
        return;
    }
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        if (isFinal(m_states[i])) continue;
        launch(static_cast<int>(i));
        return;
    }
    m_running = false;
    emit finished(false);
}

void Runner::launch(int index) {
    m_current = index;
    const PlannedRun& run = m_runs[static_cast<std::size_t>(index)];
    m_tag = newTag();
    m_tail.clear();
    m_terminating = false;
    m_forcedState.reset();
    m_forcedReason.clear();
    m_firstFailure = -1;
    m_failureReason.clear();
    m_failureMarker = m_builder.failureMarker();
    m_lastIteration = 0; // progress from the first iteration on
    m_launches = m_builder.launches(run, m_tag);
    std::vector<std::vector<std::string>> argvs;
    QStringList commandLines;
    for (const Launch& l : m_launches) {
        argvs.push_back(l.argv);
        commandLines << QString::fromStdString(shellCommand(l.argv));
    }
    std::vector<std::string> hosts;
    for (int h = 0; h < std::max(1, m_builder.hostCount(run)); ++h)
        hosts.push_back(m_builder.hostName(h));

    // The start record comes first: a crash right after it leaves an interrupted run, whose
    // log (if any) resume moves aside, rather than a log no record explains.
    std::string error;
    if (!m_journal.appendStart(run.id, m_tag, argvs, hosts, run.logPath, &error)) {
        emit message(QString::fromStdString(
            error + "; stopping: a run without a journal record could be lost"));
        m_running = false;
        emit finished(true);
        return;
    }
    std::string failure;
    m_log = createRunLog(run, m_states[static_cast<std::size_t>(index)], &failure);
    if (!m_log) {
        RunEnd end;
        end.reason = failure;
        m_states[static_cast<std::size_t>(index)] = RunState::Failed;
        m_journal.appendEnd(run.id, m_tag, run.logPath, end, &error);
        emit runFinished(index, end);
        QTimer::singleShot(0, this, &Runner::startNext);
        return;
    }
    m_states[static_cast<std::size_t>(index)] = RunState::Running;
    m_parser = std::make_unique<LogParser>(ParseOptions{}, [this](const SpeedSample& s) {
        if (!m_sinceFirstSample.isValid()) m_sinceFirstSample.start();
        m_startTimer.stop();
        m_analyzer->add(s);
    });
    m_analyzer =
        std::make_unique<RunAnalyzer>(run.key.topology, run.key.batchPerDevice,
                                      MeasureOptions{m_campaign.warmup, m_campaign.iterations});
    m_sinceFirstSample.invalidate();

    m_group = new LaunchGroup(this);
    connect(m_group, &LaunchGroup::output, this, &Runner::onOutput);
    connect(m_group, &LaunchGroup::memberExited, this, &Runner::onMemberExited);
    connect(m_group, &LaunchGroup::finished, this, &Runner::onExited);
    m_runClock.start();
    m_startTimer.start(m_campaign.startTimeoutSeconds * 1000);
    m_wallTimer.start(m_campaign.wallTimeoutSeconds * 1000);
    emit runStarted(index, QString::fromStdString(run.id), commandLines.join(QLatin1Char('\n')));
    m_group->start(argvs);
}

void Runner::onOutput(int member, const QByteArray& chunk) {
    if (m_log) {
        m_log->write(chunk);
        m_log->flush();
    }
    m_tail.append(chunk.constData(), static_cast<std::size_t>(chunk.size()));
    if (m_tail.size() > kTailBytes) m_tail.erase(0, m_tail.size() - kTailBytes);
    m_parser->feed(std::string_view(chunk.constData(), static_cast<std::size_t>(chunk.size())));
    emit output(m_current, chunk);
    if (auto why = rendezvousFailure({chunk.constData(), static_cast<std::size_t>(chunk.size())}))
        terminate(RunState::Failed, *why);
    if (m_analyzer->iterationsDone() != m_lastIteration) {
        m_lastIteration = m_analyzer->iterationsDone();
        emitProgress();
    }
    // Chunks of a group hold whole lines, so a marker is never split between two.
    if (!m_failureMarker.empty() && m_group && m_group->size() > 1 && !m_terminating) {
        const QByteArray marker = QByteArray::fromStdString(m_failureMarker);
        const qsizetype at = chunk.indexOf(marker);
        if (at >= 0) {
            const qsizetype from = chunk.lastIndexOf('\n', at) + 1;
            qsizetype to = chunk.indexOf('\n', at);
            if (to < 0) to = chunk.size();
            nodeFailed(member, chunk.mid(from, to - from).trimmed().toStdString());
        }
    }
}

void Runner::onMemberExited(int member) {
    // One node's launcher failed while others run: they would wait on it until the collective's
    // own timeout (gloo's is 30 min), so they are stopped now; the run fails naming that node.
    const LaunchExit& e = m_group->exit(member);
    const bool failed = !e.startError.empty() || !e.exitCode || *e.exitCode != 0;
    if (!failed || m_terminating || m_group->running() == 0) return;
    if (m_firstFailure < 0) m_firstFailure = member;
    const std::string host =
        m_builder.hostName(m_launches.at(static_cast<std::size_t>(member)).host);
    terminate(std::nullopt, "the launcher on " + host +
                                (e.exitCode ? " exited with code " + std::to_string(*e.exitCode)
                                            : std::string(" did not run to its end")) +
                                "; stopping the other nodes");
}

void Runner::nodeFailed(int member, const std::string& what) {
    if (m_firstFailure >= 0) return;
    m_firstFailure = member;
    const std::string host =
        m_builder.hostName(m_launches.at(static_cast<std::size_t>(member)).host);
    m_failureReason = "workers failed on " + host + ": " + what;
    terminate(std::nullopt, m_failureReason + "; stopping every node");
}

void Runner::emitProgress() {
    RunProgress p;
    p.index = m_current;
    p.total = static_cast<int>(m_runs.size());
    p.id = m_runs[static_cast<std::size_t>(m_current)].id;
    p.iteration = m_analyzer->iterationsDone();
    p.iterations = m_campaign.iterations;
    p.speed = m_analyzer->lastSpeed();
    int remaining = 0;
    for (std::size_t i = static_cast<std::size_t>(m_current) + 1; i < m_runs.size(); ++i)
        if (!isFinal(m_states[i])) ++remaining;
    estimateEtas(p,
                 m_sinceFirstSample.isValid()
                     ? static_cast<double>(m_sinceFirstSample.elapsed()) / 1000.0
                     : -1.0,
                 static_cast<double>(m_runClock.elapsed()) / 1000.0, remaining,
                 m_finishedCount > 0 ? m_finishedSeconds / m_finishedCount : -1.0,
                 m_campaign.cooldownSeconds);
    emit progress(p);
}

void Runner::cancel() {
    const bool first = !m_cancelRequested;
    m_cancelRequested = true;
    if (!first || !m_running) return;
    if (m_group) {
        terminate(RunState::Cancelled, "cancelled");
    } else if (m_cooldownTimer.isActive()) {
        m_cooldownTimer.stop();
        QTimer::singleShot(0, this, &Runner::startNext);
    }
    // Otherwise setup or a run's sweep is under way; it goes on to startNext, which stops.
}

RunSweep Runner::sweep() const {
    return RunSweep(m_builder,
                    m_builder.sweepHostCount(m_runs[static_cast<std::size_t>(m_current)]), m_tag,
                    (m_campaign.connectTimeoutSeconds + 20) * 1000);
}

void Runner::terminate(std::optional<RunState> why, const std::string& reason) {
    if (m_terminating || !m_group) return;
    m_terminating = true;
    m_forcedState = why;
    m_forcedReason = reason;
    m_startTimer.stop();
    m_wallTimer.stop();
    emit message(QString::fromStdString(m_runs[static_cast<std::size_t>(m_current)].id + ": " +
                                        reason + (why ? "; stopping it (TERM)" : " (TERM)")));
    signalLocal(SIGTERM);
    sweep().signal("TERM", this);
    m_graceTimer.start(m_campaign.graceSeconds * 1000);
}

void Runner::escalate() {
    if (!m_group) return;
    emit message(QString::fromStdString(
        m_runs[static_cast<std::size_t>(m_current)].id + ": still running after " +
        std::to_string(m_campaign.graceSeconds) + " s grace; KILL"));
    signalLocal(SIGKILL);
    sweep().signal("KILL", this);
    m_group->kill();
}

void Runner::signalLocal(int sig) {
    // Every tagged process here, and each launch's process group (which holds the ssh clients
    // and mpirun even before the tag reaches a payload).
    const auto groups = m_group ? m_group->processGroups() : std::vector<qint64>{};
    ProcessTree(m_tag).signal(sig, groups.empty() ? 0 : static_cast<int>(groups.front()));
    for (std::size_t i = 1; i < groups.size(); ++i)
        ::kill(-static_cast<pid_t>(groups[i]), sig);
}

void Runner::onExited() {
    if (!m_group) return;
    m_startTimer.stop();
    m_wallTimer.stop();
    m_graceTimer.stop();
    RunOutcome o;
    o.forced = m_forcedState;
    o.forcedReason = m_forcedReason;
    o.launches = m_launches;
    for (int i = 0; i < m_group->size(); ++i)
        o.exits.push_back(m_group->exit(i));
    o.firstFailure = m_firstFailure;
    o.failureReason = m_failureReason;
    o.tail = m_tail;
    m_analyzer->finish(o.result, m_parser->counters(), m_parser->pendingBytes() > 0);
    if (m_log) m_log->close();
    settle(judgeRun(m_builder, m_runs[static_cast<std::size_t>(m_current)], o));
}

void Runner::settle(RunEnd end) {
    // Whatever the ending, nothing tagged may outlive the run: KILL the rest, then look again.
    signalLocal(SIGKILL);
    m_group->disconnect(this);
    m_group->deleteLater();
    m_group = nullptr;
    sweep().killAndCheck(
        this, [this, end](std::vector<int> leftover, std::vector<std::string> unchecked) mutable {
            for (const auto& host : unchecked)
                end.reason += (end.reason.empty() ? "" : "; ") +
                              ("could not look for leftover processes on " + host);
            finalize(end, leftover);
        });
}

void Runner::finalize(RunEnd end, std::vector<int> leftover) {
    const PlannedRun& run = m_runs[static_cast<std::size_t>(m_current)];
    end.leftover = leftover;
    if (!leftover.empty())
        end.reason += (end.reason.empty() ? "" : "; ") + std::to_string(leftover.size()) +
                      " tagged process(es) survived KILL";
    m_states[static_cast<std::size_t>(m_current)] = end.state;
    std::string error;
    if (!m_journal.appendEnd(run.id, m_tag, run.logPath, end, &error))
        emit message(QString::fromStdString(error));
    m_finishedSeconds += static_cast<double>(m_runClock.elapsed()) / 1000.0;
    ++m_finishedCount;
    m_log.reset();
    emit runFinished(m_current, end);
    bool more = false;
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        more = more || !isFinal(m_states[i]);
    if (m_cancelRequested || !more || m_campaign.cooldownSeconds == 0)
        QTimer::singleShot(0, this, &Runner::startNext);
    else
        m_cooldownTimer.start(m_campaign.cooldownSeconds * 1000);
}

} // namespace sv::launcher
