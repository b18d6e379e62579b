#pragma once
// What differs between two campaigns, field by field and in words ("iterations: 120 → 7"): the
// Run panel says this when its form no longer matches the campaign.json that Resume would run.

#include "launcher/campaign/campaign.h"

#include <string>
#include <vector>

namespace sv::launcher {

// Empty when `edited` runs the same plan with the same settings as `saved`. Topologies, batch
// sizes and precisions compare as sets; output directories by where they point.
std::vector<std::string> campaignDifferences(const Campaign& saved, const Campaign& edited);

} // namespace sv::launcher
