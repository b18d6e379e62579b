#pragma once
// The worst scaling a finished campaign reached, from its journal alone (no log is read): the
// Run panel's headline says it, so that "Finished: all runs ok" never hides a 46.5 % efficiency.

#include "launcher/campaign/campaigndirectory.h"

#include <optional>
#include <string>

namespace sv::launcher {

struct WorstScaling {
    std::string topology;  // "1n2g"
    int ranks = 0;         // of that topology
    int batch = 0;         // per device
    std::string precision; // "fp32"
    double speedup = 0.0;  // median throughput over the one-rank case's median
    double efficiency = 0.0; // speedup / ranks: 1.0 is linear
    // Above linear by more than the core's superlinear warning allows (TrustOptions): a figure
    // that cannot be true (the one-rank runs were slowed), not a result.
    bool cannotBeTrue = false;
};

// Per batch size and precision, the median time-method throughput of the ok runs at each
// topology against the one-rank case's; the lowest efficiency of all, or none where no case of
// several ranks has a one-rank case to compare with. Disturbed runs count, as in the Results
// table by default. A figure that cannot be true is the one returned, whatever the lowest.
std::optional<WorstScaling> worstScaling(const CampaignDirectory& campaign);

} // namespace sv::launcher
