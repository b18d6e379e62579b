#include "core/bundle/bundleverify.h"

#include "core/bundle/bundlewriter.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace sv {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kMaxNamed = 20;

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    if (from.empty()) return;
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

void rebase(json& j, const std::string& root) {
    if (j.is_string()) {
        std::string s = j.get<std::string>();
        replaceAll(s, root, "<campaign>");
        j = s;
    } else if (j.is_structured()) {
        for (auto& v : j)
            rebase(v, root);
    }
}

std::string shown(const json& j) {
    std::string s = j.dump();
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

void diff(const json& a, const json& b, const std::string& at, std::vector<std::string>& out) {
    if (a.type() == b.type() && a.is_object()) {
        for (const auto& [key, value] : a.items()) {
            const std::string here = at.empty() ? key : at + "." + key;
            if (!b.contains(key))
                out.push_back(here + ": recorded " + shown(value) + ", not recomputed");
            else
                diff(value, b.at(key), here, out);
        }
        for (const auto& [key, value] : b.items())
            if (!a.contains(key))
                out.push_back((at.empty() ? key : at + "." + key) + ": not recorded, recomputed " +
                              shown(value));
        return;
    }
    if (a.type() == b.type() && a.is_array()) {
        if (a.size() != b.size())
            out.push_back(at + ": " + std::to_string(a.size()) + " recorded, " +
                          std::to_string(b.size()) + " recomputed");
        for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            diff(a[i], b[i], at + "[" + std::to_string(i) + "]", out);
        return;
    }
    if (a != b) out.push_back(at + ": recorded " + shown(a) + ", recomputed " + shown(b));
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

std::vector<std::string> compareSummaries(const std::string& recorded,
                                          const std::string& recordedRoot,
                                          const std::string& recomputed,
                                          const std::string& recomputedRoot) {
    json a = json::parse(recorded, nullptr, false);
    json b = json::parse(recomputed, nullptr, false);
    if (a.is_discarded() || !a.is_object())
        return {std::string(kResultsName) + ": not a JSON object"};
    if (b.is_discarded() || !b.is_object()) return {"the recomputed summary is not a JSON object"};
    a.erase("tool");
    b.erase("tool");
    rebase(a, recordedRoot);
    rebase(b, recomputedRoot);
    std::vector<std::string> out;
    diff(a, b, "", out);
    if (out.size() > kMaxNamed) {
        const std::size_t more = out.size() - kMaxNamed;
        out.resize(kMaxNamed);
        out.push_back("and " + std::to_string(more) + " more figures differ");
    }
    for (auto& d : out)
        d = std::string(kResultsName) + ": " + d;
    return out;
}

std::vector<std::string> BundleVerdict::reasons() const {
    std::vector<std::string> out;
    if (opened.refused) out.push_back("refused: " + *opened.refused);
    for (const auto& f : opened.manifest.unknownFields)
        out.push_back(std::string(kManifestName) + ": field '" + f +
                      "' this ScaleView does not know (a newer ScaleView made the bundle)");
    out.insert(out.end(), opened.problems.begin(), opened.problems.end());
    out.insert(out.end(), differences.begin(), differences.end());
    return out;
}

BundleVerdict verifyBundle(const fs::path& bundle, const fs::path& privateFolder,
                           const std::string& scaleviewVersion, const BundleLimits& limits) {
    BundleVerdict v;
    v.opened = readBundle(bundle, privateFolder, limits);
    v.notes = v.opened.notes;
    if (v.opened.refused) return v;
    const BundleManifest& m = v.opened.manifest;
    if (m.scaleviewVersion != scaleviewVersion)
        v.notes.push_back("made by ScaleView " + m.scaleviewVersion + ", recomputed by " +
                          scaleviewVersion);
    const fs::path campaign = privateFolder / kCampaignFolder;
    const fs::path results = privateFolder / kResultsName;
    if (!fs::is_directory(campaign) || !fs::is_regular_file(results)) {
        v.differences.push_back("the bundle holds no campaign folder or no results to recompute");
        return v;
    }
    // The same campaign file, where the bundle's campaign now is.
    BundleMethod method = m.results;
    if (method.campaignFile.rfind(method.sourceRoot + "/", 0) == 0)
        method.campaignFile =
            campaign.string() + method.campaignFile.substr(method.sourceRoot.size());
    v.recomputedJson = summarizeForBundle(campaign, method, scaleviewVersion);
    v.differences = compareSummaries(readText(results), m.results.sourceRoot, v.recomputedJson,
                                     campaign.string());
    return v;
}

} // namespace sv
