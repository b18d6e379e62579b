#pragma once
// Writing a log's keys into a scaleview.json (the format core/load/runidentity.h reads): what the
// app does when the user sets a run's batch, GPUs, precision or model. The user's file is read,
// only the log's own "files" entry changes (every other entry, glob and top-level key stays), and
// the new text replaces the old atomically (a temporary file in the same folder, fsync, rename):
// the user's sidecar is never truncated in place, and one that is not valid JSON is refused, never
// overwritten.

#include "core/load/runidentity.h"

#include <filesystem>
#include <optional>
#include <string>

namespace sv {

// The scaleview.json a key for file is written to: the nearest one the reader would use (from the
// file's folder up to root), else a new one in the file's folder.
std::filesystem::path sidecarFor(const std::filesystem::path& file,
                                 const std::filesystem::path& root);

// The name of file's entry in the sidecar of folder sidecarDir: its path relative to that folder,
// with fnmatch's special characters escaped so that it names this file alone.
std::string sidecarEntryName(const std::filesystem::path& file,
                             const std::filesystem::path& sidecarDir);

struct SidecarWriteResult {
    std::string sidecar;              // the scaleview.json written (or that could not be)
    std::optional<std::string> error; // "cannot write <file>: <reason>"
};

// Sets file's entry in sidecarFor(file, root): each field keys has is set (nodes and gpus replace
// the entry's "topology"); the fields it lacks stay as they are. keys.file is not used.
SidecarWriteResult setSidecarEntry(const std::filesystem::path& file,
                                   const std::filesystem::path& root, const SidecarEntry& keys);

} // namespace sv
