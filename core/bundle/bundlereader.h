#pragma once
// A bundle opened safely: extracted into a private folder the caller made (0700, new), its
// entries checked against the manifest before and while they are written. A bundle that cannot
// be read safely is refused with its reason; one whose files differ from the manifest is opened
// with every difference named (and so is not verified).

#include "core/bundle/bundlemanifest.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct BundleLimits {
    // What a bundle may decompress to in all; a manifest listing more is refused before any
    // file is written.
    std::uint64_t maxBytes = 8ULL << 30;
};

struct OpenedBundle {
    std::filesystem::path folder; // the bundle's files (MANIFEST.json, campaign/, results/)
    BundleManifest manifest;
    std::string manifestText;
    std::optional<std::string> refused; // why it was not opened at all
    std::vector<std::string> problems;  // each file that differs from the manifest, named
    std::vector<std::string> notes;     // said, but no reason to doubt (an older layout)
    bool signed_ = false;               // MANIFEST.json.sig is there
    std::string signature;              // its text, for the caller to check
};

// Extracts bundle into privateFolder (which must exist and be empty).
OpenedBundle readBundle(const std::filesystem::path& bundle,
                        const std::filesystem::path& privateFolder,
                        const BundleLimits& limits = {});

// A new folder only this user can read, under the system's temporary folder; nullopt with
// *error on failure.
std::optional<std::filesystem::path> makePrivateFolder(std::string* error);

} // namespace sv
