#include "core/stats/probelinkspeed.h"

#include "core/model/numerics.h"
#include "core/model/runkey.h"
#include "core/stats/topologyprediction.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sv {

std::optional<ProbeLinkSpeed> probeLinkSpeed(const ProbeFile& probes) {
    std::vector<double> speeds;
    const AllReduceProbe* shown = nullptr; // the one the words describe: the most ranks
    std::string shownTopology;
    for (const auto& r : probes.records) {
        if (!r.allReduce || r.allReduce->seconds.empty() || r.allReduce->bytes <= 0) continue;
        const auto t = parseTopology(r.topology);
        if (!t || t->nodes < 2) continue;
        const int ranks = r.allReduce->ranks > 1 ? r.allReduce->ranks : t->ranks();
        const double seconds = numpyMedian(r.allReduce->seconds);
        if (!(seconds > 0) || !std::isfinite(seconds)) continue;
        // t = 2 (N - 1) / N x bytes / link, so link = that volume over the median time.
        speeds.push_back(ringAllReduceSeconds(ranks, r.allReduce->bytes, 1.0) / seconds);
        if (!shown || ranks > shown->ranks) {
            shown = &*r.allReduce;
            shownTopology = r.topology;
        }
    }
    if (speeds.empty()) return std::nullopt;
    ProbeLinkSpeed out;
    out.bytesPerSecond = numpyMedian(speeds);
    out.source = "from the probes' all-reduce (" + formatFixed(shown->bytes / 1e6, 1) +
                 " MB across " + std::to_string(std::max(shown->ranks, 2)) + " ranks at " +
                 shownTopology + ", median of " + std::to_string(shown->seconds.size()) +
                 " timings" +
                 (speeds.size() > 1
                      ? "; the median of " + std::to_string(speeds.size()) + " multi-node probes"
                      : std::string()) +
                 ")";
    return out;
}

} // namespace sv
