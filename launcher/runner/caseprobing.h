#pragma once
// A case's scaling-loss probes before its first repeat (issue 28), from the Runner's side:
// whether a run's case wants them (the campaign asks, the case has more than one rank, it has
// not been probed in this session), the probes on a worker thread (their ranks run for seconds
// to minutes; under Slurm inside an allocation held for them), their record in the journal,
// and, when they failed or were cancelled, a sweep of their tag on every host. A failed probe
// is said, and the campaign goes on without it.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <string>

namespace sv::launcher {

class CaseProbing {
  public:
    using Said = std::function<void(const std::string& text)>;
    // context: whose event loop the answers arrive in (and whose going away drops them).
    // said: a problem (a probe failed); told: news (probing starts, what the probes found).
    CaseProbing(const CommandBuilder& builder, const Journal& journal, QObject* context, Said said,
                Said told);

    bool wants(const PlannedRun& run) const;
    // Probes run's case; done() once they have ended and, when they did not all succeed, their
    // tag has been swept, whatever they found.
    void run(const PlannedRun& run, std::function<void()> done);
    // The running probes stop (their worker kills their ranks).
    void cancel();
    // The app quits: the probes stop, and their Slurm allocation, which would outlive this
    // process, is cancelled by its job name (detached).
    void abandon();

  private:
    bool underSlurm() const { return m_builder.campaign().scheduler.enabled(); }

    const CommandBuilder& m_builder;
    const Journal& m_journal;
    QObject* m_context;
    Said m_said, m_told;
    std::set<std::string> m_probed;              // case ids whose probes have had their turn
    std::shared_ptr<std::atomic<bool>> m_cancel; // set: the running probes stop
    std::string m_slurmJob; // the running probes' Slurm allocation's job name, if any
};

} // namespace sv::launcher
