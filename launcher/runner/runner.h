#pragma once
// Runs a campaign's runs one after another: log written as output arrives (each write checked,
// made durable before the journal says ok), live progress from core's parser, start and
// wall-clock timeouts, cancel that owns every tagged process on every host, and the journal
// that makes resume possible. A state machine: each change of phase goes through enter().

#include "launcher/campaign/adaptiveschedule.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaignend.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/launchgroup.h"
#include "launcher/monitor/runmonitor.h"
#include "launcher/runner/runsweep.h"
#include "launcher/slurm/slurmjob.h"

#include "core/parse/logparser.h"
#include "core/measure/runanalyzer.h"

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <set>

namespace sv::launcher {

class Runner : public QObject {
    Q_OBJECT
  public:
    enum class Phase {
        Idle,        // prepared, not started
        Setup,       // staging the campaign, or writing a run's start record and creating its log
        Running,     // the run's processes are up
        Terminating, // TERM sent (timeout, cancel, a failed node, a failed log write): grace
        Settling,    // its processes ended: sweep, log synced, end record written
        Cooldown,    // between two runs
        Done,        // finished() emitted
    };
    Q_ENUM(Phase)

    Runner(Campaign campaign, WorkloadProfile profile, QObject* parent = nullptr);
    ~Runner() override;

    // Creates the output directory, writes the workload script and campaign.json, reads the
    // journal. A directory that already holds a journal needs resume = true.
    bool prepare(bool resume, std::string* error);
    // The same in two steps, for a caller whose thread must not wait on a disk: what refuses the
    // campaign at once (no such launcher, a journal there without resume), then the writes and
    // the journal's reading on a worker thread; done(error, empty when prepared) in the event
    // loop.
    std::optional<std::string> refusal(bool resume) const;
    void prepareInBackground(bool resume, std::function<void(std::string error)> done);
    void start();
    // TERM, grace, KILL, sweep; the current run ends cancelled and no further run starts.
    void cancel();
    // The owner is going away mid-campaign (the app quits): KILL the run's process groups here
    // now, and start a KILL sweep of its tag on this machine and every host, each ended by a
    // timeout, that outlive this process. Nothing waits; no signal follows.
    void abandon();

    Phase phase() const { return m_phase; }
    const std::vector<PlannedRun>& runs() const { return m_runs; }
    RunState state(int index) const { return m_states.at(static_cast<std::size_t>(index)); }
    const CommandBuilder& commands() const { return m_builder; }
    const std::string& journalPath() const { return m_journal.path(); }
    // What reading the journal skipped (mistyped or future records), in words.
    const std::vector<std::string>& journalWarnings() const { return m_journalWarnings; }

  signals:
    void phaseChanged(sv::launcher::Runner::Phase phase);
    // command: what this machine starts, one line per process (one per node for torchrun).
    void runStarted(int index, const QString& id, const QString& command);
    // Adaptive repeats added a run to the plan (runs() has grown to index + 1); it starts next.
    void runPlanned(int index, const QString& id);
    // The run's output as it arrives (whole lines when several processes write), after it is
    // in the log.
    void output(int index, const QByteArray& bytes);
    void progress(const sv::launcher::RunProgress& progress);
    void runFinished(int index, const sv::launcher::RunEnd& end);
    void message(const QString& text);
    void finished(const sv::launcher::CampaignEnd& end);

  private:
    // After setup's checks: interrupted runs' leftovers swept, the workload script on every host.
    void stage();
    struct Prepared {
        std::string error; // empty: prepared
        std::map<std::string, JournalEntry> previous;
        std::map<std::string, CaseStop> caseStops;
        std::vector<std::string> warnings;
    };
    // The blocking part of preparing, on copies (so safe on a worker thread).
    static Prepared prepareDirectory(Campaign campaign, WorkloadProfile profile,
                                     std::string scriptPath, Journal journal,
                                     std::vector<PlannedRun> runs, bool resume);
    void adopt(Prepared prepared);
    // Containers the campaign starts itself: started before staging, removed (unless kept)
    // before finished() is emitted.
    void startContainers();
    void removeContainers(std::function<void()> then);
    // The one place the phase changes; checks the change is one the machine makes.
    void enter(Phase next);
    void startNext();
    // Issue 28 (runnerprobes.cpp): whether run index's case is probed before it starts (the
    // campaign asks, the case has more than one rank, not yet probed in this session), and the
    // probes, on a worker thread; startNext again when they are done, whatever they found.
    bool wantsProbes(int index) const;
    void runProbes(int index);
    // Adaptive repeats, once every planned run has ended: journals the cases that stopped, then
    // launches the next top-up or ends the campaign.
    void continueAdaptive();
    void launch(int index);
    void onOutput(int member, const QByteArray& chunk);
    // A per-node launcher's failure line in a chunk: that node's workers failed.
    void watchForFailure(int member, const QByteArray& chunk);
    void onMemberExited(int member);
    // Node `member` failed while others may still run: they are stopped, the run fails.
    void nodeFailed(int member, const std::string& what);
    void onExited();
    // TERM now, KILL after the grace period; why: the state the run ends in whatever the exit
    // (none: judged by how its processes exited).
    void terminate(std::optional<RunState> why, const std::string& reason);
    void escalate();
    void signalLocal(int sig);
    void settle(RunEnd end);
    // The monitor of a run (this machine, or each remote host of the run): started with the
    // run's processes, finished before its end record (which carries its summary and verdict).
    void startMonitor(const PlannedRun& run);
    void finishMonitor(RunEnd end);
    void record(RunEnd end);
    void recorded(RunEnd end, const std::string& journalError);
    void finish(CampaignEnd::Outcome outcome, std::string reason = {});
    RunSweep sweep() const; // of the current run
    void emitProgress();
    // Slurm (runnerslurm.cpp): the run is one job; its output file is the run's output.
    bool underSlurm() const { return m_campaign.scheduler.enabled(); }
    void startSlurmJob(int index, const QString& command);
    void onSlurmQueue();
    void onSlurmEnded(const SlurmJobEnd& end);

    Campaign m_campaign;
    WorkloadProfile m_profile;
    CommandBuilder m_builder;
    Journal m_journal;
    std::vector<PlannedRun> m_runs;
    std::vector<RunState> m_states;
    std::map<std::string, JournalEntry> m_previous; // what an earlier session left
    std::unique_ptr<AdaptiveSchedule> m_adaptive;   // set when the repeats are adaptive
    std::vector<std::string> m_journalWarnings;
    Phase m_phase = Phase::Idle;
    bool m_cancelRequested = false;
    std::string m_campaignFailure; // set: no further run starts, the campaign ends failed
    bool m_containersUp = false;   // started (or being started) by this session: to remove
    std::set<std::string> m_probedCases;            // case ids whose probes have had their turn
    std::shared_ptr<std::atomic<bool>> m_probeCancel; // set: the running probes stop
    std::string m_probeSlurmJob; // the running probes' Slurm allocation's job name, if any

    // The current run.
    int m_current = -1;
    std::string m_tag;
    std::vector<Launch> m_launches;
    LaunchGroup* m_group = nullptr;
    int m_firstFailure = -1;
    std::string m_failureReason;
    std::string m_failureMarker;
    std::unique_ptr<QFile> m_log;
    std::string m_logError; // the first failed write to the log
    std::unique_ptr<LogParser> m_parser;
    std::unique_ptr<RunAnalyzer> m_analyzer;
    RunMonitor* m_monitor = nullptr; // watches the run's machines while it runs
    std::string m_tail; // the output's last bytes: the reason a run failed is usually there
    std::optional<RunState> m_forcedState;
    std::string m_forcedReason;
    QTimer m_startTimer, m_wallTimer, m_graceTimer, m_cooldownTimer;
    QElapsedTimer m_runClock, m_sinceFirstSample;
    std::int64_t m_lastIteration = -1;
    SlurmJob* m_slurm = nullptr;
    std::optional<SlurmSubmission> m_submission;
    bool m_jobStarted = false;    // the job has been seen RUNNING: the run's timers run
    std::string m_reattachJob;    // resume: the job an earlier session submitted for this run
    double m_finishedSeconds = 0; // of runs that ran in this session
    int m_finishedCount = 0;
};

} // namespace sv::launcher
