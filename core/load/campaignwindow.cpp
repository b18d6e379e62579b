#include "core/load/campaignwindow.h"

#include "core/load/runloader.h"
#include "core/load/runmeter.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace sv {

namespace fs = std::filesystem;

namespace {

// campaign.json as a JSON object, or why not: read once, for the window and for whose it is.
std::optional<nlohmann::json> readCampaignJson(const fs::path& file, std::string* error) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        *error = file.string() + ": cannot be read";
        return std::nullopt;
    }
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        *error = file.string() + ": not a JSON object";
        return std::nullopt;
    }
    return j;
}

CampaignWindowLookup readWindow(const fs::path& file, const nlohmann::json& j) {
    CampaignWindowLookup out;
    MeasureOptions m;
    for (auto [key, target] : {std::pair{"warmup", &m.warmup}, {"iterations", &m.iterations}}) {
        if (!j.contains(key)) continue;
        const auto& v = j[key];
        if (!v.is_number_integer() || v.get<long long>() < 0 ||
            v.get<long long>() > kMaxMeasureIterations) {
            out.error = file.string() + ": \"" + key + "\" is not a whole number from 0 to " +
                        std::to_string(kMaxMeasureIterations);
            return out;
        }
        *target = v.get<int>();
    }
    if (auto why = validateMeasureOptions(m)) {
        out.error = file.string() + ": " + *why;
        return out;
    }
    out.window = CampaignWindow{m, file.string()};
    return out;
}

} // namespace

namespace {

// Whether FILE is a campaign the launcher wrote (it names its workload profile) and DIR lies
// under its logs: a profile's log root ("logs/local/pytorch-cpu/resnet50") may be deeper than
// the few directories any campaign.json is looked for.
bool ownsLogsBelow(const nlohmann::json& j, const fs::path& file, const fs::path& dir) {
    if (!j.contains("profile") || !j["profile"].is_string()) return false;
    const fs::path rel = dir.lexically_relative(file.parent_path());
    return !rel.empty() && *rel.begin() == "logs";
}

} // namespace

namespace {

// The campaign.json that holds DIR by findCampaignWindow's rule, read; its path empty when none.
struct FoundCampaign {
    fs::path file;
    std::optional<nlohmann::json> json;
    std::string error;
};

FoundCampaign locateCampaign(const fs::path& dir, int maxParents) {
    std::error_code ec;
    fs::path at = fs::absolute(dir, ec).lexically_normal();
    if (ec) return {};
    if (!at.has_filename()) at = at.parent_path(); // "DIR/" names DIR
    const fs::path start = at;
    for (int up = 0; up <= kCampaignLogDepth; ++up) {
        const fs::path file = at / "campaign.json";
        if (fs::is_regular_file(file, ec)) {
            FoundCampaign found;
            found.file = file;
            found.json = readCampaignJson(file, &found.error);
            // Further up only the launcher's own campaign holding DIR in its logs counts;
            // another campaign.json there is another tree's.
            if (up > maxParents && (!found.json || !ownsLogsBelow(*found.json, file, start)))
                return {};
            return found;
        }
        if (!at.has_relative_path()) break; // the root: nothing above
        at = at.parent_path();
    }
    return {};
}

} // namespace

CampaignWindowLookup findCampaignWindow(const fs::path& dir, int maxParents) {
    const FoundCampaign found = locateCampaign(dir, maxParents);
    if (found.file.empty()) return {};
    if (!found.json) return CampaignWindowLookup{std::nullopt, found.error};
    return readWindow(found.file, *found.json);
}

fs::path findCampaignFolder(const fs::path& dir, int maxParents) {
    return locateCampaign(dir, maxParents).file.parent_path();
}

SeriesWindow seriesWindow(const CampaignWindowLookup& found, std::optional<int> warmup,
                          std::optional<int> iterations) {
    SeriesWindow out;
    out.source = "dlperf";
    out.measure.formatDefaults = true; // each format's own, as DLPerf's script for it reads
    if (found.window) {
        out.measure = found.window->measure;
        out.source = "campaign";
        out.campaignFile = found.window->file;
    }
    if (warmup) out.measure.warmup = *warmup;
    if (iterations) out.measure.iterations = *iterations;
    if (warmup || iterations) {
        out.measure.formatDefaults = false;
        out.source = "command line";
        out.campaignFile.clear();
    }
    return out;
}

std::optional<int> commonShortIterations(const std::vector<RunResult>& runs) {
    std::optional<std::int64_t> common;
    std::optional<MeasureOptions> window;
    bool any = false;
    for (const auto& r : runs) {
        if (r.inProgress) continue;
        const std::int64_t ranks = r.key.topology.ranks();
        // Only logs that merely stop early say how long the campaign was: any other problem
        // (a broken value, a missing rank) is not a window the user can choose away.
        if (r.status != RunStatus::Incomplete || ranks <= 0 || r.counters.markerLines % ranks)
            return std::nullopt;
        const std::int64_t n = r.counters.markerLines / ranks;
        if (common && *common != n) return std::nullopt;
        if (window && !sameMeasure(*window, r.window)) return std::nullopt;
        common = n;
        window = r.window;
        any = true;
    }
    if (!any || *common <= window->warmup || *common >= window->iterations) return std::nullopt;
    return static_cast<int>(*common);
}

} // namespace sv
