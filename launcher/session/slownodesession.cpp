#include "launcher/session/slownodesession.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"

namespace sv::launcher {

SlowNodeSession::SlowNodeSession(QObject* parent) : QObject(parent) {}

SlowNodeSession::~SlowNodeSession() {
    // The worker's probes stop (their ranks killed) rather than outlive whoever asked.
    cancel();
}

void SlowNodeSession::start(const Campaign& campaign, const WorkloadProfile& profile,
                            SlowNodeOptions options) {
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // The plan reads the journal and probes.json, the probes block for minutes, and the
    // verdict's records are writes: all on a worker, the plan said in between.
    async::runInBackground(
        this,
        [campaign, profile, options] {
            SlowNodeReport report;
            const CommandBuilder builder(campaign, profile, workloadDirOf(campaign));
            report.plan = planSlowNodeSearch(
                builder, planRuns(campaign, profile), Journal(journalPathOf(campaign)),
                absoluteOutputDir(campaign.outputDir), options.healthyPace);
            if (options.thresholdPct) report.plan.search.thresholdPct = *options.thresholdPct;
            return report;
        },
        [this, campaign](SlowNodeReport report) {
            if (!report.plan.error.empty() || m_cancel->load()) return done(std::move(report));
            emit planned(report.plan);
            search(campaign, std::move(report));
        });
}

void SlowNodeSession::search(const Campaign& campaign, SlowNodeReport report) {
    async::runInBackground(
        this,
        [report, campaign, cancel = m_cancel]() mutable {
            report.verdict = searchSlowNode(report.plan, campaign, cancel.get());
            Journal journal(journalPathOf(campaign));
            report.recordError = recordSlowNodeVerdict(
                report.plan, report.verdict, absoluteOutputDir(campaign.outputDir), journal);
            return report;
        },
        [this](SlowNodeReport report) { done(std::move(report)); });
}

void SlowNodeSession::done(SlowNodeReport report) {
    m_cancel.reset();
    emit finished(report);
}

void SlowNodeSession::cancel() {
    if (m_cancel) m_cancel->store(true);
}

} // namespace sv::launcher
