// How a Runner probes a case before its first repeat (issue 28): the probes block (their ranks
// run for seconds to minutes), so they run on a worker thread while the event loop goes on; a
// cancel stops them; a failed probe is said in the journal and the output and the campaign goes
// on without it.

#include "launcher/runner/runner.h"

#include "async/backgroundtask.h"
#include "launcher/probe/caseprobes.h"

#include <QRandomGenerator>
#include <filesystem>
#include <optional>

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
    const std::string tag = probeTag();
    CaseProbePlan plan = planCaseProbes(
        m_builder, run, std::filesystem::absolute(m_campaign.outputDir).string(), tag);
    // Where the ranks run: in the campaign's containers (up since stage()), or under Slurm as
    // job steps of one allocation that the worker asks for (salloc blocks) and gives back.
    const std::string where =
        underSlurm() ? " in one Slurm allocation, each rank a job step"
        : m_campaign.container.runtime == "docker" ? " inside the campaign's container(s)"
                                                   : "";
    emit message(QString::fromStdString(run.caseId + ": probing before its first repeat (" +
                                        std::to_string(run.key.topology.nodes) +
                                        " node(s) alone, then the all-reduce across " +
                                        std::to_string(run.key.topology.ranks()) + " ranks" +
                                        where + ")"));
    m_probeCancel = std::make_shared<std::atomic<bool>>(m_cancelRequested);
    // Named as allocateForProbes names it: abandon() cancels it by name, whatever the worker does.
    if (underSlurm()) m_probeSlurmJob = "scaleview-" + tag;
    async::runInBackground(
        this,
        [plan = std::move(plan), cancel = m_probeCancel, journal = m_journal,
         slurm = underSlurm() ? std::optional<Campaign>(m_campaign) : std::nullopt,
         topology = run.key.topology, tag]() mutable {
            CaseProbeOutcome o;
            if (slurm && probesRecorded(plan)) {
                o.alreadyRecorded = true; // resume: no allocation asked for
            } else if (slurm) {
                bool cancelled = false;
                const std::string error = withSlurmProbeNodes(
                    *slurm, topology.nodes, topology.gpusPerNode, tag, plan.timeoutMs,
                    cancel.get(), &cancelled, [&](std::vector<ProbeNode> nodes) {
                        plan.nodes = std::move(nodes);
                        o = runCaseProbes(plan, cancel.get());
                    });
                o.cancelled = o.cancelled || cancelled;
                if (!error.empty()) o.errors.push_back(error + " (for the probes)");
            } else {
                o = runCaseProbes(plan, cancel.get());
            }
            std::string journalError;
            journal.appendProbes(plan.caseId, probeState(o), o.summary(plan.caseId), o.errors,
                                 &journalError);
            if (!journalError.empty()) o.fileError += (o.fileError.empty() ? "" : "; ") + journalError;
            return o;
        },
        [this, tag, index](CaseProbeOutcome o) {
            m_probeCancel.reset();
            m_probeSlurmJob.clear();
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
