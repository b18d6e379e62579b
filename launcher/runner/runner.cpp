#include "launcher/runner/runner.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/exec/processtree.h"
#include "launcher/exec/shellquote.h"
#include "launcher/monitor/remotesampler.h"
#include "launcher/runner/campaignstaging.h"
#include "launcher/runner/rendezvousfailure.h"
#include "launcher/runner/runrecorder.h"
#include "launcher/runner/runverdict.h"
#include "launcher/ssh/hostaddresses.h"

#include <QRandomGenerator>
#include <algorithm>
#include <utility>
#include <csignal>
#include <filesystem>
#include <unistd.h>
#include <utility>

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

bool allowed(Runner::Phase from, Runner::Phase to) {
    using P = Runner::Phase;
    switch (from) {
    case P::Idle:
        return to == P::Setup;
    case P::Setup: // a run starts, its log cannot be created, or the campaign ends
        return to == P::Running || to == P::Settling || to == P::Done;
    case P::Running:
        return to == P::Terminating || to == P::Settling;
    case P::Terminating:
        return to == P::Settling;
    case P::Settling:
        return to == P::Cooldown || to == P::Setup;
    case P::Cooldown:
        return to == P::Setup;
    case P::Done:
        return false;
    }
    return false;
}

} // namespace

Runner::Runner(Campaign campaign, WorkloadProfile profile, QObject* parent)
    : QObject(parent), m_campaign(std::move(campaign)), m_profile(std::move(profile)),
      m_builder(m_campaign, m_profile, workloadDirOf(m_campaign)),
      m_journal((fs::absolute(m_campaign.outputDir) / "journal.jsonl").string()) {
    m_runs = planRuns(m_campaign, m_profile);
    m_states.assign(m_runs.size(), RunState::Pending);
    if (m_campaign.adaptive())
        m_adaptive = std::make_unique<AdaptiveSchedule>(m_campaign, m_profile);
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

Runner::~Runner() = default;

void Runner::enter(Phase next) {
    if (!allowed(m_phase, next)) {
        qWarning("Runner: no transition from phase %d to %d", static_cast<int>(m_phase),
                 static_cast<int>(next));
        Q_ASSERT(false);
        return;
    }
    m_phase = next;
    // The timers belong to phases: each starts on entering its phase and stops on leaving it.
    if (next != Phase::Running) {
        m_startTimer.stop();
        m_wallTimer.stop();
    }
    if (next != Phase::Terminating) m_graceTimer.stop();
    if (next != Phase::Cooldown) m_cooldownTimer.stop();
    switch (next) {
    case Phase::Running:
        m_startTimer.start(m_campaign.startTimeout());
        m_wallTimer.start(m_campaign.wallTimeout());
        break;
    case Phase::Terminating:
        m_graceTimer.start(m_campaign.grace());
        break;
    case Phase::Cooldown:
        m_cooldownTimer.start(m_campaign.cooldown());
        break;
    default:
        break;
    }
    emit phaseChanged(next);
}

void Runner::start() {
    enter(Phase::Setup);
    // Cancelled while the environment was captured: no address resolution, no staging.
    if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
    for (const auto& w : m_journalWarnings)
        emit message(QString::fromStdString(w));
    for (const ExcludedNode& x : m_campaign.excludedNodes)
        emit message(QString::fromStdString(x.host.name + " is left out of every topology: " +
                                            x.reason));
    // Ranks meet at real addresses: an ssh_config alias is resolved first, as ssh does.
    if (!m_campaign.hosts.empty() && !m_builder.hasRendezvousAddresses()) {
        resolveHostAddresses(m_campaign, this, [this](HostAddresses a) {
            for (const auto& p : a.problems)
                emit message(QString::fromStdString(p));
            m_builder.setRendezvousAddresses(std::move(a.addresses));
            if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
            stage();
        });
        return;
    }
    stage();
}

void Runner::stage() {
    if (m_builder.containers().managed() && !m_containersUp) return startContainers();
    CampaignStaging::run(m_builder, m_profile, m_previous, this,
                         [this](std::vector<std::string> problems) {
                             for (const auto& p : problems)
                                 emit message(QString::fromStdString(p));
                             startNext();
                         });
}

void Runner::startNext() {
    if (m_phase != Phase::Setup) enter(Phase::Setup);
    if (!m_campaignFailure.empty()) return finish(CampaignEnd::Outcome::Failed, m_campaignFailure);
    if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
    // Adaptive repeats run every case's minimum first (the plan), then the top-ups: the
    // minimum is needed whatever happens, and a campaign stopped part-way then has every case.
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (!isFinal(m_states[i])) {
            if (wantsProbes(static_cast<int>(i))) return runProbes(static_cast<int>(i));
            return launch(static_cast<int>(i));
        }
    if (m_adaptive) return continueAdaptive();
    finish(CampaignEnd::Outcome::Done);
}

void Runner::continueAdaptive() {
    AdaptiveSchedule::Step step = m_adaptive->next(m_runs, m_states);
    for (const CaseStop& s : step.stops)
        emit message(QString::fromStdString(s.caseId + ": no more repeats: " + s.reason));
    auto go = [this, run = std::move(step.run)]() mutable {
        if (!run) return finish(CampaignEnd::Outcome::Done);
        m_runs.push_back(std::move(*run));
        m_states.push_back(RunState::Pending);
        const int index = static_cast<int>(m_runs.size()) - 1;
        emit runPlanned(index, QString::fromStdString(m_runs.back().id));
        launch(index);
    };
    if (step.stops.empty()) return go();
    // The journal's writes (fsync) on the record queue, in order with the runs' records.
    async::runInBackground(
        this,
        [journal = m_journal, stops = std::move(step.stops)]() mutable {
            std::string error;
            for (const CaseStop& s : stops)
                if (!journal.appendCaseStop(s, &error)) break;
            return error;
        },
        [this, go = std::move(go)](std::string error) mutable {
            if (!error.empty())
                return finish(CampaignEnd::Outcome::Failed,
                              error + "; the campaign stops: its journal cannot be written");
            if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
            go();
        },
        async::recordQueue());
}

void Runner::finish(CampaignEnd::Outcome outcome, std::string reason) {
    if (std::exchange(m_containersUp, false))
        return removeContainers([this, outcome, reason] { finish(outcome, reason); });
    enter(Phase::Done);
    emit finished(CampaignEnd{outcome, std::move(reason)});
}

void Runner::launch(int index) {
    m_current = index;
    const PlannedRun& run = m_runs[static_cast<std::size_t>(index)];
    m_tag = newTag();
    m_tail.clear();
    m_forcedState.reset();
    m_forcedReason.clear();
    m_firstFailure = -1;
    m_failureReason.clear();
    m_logError.clear();
    m_failureMarker = m_builder.failureMarker();
    m_lastIteration = 0; // progress from the first iteration on
    // Each run's ranks meet at a port free now (recorded with its command line in the
    // journal), not the profile's fixed one another campaign here may hold. The kernel's choice
    // on this machine: for remote nodes no better guess is at hand, and it moves with each run.
    if (!underSlurm() && m_builder.choosesMasterPort())
        m_builder.setMasterPort(CommandBuilder::freeLocalPort());
    // Under Slurm no process starts here: the job script holds the launch.
    m_launches = underSlurm() ? std::vector<Launch>{} : m_builder.launches(run, m_tag);
    std::vector<std::vector<std::string>> argvs;
    QStringList commandLines;
    for (const Launch& l : m_launches) {
        argvs.push_back(l.argv);
        commandLines << QString::fromStdString(shellCommand(l.argv));
    }
    std::vector<std::string> hosts;
    for (int h = 0; h < std::max(1, m_builder.hostCount(run)); ++h)
        hosts.push_back(m_builder.hostName(h));
    if (underSlurm()) { // recorded: the sbatch line, and what the job script runs
        m_reattachJob.clear();
        if (auto it = m_previous.find(run.id); it != m_previous.end() && !it->second.end)
            m_reattachJob = std::exchange(it->second.jobId, {});
        m_submission = slurmSubmission(m_builder, run, m_tag);
        argvs = {m_submission->sbatchArgv, m_submission->launchArgv};
        commandLines = QStringList{QString::fromStdString(shellCommand(argvs[0])),
                                   QString::fromStdString(shellCommand(argvs[1]))};
        hosts = {"slurm"};
    }

    RunRecorder::open(
        m_journal, run, m_tag, argvs, hosts, m_states[static_cast<std::size_t>(index)], this,
        [this, index, argvs,
         command = commandLines.join(QLatin1Char('\n'))](RunRecorder::Opened opened) {
            const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
            if (!opened.log && !opened.logFailure.empty()) {
                // The run failed (its end record written, or not: then the campaign stops
                // below); it is said either way.
                RunEnd end;
                end.reason = opened.logFailure;
                m_states[static_cast<std::size_t>(index)] = RunState::Failed;
                emit runFinished(index, end);
            }
            if (!opened.journalError.empty())
                return finish(CampaignEnd::Outcome::Failed,
                              opened.journalError +
                                  "; stopping: a run without a journal record could be lost");
            if (!opened.log) { // its end record (failed) is written already
                QTimer::singleShot(0, this, &Runner::startNext);
                return;
            }
            m_log = std::move(opened.log);
            m_runClock.start();
            if (m_cancelRequested) { // while the records were being written
                enter(Phase::Settling);
                RunEnd end;
                end.state = RunState::Cancelled;
                end.reason = "cancelled before it started";
                return record(end);
            }
            m_states[static_cast<std::size_t>(index)] = RunState::Running;
            m_parser = std::make_unique<LogParser>(ParseOptions{}, [this](const SpeedSample& s) {
                if (!m_sinceFirstSample.isValid()) m_sinceFirstSample.start();
                m_startTimer.stop();
                m_analyzer->add(s);
            });
            m_analyzer = std::make_unique<RunAnalyzer>(
                planned.key.topology, planned.key.batchPerDevice,
                MeasureOptions{m_campaign.warmup, m_campaign.iterations});
            m_sinceFirstSample.invalidate();
            if (underSlurm()) return startSlurmJob(index, command);
            m_group = new LaunchGroup(this);
            connect(m_group, &LaunchGroup::output, this, &Runner::onOutput);
            connect(m_group, &LaunchGroup::memberExited, this, &Runner::onMemberExited);
            connect(m_group, &LaunchGroup::finished, this, &Runner::onExited);
            enter(Phase::Running);
            emit runStarted(index, QString::fromStdString(planned.id), command);
            startMonitor(planned);
            m_group->start(argvs);
        });
}

void Runner::onOutput(int member, const QByteArray& chunk) {
    if (m_log && m_logError.empty()) {
        if (!RunRecorder::append(*m_log, chunk, &m_logError)) {
            // The disk is full, a quota or file size limit is reached: the run cannot be
            // measured, and the runs after it could not be either.
            m_campaignFailure = "cannot write the log " +
                                m_runs[static_cast<std::size_t>(m_current)].logPath + ": " +
                                m_logError;
            terminate(RunState::Failed, m_campaignFailure);
        }
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
    watchForFailure(member, chunk);
}

void Runner::watchForFailure(int member, const QByteArray& chunk) {
    // Chunks of a group hold whole lines, so a marker is never split between two.
    if (m_failureMarker.empty() || !m_group || m_group->size() < 2 || m_phase != Phase::Running)
        return;
    const QByteArray marker = QByteArray::fromStdString(m_failureMarker);
    const qsizetype at = chunk.indexOf(marker);
    if (at < 0) return;
    const qsizetype from = chunk.lastIndexOf('\n', at) + 1;
    qsizetype to = chunk.indexOf('\n', at);
    if (to < 0) to = chunk.size();
    nodeFailed(member, chunk.mid(from, to - from).trimmed().toStdString());
}

void Runner::onMemberExited(int member) {
    // One node's launcher failed while others run: they would wait on it until the collective's
    // own timeout (gloo's is 30 min), so they are stopped now; the run fails naming that node.
    const LaunchExit& e = m_group->exit(member);
    const bool failed = !e.startError.empty() || !e.exitCode || *e.exitCode != 0;
    if (!failed || m_phase != Phase::Running || m_group->running() == 0) return;
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
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (!isFinal(m_states[i]) && static_cast<int>(i) != m_current) ++remaining;
    int remainingMax = remaining;
    if (m_adaptive) {
        const RunRange range = m_adaptive->remaining(m_runs, m_states, m_current);
        remaining = range.least;
        remainingMax = range.most;
    }
    estimateEtas(p,
                 m_sinceFirstSample.isValid()
                     ? static_cast<double>(m_sinceFirstSample.elapsed()) / 1000.0
                     : -1.0,
                 static_cast<double>(m_runClock.elapsed()) / 1000.0, remaining, remainingMax,
                 m_finishedCount > 0 ? m_finishedSeconds / m_finishedCount : -1.0,
                 m_campaign.cooldownSeconds);
    if (m_slurm) {
        p.jobId = m_slurm->jobId();
        const SlurmQueueState& q = m_slurm->queueState();
        if (!m_jobStarted)
            p.queue = (q.state.empty() ? std::string("SUBMITTED") : q.state) +
                      (q.reason.empty() ? "" : " (" + q.reason + ")") +
                      (q.start.empty() ? "" : ", expected start " + q.start);
    }
    emit progress(p);
}

void Runner::onExited() {
    if (m_phase != Phase::Running && m_phase != Phase::Terminating) return;
    enter(Phase::Settling);
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
            end.leftover = leftover;
            if (!leftover.empty())
                end.reason += (end.reason.empty() ? "" : "; ") + std::to_string(leftover.size()) +
                              " tagged process(es) survived KILL";
            finishMonitor(std::move(end));
        });
}

void Runner::startMonitor(const PlannedRun& run) {
    const auto file = fs::absolute(m_campaign.outputDir) / "monitor" / (run.id + ".jsonl");
    m_monitor = new RunMonitor(file.lexically_normal().string(), m_tag, run.key.topology.ranks(),
                               std::chrono::seconds(2), this, m_profile.needs == "gpu");
    // Each remote host of the run is watched over ssh; the sampler gives up by itself a little
    // after the run's own wall-clock limit, should nothing ever close its input.
    for (int h = 0; h < m_builder.hostCount(run); ++h)
        m_monitor->watchHost(
            m_builder.hostName(h),
            RemoteSampler::command(m_builder, h, m_tag, 2, m_campaign.wallTimeoutSeconds + 120,
                                   m_profile.needs == "gpu" ? "nvidia-smi" : ""),
            run.key.topology.gpusPerNode);
    m_monitor->setIterationSource(
        [this]() -> std::int64_t { return m_analyzer ? m_analyzer->iterationsDone() : -1; });
    m_monitor->start();
}

void Runner::finishMonitor(RunEnd end) {
    RunMonitor* monitor = std::exchange(m_monitor, nullptr);
    if (!monitor) return record(std::move(end));
    monitor->finish([this, monitor, end = std::move(end)](MonitorSummary summary) mutable {
        monitor->deleteLater();
        const auto evidence = summary.evidence();
        if (!evidence.empty()) {
            std::string words;
            for (const auto& e : evidence)
                words += (words.empty() ? "" : "; ") + e;
            emit message(QString::fromStdString(m_runs[static_cast<std::size_t>(m_current)].id +
                                                ": disturbed: " + words));
        }
        for (const auto& unknown : summary.notSampled())
            emit message(QString::fromStdString(m_runs[static_cast<std::size_t>(m_current)].id +
                                                ": " + unknown));
        end.monitor = summary.record();
        record(std::move(end));
    });
}

void Runner::record(RunEnd end) {
    RunRecorder::close(m_journal, m_runs[static_cast<std::size_t>(m_current)], m_tag,
                       std::move(m_log), std::move(end), this, [this](RunRecorder::Closed closed) {
                           recorded(closed.end, closed.journalError);
                       });
}

void Runner::recorded(RunEnd end, const std::string& journalError) {
    m_states[static_cast<std::size_t>(m_current)] = end.state;
    if (m_adaptive) m_adaptive->ended(m_runs[static_cast<std::size_t>(m_current)].id, end);
    if (!journalError.empty() && m_campaignFailure.empty())
        m_campaignFailure = journalError + "; the campaign stops: its journal cannot be written";
    m_finishedSeconds += static_cast<double>(m_runClock.elapsed()) / 1000.0;
    ++m_finishedCount;
    emit runFinished(m_current, end);
    const bool more =
        std::any_of(m_states.begin(), m_states.end(), [](RunState s) { return !isFinal(s); }) ||
        (m_adaptive && m_adaptive->wantsMore(m_runs, m_states));
    if (m_cancelRequested || !more || !m_campaignFailure.empty() || m_campaign.cooldownSeconds == 0)
        QTimer::singleShot(0, this, &Runner::startNext);
    else
        enter(Phase::Cooldown);
}

} // namespace sv::launcher
