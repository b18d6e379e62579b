#pragma once
// Which topologies a campaign can run on the hosts it names, and in words why not: the panel
// greys out a topology with this reason as its tooltip instead of letting the run fail later.

#include "launcher/campaign/campaign.h"

#include <QString>

#include <vector>

namespace sv::launcher {

class RunCapacity {
  public:
    // localSlots: ranks one local node takes (CPU cores for the CPU workload) when there are
    // no hosts; localUnit names them in messages ("CPU cores", "GPUs").
    RunCapacity(std::vector<Host> hosts, int localSlots, QString localUnit);

    // Empty when the topology can run; otherwise what is missing and what to do.
    QString whyNot(const Topology& topology) const;
    bool canRun(const Topology& topology) const { return whyNot(topology).isEmpty(); }

    // The topologies of DLPerf's tables, offered as checkboxes.
    static std::vector<Topology> standardTopologies();
    // Ranks per node on this machine for a profile: one per core for the CPU workload.
    static int localSlotsFor(const std::string& profileNeeds);

  private:
    std::vector<Host> m_hosts;
    int m_localSlots;
    QString m_localUnit;
};

} // namespace sv::launcher
