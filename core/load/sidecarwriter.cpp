#include "core/load/sidecarwriter.h"

#include "core/model/atomicfile.h"
#include "core/model/jsontext.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json; // the user's keys keep their order

bool stop(const fs::path& dir, const fs::path& root) {
    return dir == root || dir == dir.parent_path() || !dir.has_relative_path();
}

// The existing sidecar as an object; nullopt (and *error) when it cannot be read or is not one.
std::optional<Json> readExisting(const fs::path& sidecar, std::string& error) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(sidecar, ec))) return Json::object();
    std::string why;
    const std::optional<std::string> text = readSidecarText(sidecar, &why);
    if (!text) {
        error = "it cannot be read (" + why + "); it was left as it is";
        return std::nullopt;
    }
    Json j = Json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        error = "it is not a JSON object; fix or remove it first (it was left as it is)";
        return std::nullopt;
    }
    if (j.contains("files") && !j["files"].is_object()) {
        error = "its \"files\" is not an object; fix it first (it was left as it is)";
        return std::nullopt;
    }
    return j;
}

std::optional<std::string> setEntry(Json& entry, const SidecarEntry& k) {
    if (!entry.is_object()) return "the log's entry is not an object (it was left as it is)";
    for (auto v : {k.batch, k.repeat, k.gpus, k.nodes})
        if (v && (*v < 0 || *v >= (1 << 24))) return "a number out of range";
    if (k.model) entry["model"] = *k.model;
    if (k.precision) entry["precision"] = *k.precision;
    if (k.label) entry["label"] = *k.label;
    if (k.batch) entry["batch"] = *k.batch;
    if (k.repeat) entry["repeat"] = *k.repeat;
    if (k.nodes) entry["nodes"] = *k.nodes;
    if (k.gpus) entry["gpus"] = *k.gpus;
    if (k.nodes || k.gpus) entry.erase("topology"); // it would override them
    return std::nullopt;
}

} // namespace

fs::path sidecarFor(const fs::path& file, const fs::path& root) {
    std::error_code ec;
    for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (fs::exists(dir / "scaleview.json", ec)) return dir / "scaleview.json";
        if (stop(dir, root)) break;
    }
    return file.parent_path() / "scaleview.json";
}

std::string sidecarEntryName(const fs::path& file, const fs::path& sidecarDir) {
    const std::string rel = file.lexically_relative(sidecarDir).generic_string();
    std::string name;
    for (char c : rel) {
        if (c == '*' || c == '?' || c == '[' || c == '\\') name += '\\';
        name += c;
    }
    return name;
}

SidecarWriteResult setSidecarEntry(const fs::path& file, const fs::path& root,
                                   const SidecarEntry& keys) {
    SidecarWriteResult r;
    const fs::path sidecar = sidecarFor(file, root);
    r.sidecar = sidecar.string();
    auto fail = [&](const std::string& why) {
        r.error = "cannot write " + r.sidecar + ": " + why;
        return r;
    };
    // A folder below root that is a symlink to elsewhere: the user opened root, not the
    // place it points to, so nothing is written there.
    if (!staysWithin(sidecar.parent_path(), root)) {
        std::error_code ec;
        return fail("its folder resolves to " +
                    fs::weakly_canonical(sidecar.parent_path(), ec).string() + ", outside " +
                    root.string() + " (a symlink?); nothing written");
    }
    std::string why;
    std::optional<Json> j = readExisting(sidecar, why);
    if (!j) return fail(why);
    Json& entry = (*j)["files"][sidecarEntryName(file, sidecar.parent_path())];
    if (entry.is_null()) entry = Json::object();
    if (auto e = setEntry(entry, keys)) return fail(*e);
    if (auto e = writeFileAtomically(sidecar, jsonText(*j, 2) + "\n", {.mode = 0644})) {
        r.error = std::move(*e); // names the file and the reason already
        return r;
    }
    return r;
}

} // namespace sv
