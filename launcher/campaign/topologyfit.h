#pragma once
// Whether a topology fits the hosts a campaign names, as a value (what is short, by how much,
// on which host): Campaign::validate words it, the Run panel's capacity rule reads its fields.

#include "launcher/campaign/campaign.h"

#include <string>

namespace sv::launcher {

struct TopologyFit {
    enum class Shortfall { None, NotATopology, NoHosts, TooFewHosts, TooFewGpus };
    Shortfall shortfall = Shortfall::None;
    int needed = 0; // hosts (NoHosts, TooFewHosts) or GPUs on `host` (TooFewGpus)
    int available = 0;
    std::string host; // TooFewGpus: the first host that lacks them
    bool fits() const { return shortfall == Shortfall::None; }
    // In words, naming the topology: "2n8g needs 2 hosts, 1 given".
    std::string message(const Topology& topology) const;
};

// Without hosts a campaign runs on this machine: one node, whatever its size.
TopologyFit fitTopology(const std::vector<Host>& hosts, const Topology& topology);

} // namespace sv::launcher
