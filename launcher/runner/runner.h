#pragma once
// Runs a campaign's runs one after another: log written as output arrives (each write checked,
// made durable before the journal says ok), live progress from core's parser, start and
// wall-clock timeouts, cancel that owns every tagged process on every host, and the journal
// that makes resume possible. A state machine: each change of phase goes through enter(). Its
// jobs are parts it owns, one class each: the campaign's containers, a case's probes, a run's
// processes or its Slurm job, its output, its records.

#include "launcher/campaign/adaptiveschedule.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaignend.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/runner/campaigncontainers.h"
#include "launcher/runner/caseprobing.h"
#include "launcher/runner/phasetimers.h"
#include "launcher/runner/runstart.h"
#include "launcher/runner/runwatch.h"

#include <QElapsedTimer>
#include <QFile>
#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace sv::launcher {

class RunOutput;
class RunProcesses;
class SlurmRun;
struct PreparedCampaign;
struct RunOutcome;
struct SlurmJobEnd;

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
    // News, not a problem (probing starts, what the probes found).
    void note(const QString& text);
    void finished(const sv::launcher::CampaignEnd& end);

  private:
    void say(const std::string& text) { emit message(QString::fromStdString(text)); }
    void adopt(PreparedCampaign prepared);
    // After setup's checks: the containers started (when the campaign starts its own), then
    // interrupted runs' leftovers swept and the workload script on every host.
    void stage();
    // The one place the phase changes; checks the change is one the machine makes.
    void enter(Phase next);
    void startNext();
    // Adaptive repeats, once every planned run has ended: journals the cases that stopped, then
    // launches the next top-up or ends the campaign.
    void continueAdaptive();
    void launch(int index);
    // The start record is written and the log created (or not: then the run has failed).
    void opened(int index, RunStart start, std::unique_ptr<QFile> log);
    void startProcesses(int index, const RunStart& start);
    void startSlurmJob(int index, RunStart start);
    void onOutput(int member, const QByteArray& chunk);
    void onMemberExited(int member);
    // Node `member` failed while others may still run: they are stopped, the run fails.
    void nodeFailed(int member, const std::string& what);
    void onExited();
    // How the run went, for its verdict: forced state, exits, output's tail and figures.
    RunOutcome outcome() const;
    // TERM now, KILL after the grace period; why: the state the run ends in whatever the exit
    // (none: judged by how its processes exited).
    void terminate(std::optional<RunState> why, const std::string& reason);
    void escalate();
    void settle(RunEnd end);
    void record(RunEnd end);
    void recorded(RunEnd end, const std::string& journalError);
    void finish(CampaignEnd::Outcome outcome, std::string reason = {});
    void emitProgress();
    // Slurm: the run is one job; its output file is the run's output.
    bool underSlurm() const { return m_campaign.scheduler.enabled(); }
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
    PhaseTimers m_timers;
    CampaignContainers m_containers;
    CaseProbing m_probing;
    RunWatch m_watch;

    // The current run.
    int m_current = -1;
    std::string m_tag;
    std::unique_ptr<RunOutput> m_output;
    RunProcesses* m_processes = nullptr; // its processes here, until its end is recorded
    SlurmRun* m_slurm = nullptr;         // or its Slurm job
    int m_firstFailure = -1;
    std::string m_failureReason;
    std::optional<RunState> m_forcedState;
    std::string m_forcedReason;
    QElapsedTimer m_runClock;
    double m_finishedSeconds = 0; // of runs that ran in this session
    int m_finishedCount = 0;
};

} // namespace sv::launcher
