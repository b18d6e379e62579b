#pragma once
// --find-slow-node (issue 28): short probe runs on node sets, following the bisection plan
// (core/stats/nodebisection.h), until a node is named or the slowness is shown to need the
// interconnect. A set's probe runs the workload on each of the set's nodes alone, all at once:
// the set's pace per device is its slowest node's (the pace a synchronous job over the set is
// held to), against a healthy pace. Alone, so that no communication enters the comparison with
// the 1-node pace: a node slow on its own (a foreign process, clocks, a bad device) is named; a
// node slow only through its link is not ("needs the interconnect": the all-reduce probe and
// the multi-node case say more). Blocking: call it off the GUI thread.
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
    std::string node;                 // Named
    std::string why;                  // the verdict with its evidence, in words
    std::vector<NodeSetProbe> runs;   // each probe run, in order
    std::vector<SoloProbe> alone;     // each node's pace in each run (for probes.json)
    std::optional<double> setPace;    // the whole set's, measured or given
    const char* kindName() const;     // named, needs-interconnect, not-slow, failed
};

SlowNodeVerdict findSlowNode(const SlowNodeSearch& search, const std::atomic<bool>* cancel);

} // namespace sv::launcher
