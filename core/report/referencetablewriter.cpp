#include "core/report/referencetablewriter.h"
#include "core/model/jsontext.h"
#include "core/model/atomicfile.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <fcntl.h>
#include <map>
#include <regex>
#include <set>
#include <tuple>
#include <unistd.h>

namespace sv {

std::optional<std::string> referenceTablesJson(const Summary& s, const ReferenceTableInfo& info,
                                               std::string* error) {
    using nlohmann::ordered_json;
    std::map<std::tuple<std::string, std::string, int>, std::vector<const CaseStats*>> groups;
    std::set<std::string> models;
    for (const auto& c : s.cases)
        if (c.median) {
            groups[{c.key.model, c.key.precision, c.key.batchPerDevice}].push_back(&c);
            models.insert(c.key.model);
        }
    if (groups.empty()) {
        if (error) *error = "no case with a usable run in " + s.root;
        return std::nullopt;
    }
    ordered_json tables = ordered_json::array();
    for (const auto& [key, cases] : groups) {
        const auto& [model, precision, batch] = key;
        std::string id = info.id;
        if (groups.size() > 1)
            id += (models.size() > 1 ? "-" + model : std::string()) + "-" + precision + "-bs" +
                  std::to_string(batch);
        ordered_json t;
        t["id"] = id;
        t["title"] = info.title + (groups.size() > 1 ? " (" + model + ", " + precision +
                                                           ", batch " + std::to_string(batch) + ")"
                                                     : std::string());
        t["source"] = info.source;
        t["model"] = model;
        t["precision"] = precision;
        t["batch_size_per_device"] = batch;
        t["hardware"] = info.hardware;
        ordered_json throughput = ordered_json::object(), speedup = ordered_json::object(),
                     repeats = ordered_json::object();
        for (const CaseStats* c : cases) {
            const std::string topo = c->key.topology.name();
            throughput[topo] = *c->median;
            if (c->speedup) speedup[topo] = *c->speedup;
            repeats[topo] = c->values;
        }
        t["throughput"] = throughput;
        if (!speedup.empty()) t["speedup"] = speedup;
        t["method"] = std::string(methodName(s.options.method));
        t["repeats"] = repeats;
        t["repeats_note"] = "Each usable run's throughput by the " +
                            std::string(methodName(s.options.method)) + " method, " +
                            windowText(s) + ".";
        tables.push_back(std::move(t));
    }
    ordered_json doc;
    doc["about"] = "Reference tables saved by ScaleView from measured logs.";
    doc["tables"] = std::move(tables);
    return jsonText(doc, 2) + "\n";
}

std::filesystem::path userReferenceDirectory(const char* xdgDataHome, const char* home) {
    // The XDG Base Directory spec: a relative XDG_DATA_HOME is invalid and ignored.
    std::filesystem::path base;
    if (xdgDataHome && *xdgDataHome && std::filesystem::path(xdgDataHome).is_absolute())
        base = xdgDataHome;
    else
        base = std::filesystem::path(home && *home ? home : "/") / ".local" / "share";
    return base / "scaleview" / "references";
}

bool isValidReferenceId(const std::string& id) {
    static const std::regex safeId(R"([A-Za-z0-9][A-Za-z0-9._-]{0,99})");
    return std::regex_match(id, safeId);
}

bool writeNewReferenceFile(const std::filesystem::path& path, const std::string& text,
                           std::string& error) {
    // Linked into place, never over a table already there.
    if (const auto failed = writeFileAtomically(path, text, {.mode = 0644, .replace = false})) {
        error = *failed + (failed->ends_with(" already exists") ? ": choose another id" : "");
        return false;
    }
    return true;
}

} // namespace sv
