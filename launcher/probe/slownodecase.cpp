#include "launcher/probe/slownodecase.h"

#include "core/model/numerics.h"
#include "launcher/exec/commandbuilder.h"

#include <QRandomGenerator>
#include <algorithm>
#include <cstdio>
#include <map>

namespace sv::launcher {
namespace {

// The median pace per device of the ok runs of the case matching `want`.
std::optional<double> runPace(const std::vector<PlannedRun>& runs,
                              const std::map<std::string, JournalEntry>& done, const RunKey& want,
                              const Topology& topology) {
    std::vector<double> paces;
    for (const auto& r : runs) {
        if (r.key.topology != topology || r.key.batchPerDevice != want.batchPerDevice ||
            r.key.precision != want.precision)
            continue;
        const auto it = done.find(r.id);
        if (it == done.end() || !it->second.end || it->second.end->state != RunState::Ok ||
            !it->second.end->timeThroughput)
            continue;
        paces.push_back(*it->second.end->timeThroughput / topology.ranks());
    }
    if (paces.empty()) return std::nullopt;
    return numpyMedian(paces);
}

const PlannedRun* widestMultiNode(const std::vector<PlannedRun>& runs) {
    const PlannedRun* best = nullptr;
    for (const auto& r : runs)
        if (r.key.topology.nodes > 1 && (!best || r.key.topology.nodes > best->key.topology.nodes))
            best = &r;
    return best;
}

} // namespace

SlowNodeCase planSlowNodeSearch(const CommandBuilder& b, const std::vector<PlannedRun>& runs,
                                const Journal& journal, const std::string& directory,
                                std::optional<double> healthyPace) {
    SlowNodeCase c;
    const PlannedRun* run = widestMultiNode(runs);
    c.fromSlurm = b.campaign().scheduler.enabled() && b.campaign().hosts.empty();
    if (!run || (!c.fromSlurm && b.campaign().hosts.size() < 2)) {
        c.error = "no multi-node topology on two hosts or more to look for a slow node in";
        return c;
    }
    c.nodeCount = run->key.topology.nodes;
    const CaseProbePlan plan = planCaseProbes(b, *run, directory, {});
    c.caseId = run->caseId;
    c.forCase = plan.forCase;
    SlowNodeSearch& s = c.search;
    s.nodes = plan.nodes;
    s.ranksPerNode = plan.ranksPerNode;
    s.spec = plan.solo;
    s.timeoutMs = plan.timeoutMs;
    const auto done = journal.read();
    s.setPace = runPace(runs, done, run->key, run->key.topology);
    const CaseProbes recorded =
        probesFor(readProbeFile(directory), c.forCase.topology, c.forCase.model,
                  c.forCase.precision, c.forCase.batchPerDevice);
    std::map<std::string, double> byNode; // the latest pace of each node alone
    for (const auto& p : recorded.solo)
        byNode[p.node] = p.pacePerDevice;
    const Topology oneNode{1, run->key.topology.gpusPerNode};
    if (byNode.size() >= 2) {
        std::vector<double> paces;
        for (const auto& [node, pace] : byNode)
            paces.push_back(pace);
        // The high median, as the scaling loss takes it: one slow node of two is compared with
        // the other, not with their mean.
        std::sort(paces.begin(), paces.end());
        s.healthyPace = paces[paces.size() / 2];
        s.healthySource =
            "the median of " + std::to_string(paces.size()) + " nodes' solo paces in probes.json";
    } else if (auto pace = runPace(runs, done, run->key, oneNode)) {
        s.healthyPace = *pace;
        s.healthySource = "the " + oneNode.name() + " case's runs, median";
    } else if (healthyPace) {
        s.healthyPace = *healthyPace;
        s.healthySource = "given with --healthy-pace";
    } else {
        c.error = "no healthy pace for " + run->caseId + ": run the campaign with --probes or a " +
                  oneNode.name() + " topology, or give --healthy-pace SAMPLES_PER_S";
    }
    return c;
}

SlowNodeVerdict searchSlowNode(const SlowNodeCase& c, const Campaign& campaign,
                               const std::atomic<bool>* cancel) {
    if (!c.fromSlurm) return findSlowNode(c.search, cancel);
    char tag[40];
    std::snprintf(tag, sizeof tag, "svslow%016llx",
                  static_cast<unsigned long long>(QRandomGenerator::global()->generate64()));
    SlowNodeSearch search = c.search;
    SlowNodeVerdict v;
    bool cancelled = false;
    const std::string error =
        withSlurmProbeNodes(campaign, c.nodeCount, search.ranksPerNode, tag, search.timeoutMs,
                            cancel, &cancelled, [&](std::vector<ProbeNode> nodes) {
                                search.nodes = std::move(nodes);
                                v = findSlowNode(search, cancel);
                            });
    if (cancelled) v.why = "cancelled";
    if (!error.empty()) v.why += (v.why.empty() ? "" : "; ") + error + " (for the search)";
    return v;
}

std::string recordSlowNodeVerdict(const SlowNodeCase& c, const SlowNodeVerdict& v,
                                  const std::string& directory, Journal& journal) {
    // Each node once, its latest pace, and only where the case's own probes have none: core
    // counts each solo record as a node.
    const CaseProbes recorded =
        probesFor(readProbeFile(directory), c.forCase.topology, c.forCase.model,
                  c.forCase.precision, c.forCase.batchPerDevice);
    std::vector<SoloProbe> fresh;
    for (auto it = v.alone.rbegin(); it != v.alone.rend(); ++it) {
        auto same = [&](const SoloProbe& p) { return p.node == it->node; };
        if (std::none_of(recorded.solo.begin(), recorded.solo.end(), same) &&
            std::none_of(fresh.begin(), fresh.end(), same))
            fresh.push_back(*it);
    }
    std::string error;
    if (!fresh.empty()) error = appendProbeRecords(directory, c.forCase, fresh, {});
    std::string journalError;
    // One record per node named (two nodes slow on their own are two), else one without.
    const std::vector<std::string> named = v.named.empty() ? std::vector<std::string>{""} : v.named;
    for (const auto& node : named)
        if (journalError.empty())
            journal.appendSlowNodeSearch(v.kindName(), node, c.caseId + ": " + v.why,
                                         static_cast<int>(v.runs.size()), &journalError);
    if (!journalError.empty()) error += (error.empty() ? "" : "; ") + journalError;
    return error;
}

} // namespace sv::launcher
