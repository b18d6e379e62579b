#pragma once
// A bundle's manifest (MANIFEST.json): which ScaleView made it, who and when, how its results
// were computed (so they can be recomputed the same way), and every other file's size and
// SHA-256; and the same hashes as `sha256sum -c` lines (SHA256SUMS), for checking by hand.

#include <cstdint>
#include <string>
#include <vector>

namespace sv {

inline constexpr int kBundleFormatVersion = 1;
inline constexpr const char* kBundleTop = "svbundle";              // the archive's one top folder
inline constexpr const char* kManifestName = "MANIFEST.json";      // the archive's first entry
inline constexpr const char* kSumsName = "SHA256SUMS";             // derived from the manifest
inline constexpr const char* kSignatureName = "MANIFEST.json.sig"; // ssh-keygen -Y sign's
inline constexpr const char* kResultsName = "results/summary.json";
inline constexpr const char* kCampaignFolder = "campaign";

struct BundleFile {
    std::string path; // relative to the bundle's top folder
    std::uint64_t size = 0;
    std::string sha256;
};

// How the recorded results were computed: what `summarize` was given.
struct BundleMethod {
    std::string method = "time";
    int warmup = 20, iterations = 120;
    bool formatDefaults = false;
    std::string logFormat, reference;
    double cvPct = 5.0;
    bool excludeDisturbed = false;
    std::string windowSource, campaignFile, sourceRoot;
};

struct BundleManifest {
    int formatVersion = kBundleFormatVersion;
    std::string scaleviewVersion, created, createdBy, campaign;
    BundleMethod results;
    std::vector<BundleFile> files;
    // Top-level fields this ScaleView does not know (a newer one wrote them).
    std::vector<std::string> unknownFields;

    std::string toJson() const;
    // Throws BundleRefused naming what is malformed, or a newer format version.
    static BundleManifest parse(const std::string& text);
    // "<sha256>  <path>\n" for the manifest itself, then every file, as sha256sum writes them.
    std::string sha256sums(const std::string& manifestSha256) const;
    std::uint64_t totalSize() const;
};

} // namespace sv
