#include "launcher/campaign/campaignscaling.h"

#include "core/stats/casestats.h"
#include "core/model/numerics.h"

#include <map>
#include <tuple>
#include <vector>

namespace sv::launcher {

std::optional<WorstScaling> worstScaling(const CampaignDirectory& campaign) {
    // (batch, precision) → topology → the ok runs' throughputs.
    using Case = std::tuple<int, std::string>;
    std::map<Case, std::map<Topology, std::vector<double>>> values;
    for (const PlannedRun& run : campaign.plan()) {
        const auto it = campaign.journal().find(run.id);
        if (it == campaign.journal().end() || !it->second.end) continue;
        const RunEnd& end = *it->second.end;
        if (end.state != RunState::Ok || !end.timeThroughput) continue;
        values[{run.key.batchPerDevice, run.key.precision}][run.key.topology].push_back(
            *end.timeThroughput);
    }
    std::optional<WorstScaling> worst;
    for (auto& [key, byTopology] : values) {
        std::optional<double> one;
        for (auto& [t, v] : byTopology)
            if (t.ranks() == 1) one = numpyMedian(v);
        if (!one || *one <= 0.0) continue;
        for (auto& [t, v] : byTopology) {
            if (t.ranks() <= 1) continue;
            const double speedup = numpyMedian(v) / *one;
            const WorstScaling here{t.name(),         t.ranks(), std::get<0>(key),
                                    std::get<1>(key), speedup,   speedup / t.ranks(),
                                    speedup / t.ranks() * 100.0 >
                                        100.0 + TrustOptions{}.superlinearPct};
            const bool worse = !worst || (here.cannotBeTrue && !worst->cannotBeTrue) ||
                               (here.cannotBeTrue == worst->cannotBeTrue &&
                                (here.cannotBeTrue ? here.efficiency > worst->efficiency
                                                   : here.efficiency < worst->efficiency));
            if (worse) worst = here;
        }
    }
    return worst;
}

} // namespace sv::launcher
