#include "core/bundle/bundlewriter.h"

#include "core/bundle/bundlepath.h"
#include "core/bundle/gzipwriter.h"
#include "core/bundle/sha256.h"
#include "core/bundle/tarwriter.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace sv {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> readWhole(const fs::path& file, std::string* out) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return "cannot read " + file.string();
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) return "cannot read " + file.string();
    *out = std::move(s).str();
    return std::nullopt;
}

// Every regular file under dir, as paths relative to it, sorted; a link or special file is an
// error naming it (a bundle holds what is there, never what a link points at).
std::optional<std::string> listFiles(const fs::path& dir, std::vector<std::string>* out) {
    std::error_code ec;
    fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
    if (ec) return "cannot read " + dir.string() + ": " + ec.message();
    for (; it != end; it.increment(ec)) {
        if (ec) return "cannot read " + dir.string() + ": " + ec.message();
        const auto status = it->symlink_status();
        if (fs::is_directory(status)) continue;
        const std::string rel = it->path().lexically_relative(dir).generic_string();
        if (!fs::is_regular_file(status))
            return it->path().string() + ": not a regular file (a link or device); a bundle " +
                   "holds regular files only";
        if (auto bad = bundlePathProblem(std::string(kCampaignFolder) + "/" + rel))
            return it->path().string() + ": the name " + *bad;
        out->push_back(rel);
    }
    std::sort(out->begin(), out->end());
    return std::nullopt;
}

BundleMethod methodOf(const BundleRequest& r, const std::string& root) {
    BundleMethod m;
    m.method = std::string(methodName(r.method));
    m.warmup = r.load.measure.warmup;
    m.iterations = r.load.measure.iterations;
    m.formatDefaults = r.load.measure.formatDefaults;
    m.logFormat = r.load.logFormat;
    m.reference = r.reference;
    m.cvPct = r.cvPct;
    m.excludeDisturbed = r.excludeDisturbed;
    m.windowSource = r.windowSource;
    m.campaignFile = r.campaignFile;
    m.sourceRoot = root;
    return m;
}

} // namespace

Summary bundleSummary(const fs::path& dir, const BundleMethod& m) {
    LoadOptions load;
    load.measure.warmup = m.warmup;
    load.measure.iterations = m.iterations;
    load.measure.formatDefaults = m.formatDefaults;
    load.logFormat = m.logFormat;
    SummaryOptions options;
    options.method = parseMethod(m.method).value_or(Method::Time);
    options.reference = m.reference;
    options.trust.cvPct = m.cvPct;
    options.excludeDisturbed = m.excludeDisturbed;
    Summary summary = summarizePaths({dir}, load, options);
    summary.windowSource = m.windowSource;
    summary.campaignFile = m.campaignFile;
    return summary;
}

std::string summarizeForBundle(const fs::path& dir, const BundleMethod& m,
                               const std::string& scaleviewVersion) {
    return formatJson(bundleSummary(dir, m), scaleviewVersion);
}

BundleBuilt buildBundle(const BundleRequest& request) {
    BundleBuilt out;
    const fs::path dir = fs::absolute(request.campaignDir).lexically_normal();
    const std::string root = dir.has_filename() ? dir.string() : dir.parent_path().string();
    std::vector<std::string> files;
    if (auto error = listFiles(root, &files)) {
        out.error = error;
        return out;
    }
    BundleManifest& m = out.manifest;
    m.scaleviewVersion = request.scaleviewVersion;
    m.created = request.created;
    m.createdBy = request.createdBy;
    m.campaign = fs::path(root).filename().string();
    m.results = methodOf(request, root);
    out.summaryJson = summarizeForBundle(root, m.results, request.scaleviewVersion);

    GzipWriter gzip;
    TarWriter tar(gzip, request.mtime);
    std::vector<std::pair<std::string, std::string>> contents;
    for (const auto& rel : files) {
        std::string bytes;
        if (auto error = readWhole(fs::path(root) / rel, &bytes)) {
            out.error = error;
            return out;
        }
        const std::string path = std::string(kCampaignFolder) + "/" + rel;
        m.files.push_back({path, bytes.size(), Sha256::of(bytes)});
        contents.emplace_back(path, std::move(bytes));
    }
    m.files.push_back({kResultsName, out.summaryJson.size(), Sha256::of(out.summaryJson)});
    contents.emplace_back(kResultsName, out.summaryJson);
    const std::string manifest = m.toJson();
    const std::string top = std::string(kBundleTop) + "/";
    try {
        // The manifest first: a reader knows every file's size before it writes any.
        tar.addFile(top + kManifestName, manifest);
        tar.addFile(top + kSumsName, m.sha256sums(Sha256::of(manifest)));
        for (const auto& [path, bytes] : contents)
            tar.addFile(top + path, bytes);
        if (request.sign) {
            std::string error;
            const auto signature = request.sign(manifest, &error);
            if (!signature) {
                out.error = error;
                return out;
            }
            tar.addFile(top + kSignatureName, *signature);
        }
    } catch (const std::invalid_argument& e) {
        out.error = std::string("cannot bundle ") + e.what();
        return out;
    }
    tar.finish();
    out.bytes = gzip.finish();
    return out;
}

} // namespace sv
