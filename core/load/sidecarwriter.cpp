#include "core/load/sidecarwriter.h"

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

std::string sysError(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

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

bool writeAll(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// text replaces path: a temporary file beside it, synced, then renamed over it.
std::optional<std::string> replaceAtomically(const fs::path& path, const std::string& text) {
    const fs::path dir = path.parent_path();
    std::string tmp = (dir / ".scaleview.json.XXXXXX").string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) return sysError("cannot create a file in " + dir.string());
    struct stat st {};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0644;
    bool ok = ::fchmod(fd, mode) == 0 && writeAll(fd, text) && ::fsync(fd) == 0;
    std::string why = ok ? std::string() : sysError("cannot write " + tmp);
    if (::close(fd) != 0 && ok) {
        ok = false;
        why = sysError("cannot write " + tmp);
    }
    if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
        ok = false;
        why = sysError("cannot replace it");
    }
    if (!ok) {
        ::unlink(tmp.c_str());
        return why;
    }
    if (const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
        ::fsync(d); // the rename itself on disk; a folder that cannot be synced still has it
        ::close(d);
    }
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
    if (auto e = replaceAtomically(sidecar, j->dump(2) + "\n")) return fail(*e);
    return r;
}

} // namespace sv
