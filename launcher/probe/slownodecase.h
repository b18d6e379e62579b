#pragma once
// --find-slow-node on a campaign (issue 28): which case to search (the multi-node topology with
// the most nodes, its first batch size and precision), the healthy pace to compare with, and
// where the verdict goes (probes.json: each node's pace alone, which core's slow_nodes reads;
// the journal: the verdict with its evidence).
//
// The healthy pace, in this order: the (high) median node's solo pace from probes.json where two
// nodes or more of the case were probed alone (--probes; one slow node cannot move a median); else
// the 1-node case's pace per device at the same ranks per node (the campaign's own ok runs,
// median; its node, the first host, must be healthy); else the figure given (--healthy-pace).

#include "launcher/campaign/journal.h"
#include "launcher/probe/slownode.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

class CommandBuilder;

struct SlowNodeCase {
    std::string caseId;
    ProbeCase forCase;
    SlowNodeSearch search;
    // Under Slurm the search's nodes are an allocation's, asked for with this many nodes, and
    // replace search.nodes before it runs.
    bool fromSlurm = false;
    int nodeCount = 0;
    std::string error; // why there is nothing to search: no multi-node case, no healthy pace
};

SlowNodeCase planSlowNodeSearch(const CommandBuilder& builder, const std::vector<PlannedRun>& runs,
                                const Journal& journal, const std::string& directory,
                                std::optional<double> healthyPace);

// probes.json gets each node's latest pace alone where it has none for the case yet (core counts
// each solo record as a node), the journal the verdict; an error, empty if both were written.
// The search itself, on the calling thread (it blocks while the probes run; a cancel stops
// them): under Slurm the nodes are an allocation's, held for the search under a tag of its own
// (each probe rank a job step on its node) and given back at once, whatever the probes did.
SlowNodeVerdict searchSlowNode(const SlowNodeCase& c, const Campaign& campaign,
                               const std::atomic<bool>* cancel);

std::string recordSlowNodeVerdict(const SlowNodeCase& c, const SlowNodeVerdict& v,
                                  const std::string& directory, Journal& journal);

} // namespace sv::launcher
