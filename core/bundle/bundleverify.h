#pragma once
// A bundle checked the whole way: read safely (bundlereader.h), every file against the manifest,
// and the results recomputed from the extracted raw logs by the recorded method and window and
// compared figure by figure. Verified only when nothing at all differs.

#include "core/bundle/bundlereader.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sv {

struct BundleVerdict {
    OpenedBundle opened;
    // Each figure the recomputation gives otherwise: "cases[0].median: recorded 1200.5,
    // recomputed 1187.25".
    std::vector<std::string> differences;
    std::vector<std::string> notes; // said, but no reason to doubt (another ScaleView version)
    std::string recomputedJson;

    // Everything that keeps the bundle from being verified, refusal first.
    std::vector<std::string> reasons() const;
    bool verified() const { return reasons().empty(); }
};

// Opens bundle into privateFolder (new and empty) and checks it; scaleviewVersion is this
// program's, written into the recomputed summary.
BundleVerdict verifyBundle(const std::filesystem::path& bundle,
                           const std::filesystem::path& privateFolder,
                           const std::string& scaleviewVersion, const BundleLimits& limits = {});

// Two summary documents compared with each one's root folder taken out of its text (the same
// logs read in another place); the tool's own name and version are not compared.
std::vector<std::string> compareSummaries(const std::string& recorded,
                                          const std::string& recordedRoot,
                                          const std::string& recomputed,
                                          const std::string& recomputedRoot);

} // namespace sv
