#include "launcher/campaign/topologyfit.h"

namespace sv::launcher {

TopologyFit fitTopology(const std::vector<Host>& hosts, const Topology& t) {
    TopologyFit fit;
    if (t.nodes < 1 || t.gpusPerNode < 1) {
        fit.shortfall = TopologyFit::Shortfall::NotATopology;
        return fit;
    }
    const int hostCount = static_cast<int>(hosts.size());
    if (hosts.empty() && t.nodes > 1) {
        fit = {TopologyFit::Shortfall::NoHosts, t.nodes, 1, {}};
        return fit;
    }
    if (!hosts.empty() && t.nodes > hostCount) {
        fit = {TopologyFit::Shortfall::TooFewHosts, t.nodes, hostCount, {}};
        return fit;
    }
    for (int n = 0; n < t.nodes && n < hostCount; ++n)
        if (t.gpusPerNode > hosts[static_cast<std::size_t>(n)].gpus)
            return {TopologyFit::Shortfall::TooFewGpus, t.gpusPerNode,
                    hosts[static_cast<std::size_t>(n)].gpus,
                    hosts[static_cast<std::size_t>(n)].name};
    return fit;
}

std::string TopologyFit::message(const Topology& t) const {
    switch (shortfall) {
    case Shortfall::None:
        return {};
    case Shortfall::NotATopology:
        return t.name() + " is not a topology";
    case Shortfall::NoHosts:
        return t.name() + " needs " + std::to_string(needed) +
               " hosts; none given (local runs are 1 node)";
    case Shortfall::TooFewHosts:
        return t.name() + " needs " + std::to_string(needed) + " hosts, " +
               std::to_string(available) + " given";
    case Shortfall::TooFewGpus:
        return t.name() + " needs " + std::to_string(needed) + " GPUs on " + host + ", which has " +
               std::to_string(available);
    }
    return {};
}

} // namespace sv::launcher
