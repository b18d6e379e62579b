#include "core/compare/recordedfacts.h"

#include "core/compare/comparison.h"
#include "core/load/campaignrecords.h"
#include "core/formats/formatregistry.h"
#include "core/parse/runfacts.h"
#include "core/stats/summary.h"
#include "core/model/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace sv {
namespace {

// A JSON value as one short line: strings as they are, the rest as JSON.
std::string valueText(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return {};
    return jsonText(v);
}

// A log's parameters, from its first 64 KiB (where the dumps are); nothing when unreadable.
std::vector<std::pair<std::string, std::string>> logParameters(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return {};
    std::string head(64 * 1024, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return readRunFacts(head).parameters;
}

// What every run of a case agrees on, in the first run's order.
RecordedFacts agreedParameters(const std::filesystem::path& root,
                               const std::vector<std::string>& paths) {
    RecordedFacts out;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const auto params = logParameters(root / paths[i]);
        if (i == 0) {
            for (const auto& [k, v] : params)
                out.push_back({"log." + k, v});
            continue;
        }
        std::erase_if(out, [&](const RecordedFact& f) {
            return std::none_of(params.begin(), params.end(), [&](const auto& p) {
                return "log." + p.first == f.what && p.second == f.value;
            });
        });
    }
    return out;
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

std::vector<RecordedFacts> caseParameterFacts(const std::string& root,
                                              const std::vector<CaseStats>& cases) {
    std::vector<RecordedFacts> out;
    out.reserve(cases.size());
    for (const CaseStats& c : cases)
        out.push_back(caseParameterFacts(root, c));
    return out;
}

RecordedFacts caseParameterFacts(const std::string& root, const CaseStats& c) {
    return agreedParameters(root, c.paths);
}

void recordSeries(ComparisonSeries& series, const Summary& from) {
    series.recorded = recordedFacts(from);
    series.window = from.load.measure;
    series.caseRecorded = caseParameterFacts(from.root, series.cases);
}

} // namespace sv
