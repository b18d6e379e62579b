#pragma once
// A case's and a run's GPU energy as every output writes it: the table's cell, the note under
// it, the CSV's columns, the JSON's "energy" object. One place, so that the table, CSV, JSON,
// report and app say the same source, scope and reason.

#include "core/model/runresult.h"
#include "core/stats/casestats.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace sv {

// What the GPUs' energy is and is not: said wherever a figure is shown.
inline constexpr const char* kEnergyScope = "the GPUs' only: a lower bound on the nodes' energy";

// "0.512" (J/image, three significant decimals), "-" when not measured.
std::string energyCell(const CaseStats& c);
// "0.512 J/image [95 % CI 0.500, 0.520] = 1.95 images/s/W, from the GPUs' energy counters (NVML,
// 8 GPUs, each once per node) over 3 runs; nvidia-smi's power samples: 0.520 J/image; …"
std::string energyText(const CaseStats& c);
// The source in words: "the GPUs' energy counters (NVML)", "nvidia-smi's power samples".
std::string energySourceText(const std::string& source);

// CSV: the header's columns (no leading comma) and a case's fields in that order.
std::string energyCsvHeader();
std::vector<std::string> energyCsvFields(const CaseStats& c);

// {"measured": true, "source", "j_per_image", "j_per_image_ci95", "images_per_s_per_w",
// "images_per_s_per_w_ci95", "power_samples_j_per_image", "gpus", "runs", "scope"} or
// {"measured": false, "note"}.
nlohmann::json caseEnergyJson(const CaseStats& c);
nlohmann::json runEnergyJson(const RunResult& r);

} // namespace sv
