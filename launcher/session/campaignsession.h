#pragma once
// One campaign from a front end's side: the command line's run and resume and the Run tab
// start it here, and only present what it reports. In order: the campaign validated and its
// profile loaded (what refuses it is said at once, nothing started), its directory prepared and
// its journal read (on a worker thread), the machines' environment captured beside the logs,
// the runs (the Runner), the campaign handed to the front end's recording step when it belongs
// in the history, and, when asked, the slow-node search. Nothing waits: every step answers in
// the event loop.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaignend.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/session/slownodesession.h"

#include <QByteArray>
#include <QObject>
#include <QString>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

class Runner;

struct SessionOptions {
    bool resume = false; // the directory's journal says what is left to run
    std::string version; // the program's, written beside the environment
    // How long the environment capture may take before the campaign goes on without it.
    std::chrono::milliseconds environmentTimeout = std::chrono::seconds(60);
    // After the runs (unless cancelled), the slow-node search of the widest multi-node case.
    std::optional<SlowNodeOptions> slowNode;
    // The history is the front end's (the launcher links no database): the step that records a
    // campaign directory there. The session decides when (recordable()), and calls it once.
    std::function<void(const std::string& directory)> record;
};

// How a session ended.
struct SessionEnd {
    CampaignEnd campaign;  // the runs: done, cancelled, or failed and why
    bool prepared = false; // false: the directory could not be prepared (campaign.reason says
                           // why) or the session was cancelled before; no run ran
    int ok = 0;            // runs of the plan that ended ok
    int total = 0;
    bool recorded = false;                  // handed to the recording step
    std::optional<SlowNodeReport> slowNode; // when the search was asked for and had its turn
};

class CampaignSession : public QObject {
    Q_OBJECT
  public:
    enum class Stage { Created, Preparing, CapturingEnvironment, Running, SearchingSlowNode, Done };
    Q_ENUM(Stage)

    // What refuses the campaign at once, each reason in words (a field that is not valid, no
    // such profile, no such launcher, a journal there without resume): none, or nullptr.
    static std::unique_ptr<CampaignSession> create(Campaign campaign, SessionOptions options,
                                                   std::vector<std::string>* refusal,
                                                   QObject* parent = nullptr);
    // The rule of the history: a campaign that had every run's turn (not cancelled, not failed)
    // and left an ok run goes into it. A cancelled or failed one would stand for less than it
    // is; its resume records it.
    static bool recordable(const CampaignEnd& end, int ok);
    ~CampaignSession() override;

    // Prepares, captures, runs, records, searches; finished() at the end, once.
    void start();
    // Before the first run the session ends at once (from the event loop), cancelled; during
    // the runs the Runner stops the current one (TERM, grace, KILL) and no other starts; during
    // the search its probes stop. Nothing is recorded in the history after a cancel.
    void cancel();

    Stage stage() const { return m_stage; }
    bool isCancelling() const { return m_cancelled && m_stage != Stage::Done; }
    const Campaign& campaign() const { return m_campaign; }
    const WorkloadProfile& profile() const { return m_profile; }
    // The plan (adaptive repeats add to it as they go) and each run's state.
    const std::vector<PlannedRun>& runs() const;
    RunState state(int index) const;
    int okRuns() const;
    const std::string& journalPath() const;

  signals:
    // The directory is ready and the journal read: runs() is the plan with what is left.
    void prepared();
    void capturingEnvironment(std::chrono::milliseconds timeout);
    // files: written into OUT/environment; problems: a host that did not answer, in words.
    void environmentCaptured(int files, const std::vector<std::string>& problems);
    void runStarted(int index, const QString& id, const QString& command);
    void runPlanned(int index, const QString& id);
    void output(int index, const QByteArray& bytes);
    void progress(const sv::launcher::RunProgress& progress);
    void runFinished(int index, const sv::launcher::RunEnd& end);
    // What the user should know while it runs: a problem, a node left out, a disturbed run.
    void message(const QString& text);
    // News, not a problem: the probes starting and what they found.
    void note(const QString& text);
    // The runs have ended (before the recording and the search).
    void runsEnded(const sv::launcher::CampaignEnd& end, int ok, int total);
    void slowNodePlanned(const sv::launcher::SlowNodeCase& plan);
    void finished(const sv::launcher::SessionEnd& end);

  private:
    CampaignSession(Campaign campaign, WorkloadProfile profile, SessionOptions options,
                    QObject* parent);
    // The steps, each started by the one before.
    void prepare();
    void captureEnvironment();
    void run();
    void runsDone(const CampaignEnd& end);
    void searchSlowNode();
    void finish();
    void connectRunner();

    Campaign m_campaign;
    WorkloadProfile m_profile;
    SessionOptions m_options;
    Runner* m_runner; // owned (a child)
    SlowNodeSession* m_search = nullptr;
    Stage m_stage = Stage::Created;
    bool m_cancelled = false;
    SessionEnd m_end;
};

} // namespace sv::launcher
