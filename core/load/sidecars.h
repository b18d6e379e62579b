#pragma once
// The user's scaleview.json files, read as a scan reads them: bounded before they are read, every
// key they hold either used or said to be ignored, the nearest one applying to a log.
//
// scaleview.json (the user's, per folder; the nearest one up to the scanned root applies):
//   { "model": "resnet50", "batch": 256, "precision": "fp16", "topology": "2n8g",
//     "gpus": 16, "nodes": 2, "repeat": 1, "label": "cluster A",
//     "files": { "result_*.txt": { "batch": 208 }, "run3.log": { "repeat": 3 } } }
// Top-level fields apply to every log below the folder; "files" entries (fnmatch globs on the
// path relative to the sidecar's folder, or on the file name) override them for their files; an
// entry with no wildcard (one file's, as the app writes them: core/load/sidecarwriter.h) applies
// after the globs, so it wins over them.

#include "core/model/warning.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sv {

// One scaleview.json's entry for a file.
struct SidecarEntry {
    std::optional<std::string> model, precision, label;
    std::optional<int> batch, repeat, gpus, nodes;
    std::string file; // the sidecar's path, for messages
};

// The most a scaleview.json may hold: a few keys and one entry per log come to kilobytes; a
// larger file is refused from its size, never read whole (a 3 GB one once took 6.3 GB).
inline constexpr std::uintmax_t kMaxSidecarBytes = std::uintmax_t{1} << 20;

// A scaleview.json's text, read with that bound: nullopt and *error ("larger than 1 MiB (N
// bytes): not read", "not a regular file", the system's words) when it cannot be.
std::optional<std::string> readSidecarText(const std::filesystem::path& file, std::string* error);

// Whether path, with every symlink resolved, lies within root's resolved folder (or is it).
bool staysWithin(const std::filesystem::path& path, const std::filesystem::path& root);

class Sidecars {
  public:
    explicit Sidecars(std::filesystem::path root) : m_root(std::move(root)) {}
    // The entry for file (nearest scaleview.json from its folder up to the root); problems with
    // a sidecar go to warnings once.
    std::optional<SidecarEntry> lookup(const std::filesystem::path& file,
                                       std::vector<Warning>& warnings);

  private:
    struct Loaded {
        bool present = false;
        std::string path;
        std::string text; // the JSON, parsed per lookup (a few per folder)
    };
    const Loaded& load(const std::filesystem::path& dir, std::vector<Warning>& warnings);
    std::filesystem::path m_root;
    std::vector<std::pair<std::string, Loaded>> m_cache;
};

} // namespace sv
