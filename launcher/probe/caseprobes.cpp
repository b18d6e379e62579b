#include "launcher/probe/caseprobes.h"

#include "core/model/numerics.h"
#include "core/model/wording.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/slurm/slurmjobscript.h"
#include "launcher/slurm/srunexecutor.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace sv::launcher {
namespace {

std::string variable(const CommandBuilder& b, const std::string& name, const std::string& fallback) {
    if (auto it = b.campaign().variables.find(name); it != b.campaign().variables.end())
        return it->second;
    if (auto it = b.profile().variables.find(name); it != b.profile().variables.end())
        return it->second;
    return fallback;
}

int number(const std::string& text, int fallback) {
    try {
        return std::stoi(text);
    } catch (...) {
        return fallback;
    }
}

} // namespace

int probePort() {
    const int port = CommandBuilder::freeLocalPort();
    return port > 0 ? port : 29511;
}

void configureProbeSpecs(const CommandBuilder& b, const PlannedRun& run, SoloProbeSpec& solo,
                         AllReduceProbeSpec& allReduce) {
    solo.python = allReduce.python = variable(b, "python", "/usr/bin/python3");
    solo.device = allReduce.device = variable(b, "device", "cpu");
    solo.precision = allReduce.precision = run.key.precision;
    solo.batch = run.key.batchPerDevice;
    solo.imageSize = number(variable(b, "image_size", "64"), 64);
    solo.threadsPerRank = number(variable(b, "threads_per_rank", "1"), 1);
    // A few iterations: the first two left out as warmup, five timed.
    solo.warmup = 2;
    solo.iterations = 7;
    allReduce.warmup = 2;
    allReduce.iterations = 5;
    allReduce.bytes = gradientBytes(kResNet50Parameters, run.key.precision);
}

CaseProbePlan planCaseProbes(const CommandBuilder& b, const PlannedRun& run,
                             const std::string& directory, const std::string& tag) {
    CaseProbePlan plan;
    plan.caseId = run.caseId;
    plan.forCase = {run.key.topology.name(), run.key.model, run.key.precision,
                    run.key.batchPerDevice};
    plan.ranksPerNode = std::max(1, run.key.topology.gpusPerNode);
    const int nodes = std::max(1, b.hostCount(run));
    for (int h = 0; h < nodes; ++h) {
        ProbeNode n;
        n.name = b.campaign().hosts.empty() ? std::string("localhost") : b.hostName(h);
        // In the campaign's container when there is one: the probes run where the ranks do.
        n.executor = std::shared_ptr<const Executor>(b.rankExecutor(h));
        n.rendezvous = b.campaign().hosts.empty() ? std::string("127.0.0.1") : b.rendezvous(h);
        plan.nodes.push_back(std::move(n));
    }
    configureProbeSpecs(b, run, plan.solo, plan.allReduce);
    plan.solo.tag = plan.allReduce.tag = tag;
    plan.directory = directory;
    const int wall = b.campaign().wallTimeoutSeconds;
    plan.timeoutMs = std::min(wall, 900) * 1000;
    return plan;
}

std::vector<ProbeNode> slurmProbeNodes(const SlurmAllocation& a, const SlurmSettings& settings) {
    std::vector<ProbeNode> nodes;
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        ProbeNode n;
        n.name = a.nodes[i];
        n.executor = std::make_shared<SrunExecutor>(a.jobId, a.nodes[i], pyxisOptions(settings));
        n.rendezvous = i < a.addresses.size() ? a.addresses[i] : a.nodes[i];
        nodes.push_back(std::move(n));
    }
    return nodes;
}

std::vector<ProbeRank> probeRanks(const std::vector<ProbeNode>& nodes, int ranksPerNode) {
    std::vector<ProbeRank> ranks;
    for (const auto& n : nodes)
        for (int r = 0; r < ranksPerNode; ++r)
            ranks.push_back({n.executor.get(), r});
    return ranks;
}

std::string CaseProbeOutcome::summary(const std::string& caseId) const {
    if (alreadyRecorded) return caseId + ": probes already in probes.json; not run again";
    std::string s = caseId + ": probes" + (cancelled ? " cancelled" : "") + ":";
    // In the unit the Run tab's progress gives the runs themselves (the probes run the same
    // ResNet-50 workload): one unit for one thing, not "samples/s" beside "images/s".
    for (const auto& p : solo)
        s += " " + p.node + " alone at " + countOf(p.devices, "rank") + ", " +
             formatFixed(p.pacePerDevice, 2) + " images/s per rank;";
    if (allReduce)
        s += " all-reduce of " + formatFixed(allReduce->bytes / 1e6, 1) + " MB across " +
             countOf(allReduce->ranks, "rank") + " (" + allReduce->backend + ") " +
             formatFixed(numpyMedian(allReduce->seconds) * 1000, 1) + " ms;";
    for (const auto& e : errors)
        s += " failed: " + e + ";";
    if (!fileError.empty()) s += " not recorded: " + fileError + ";";
    if (s.back() == ';' || s.back() == ':') s.pop_back();
    return s;
}

std::string withSlurmProbeNodes(const Campaign& campaign, int nodes, int ranksPerNode,
                                const std::string& tag, int timeoutMs,
                                const std::atomic<bool>* cancel, bool* cancelled,
                                const std::function<void(std::vector<ProbeNode>)>& probe) {
    const SlurmAllocation held =
        allocateForProbes(campaign, nodes, ranksPerNode, tag, timeoutMs, cancel);
    *cancelled = held.cancelled;
    if (!held.ok()) return held.cancelled ? std::string() : "the Slurm allocation: " + held.error;
    probe(slurmProbeNodes(held, campaign.scheduler));
    return releaseAllocation(held); // at once, whatever the probes did: nothing stays queued
}

bool probesRecorded(const CaseProbePlan& plan) {
    const ProbeFile existing = readProbeFile(plan.directory);
    return existing.error.empty() &&
           !probesFor(existing, plan.forCase.topology, plan.forCase.model, plan.forCase.precision,
                      plan.forCase.batchPerDevice)
                .empty();
}

CaseProbeOutcome runCaseProbes(const CaseProbePlan& plan, const std::atomic<bool>* cancel) {
    CaseProbeOutcome out;
    if (probesRecorded(plan)) {
        out.alreadyRecorded = true;
        return out;
    }
    auto stopped = [&] { return cancel && cancel->load(); };
    for (const ProbeNode& node : plan.nodes) {
        if (stopped()) break;
        SoloProbeSpec spec = plan.solo;
        spec.node = node.name;
        spec.masterAddr = "127.0.0.1"; // alone: its ranks meet on the node itself
        spec.masterPort = probePort();
        const auto r = runSoloProbe(spec, probeRanks({node}, plan.ranksPerNode), plan.timeoutMs,
                                    cancel);
        if (r.probe)
            out.solo.push_back(*r.probe);
        else if (!stopped())
            out.errors.push_back("solo probe of " + node.name + ": " + r.error);
    }
    const int ranks = plan.ranksPerNode * int(plan.nodes.size());
    if (ranks > 1 && !stopped()) {
        AllReduceProbeSpec spec = plan.allReduce;
        spec.masterAddr = plan.nodes.front().rendezvous;
        spec.masterPort = probePort();
        const auto r = runAllReduceProbe(spec, probeRanks(plan.nodes, plan.ranksPerNode),
                                         plan.timeoutMs, cancel);
        if (r.probe)
            out.allReduce = r.probe;
        else if (!stopped())
            out.errors.push_back("all-reduce probe: " + r.error);
    }
    out.cancelled = stopped();
    if (!out.solo.empty() || out.allReduce)
        out.fileError = appendProbeRecords(
            plan.directory, plan.forCase, out.solo,
            out.allReduce ? std::vector<AllReduceProbe>{*out.allReduce} : std::vector<AllReduceProbe>{});
    return out;
}

} // namespace sv::launcher
