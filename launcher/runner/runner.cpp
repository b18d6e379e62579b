#include "launcher/runner/runner.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/runner/campaignstaging.h"
#include "launcher/runner/preparedcampaign.h"
#include "launcher/runner/runoutput.h"
#include "launcher/runner/runprocesses.h"
#include "launcher/runner/runrecorder.h"
#include "launcher/runner/runverdict.h"
#include "launcher/runner/slurmrun.h"
#include "launcher/ssh/hostaddresses.h"

#include <algorithm>
#include <csignal>
#include <utility>

namespace sv::launcher {

namespace {

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
      m_journal(journalPathOf(m_campaign)), m_timers(m_campaign, this),
      m_containers(m_builder, m_journal, this, [this](const std::string& t) { say(t); }),
      m_probing(
          m_builder, m_journal, this, [this](const std::string& t) { say(t); },
          [this](const std::string& t) { emit note(QString::fromStdString(t)); }),
      m_watch(m_builder, this, [this](const std::string& t) { say(t); }) {
    m_runs = planRuns(m_campaign, m_profile);
    m_states.assign(m_runs.size(), RunState::Pending);
    if (m_campaign.adaptive())
        m_adaptive = std::make_unique<AdaptiveSchedule>(m_campaign, m_profile);
    connect(&m_timers, &PhaseTimers::startTimedOut, this, [this] {
        terminate(RunState::Timeout, "start timeout: no speed line within " +
                                         std::to_string(m_campaign.startTimeoutSeconds) + " s");
    });
    connect(&m_timers, &PhaseTimers::wallTimedOut, this, [this] {
        terminate(RunState::Timeout, "wall-clock timeout: still running after " +
                                         std::to_string(m_campaign.wallTimeoutSeconds) + " s");
    });
    connect(&m_timers, &PhaseTimers::graceEnded, this, &Runner::escalate);
    connect(&m_timers, &PhaseTimers::cooledDown, this, &Runner::startNext);
}

Runner::~Runner() = default;

std::optional<std::string> Runner::refusal(bool resume) const {
    return PreparedCampaign::refusal(m_campaign, m_profile, m_builder.launcherName(),
                                     m_journal.path(), resume);
}

bool Runner::prepare(bool resume, std::string* error) {
    if (auto why = refusal(resume)) {
        *error = *why;
        return false;
    }
    PreparedCampaign p = PreparedCampaign::prepare(m_campaign, m_profile, m_builder.scriptPath(),
                                                   m_journal, m_runs, resume);
    *error = p.error;
    adopt(std::move(p));
    return error->empty();
}

void Runner::prepareInBackground(bool resume, std::function<void(std::string error)> done) {
    async::runInBackground(
        this,
        [campaign = m_campaign, profile = m_profile, script = m_builder.scriptPath(),
         journal = m_journal, runs = m_runs, resume] {
            return PreparedCampaign::prepare(campaign, profile, script, journal, runs, resume);
        },
        [this, done = std::move(done)](PreparedCampaign p) {
            std::string error = p.error;
            adopt(std::move(p));
            done(error);
        });
}

void Runner::adopt(PreparedCampaign prepared) {
    m_previous = std::move(prepared.previous);
    m_journalWarnings = std::move(prepared.warnings);
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        auto it = m_previous.find(m_runs[i].id);
        if (it != m_previous.end()) m_states[i] = it->second.state();
    }
    if (m_adaptive) m_adaptive->adopt(m_runs, m_states, m_previous, prepared.caseStops);
}

void Runner::enter(Phase next) {
    if (!allowed(m_phase, next)) {
        qWarning("Runner: no transition from phase %d to %d", static_cast<int>(m_phase),
                 static_cast<int>(next));
        Q_ASSERT(false);
        return;
    }
    m_phase = next;
    // A Slurm job's run timers wait for it to run (SlurmRun::startedRunning).
    m_timers.entered(next == Phase::Running, next == Phase::Terminating, next == Phase::Cooldown,
                     underSlurm());
    emit phaseChanged(next);
}

void Runner::start() {
    enter(Phase::Setup);
    // Cancelled while the environment was captured: no address resolution, no staging.
    if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
    for (const auto& w : m_journalWarnings)
        say(w);
    for (const ExcludedNode& x : m_campaign.excludedNodes)
        say(x.host.name + " is left out of every topology: " + x.reason);
    // Ranks meet at real addresses: an ssh_config alias is resolved first, as ssh does.
    if (!m_campaign.hosts.empty() && !m_builder.hasRendezvousAddresses()) {
        resolveHostAddresses(m_campaign, this, [this](HostAddresses a) {
            for (const auto& p : a.problems)
                say(p);
            m_builder.setRendezvousAddresses(std::move(a.addresses));
            if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
            stage();
        });
        return;
    }
    stage();
}

void Runner::stage() {
    if (m_containers.managed() && !m_containers.up())
        return m_containers.start([this] { return m_cancelRequested; },
                                  [this](std::string failure) {
                                      if (!failure.empty())
                                          return finish(CampaignEnd::Outcome::Failed, failure);
                                      if (m_cancelRequested)
                                          return finish(CampaignEnd::Outcome::Cancelled);
                                      stage();
                                  });
    CampaignStaging::run(m_builder, m_profile, m_previous, this,
                         [this](std::vector<std::string> problems) {
                             for (const auto& p : problems)
                                 say(p);
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
            // Issue 28: a case's probes before its first repeat; then this again.
            if (m_probing.wants(m_runs[i]))
                return m_probing.run(m_runs[i], [this] { startNext(); });
            return launch(static_cast<int>(i));
        }
    if (m_adaptive) return continueAdaptive();
    finish(CampaignEnd::Outcome::Done);
}

void Runner::continueAdaptive() {
    AdaptiveSchedule::Step step = m_adaptive->next(m_runs, m_states);
    for (const CaseStop& s : step.stops)
        say(s.caseId + ": no more repeats: " + s.reason);
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
    if (m_containers.up())
        return m_containers.remove([this, outcome, reason] { finish(outcome, reason); });
    enter(Phase::Done);
    emit finished(CampaignEnd{outcome, std::move(reason)});
}

void Runner::launch(int index) {
    m_current = index;
    m_forcedState.reset();
    m_forcedReason.clear();
    m_firstFailure = -1;
    m_failureReason.clear();
    const PlannedRun& run = m_runs[static_cast<std::size_t>(index)];
    RunStart start = RunStart::make(m_builder, run, m_previous);
    m_tag = start.tag;
    RunRecorder::open(m_journal, run, m_tag, start.argvs, start.hosts,
                      m_states[static_cast<std::size_t>(index)], this,
                      [this, index, start](RunRecorder::Opened o) mutable {
                          if (!o.log && !o.logFailure.empty()) {
                              // The run failed (its end record written, or not: then the
                              // campaign stops below); it is said either way.
                              RunEnd end;
                              end.reason = o.logFailure;
                              m_states[static_cast<std::size_t>(index)] = RunState::Failed;
                              emit runFinished(index, end);
                          }
                          if (!o.journalError.empty())
                              return finish(CampaignEnd::Outcome::Failed,
                                            o.journalError + "; stopping: a run without a "
                                                             "journal record could be lost");
                          if (!o.log) { // its end record (failed) is written already
                              QTimer::singleShot(0, this, &Runner::startNext);
                              return;
                          }
                          opened(index, std::move(start), std::move(o.log));
                      });
}

void Runner::opened(int index, RunStart start, std::unique_ptr<QFile> log) {
    const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
    m_output = std::make_unique<RunOutput>(std::move(log), planned,
                                           MeasureOptions{m_campaign.warmup, m_campaign.iterations},
                                           m_builder.failureMarker());
    m_runClock.start();
    if (m_cancelRequested) { // while the records were being written
        enter(Phase::Settling);
        RunEnd end;
        end.state = RunState::Cancelled;
        end.reason = "cancelled before it started";
        return record(end);
    }
    m_states[static_cast<std::size_t>(index)] = RunState::Running;
    if (underSlurm()) return startSlurmJob(index, std::move(start));
    startProcesses(index, start);
}

void Runner::startProcesses(int index, const RunStart& start) {
    const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
    m_processes = new RunProcesses(m_builder, planned, m_tag, start.launches, this);
    connect(m_processes, &RunProcesses::output, this, &Runner::onOutput);
    connect(m_processes, &RunProcesses::memberExited, this, &Runner::onMemberExited);
    connect(m_processes, &RunProcesses::finished, this, &Runner::onExited);
    connect(m_processes, &RunProcesses::message, this, &Runner::message);
    enter(Phase::Running);
    emit runStarted(index, QString::fromStdString(planned.id), start.command);
    m_watch.start(planned, m_tag, [this] { return m_output ? m_output->iterationsDone() : -1; });
    m_processes->start();
}

void Runner::onOutput(int member, const QByteArray& chunk) {
    const RunOutput::Read read = m_output->add(chunk);
    if (!read.logError.empty()) {
        // The disk is full, a quota or file size limit is reached: the run cannot be measured,
        // and the runs after it could not be either.
        m_campaignFailure = "cannot write the log " +
                            m_runs[static_cast<std::size_t>(m_current)].logPath + ": " +
                            read.logError;
        terminate(RunState::Failed, m_campaignFailure);
    }
    if (read.firstSample) m_timers.firstSample();
    emit output(m_current, chunk);
    if (read.unreachable) terminate(RunState::Failed, *read.unreachable);
    if (read.advanced) emitProgress();
    // A per-node launcher's failure line: that node's workers failed.
    if (!read.failureLine.empty() && m_processes && m_processes->size() >= 2 &&
        m_phase == Phase::Running)
        nodeFailed(member, read.failureLine);
}

void Runner::onMemberExited(int member) {
    // One node's launcher failed while others run: they would wait on it until the collective's
    // own timeout (gloo's is 30 min), so they are stopped now; the run fails naming that node.
    const LaunchExit& e = m_processes->exit(member);
    const bool failed = !e.startError.empty() || !e.exitCode || *e.exitCode != 0;
    if (!failed || m_phase != Phase::Running || m_processes->running() == 0) return;
    if (m_firstFailure < 0) m_firstFailure = member;
    terminate(std::nullopt, "the launcher on " + m_processes->hostOf(member) +
                                (e.exitCode ? " exited with code " + std::to_string(*e.exitCode)
                                            : std::string(" did not run to its end")) +
                                "; stopping the other nodes");
}

void Runner::nodeFailed(int member, const std::string& what) {
    if (m_firstFailure >= 0) return;
    m_firstFailure = member;
    m_failureReason = "workers failed on " + m_processes->hostOf(member) + ": " + what;
    terminate(std::nullopt, m_failureReason + "; stopping every node");
}

void Runner::emitProgress() {
    RunProgress p;
    p.index = m_current;
    p.total = static_cast<int>(m_runs.size());
    p.id = m_runs[static_cast<std::size_t>(m_current)].id;
    p.iteration = m_output->iterationsDone();
    p.iterations = m_campaign.iterations;
    p.speed = m_output->lastSpeed();
    int remaining = 0;
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (!isFinal(m_states[i]) && static_cast<int>(i) != m_current) ++remaining;
    int remainingMax = remaining;
    if (m_adaptive) {
        const RunRange range = m_adaptive->remaining(m_runs, m_states, m_current);
        remaining = range.least;
        remainingMax = range.most;
    }
    estimateEtas(p, m_output->sinceFirstSample(),
                 static_cast<double>(m_runClock.elapsed()) / 1000.0, remaining, remainingMax,
                 m_finishedCount > 0 ? m_finishedSeconds / m_finishedCount : -1.0,
                 m_campaign.cooldownSeconds);
    if (m_slurm) m_slurm->describe(p);
    emit progress(p);
}

RunOutcome Runner::outcome() const {
    RunOutcome o;
    o.forced = m_forcedState;
    o.forcedReason = m_forcedReason;
    o.firstFailure = m_firstFailure;
    o.failureReason = m_failureReason;
    o.tail = m_output->tail();
    o.result = m_output->result();
    return o;
}

void Runner::onExited() {
    if (m_phase != Phase::Running && m_phase != Phase::Terminating) return;
    enter(Phase::Settling);
    RunOutcome o = outcome();
    o.launches = m_processes->launches();
    o.exits = m_processes->exits();
    settle(judgeRun(m_builder, m_runs[static_cast<std::size_t>(m_current)], o));
}

void Runner::settle(RunEnd end) {
    m_processes->sweepAfter(
        [this, end](std::vector<int> leftover, std::vector<std::string> unchecked) mutable {
            for (const auto& host : unchecked)
                end.reason += (end.reason.empty() ? "" : "; ") +
                              ("could not look for leftover processes on " + host);
            end.leftover = leftover;
            if (!leftover.empty())
                end.reason += (end.reason.empty() ? "" : "; ") + std::to_string(leftover.size()) +
                              " tagged process(es) survived KILL";
            m_watch.finish(m_runs[static_cast<std::size_t>(m_current)], std::move(end),
                           [this](RunEnd watched) { record(std::move(watched)); });
        });
}

void Runner::record(RunEnd end) {
    RunRecorder::close(
        m_journal, m_runs[static_cast<std::size_t>(m_current)], m_tag, m_output->takeLog(),
        std::move(end), this,
        [this](RunRecorder::Closed closed) { recorded(closed.end, closed.journalError); });
}

void Runner::recorded(RunEnd end, const std::string& journalError) {
    if (m_processes) std::exchange(m_processes, nullptr)->deleteLater();
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

void Runner::cancel() {
    if (std::exchange(m_cancelRequested, true)) return;
    m_probing.cancel(); // the probes end, then startNext stops
    if (m_phase == Phase::Running) {
        terminate(RunState::Cancelled, "cancelled");
    } else if (m_phase == Phase::Cooldown) {
        QTimer::singleShot(0, this, &Runner::startNext);
    }
    // Idle: start() ends at once, cancelled. Setup (address resolution, staging) and Settling go
    // on to a check of the flag, and startNext stops. Terminating: being stopped already.
}

void Runner::terminate(std::optional<RunState> why, const std::string& reason) {
    if (m_phase != Phase::Running) return;
    enter(Phase::Terminating);
    m_forcedState = why;
    m_forcedReason = reason;
    say(m_runs[static_cast<std::size_t>(m_current)].id + ": " + reason +
        (why ? "; stopping it (TERM)" : " (TERM)"));
    if (m_slurm) return m_slurm->cancel(); // Slurm signals the tasks; never the srun client
    m_processes->signal(SIGTERM);
}

void Runner::escalate() {
    if (m_phase != Phase::Terminating) return;
    say(m_runs[static_cast<std::size_t>(m_current)].id + ": still running after " +
        std::to_string(m_campaign.graceSeconds) + " s grace; KILL");
    if (m_slurm) return m_slurm->cancel(true);
    m_processes->signal(SIGKILL);
    m_processes->kill();
}

void Runner::abandon() {
    m_probing.abandon();
    m_containers.abandon();
    // Setup's commands (address resolution, staging) are KILLed, group and all, by their
    // CommandBatch going away with this Runner.
    if (m_phase != Phase::Running && m_phase != Phase::Terminating && m_phase != Phase::Settling)
        return;
    m_cancelRequested = true;
    if (m_slurm) m_slurm->abandon();
    if (m_processes) m_processes->abandon();
    // The run's end record, written now: nothing else writes the journal while a run runs, and
    // Settling has its close, end record included, under way.
    if (m_phase == Phase::Settling) return;
    RunRecorder::recordQuit(m_journal, m_runs[static_cast<std::size_t>(m_current)], m_tag,
                            m_output->takeLog(), m_forcedState, m_forcedReason);
    m_states[static_cast<std::size_t>(m_current)] = m_forcedState.value_or(RunState::Cancelled);
}

void Runner::startSlurmJob(int index, RunStart start) {
    const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
    m_slurm = new SlurmRun(std::move(*start.submission), m_journal, planned.id, m_tag, this);
    connect(m_slurm, &SlurmRun::output, this, [this](const QByteArray& lines) {
        if (m_phase == Phase::Running || m_phase == Phase::Terminating) onOutput(0, lines);
    });
    // Queued is not started: the run's timers wait for RUNNING.
    connect(m_slurm, &SlurmRun::startedRunning, this, [this] {
        if (m_phase != Phase::Running) return;
        m_runClock.start();
        m_timers.jobRunning();
    });
    connect(m_slurm, &SlurmRun::queueChanged, this, &Runner::emitProgress);
    connect(m_slurm, &SlurmRun::ended, this, &Runner::onSlurmEnded);
    connect(m_slurm, &SlurmRun::message, this, &Runner::message);
    enter(Phase::Running);
    emit runStarted(index, QString::fromStdString(planned.id), start.command);
    m_slurm->start(start.reattachJob);
}

void Runner::onSlurmEnded(const SlurmJobEnd& job) {
    if (m_phase != Phase::Running && m_phase != Phase::Terminating) return;
    enter(Phase::Settling);
    RunOutcome o = outcome();
    o.exits.push_back(LaunchExit{job.exitCode, {}});
    const RunEnd judged = judgeRun(m_builder, m_runs[static_cast<std::size_t>(m_current)], o);
    const RunEnd end =
        slurmRunEnd(judged, m_slurm->jobId(), job, m_forcedState.has_value(), m_output->tail());
    m_slurm->disconnect(this);
    std::exchange(m_slurm, nullptr)->deleteLater();
    // Nothing to sweep here: the job left squeue, so none of its processes runs.
    record(end);
}

} // namespace sv::launcher
