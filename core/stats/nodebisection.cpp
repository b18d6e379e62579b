#include "core/stats/nodebisection.h"

#include "core/stats/numerics.h"

#include <algorithm>

namespace sv {
namespace {

std::string names(const std::vector<std::string>& nodes) {
    std::string out;
    for (const auto& n : nodes)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

} // namespace

BisectionStep nextBisectionStep(const std::vector<std::string>& nodes, double healthyPace,
                                double thresholdPct, const std::vector<NodeSetProbe>& done) {
    BisectionStep step;
    if (nodes.empty() || healthyPace <= 0) {
        step.why = nodes.empty() ? "no nodes to bisect" : "no healthy pace to compare with";
        return step;
    }
    const double limit = healthyPace * (1.0 - thresholdPct / 100.0);
    auto find = [&](const std::vector<std::string>& set) -> const NodeSetProbe* {
        for (const auto& d : done)
            if (d.nodes == set) return &d;
        return nullptr;
    };
    auto paceText = [&](const NodeSetProbe& p) {
        return formatFixed(p.pacePerDevice, 2) + " per device against a healthy " +
               formatFixed(healthyPace, 2);
    };
    std::vector<std::string> candidates = nodes;
    std::string trail;
    while (candidates.size() > 1) {
        const auto mid = candidates.begin() + std::ptrdiff_t((candidates.size() + 1) / 2);
        std::vector<std::string> first(candidates.begin(), mid), second(mid, candidates.end());
        const NodeSetProbe* p = find(first);
        if (!p) {
            step.state = BisectionStep::State::Probe;
            step.probe = first;
            step.why = "the slow node is one of " + names(candidates) + ": run " + names(first) +
                       " together";
            return step;
        }
        const bool slow = p->pacePerDevice < limit;
        trail += (trail.empty() ? "" : "; ") + names(first) + ": " + paceText(*p) +
                 (slow ? " (slow)" : " (not slow)");
        candidates = slow ? first : second;
    }
    const NodeSetProbe* alone = find(candidates);
    if (!alone) {
        step.state = BisectionStep::State::Probe;
        step.probe = candidates;
        step.why = "left: " + candidates[0] + " (" + trail + "): run it alone";
        return step;
    }
    trail += (trail.empty() ? "" : "; ") + candidates[0] + " alone: " + paceText(*alone);
    if (alone->pacePerDevice < limit) {
        step.state = BisectionStep::State::Named;
        step.node = candidates[0];
        step.why = candidates[0] + " is slow: " + trail;
    } else {
        step.state = BisectionStep::State::NeedsInterconnect;
        step.why = "no single node is slow on its own (" + trail +
                   "): the slowness needs the interconnect, or more than one node";
    }
    return step;
}

} // namespace sv
