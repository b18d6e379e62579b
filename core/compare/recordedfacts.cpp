#include "core/compare/recordedfacts.h"

#include "core/parse/logformat.h"
#include "core/report/reportdocument.h"
#include "core/stats/summary.h"

#include <nlohmann/json.hpp>

namespace sv {
namespace {

// A JSON value as one short line: strings as they are, the rest as JSON.
std::string valueText(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return {};
    return v.dump();
}

} // namespace

RecordedFacts campaignSettingsFacts(const std::string& campaignJson) {
    RecordedFacts out;
    const auto j = nlohmann::json::parse(campaignJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return out;
    auto add = [&](const char* what, const nlohmann::json* v) {
        if (v) out.push_back({what, valueText(*v)});
    };
    auto member = [](const nlohmann::json& o, const char* key) -> const nlohmann::json* {
        if (!o.is_object()) return nullptr;
        const auto it = o.find(key);
        return it == o.end() ? nullptr : &*it;
    };
    add("profile", member(j, "profile"));
    add("launcher", member(j, "launcher"));
    if (const auto* c = member(j, "container")) add("campaign_image", member(*c, "image"));
    if (const auto* s = member(j, "scheduler")) {
        add("slurm_partition", member(*s, "partition"));
        add("slurm_constraint", member(*s, "constraint"));
    }
    add("repeats", member(j, "repeats"));
    if (const auto* vars = member(j, "variables"); vars && vars->is_object())
        for (const auto& [name, value] : vars->items())
            out.push_back({"variables." + name, valueText(value)});
    return out;
}

RecordedFacts capturedFacts(const std::vector<ReportFile>& files) {
    RecordedFacts out = environmentFacts(summarizeEnvironment(files));
    for (const auto& f : files)
        if (f.name == "campaign.json") {
            const RecordedFacts settings = campaignSettingsFacts(f.text);
            out.insert(out.end(), settings.begin(), settings.end());
        }
    return out;
}

RecordedFacts recordedFacts(const Summary& summary) {
    return capturedFacts(capturedFiles(summary.root));
}

RecordedFacts caseFacts(std::string_view format, const std::optional<MeasureOptions>& window) {
    RecordedFacts out;
    if (!format.empty()) out.push_back({"format", std::string(format)});
    if (window && (!window->formatDefaults || !format.empty())) {
        const MeasureOptions w = format.empty() ? *window : windowFor(logFormatOf(format), *window);
        out.push_back({"warmup", std::to_string(w.warmup)});
        out.push_back({"iterations", std::to_string(w.iterations)});
    }
    return out;
}

} // namespace sv
