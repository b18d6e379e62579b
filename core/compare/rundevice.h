#pragma once
// Which device a folder's runs ran on, for their percent of peak: the user's word first (the
// "device" of the scaleview.json in the folder opened, e.g. "Tesla V100-SXM2-16GB"), then the
// environment the launcher captured (nvidia-smi's product name), then ScaleView's own
// workload's header (CPU ranks have no catalogued peak).

#include "core/stats/peakshare.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sv {

// logs: the runs' files (their workload header is looked for in the first few). The result's
// catalogue and stated peak are left for the caller to set.
PeakOptions findRunDevice(const std::filesystem::path& root,
                          const std::vector<std::filesystem::path>& logs);

struct Summary;
// The device of a summary's runs: its root, and the first three runs' logs (relative paths
// taken from the root). The CLI's --device/--peak-tflops and the app's analysis both start here.
PeakOptions findRunDevice(const Summary& summary);

} // namespace sv
