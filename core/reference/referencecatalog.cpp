#include "core/reference/referencecatalog.h"
#include "core/reference/cataloguefile.h"

#include <nlohmann/json.hpp>

#include "core/model/numerics.h"
#include "core/model/runkey.h"

#include <algorithm>
#include <cctype>
#include <cmath>
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

// Why a document is refused: the first thing wrong, named by its path in the document.
struct Refusal {
    std::string what;
};

[[noreturn]] void refuse(const std::string& where, const std::string& why) {
    throw Refusal{where + ": " + why};
}

bool positiveFinite(const nlohmann::json& v) {
    return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0.0;
}

// {"1n1g": 392.24, ...}: topology names to positive numbers.
std::map<std::string, double> readFigures(const nlohmann::json& j, const std::string& where) {
    if (!j.is_object()) refuse(where, "not an object of topology: images/s");
    std::map<std::string, double> out;
    for (const auto& [k, v] : j.items()) {
        if (!parseTopology(k)) refuse(where + "." + k, "not a topology like 4n8g");
        if (!positiveFinite(v)) refuse(where + "." + k, "not a positive number");
        out[k] = v.get<double>();
    }
    return out;
}

std::string optionalString(const nlohmann::json& t, const char* key, const std::string& where) {
    if (!t.contains(key)) return {};
    if (!t[key].is_string()) refuse(where + key, "not a string");
    return t[key].get<std::string>();
}

// "repeats": {"1n1g": [392.24, ...]}: each a topology of the table, whose median (DLPerf's
// round(np.median, 2)) is the table's figure, so a typo in either is caught.
std::map<std::string, std::vector<double>> readRepeats(const nlohmann::json& j,
                                                       const std::map<std::string, double>& figures,
                                                       const std::string& where) {
    if (!j.is_object()) refuse(where, "not an object of topology: [images/s, ...]");
    std::map<std::string, std::vector<double>> out;
    for (const auto& [k, v] : j.items()) {
        const std::string at = where + "." + k;
        auto figure = figures.find(k);
        if (figure == figures.end()) refuse(at, "no throughput figure for this topology");
        if (!v.is_array() || v.empty()) refuse(at, "not a non-empty array of images/s");
        std::vector<double> values;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!positiveFinite(v[i]))
                refuse(at + "[" + std::to_string(i) + "]", "not a positive number");
            values.push_back(v[i].get<double>());
        }
        const double median = roundNumpy2(numpyMedian(values));
        if (std::fabs(median - figure->second) > 0.005 + 1e-9)
            refuse(at, "their median " + std::to_string(median) + " is not the throughput " +
                           std::to_string(figure->second));
        out[k] = std::move(values);
    }
    return out;
}

ReferenceTable readTable(const nlohmann::json& t, const ReferenceCatalog& before,
                         const std::string& at) {
    if (!t.is_object()) refuse(at, "not an object");
    if (!t.contains("id") || !t["id"].is_string() || t["id"].get<std::string>().empty())
        refuse(at + ".id", "missing or not a non-empty string");
    ReferenceTable table;
    table.id = t["id"].get<std::string>();
    const std::string where = at + " (" + table.id + "): ";
    if (before.find(table.id)) refuse(where + "id", "another table has this id");
    table.title = optionalString(t, "title", where);
    table.source = optionalString(t, "source", where);
    table.framework = optionalString(t, "framework", where);
    table.hardware = optionalString(t, "hardware", where);
    if (t.contains("model")) {
        table.model = optionalString(t, "model", where);
        if (table.model.empty()) refuse(where + "model", "empty");
    }
    table.method = optionalString(t, "method", where);
    table.methodNote = optionalString(t, "method_note", where);
    if (!table.method.empty() && table.method != "time" && table.method != "speed")
        refuse(where + "method", "must be \"time\" or \"speed\", not \"" + table.method + "\"");
    if (table.hardware.rfind("as ", 0) == 0) // "as dlperf-ngc-mxnet-fp32-bs128"
        if (const auto* other = before.find(table.hardware.substr(3)))
            table.hardware = other->hardware;
    if (t.contains("precision")) {
        if (!t["precision"].is_string() || t["precision"].get<std::string>().empty())
            refuse(where + "precision", "not a non-empty string");
        table.precision = t["precision"].get<std::string>();
    }
    if (t.contains("batch_size_per_device")) {
        const auto& b = t["batch_size_per_device"];
        if (!b.is_number_integer() || b.get<long long>() < 1 || b.get<long long>() > (1 << 24))
            refuse(where + "batch_size_per_device", "not a whole number from 1");
        table.batchPerDevice = b.get<int>();
    }
    if (t.contains("throughput")) {
        ReferenceSeries s;
        s.name = table.framework.empty() ? table.title : table.framework;
        s.precision = table.precision;
        s.batchPerDevice = table.batchPerDevice;
        s.throughput = readFigures(t["throughput"], where + "throughput");
        if (t.contains("repeats"))
            s.repeats = readRepeats(t["repeats"], s.throughput, where + "repeats");
        table.series.push_back(std::move(s));
    } else if (t.contains("repeats")) {
        refuse(where + "repeats", "only a table with \"throughput\" can have repeats");
    }
    if (t.contains("series")) {
        if (!t["series"].is_object()) refuse(where + "series", "not an object of named series");
        for (const auto& [name, figures] : t["series"].items()) {
            ReferenceSeries s;
            s.name = name;
            s.precision = table.precision;
            s.batchPerDevice = table.batchPerDevice;
            inferFromName(s);
            s.throughput = readFigures(figures, where + "series." + name);
            table.series.push_back(std::move(s));
        }
    }
    if (table.series.empty() ||
        std::all_of(table.series.begin(), table.series.end(),
                    [](const ReferenceSeries& s) { return s.throughput.empty(); }))
        refuse(where + "throughput", "no figure (give \"throughput\" or \"series\")");
    if (t.contains("speedup")) table.speedup = readFigures(t["speedup"], where + "speedup");
    return table;
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
    if (j.is_discarded()) {
        if (error) *error = "not valid JSON";
        return std::nullopt;
    }
    if (!j.is_object() || !j.contains("tables") || !j["tables"].is_array()) {
        if (error) *error = "not a published-tables JSON document (no \"tables\" array)";
        return std::nullopt;
    }
    ReferenceCatalog catalog;
    try {
        for (std::size_t i = 0; i < j["tables"].size(); ++i)
            catalog.m_tables.push_back(
                readTable(j["tables"][i], catalog, "tables[" + std::to_string(i) + "]"));
    } catch (const Refusal& r) {
        if (error) *error = r.what;
        return std::nullopt;
    }
    return catalog;
}

bool ReferenceCatalog::addFile(const std::filesystem::path& file, std::string* error) {
    const auto text = readCatalogueFile(file, error);
    if (!text) return false;
    std::string why;
    auto other = fromJson(*text, &why);
    if (!other) {
        if (error) *error = file.string() + ": " + why;
        return false;
    }
    for (const auto& t : other->m_tables)
        if (find(t.id)) {
            if (error)
                *error = file.string() + ": table " + t.id + ": id: " +
                         (find(t.id)->origin.empty() ? "a published table has this id"
                                                     : "already read from " + find(t.id)->origin);
            return false;
        }
    for (auto& t : other->m_tables) {
        t.origin = file.string();
        m_tables.push_back(std::move(t));
    }
    return true;
}

ReferenceCatalog ReferenceCatalog::withUserTables(const std::filesystem::path& dir,
                                                  std::vector<std::string>* refused) {
    ReferenceCatalog catalog = builtin();
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::string error;
        if (!catalog.addFile(f, &error) && refused) refused->push_back(error);
    }
    return catalog;
}

const ReferenceTable* ReferenceCatalog::find(std::string_view id) const {
    for (const auto& t : m_tables)
        if (t.id == id) return &t;
    return nullptr;
}

std::string modelFamily(std::string_view model) {
    const std::string m = lower(std::string(model));
    if (m.rfind("r50", 0) == 0 || m.rfind("rn50", 0) == 0 || m.rfind("resnet50", 0) == 0)
        return "r50";
    if (m.find("bert") != std::string::npos) return "bert";
    return m;
}

namespace {

// "NGC TensorFlow 1.15.2 with XLA" is a series of "NGC TensorFlow 1"; a table's own framework
// may leave out the "NGC " where it names NVIDIA's container instead ("MXNet (NVIDIA container
// 19.07)"), a series name may not: "MXNet 1.6.0 (gluon-cv)", "MXNet gluon-cv (MXNet 1.6.0)" and
// "PyTorch 1.6.0 (pytorch/examples)" are other frameworks than NGC MXNet and NGC PyTorch.
bool ofFramework(std::string_view name, std::string_view framework, bool ngcAlias) {
    auto prefix = [&](std::string_view f) {
        return name.substr(0, f.size()) == f && (name.size() == f.size() || name[f.size()] == ' ' ||
                                                 name[f.size()] == '.' || name[f.size()] == ',');
    };
    return prefix(framework) ||
           (ngcAlias && framework.rfind("NGC ", 0) == 0 &&
            name.find("NVIDIA") != std::string_view::npos && prefix(framework.substr(4)));
}

} // namespace

bool ReferenceCatalog::standsFor(const ReferenceTable& t, const ReferenceSeries& s,
                                 std::string_view framework) {
    // A table that names no framework, of one series (a user's own), stands for any.
    if (framework.empty() || (t.framework.empty() && t.series.size() <= 1)) return true;
    return t.framework.empty() ? ofFramework(s.name, framework, false)
                               : ofFramework(t.framework, framework, true);
}

std::optional<ReferenceValue> ReferenceCatalog::match(std::string_view precision, int batch,
                                                      std::string_view model,
                                                      std::string_view framework) const {
    for (const auto& t : m_tables) {
        // Without a model, ResNet-50's: what the lookup has always meant.
        if (modelFamily(t.model) != modelFamily(model.empty() ? "r50" : model)) continue;
        // A comparison table stands by its primary series, or the framework's series; a table
        // of unlabelled series (NVIDIA's) offers each series that names its precision and batch.
        std::vector<const ReferenceSeries*> candidates;
        if (!framework.empty() && (!t.framework.empty() || t.series.size() > 1)) {
            for (const auto& s : t.series)
                if (standsFor(t, s, framework)) candidates.push_back(&s);
        } else if (t.precision)
            candidates.push_back(t.primary());
        else
            for (const auto& s : t.series)
                candidates.push_back(&s);
        for (const auto* s : candidates)
            if (s && s->precision == precision && s->batchPerDevice == batch &&
                !s->throughput.empty())
                return ReferenceValue{&t, s, 0.0};
    }
    return std::nullopt;
}

std::optional<ReferenceValue> ReferenceCatalog::lookup(std::string_view precision, int batch,
                                                       std::string_view topology,
                                                       std::string_view model,
                                                       std::string_view framework) const {
    // One table for the case's model, framework, precision and batch at every topology: where
    // it has no figure, there is none (another table's would make a chart of two sources).
    auto chosen = match(precision, batch, model, framework);
    if (!chosen) return std::nullopt;
    auto it = chosen->series->throughput.find(std::string(topology));
    if (it == chosen->series->throughput.end()) return std::nullopt;
    chosen->throughput = it->second;
    return chosen;
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
