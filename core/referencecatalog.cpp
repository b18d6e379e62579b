#include "referencecatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <regex>

namespace sv {
namespace embedded {
extern const std::string_view published_tables;
}

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// A series name is more specific than its table: "FP32, batch 96", "Mixed precision, batch 192",
// "NGC MXNet 1.6.0 (without AMP)" in a table labelled fp16, "... batch 224" in a batch-256 table.
void inferFromName(ReferenceSeries& s) {
    const std::string n = lower(s.name);
    if (n.find("without amp") != std::string::npos)
        s.precision = "fp16-noamp";
    else if (n.find("fp32") != std::string::npos)
        s.precision = "fp32";
    else if (n.find("mixed precision") != std::string::npos)
        s.precision = "fp16";
    static const std::regex batch(R"(batch (\d+))");
    std::smatch m;
    if (std::regex_search(n, m, batch)) s.batchPerDevice = std::stoi(m[1].str());
}

std::map<std::string, double> readFigures(const nlohmann::json& j) {
    std::map<std::string, double> out;
    for (const auto& [k, v] : j.items())
        if (v.is_number()) out[k] = v.get<double>();
    return out;
}

} // namespace

const ReferenceSeries* ReferenceTable::primary() const {
    if (series.empty()) return nullptr;
    for (const auto& s : series)
        if (s.name.rfind("NGC MXNet", 0) == 0) return &s;
    return &series.front();
}

std::string ReferenceValue::label() const {
    if (!table) return {};
    if (table->series.size() <= 1 || !series) return table->id;
    return table->id + ": " + series->name;
}

const ReferenceCatalog& ReferenceCatalog::builtin() {
    static const ReferenceCatalog catalog = [] {
        std::string error;
        auto c = fromJson(embedded::published_tables, &error);
        return c ? *c : ReferenceCatalog{};
    }();
    return catalog;
}

std::optional<ReferenceCatalog> ReferenceCatalog::fromJson(std::string_view text,
                                                           std::string* error) {
    const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("tables") || !j["tables"].is_array()) {
        if (error) *error = "not a published-tables JSON document (no \"tables\" array)";
        return std::nullopt;
    }
    ReferenceCatalog catalog;
    for (const auto& t : j["tables"]) {
        if (!t.is_object() || !t.contains("id") || !t["id"].is_string()) continue;
        ReferenceTable table;
        auto str = [&](const char* key) {
            return t.contains(key) && t[key].is_string() ? t[key].get<std::string>()
                                                         : std::string();
        };
        table.id = str("id");
        table.title = str("title");
        table.source = str("source");
        table.framework = str("framework");
        table.hardware = str("hardware");
        if (table.hardware.rfind("as ", 0) == 0) // "as dlperf-ngc-mxnet-fp32-bs128"
            if (const auto* other = catalog.find(table.hardware.substr(3)))
                table.hardware = other->hardware;
        if (t.contains("precision") && t["precision"].is_string())
            table.precision = t["precision"].get<std::string>();
        if (t.contains("batch_size_per_device") && t["batch_size_per_device"].is_number_integer())
            table.batchPerDevice = t["batch_size_per_device"].get<int>();
        if (t.contains("throughput") && t["throughput"].is_object()) {
            ReferenceSeries s;
            s.name = table.framework.empty() ? table.title : table.framework;
            s.precision = table.precision;
            s.batchPerDevice = table.batchPerDevice;
            s.throughput = readFigures(t["throughput"]);
            table.series.push_back(std::move(s));
        }
        if (t.contains("series") && t["series"].is_object()) {
            for (const auto& [name, figures] : t["series"].items()) {
                if (!figures.is_object()) continue;
                ReferenceSeries s;
                s.name = name;
                s.precision = table.precision;
                s.batchPerDevice = table.batchPerDevice;
                inferFromName(s);
                s.throughput = readFigures(figures);
                table.series.push_back(std::move(s));
            }
        }
        if (t.contains("speedup") && t["speedup"].is_object())
            table.speedup = readFigures(t["speedup"]);
        catalog.m_tables.push_back(std::move(table));
    }
    return catalog;
}

const ReferenceTable* ReferenceCatalog::find(std::string_view id) const {
    for (const auto& t : m_tables)
        if (t.id == id) return &t;
    return nullptr;
}

std::optional<ReferenceValue> ReferenceCatalog::lookup(std::string_view precision, int batch,
                                                       std::string_view topology) const {
    const std::string topo(topology);
    for (const auto& t : m_tables) {
        // A comparison table stands by its primary series; a table of unlabelled series
        // (NVIDIA's) offers each series that names its precision and batch.
        std::vector<const ReferenceSeries*> candidates;
        if (t.precision)
            candidates.push_back(t.primary());
        else
            for (const auto& s : t.series)
                candidates.push_back(&s);
        for (const auto* s : candidates) {
            if (!s || s->precision != precision || s->batchPerDevice != batch) continue;
            auto it = s->throughput.find(topo);
            if (it != s->throughput.end()) return ReferenceValue{&t, s, it->second};
        }
    }
    return std::nullopt;
}

namespace {
std::pair<std::string_view, std::string_view> splitReference(std::string_view ref) {
    const auto colon = ref.find(':');
    if (colon == std::string_view::npos) return {ref, {}};
    return {ref.substr(0, colon), ref.substr(colon + 1)};
}
const ReferenceSeries* findSeries(const ReferenceTable& t, std::string_view name) {
    if (name.empty()) return t.primary();
    for (const auto& s : t.series)
        if (s.name == name) return &s;
    return nullptr;
}
} // namespace

bool ReferenceCatalog::knows(std::string_view reference) const {
    const auto [id, series] = splitReference(reference);
    const auto* t = find(id);
    return t && findSeries(*t, series);
}

std::optional<ReferenceValue> ReferenceCatalog::lookup(std::string_view reference,
                                                       std::string_view topology) const {
    const auto [id, name] = splitReference(reference);
    const auto* t = find(id);
    if (!t) return std::nullopt;
    const auto* s = findSeries(*t, name);
    if (!s) return std::nullopt;
    auto it = s->throughput.find(std::string(topology));
    if (it == s->throughput.end()) return std::nullopt;
    return ReferenceValue{t, s, it->second};
}

} // namespace sv
