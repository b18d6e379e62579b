#include "core/bundle/bundlereader.h"

#include "core/bundle/bundleerror.h"
#include "core/bundle/gzipreader.h"
#include "core/bundle/sha256.h"
#include "core/bundle/tarreader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMaxManifest = 16ULL << 20;
constexpr std::uint64_t kMaxSignature = 64ULL << 10;
// Its content is checked in full; only the bytes that inflate to nothing cannot be.
constexpr const char* kOlderBundleNote =
    "a bundle of an older ScaleView: its gzip header carries no checksum of the compressed "
    "stream, so a change there that inflates to the very same bytes would go unseen (every "
    "file's content is still checked)";

std::uint64_t padded(std::uint64_t size) {
    return 512 + (size + 511) / 512 * 512;
}

// Creates path's folders under root one by one (0700, never following a link: only this reader
// writes under root, and it writes no links) and opens the file, new, for writing.
int createInside(const fs::path& root, const std::string& rel) {
    fs::path at = root;
    const fs::path relPath(rel);
    for (auto it = relPath.begin(); it != relPath.end(); ++it) {
        if (std::next(it) == relPath.end()) break;
        at /= *it;
        if (::mkdir(at.c_str(), 0700) != 0 && errno != EEXIST)
            throw BundleRefused("cannot create " + at.string() + ": " + std::strerror(errno));
        struct stat st {};
        if (::lstat(at.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            throw BundleRefused(rel + ": a file and a folder of the same name");
    }
    const fs::path file = root / relPath;
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == EEXIST) throw BundleRefused(rel + ": appears twice in the archive");
        throw BundleRefused("cannot write " + file.string() + ": " + std::strerror(errno));
    }
    return fd;
}

// The entry's data into root/rel, hashed on the way.
std::string extractTo(TarReader& tar, const fs::path& root, const std::string& rel) {
    const int fd = createInside(root, rel);
    Sha256 hash;
    std::string failure;
    tar.readData([&](std::string_view piece) {
        hash.update(piece);
        while (!piece.empty() && failure.empty()) {
            const ssize_t n = ::write(fd, piece.data(), piece.size());
            if (n < 0) {
                if (errno == EINTR) continue;
                failure = std::strerror(errno);
                break;
            }
            piece.remove_prefix(static_cast<std::size_t>(n));
        }
    });
    ::close(fd);
    if (!failure.empty())
        throw BundleRefused("cannot write " + (root / rel).string() + ": " + failure);
    return hash.hex();
}

std::string readSmall(TarReader& tar, const TarEntry& e, std::uint64_t max,
                      const std::string& what) {
    if (e.size > max)
        throw BundleRefused(what + " is " + std::to_string(e.size) + " bytes, more than the " +
                            std::to_string(max) + " it may be");
    std::string out;
    tar.readData([&](std::string_view piece) { out.append(piece); });
    return out;
}

// The manifest, read first: the archive's one top folder and its first entry.
void readManifest(GzipReader& gzip, TarReader& tar, const BundleLimits& limits, OpenedBundle& out) {
    const std::string top = std::string(kBundleTop) + "/";
    auto first = tar.next();
    if (!first) throw BundleRefused("the archive is empty");
    if (first->path != top + kManifestName)
        throw BundleRefused("the archive begins with " + first->path + ", not " + top +
                            kManifestName + " (no ScaleView bundle)");
    out.manifestText = readSmall(tar, *first, kMaxManifest, kManifestName);
    out.manifest = BundleManifest::parse(out.manifestText);
    // Every byte the archive may still hold, from the manifest's sizes: the bound on inflating.
    std::uint64_t bound = gzip.position() + 1024 + padded(kMaxSignature);
    bound += padded(out.manifest.sha256sums(std::string(64, '0')).size());
    for (const auto& f : out.manifest.files)
        bound += padded(f.size);
    if (out.manifest.totalSize() > limits.maxBytes || bound > limits.maxBytes + (1ULL << 26))
        throw BundleRefused("the manifest lists " + std::to_string(out.manifest.totalSize()) +
                            " bytes, more than the " + std::to_string(limits.maxBytes) +
                            " a bundle may hold (a decompression bomb is refused)");
    gzip.setMaxBytes(bound);
    std::ofstream(out.folder / kManifestName, std::ios::binary) << out.manifestText;
}

void readEntries(TarReader& tar, OpenedBundle& out) {
    const std::string top = std::string(kBundleTop) + "/";
    std::map<std::string, const BundleFile*> listed;
    for (const auto& f : out.manifest.files)
        listed[f.path] = &f;
    std::set<std::string> seen;
    bool sums = false;
    while (auto e = tar.next()) {
        if (e->path.rfind(top, 0) != 0)
            throw BundleRefused(e->path + ": outside the bundle's folder " + top);
        const std::string rel = e->path.substr(top.size());
        if (!seen.insert(rel).second) throw BundleRefused(rel + ": appears twice in the archive");
        if (rel == kSumsName) {
            sums = true;
            const std::string text = readSmall(tar, *e, 64ULL << 20, kSumsName);
            if (text != out.manifest.sha256sums(Sha256::of(out.manifestText)))
                out.problems.push_back(std::string(kSumsName) +
                                       ": differs from the manifest's sizes and hashes");
            std::ofstream(out.folder / kSumsName, std::ios::binary) << text;
            continue;
        }
        if (rel == kSignatureName) {
            out.signed_ = true;
            out.signature = readSmall(tar, *e, kMaxSignature, kSignatureName);
            std::ofstream(out.folder / kSignatureName, std::ios::binary) << out.signature;
            continue;
        }
        const auto it = listed.find(rel);
        if (it == listed.end()) {
            // Never written: a file the manifest does not vouch for has no place in the folder.
            out.problems.push_back(rel + ": in the archive but not in the manifest (an added "
                                         "file; not extracted)");
            tar.readData([](std::string_view) {});
            continue;
        }
        if (e->size != it->second->size) {
            // Not written either: its size is not the one the bound on inflating counted.
            out.problems.push_back(rel + ": " + std::to_string(e->size) +
                                   " bytes, the manifest says " + std::to_string(it->second->size) +
                                   " (not extracted)");
            tar.readData([](std::string_view) {});
            continue;
        }
        const std::string sha = extractTo(tar, out.folder, rel);
        if (sha != it->second->sha256)
            out.problems.push_back(rel + ": its SHA-256 differs from the manifest's (changed)");
    }
    if (!sums) out.problems.push_back(std::string(kSumsName) + ": missing from the archive");
    for (const auto& f : out.manifest.files)
        if (!seen.count(f.path))
            out.problems.push_back(f.path + ": in the manifest but missing from the archive");
}

} // namespace

OpenedBundle readBundle(const fs::path& bundle, const fs::path& privateFolder,
                        const BundleLimits& limits) {
    OpenedBundle out;
    out.folder = privateFolder;
    std::ifstream in(bundle, std::ios::binary);
    if (!in) {
        out.refused = "cannot read " + bundle.string() + ": " + std::strerror(errno);
        return out;
    }
    try {
        // Until the manifest is read, only it may be inflated.
        GzipReader gzip(in, kMaxManifest + 1024);
        if (gzip.olderFormat()) out.notes.push_back(kOlderBundleNote);
        TarReader tar(gzip);
        readManifest(gzip, tar, limits, out);
        readEntries(tar, out);
    } catch (const BundleRefused& e) {
        out.refused = e.what();
    }
    return out;
}

std::optional<fs::path> makePrivateFolder(std::string* error) {
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    std::string pattern = ((ec ? fs::path("/tmp") : base) / "scaleview-bundle-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        if (error)
            *error =
                "cannot create a private folder in " + base.string() + ": " + std::strerror(errno);
        return std::nullopt;
    }
    return fs::path(pattern);
}

} // namespace sv
