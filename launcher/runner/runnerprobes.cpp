// How a Runner probes a case before its first repeat (issue 28): the probes block (their ranks
// run for seconds to minutes), so they run on a worker thread while the event loop goes on; a
// cancel stops them; a failed probe is said in the journal and the output and the campaign goes
// on without it.

#include "launcher/runner/runner.h"

#include "async/backgroundtask.h"
#include "launcher/probe/caseprobes.h"

#include <QRandomGenerator>
#include <filesystem>

namespace sv::launcher {
namespace {

std::string probeTag() {
    const quint64 r = QRandomGenerator::global()->generate64();
    char buf[40];
    std::snprintf(buf, sizeof buf, "svprobe%016llx", static_cast<unsigned long long>(r));
    return buf;
}

std::string probeState(const CaseProbeOutcome& o) {
    if (o.alreadyRecorded) return "recorded";
    if (o.cancelled) return "cancelled";
    return o.errors.empty() && o.fileError.empty() ? "ok" : "failed";
}

} // namespace

bool Runner::wantsProbes(int index) const {
    if (!m_campaign.probes) return false;
    const PlannedRun& run = m_runs[static_cast<std::size_t>(index)];
    return run.key.topology.ranks() > 1 && !m_probedCases.count(run.caseId);
}

void Runner::runProbes(int index) {
    const PlannedRun& run = m_runs[static_cast<std::size_t>(index)];
    m_probedCases.insert(run.caseId);
    // Not yet where the ranks run under Slurm or in a container: said, and the case goes on.
    if (underSlurm() || m_campaign.container.runtime != "none") {
        emit message(QString::fromStdString(
            run.caseId + ": probes not run: " +
            (underSlurm() ? "under Slurm" : "in a container") +
            " they are not supported yet (docs/scaling-loss.md)"));
        return startNext();
    }
    const std::string tag = probeTag();
    CaseProbePlan plan = planCaseProbes(
        m_builder, run, std::filesystem::absolute(m_campaign.outputDir).string(), tag);
    emit message(QString::fromStdString(run.caseId + ": probing before its first repeat (" +
                                        std::to_string(plan.nodes.size()) +
                                        " node(s) alone, then the all-reduce across " +
                                        std::to_string(run.key.topology.ranks()) + " ranks)"));
    m_probeCancel = std::make_shared<std::atomic<bool>>(m_cancelRequested);
    async::runInBackground(
        this,
        [plan = std::move(plan), cancel = m_probeCancel, journal = m_journal]() mutable {
            CaseProbeOutcome o = runCaseProbes(plan, cancel.get());
            std::string journalError;
            journal.appendProbes(plan.caseId, probeState(o), o.summary(plan.caseId), o.errors,
                                 &journalError);
            if (!journalError.empty()) o.fileError += (o.fileError.empty() ? "" : "; ") + journalError;
            return o;
        },
        [this, tag, index](CaseProbeOutcome o) {
            m_probeCancel.reset();
            const PlannedRun& planned = m_runs[static_cast<std::size_t>(index)];
            emit message(QString::fromStdString(o.summary(planned.caseId)));
            if (!o.errors.empty() || !o.fileError.empty())
                emit message(QString::fromStdString(
                    planned.caseId + ": the campaign goes on; this case's scaling loss will say "
                                     "\"not measured\" where a probe failed"));
            if (!o.cancelled && o.errors.empty()) return startNext();
            // A rank over SSH may outlive its killed ssh client: its tag is swept everywhere.
            RunSweep(m_builder, m_builder.sweepHostCount(planned), tag,
                     static_cast<int>(std::chrono::milliseconds(m_campaign.connectTimeout() +
                                                                std::chrono::seconds(20))
                                          .count()))
                .killAndCheck(this, [this](std::vector<int>, std::vector<std::string>) {
                    startNext();
                });
        });
}

} // namespace sv::launcher
