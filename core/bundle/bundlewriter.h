#pragma once
// A campaign folder into one bundle: every regular file under it exactly as written, the
// summary ScaleView computes from it (`summarize --format json`) with the method and window
// used, and the manifest of sizes and SHA-256s; a gzip-compressed ustar file (.svbundle).

#include "core/bundle/bundlemanifest.h"
#include "core/load/runloader.h"
#include "core/stats/casestats.h"
#include "core/stats/summary.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace sv {

struct BundleRequest {
    std::filesystem::path campaignDir;
    // How the results are computed, as `summarize` would: the caller chooses the window (the
    // campaign's, or the one given) the way summarize does.
    LoadOptions load;
    Method method = Method::Time;
    std::string reference;
    double cvPct = 5.0;
    bool excludeDisturbed = false;
    std::string windowSource, campaignFile;
    // Who, when and with what: the manifest's origin fields.
    std::string scaleviewVersion, createdBy, created;
    std::int64_t mtime = 0; // every entry's time in the archive
    // Signs the manifest (the caller's, since signing runs a program): the signature's text,
    // or nullopt with *error. Empty: the bundle is not signed.
    std::function<std::optional<std::string>(const std::string& manifest, std::string* error)> sign;
};

struct BundleBuilt {
    std::string bytes; // the whole .svbundle
    BundleManifest manifest;
    std::string summaryJson;
    std::optional<std::string> error; // what stopped it, naming the file
};

BundleBuilt buildBundle(const BundleRequest& request);

// The summary of dir by a manifest's method and window, as summarize computes it.
Summary bundleSummary(const std::filesystem::path& dir, const BundleMethod& method);

// The results as the bundle records them: the summary of dir by the manifest's method.
std::string summarizeForBundle(const std::filesystem::path& dir, const BundleMethod& method,
                               const std::string& scaleviewVersion);

} // namespace sv
