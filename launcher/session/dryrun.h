#pragma once
// The exact command lines a campaign runs, without running anything: `scaleview-cli run
// --dry-run` prints them and the Run panel shows them, from this one function.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <string>
#include <vector>

namespace sv::launcher {

// One line per run, or one per node of a run for a per-node launcher (torchrun), shell-quoted.
// Each run's tag is drawn when it starts; here run N shows svDRYRUN<N>. Empty with the reason
// in *error when the profile has no such launcher. rendezvous: the hosts' resolved addresses
// (resolveHostAddresses), as the run will use them; empty: their names.
std::vector<std::string> dryRunLines(const Campaign& campaign, const WorkloadProfile& profile,
                                     std::string* error, std::vector<std::string> rendezvous = {});
// Also validates the campaign and loads its profile; every problem, one per line, in *error.
std::vector<std::string> dryRunLines(const Campaign& campaign, std::string* error,
                                     std::vector<std::string> rendezvous = {});

} // namespace sv::launcher
