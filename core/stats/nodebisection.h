#pragma once
// --find-slow-node's plan (issue 28): which probe run comes next to find the node that slows a
// multi-node case, from the probe runs already done. Pure: the launcher runs the probes (a node
// set's workload for a few iterations, its pace per device) and asks again.
//
// The node set, as a whole, is slower than healthyPace (that is why it is bisected). Each round
// probes the first half of the candidates: slow, the slow node is in it; not slow, in the other
// half (which is not probed). One candidate left, it is probed alone: slow, it is named; not
// slow, no single node explains the slowness: it needs the interconnect (or more than one node).
// ceil(log2 N) + 1 probe runs at most, against N for trying every node (fewer from N = 4 on; at
// N = 3 as many in the worst case).

#include <string>
#include <vector>

namespace sv {

struct NodeSetProbe {
    std::vector<std::string> nodes; // the set run together, in the order planned
    double pacePerDevice = 0.0;
};

struct BisectionStep {
    enum class State { Probe, Named, NeedsInterconnect, Invalid } state = State::Invalid;
    std::vector<std::string> probe; // State::Probe: the nodes to run together next
    std::string node;               // State::Named
    std::string why;                // every state: in words, with the evidence
};

// A set is slow when its pace per device is below healthyPace by more than thresholdPct.
BisectionStep nextBisectionStep(const std::vector<std::string>& nodes, double healthyPace,
                                double thresholdPct, const std::vector<NodeSetProbe>& done);

} // namespace sv
