#include "core/bundle/bundlemanifest.h"

#include "core/bundle/bundleerror.h"
#include "core/bundle/bundlepath.h"

#include <nlohmann/json.hpp>

#include <set>

namespace sv {
namespace {

using nlohmann::json;

json methodJson(const BundleMethod& m) {
    return {{"file", kResultsName},
            {"method", m.method},
            {"warmup", m.warmup},
            {"iterations", m.iterations},
            {"format_defaults", m.formatDefaults},
            {"log_format", m.logFormat},
            {"reference", m.reference},
            {"cv_threshold_pct", m.cvPct},
            {"exclude_disturbed", m.excludeDisturbed},
            {"window_source", m.windowSource},
            {"campaign_file", m.campaignFile},
            {"source_root", m.sourceRoot}};
}

BundleMethod methodFrom(const json& j) {
    BundleMethod m;
    m.method = j.at("method").get<std::string>();
    m.warmup = j.at("warmup").get<int>();
    m.iterations = j.at("iterations").get<int>();
    m.formatDefaults = j.at("format_defaults").get<bool>();
    m.logFormat = j.at("log_format").get<std::string>();
    m.reference = j.at("reference").get<std::string>();
    m.cvPct = j.at("cv_threshold_pct").get<double>();
    m.excludeDisturbed = j.at("exclude_disturbed").get<bool>();
    m.windowSource = j.at("window_source").get<std::string>();
    m.campaignFile = j.at("campaign_file").get<std::string>();
    m.sourceRoot = j.at("source_root").get<std::string>();
    return m;
}

bool isSha256(const std::string& s) {
    return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

} // namespace

std::string BundleManifest::toJson() const {
    json files = json::array();
    for (const auto& f : this->files)
        files.push_back({{"path", f.path}, {"size", f.size}, {"sha256", f.sha256}});
    const json j = {{"format", "scaleview-bundle"},
                    {"format_version", formatVersion},
                    {"scaleview_version", scaleviewVersion},
                    {"created", created},
                    {"created_by", createdBy},
                    {"campaign", campaign},
                    {"results", methodJson(results)},
                    {"files", files}};
    return j.dump(2) + "\n";
}

BundleManifest BundleManifest::parse(const std::string& text) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw BundleRefused(std::string(kManifestName) + " is not a JSON object");
    BundleManifest m;
    try {
        if (j.at("format").get<std::string>() != "scaleview-bundle")
            throw BundleRefused(std::string(kManifestName) + " is no ScaleView bundle's manifest");
        m.formatVersion = j.at("format_version").get<int>();
        m.scaleviewVersion = j.value("scaleview_version", std::string());
        // A newer format may mean anything: say so rather than guess at it.
        if (m.formatVersion > kBundleFormatVersion)
            throw BundleRefused("a bundle of format version " + std::to_string(m.formatVersion) +
                                " (made by ScaleView " + m.scaleviewVersion +
                                "); this ScaleView reads version " +
                                std::to_string(kBundleFormatVersion) + ": update ScaleView");
        if (m.formatVersion < 1)
            throw BundleRefused(std::string(kManifestName) + ": format_version " +
                                std::to_string(m.formatVersion) + " is not a version");
        m.created = j.at("created").get<std::string>();
        m.createdBy = j.at("created_by").get<std::string>();
        m.campaign = j.at("campaign").get<std::string>();
        m.results = methodFrom(j.at("results"));
        std::set<std::string> seen;
        for (const auto& f : j.at("files")) {
            BundleFile b{f.at("path").get<std::string>(), f.at("size").get<std::uint64_t>(),
                         f.at("sha256").get<std::string>()};
            if (auto bad = bundlePathProblem(b.path))
                throw BundleRefused(std::string(kManifestName) + " lists " + b.path +
                                    ": the path " + *bad);
            if (!isSha256(b.sha256))
                throw BundleRefused(std::string(kManifestName) + " lists " + b.path +
                                    " with a malformed SHA-256");
            if (!seen.insert(b.path).second)
                throw BundleRefused(std::string(kManifestName) + " lists " + b.path + " twice");
            m.files.push_back(std::move(b));
        }
    } catch (const json::exception& e) {
        throw BundleRefused(std::string(kManifestName) + " is malformed: " + e.what());
    }
    static const std::set<std::string> known = {"format",  "format_version", "scaleview_version",
                                                "created", "created_by",     "campaign",
                                                "results", "files"};
    for (const auto& [key, value] : j.items())
        if (!known.count(key)) m.unknownFields.push_back(key);
    return m;
}

std::string BundleManifest::sha256sums(const std::string& manifestSha256) const {
    std::string out = manifestSha256 + "  " + kManifestName + "\n";
    for (const auto& f : files)
        out += f.sha256 + "  " + f.path + "\n";
    return out;
}

std::uint64_t BundleManifest::totalSize() const {
    std::uint64_t total = 0;
    for (const auto& f : files)
        total += f.size;
    return total;
}

} // namespace sv
