#include "core/report/energytext.h"

#include "core/model/numerics.h"
#include "core/model/outputtext.h"

#include <nlohmann/json.hpp>

namespace sv {

namespace {

using nlohmann::json;

json intervalOrNull(const std::optional<Interval>& v) {
    return v ? json::array({v->lo, v->hi}) : json(nullptr);
}

} // namespace

std::string energySourceText(const std::string& source) {
    return source == "nvml" ? "the GPUs' energy counters (NVML)" : "nvidia-smi's power samples";
}

std::string energyCell(const CaseStats& c) {
    return c.energy ? formatShown(c.energy->joulesPerImage, 3) : std::string("-");
}

std::string energyText(const CaseStats& c) {
    if (!c.energy) return c.energyNote.empty() ? "energy not measured" : c.energyNote;
    const CaseEnergy& e = *c.energy;
    std::string out = formatShown(e.joulesPerImage, 3) + " J/image";
    if (e.ci95)
        out += " [95 % CI " + formatShown(e.ci95->lo, 3) + ", " + formatShown(e.ci95->hi, 3) + "]";
    out += " = " + formatShown(e.imagesPerJoule(), 2) + " images/s/W, from " +
           energySourceText(e.source);
    if (e.source == "nvml") out += ", " + std::to_string(e.gpus) + " GPUs, each once per node";
    out += ", over " + std::to_string(e.runs) + (e.runs == 1 ? " run" : " runs");
    if (e.source == "nvml")
        out += e.powerJoulesPerImage
                   ? "; nvidia-smi's power samples: " + formatShown(*e.powerJoulesPerImage, 3) +
                         " J/image"
                   : "; no power samples beside it";
    return out + "; " + kEnergyScope;
}

std::string energyCsvHeader() {
    return "energy_source,j_per_image,j_per_image_ci95_lo,j_per_image_ci95_hi,"
           "images_per_s_per_w,power_samples_j_per_image,energy_note";
}

std::vector<std::string> energyCsvFields(const CaseStats& c) {
    if (!c.energy) return {"", "", "", "", "", "", csvField(c.energyNote)};
    const CaseEnergy& e = *c.energy;
    auto end = [&](bool hi) {
        return e.ci95 ? formatFixed(hi ? e.ci95->hi : e.ci95->lo, 4) : std::string();
    };
    return {csvField(e.source),
            formatFixed(e.joulesPerImage, 4),
            end(false),
            end(true),
            formatFixed(e.imagesPerJoule(), 4),
            e.powerJoulesPerImage ? formatFixed(*e.powerJoulesPerImage, 4) : std::string(),
            csvField(kEnergyScope)};
}

json caseEnergyJson(const CaseStats& c) {
    if (!c.energy)
        return {{"measured", false},
                {"note", c.energyNote.empty() ? "energy not measured" : c.energyNote}};
    const CaseEnergy& e = *c.energy;
    return {{"measured", true},
            {"source", e.source},
            {"j_per_image", e.joulesPerImage},
            {"j_per_image_ci95", intervalOrNull(e.ci95)},
            {"images_per_s_per_w", e.imagesPerJoule()},
            {"images_per_s_per_w_ci95", intervalOrNull(e.imagesPerJouleCi95())},
            {"power_samples_j_per_image",
             e.powerJoulesPerImage ? json(*e.powerJoulesPerImage) : json(nullptr)},
            {"gpus", e.source == "nvml" ? json(e.gpus) : json(nullptr)},
            {"runs", e.runs},
            {"scope", kEnergyScope}};
}

json runEnergyJson(const RunResult& r) {
    if (!r.energy)
        return {{"measured", false},
                {"note",
                 "energy not measured: " +
                     (r.energyNote.empty() ? std::string("no monitor samples") : r.energyNote)}};
    const RunResult::Energy& e = *r.energy;
    return {{"measured", true},
            {"source", e.source},
            {"j_per_image", e.joulesPerImage},
            {"power_samples_j_per_image",
             e.powerJoulesPerImage ? json(*e.powerJoulesPerImage) : json(nullptr)},
            {"gpus", e.source == "nvml" ? json(e.gpus) : json(nullptr)},
            {"seconds", e.seconds},
            {"images", e.images},
            {"note", r.energyNote.empty() ? json(nullptr) : json(r.energyNote)}};
}

} // namespace sv
