#pragma once
// What a log found outside DLPerf's layout is a run of: its key, field by field, first from
// what the log says (core/parse/runfacts.h), then from its path (DLPerf's names and folders,
// "8xV100", "dgx2h_n32", "FP32", "result_3.txt"), then from a scaleview.json sidecar in its folder
// or above. Where the log and another source disagree the log wins and the run says so; a field
// nobody states stays unknown ("?", with the reason), never guessed.
//
// scaleview.json: core/load/sidecars.h.

#include "core/load/sidecars.h"
#include "core/model/runkey.h"
#include "core/parse/runfacts.h"
#include "core/model/warning.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

// What a path says about a run.
struct PathHints {
    std::optional<std::string> model, precision;
    std::optional<int> batch, repeat, gpus, nodes, gpusPerNode;
    std::string evidence; // "folder 8xV100", "name r50_b128_fp32_1.log"
};
PathHints readPathHints(const std::filesystem::path& file, const std::filesystem::path& root);

// The key of a log outside DLPerf's layout; warnings (disagreements) name the file as display.
RunKey identifyRun(const RunFacts& facts, const PathHints& path,
                   const std::optional<SidecarEntry>& sidecar, const std::string& display,
                   std::vector<Warning>& warnings);

} // namespace sv
