#include "core/load/sidecars.h"

#include "core/model/boundedread.h"
#include "core/model/runkey.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fnmatch.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {
namespace fs = std::filesystem;
namespace {

std::optional<int> jsonInt(const nlohmann::json& j, const char* key, const std::string& file,
                           std::vector<Warning>& warnings) {
    if (!j.contains(key)) return std::nullopt;
    const auto& v = j[key];
    if (v.is_number_integer() && v.get<long long>() >= 0 && v.get<long long>() < (1 << 24))
        return static_cast<int>(v.get<long long>());
    warnings.push_back({file, 0, std::string("\"") + key + "\" must be a whole number; ignored"});
    return std::nullopt;
}

std::optional<std::string> jsonString(const nlohmann::json& j, const char* key,
                                      const std::string& file, std::vector<Warning>& warnings) {
    if (!j.contains(key)) return std::nullopt;
    // A model, precision or label is a short name; a longer text would fill every table.
    constexpr std::size_t kMaxBytes = 200;
    if (j[key].is_string() && j[key].get_ref<const std::string&>().size() > kMaxBytes) {
        warnings.push_back({file, 0,
                            std::string("\"") + key + "\" is longer than " +
                                std::to_string(kMaxBytes) + " bytes; ignored"});
        return std::nullopt;
    }
    if (j[key].is_string()) return j[key].get<std::string>();
    warnings.push_back({file, 0, std::string("\"") + key + "\" must be a string; ignored"});
    return std::nullopt;
}

// A key the reader does not know is said, never silently dropped: a typo ("precison") would
// otherwise leave the field unknown without a word.
void warnUnknownKeys(const nlohmann::json& j, const SidecarEntry& e, std::vector<Warning>& warnings,
                     const std::string& where) {
    static const std::set<std::string, std::less<>> kKnown{
        "model", "batch", "precision", "topology", "gpus", "nodes", "repeat", "label", "device"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (kKnown.count(key) > 0 || (key == "files" && where.empty())) continue;
        std::string shown = key.substr(0, 60);
        if (shown.size() < key.size()) shown += "...";
        warnings.push_back({e.file, 0,
                            where + "\"" + shown +
                                "\" is not a key of scaleview.json (known: model, batch, "
                                "precision, topology, gpus, nodes, repeat, label, device" +
                                (where.empty() ? ", files" : "") + "); ignored"});
    }
}

void applyEntry(const nlohmann::json& j, SidecarEntry& e, std::vector<Warning>& warnings,
                const std::string& where = {}) {
    if (!j.is_object()) {
        warnings.push_back({e.file, 0, where + "must be an object of keys; ignored"});
        return;
    }
    warnUnknownKeys(j, e, warnings, where);
    if (auto v = jsonString(j, "model", e.file, warnings)) e.model = *v;
    if (auto v = jsonString(j, "precision", e.file, warnings)) e.precision = *v;
    if (auto v = jsonString(j, "label", e.file, warnings)) e.label = *v;
    if (auto v = jsonInt(j, "batch", e.file, warnings)) e.batch = *v;
    if (auto v = jsonInt(j, "repeat", e.file, warnings)) e.repeat = *v;
    if (auto v = jsonInt(j, "gpus", e.file, warnings)) e.gpus = *v;
    if (auto v = jsonInt(j, "nodes", e.file, warnings)) e.nodes = *v;
    if (auto t = jsonString(j, "topology", e.file, warnings)) {
        if (auto topo = parseTopology(*t)) {
            e.nodes = topo->nodes;
            e.gpus = topo->ranks();
        } else {
            warnings.push_back(
                {e.file, 0, "\"topology\" must be like 2n8g, not \"" + *t + "\"; ignored"});
        }
    }
}

// A "files" key with no unescaped wildcard: it names one file.
bool namesExactly(const std::string& glob) {
    for (std::size_t i = 0; i < glob.size(); ++i) {
        if (glob[i] == '\\')
            ++i;
        else if (glob[i] == '*' || glob[i] == '?' || glob[i] == '[')
            return false;
    }
    return true;
}

} // namespace

std::optional<std::string> readSidecarText(const fs::path& file, std::string* error) {
    return readBoundedText(file, kMaxSidecarBytes, "a sidecar", error);
}

bool staysWithin(const fs::path& path, const fs::path& root) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    if (ec) return false;
    const fs::path r = fs::weakly_canonical(root, ec);
    if (ec) return false;
    const fs::path rel = p.lexically_relative(r);
    return !rel.empty() && *rel.begin() != "..";
}

const Sidecars::Loaded& Sidecars::load(const fs::path& dir, std::vector<Warning>& warnings) {
    const std::string key = dir.string();
    for (const auto& [k, v] : m_cache)
        if (k == key) return v;
    Loaded l;
    const fs::path file = dir / "scaleview.json";
    std::error_code ec;
    if (fs::exists(fs::symlink_status(file, ec))) {
        l.present = true;
        l.path = file.string();
        std::string error;
        if (auto text = readSidecarText(file, &error)) {
            l.text = std::move(*text);
        } else {
            warnings.push_back({l.path, 0, error + "; ignored"});
            l.present = false;
            m_cache.emplace_back(key, std::move(l));
            return m_cache.back().second;
        }
        const auto j = nlohmann::json::parse(l.text, nullptr, false);
        if (j.is_discarded() || !j.is_object()) {
            warnings.push_back({l.path, 0, "not a JSON object; ignored"});
            l.present = false;
        }
    }
    m_cache.emplace_back(key, std::move(l));
    return m_cache.back().second;
}

std::optional<SidecarEntry> Sidecars::lookup(const fs::path& file, std::vector<Warning>& warnings) {
    for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        const Loaded& l = load(dir, warnings);
        if (l.present) {
            SidecarEntry e;
            e.file = l.path;
            std::vector<Warning> quiet; // type errors were said when it was first read
            auto& sink = warnings;
            const auto j = nlohmann::json::parse(l.text, nullptr, false);
            static thread_local std::vector<std::string> said;
            const bool first = std::find(said.begin(), said.end(), l.path) == said.end();
            if (first) said.push_back(l.path);
            applyEntry(j, e, first ? sink : quiet);
            if (j.contains("files") && !j["files"].is_object() && first)
                sink.push_back({e.file, 0, "\"files\" must be an object of globs; ignored"});
            if (j.contains("files") && j["files"].is_object()) {
                const std::string rel = file.lexically_relative(dir).string();
                const std::string name = file.filename().string();
                // Globs first, then the entries naming this file exactly (what the app writes):
                // the file's own entry wins over a pattern, whatever their order.
                for (const bool exact : {false, true})
                    for (const auto& [glob, entry] : j["files"].items())
                        if (namesExactly(glob) == exact &&
                            (::fnmatch(glob.c_str(), rel.c_str(), 0) == 0 ||
                             ::fnmatch(glob.c_str(), name.c_str(), 0) == 0))
                            applyEntry(entry, e, first ? sink : quiet,
                                       "files[\"" + glob.substr(0, 60) + "\"]: ");
            }
            return e;
        }
        if (dir == m_root || dir == dir.parent_path() || !dir.has_relative_path()) break;
    }
    return std::nullopt;
}

} // namespace sv
