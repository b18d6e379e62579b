#pragma once
// --find-slow-node from a front end's side (issue 28): the search planned (the widest multi-node
// case, its healthy pace and where that comes from), run on a worker thread (under Slurm in an
// allocation held for it), and its verdict recorded in probes.json and the journal. A campaign
// session runs it after the runs when asked; the command line's find-slow-node runs it alone.
// Nothing waits: planned() and finished() arrive in the event loop.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/probe/slownodecase.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace sv::launcher {

// What the user may set of the search: the healthy pace where the campaign has none, and how
// much slower than it is slow.
struct SlowNodeOptions {
    std::optional<double> healthyPace;  // samples/s per device
    std::optional<double> thresholdPct; // below 100
};

// What a search came to: its plan (plan.error: nothing to search), the verdict with its
// evidence, and what could not be written of it.
struct SlowNodeReport {
    SlowNodeCase plan;
    SlowNodeVerdict verdict;
    std::string recordError; // probes.json or the journal could not be written
    bool failed() const {
        return !plan.error.empty() || verdict.kind == SlowNodeVerdict::Kind::Failed;
    }
};

class SlowNodeSession : public QObject {
    Q_OBJECT
  public:
    explicit SlowNodeSession(QObject* parent = nullptr);
    ~SlowNodeSession() override;

    // Plans the search of the campaign's directory and starts it. With nothing to search (no
    // multi-node case on two hosts, no healthy pace) finished() follows the plan, its error
    // set; otherwise planned() first, then finished() once the verdict is recorded.
    void start(const Campaign& campaign, const WorkloadProfile& profile, SlowNodeOptions options);
    // The probes stop; the verdict then says "cancelled".
    void cancel();
    bool isRunning() const { return m_cancel != nullptr; }

  signals:
    void planned(const sv::launcher::SlowNodeCase& plan);
    void finished(const sv::launcher::SlowNodeReport& report);

  private:
    void search(const Campaign& campaign, SlowNodeReport report);
    void done(SlowNodeReport report);

    std::shared_ptr<std::atomic<bool>> m_cancel; // set while the search runs
};

} // namespace sv::launcher
