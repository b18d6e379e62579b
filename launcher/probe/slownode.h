#pragma once
// --find-slow-node (issue 28): short probe runs on node sets, following the plan of
// core/stats/nodebisection.h, until the slow nodes are named or the slowness is shown to need
// the interconnect. First every node runs the workload alone, all at once: each node slow on
// its own (a foreign process, clocks, a bad device) is named, however many. When none is but
// the nodes together are slow, node sets run the workload together (one job across their link,
// meeting at the set's first node): a node slow only through its link is named as such, or no
// single node explains it ("needs the interconnect"). Blocking: call it off the GUI thread.
//
// The healthy pace is the caller's: the median node's solo pace where the case's nodes were
// probed alone (robust to one slow node), else the 1-node case's pace per device at the same
// ranks per node (the campaign's own runs; its node must be healthy), else a figure given.

#include "core/stats/nodebisection.h"
#include "launcher/probe/caseprobes.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct SlowNodeSearch {
    std::vector<ProbeNode> nodes; // the case's nodes, in host order
    int ranksPerNode = 1;
    SoloProbeSpec spec; // the workload's settings; node, master address and port set per run
    double healthyPace = 0; // samples/s per device
    std::string healthySource; // where it comes from, in words
    double thresholdPct = 10;  // a set slower than healthy by more is slow
    // The whole set's pace per device when the campaign measured it; absent: probed first.
    std::optional<double> setPace;
    int timeoutMs = 600000; // per probe run
};

struct SlowNodeVerdict {
    enum class Kind { Named, NeedsInterconnect, NotSlow, Failed } kind = Kind::Failed;
    std::vector<std::string> named;   // Named: every node slow alone, or the one whose link
    bool throughLink = false;         // named for its link: healthy alone, slow with others
    std::string node;                 // Named: the first of `named`
    std::string why;                  // the verdict with its evidence, in words
    std::vector<NodeSetProbe> runs;   // each probe run, in order
    std::vector<SoloProbe> alone;     // each node's pace alone (for probes.json)
    std::optional<double> setPace;    // the whole set's, measured or given
    const char* kindName() const;     // named, needs-interconnect, not-slow, failed
};

SlowNodeVerdict findSlowNode(const SlowNodeSearch& search, const std::atomic<bool>* cancel);

} // namespace sv::launcher
