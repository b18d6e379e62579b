#pragma once
// --find-slow-node's plan (issue 28): which probe run comes next to find the nodes that slow a
// multi-node case, from the probe runs already done. Pure: the launcher runs the probes and asks
// again. A probe run is one of two kinds:
//   alone     each node of the set runs the workload by itself, all at the same time: each
//             node's own pace per device, with no link in it;
//   together  the set's nodes run the workload as one job: the pace their link allows.
//
// The plan:
//   1. every node alone, in one run: each node slower than healthyPace by more than thresholdPct
//      is named (all of them: two slow nodes are two names), with its pace as the evidence;
//   2. no node slow alone: the nodes together (the campaign's own pace of the case, when given,
//      stands for that run); not slow: nothing to look for;
//   3. slow together but no node alone: the slowness needs the link. Halves run together: a
//      slow half holds the node, a healthy half's nodes are healthy. The one left runs together
//      with a node from outside the candidates: slow, it is named through its link; not slow, no
//      single node explains it: it needs the interconnect (a switch, the fabric, or two nodes'
//      link to each other, which with two nodes only cannot be told apart).
// A node slow on its own is named after one probe run, whatever the node count; a node slow only
// through its link after about log2(N) + 2.

#include <optional>
#include <string>
#include <vector>

namespace sv {

struct NodeSetProbe {
    std::vector<std::string> nodes; // the set, in the order planned
    bool together = false;          // one job across the set; else each node alone, at once
    double pacePerDevice = 0.0;     // together: the job's; alone: its slowest node's
    std::vector<double> nodePaces;  // alone: each node's, in the order of `nodes`
};

struct BisectionStep {
    enum class State { Probe, Named, NeedsInterconnect, NotSlow, Invalid } state = State::Invalid;
    std::vector<std::string> probe; // State::Probe: the nodes of the next run
    bool together = false;          // State::Probe: which kind of run
    std::vector<std::string> named; // State::Named: every node slow alone, or the one whose link
    bool throughLink = false;       // named for its link: healthy alone, slow with others
    std::string why;                // every state: in words, with the evidence
};

// setPace: the nodes' pace together, when the campaign measured it (its multi-node case);
// absent, the plan asks for a together run of every node when it needs one.
BisectionStep nextBisectionStep(const std::vector<std::string>& nodes, double healthyPace,
                                double thresholdPct, const std::vector<NodeSetProbe>& done,
                                std::optional<double> setPace = std::nullopt);

} // namespace sv
