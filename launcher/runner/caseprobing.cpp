#include "launcher/runner/caseprobing.h"

#include "async/backgroundtask.h"
#include "launcher/probe/caseprobes.h"
#include "core/model/wording.h"
#include "launcher/runner/runsweep.h"

#include <QProcess>
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

// On the worker: the probes (under Slurm inside an allocation held for them and given back at
// once), then their record in the journal.
CaseProbeOutcome probeCase(CaseProbePlan plan, const std::atomic<bool>* cancel, Journal journal,
                           const std::optional<Campaign>& slurm, const Topology& topology,
                           const std::string& tag) {
    CaseProbeOutcome o;
    if (slurm && probesRecorded(plan)) {
        o.alreadyRecorded = true; // resume: no allocation asked for
    } else if (slurm) {
        bool cancelled = false;
        const std::string error =
            withSlurmProbeNodes(*slurm, topology.nodes, topology.gpusPerNode, tag, plan.timeoutMs,
                                cancel, &cancelled, [&](std::vector<ProbeNode> nodes) {
                                    plan.nodes = std::move(nodes);
                                    o = runCaseProbes(plan, cancel);
                                });
        o.cancelled = o.cancelled || cancelled;
        if (!error.empty()) o.errors.push_back(error + " (for the probes)");
    } else {
        o = runCaseProbes(plan, cancel);
    }
    std::string journalError;
    journal.appendProbes(plan.caseId, probeState(o), o.summary(plan.caseId), o.errors,
                         &journalError);
    if (!journalError.empty()) o.fileError += (o.fileError.empty() ? "" : "; ") + journalError;
    return o;
}

} // namespace

CaseProbing::CaseProbing(const CommandBuilder& builder, const Journal& journal, QObject* context,
                         Said said, Said told)
    : m_builder(builder), m_journal(journal), m_context(context), m_said(std::move(said)),
      m_told(std::move(told)) {}

bool CaseProbing::wants(const PlannedRun& run) const {
    return m_builder.campaign().probes && run.key.topology.ranks() > 1 &&
           !m_probed.count(run.caseId);
}

void CaseProbing::run(const PlannedRun& run, std::function<void()> done) {
    const Campaign& campaign = m_builder.campaign();
    m_probed.insert(run.caseId);
    const std::string tag = probeTag();
    CaseProbePlan plan =
        planCaseProbes(m_builder, run, std::filesystem::absolute(campaign.outputDir).string(), tag);
    // Where the ranks run: in the campaign's containers (up since staging), or under Slurm as
    // job steps of one allocation that the worker asks for (salloc blocks) and gives back.
    const std::string where = underSlurm() ? " in one Slurm allocation, each rank a job step"
                              : campaign.container.runtime == "docker"
                                  ? " inside the campaign's container(s)"
                                  : "";
    m_told(run.caseId + ": probing before its first repeat (" +
           countOf(run.key.topology.nodes, "node") + " alone, then the all-reduce across " +
           std::to_string(run.key.topology.ranks()) + " ranks" + where + ")");
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    // Named as allocateForProbes names it: abandon() cancels it by name, whatever the worker does.
    if (underSlurm()) m_slurmJob = "scaleview-" + tag;
    async::runInBackground(
        m_context,
        [plan = std::move(plan), cancel = m_cancel, journal = m_journal,
         slurm = underSlurm() ? std::optional<Campaign>(campaign) : std::nullopt,
         topology = run.key.topology, tag]() mutable {
            return probeCase(std::move(plan), cancel.get(), journal, slurm, topology, tag);
        },
        [this, tag, run, done = std::move(done)](CaseProbeOutcome o) {
            m_cancel.reset();
            m_slurmJob.clear();
            const bool failed = !o.errors.empty() || !o.fileError.empty();
            (failed ? m_said : m_told)(o.summary(run.caseId));
            if (failed)
                m_said(run.caseId + ": the campaign goes on; this case's scaling loss will say "
                                    "\"not measured\" where a probe failed");
            if (!o.cancelled && o.errors.empty()) return done();
            // A rank over SSH may outlive its killed ssh client: its tag is swept everywhere.
            RunSweep(
                m_builder, m_builder.sweepHostCount(run), tag,
                static_cast<int>(std::chrono::milliseconds(m_builder.campaign().connectTimeout() +
                                                           std::chrono::seconds(20))
                                     .count()))
                .killAndCheck(m_context,
                              [done](std::vector<int>, std::vector<std::string>) { done(); });
        });
}

void CaseProbing::cancel() {
    if (m_cancel) m_cancel->store(true); // the probes end, then done()
}

void CaseProbing::abandon() {
    cancel(); // the probes' worker kills their ranks
    // The probes' Slurm allocation outlives this process unless cancelled: by its job name,
    // detached (the worker may not get to give it back before the process ends).
    if (!m_slurmJob.empty())
        QProcess::startDetached(QStringLiteral("timeout"),
                                {QStringLiteral("-s"), QStringLiteral("KILL"), QStringLiteral("30"),
                                 QStringLiteral("scancel"), QStringLiteral("--name"),
                                 QString::fromStdString(m_slurmJob)});
}

} // namespace sv::launcher
