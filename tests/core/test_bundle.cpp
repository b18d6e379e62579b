// Bundles (issue 39): a campaign shared as one file, read back safely and verified, with every
// single-byte change, missing or added file, re-hashed edit and hostile archive caught or refused.

#include "core/bundle/bundlereader.h"
#include "core/bundle/bundleverify.h"
#include "core/bundle/bundlewriter.h"
#include "core/bundle/gzipwriter.h"
#include "core/bundle/sha256.h"
#include "core/bundle/tarwriter.h"
#include "tests/support/files.h"
#include "tests/support/gunzip.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sys/stat.h>

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

// A small campaign: two topologies, three repeats each, speeds that differ per repeat so every
// statistic has something to say.
void writeCampaign(const fs::path& root) {
    for (const auto& [topo, ranks] :
         std::vector<std::pair<std::string, int>>{{"1n1g", 1}, {"1n2g", 2}})
        for (int p = 1; p <= 3; ++p) {
            test::RunSpec spec;
            spec.ranks = ranks;
            spec.iterations = 60;
            spec.stepMs = 500 + 10 * p;
            // What each rank reports agrees with the clock: batch 64 per rank per step.
            const double speed = 64.0 * ranks * 1000.0 / static_cast<double>(spec.stepMs);
            test::writeFile(root / topo / ("r50_b64_fp32_" + std::to_string(p) + ".log"),
                            test::makeLog(spec, [speed](int k, int) {
                                return std::to_string(speed + (k % 3 - 1) * 0.01);
                            }));
        }
    test::writeFile(root / "notes.txt", "an operator's note beside the logs\n");
}

BundleRequest requestFor(const fs::path& dir) {
    BundleRequest r;
    r.campaignDir = dir;
    r.load.measure.warmup = 10;
    r.load.measure.iterations = 60;
    r.windowSource = "command line";
    r.scaleviewVersion = "test";
    r.createdBy = "tester@site-a";
    r.created = "2026-12-06T00:00:00Z";
    r.mtime = 1700000000;
    return r;
}

using sv::test::gunzip;

std::string gzip(const std::string& bytes) {
    GzipWriter w;
    w.write(bytes);
    return w.finish();
}

// The files of a tar stream as (path, content), for tests that repack a bundle.
std::vector<std::pair<std::string, std::string>> untar(const std::string& tar) {
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t at = 0; at + 512 <= tar.size();) {
        const char* h = tar.data() + at;
        if (h[0] == '\0') break;
        const std::string prefix(h + 345, strnlen(h + 345, 155));
        const std::string name(h, strnlen(h, 100));
        const std::size_t size = std::stoull(std::string(h + 124, 11), nullptr, 8);
        out.emplace_back(prefix.empty() ? name : prefix + "/" + name, tar.substr(at + 512, size));
        at += 512 + (size + 511) / 512 * 512;
    }
    return out;
}

std::string pack(const std::vector<std::pair<std::string, std::string>>& files) {
    GzipWriter gz;
    TarWriter tar(gz, 1700000000);
    for (const auto& [path, content] : files)
        tar.addFile(path, content);
    tar.finish();
    return gz.finish();
}

// The manifest and SHA256SUMS made true again for files (a forger's repack).
void rehash(std::vector<std::pair<std::string, std::string>>& files) {
    auto manifest = nlohmann::json::parse(files[0].second);
    for (auto& f : manifest["files"])
        for (const auto& [path, content] : files)
            if (path == std::string("svbundle/") + f["path"].get<std::string>()) {
                f["size"] = content.size();
                f["sha256"] = Sha256::of(content);
            }
    files[0].second = manifest.dump(2) + "\n";
    const BundleManifest m = BundleManifest::parse(files[0].second);
    files[1].second = m.sha256sums(Sha256::of(files[0].second));
}

void writeBytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v)
        out += s + "\n";
    return out;
}

// Builds a campaign and its bundle once per test.
class BundleTest : public ::testing::Test {
  protected:
    void SetUp() override {
        writeCampaign(m_dir / "camp");
        const BundleBuilt built = buildBundle(requestFor(m_dir / "camp"));
        ASSERT_FALSE(built.error) << *built.error;
        m_bytes = built.bytes;
        m_manifest = built.manifest;
    }
    // The verdict on bytes, opened in a fresh private folder under m_dir/open-N.
    BundleVerdict verdictOn(const std::string& bytes) {
        const fs::path file = m_dir / "tampered.svbundle";
        writeBytes(file, bytes);
        const fs::path folder = m_dir / ("open-" + std::to_string(m_opened++));
        fs::create_directory(folder);
        BundleVerdict v = verifyBundle(file, folder, "test");
        fs::remove_all(folder);
        return v;
    }
    TempDir m_dir;
    std::string m_bytes;
    BundleManifest m_manifest;
    int m_opened = 0;
};

TEST(Sha256, KnownVectors) {
    EXPECT_EQ(Sha256::of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(Sha256::of("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    Sha256 pieces;
    pieces.update("a");
    pieces.update("bc");
    EXPECT_EQ(pieces.hex(), Sha256::of("abc"));
}

TEST_F(BundleTest, RoundTripExtractsEveryFileAsWrittenAndVerifies) {
    const BundleVerdict v = verdictOn(m_bytes);
    EXPECT_TRUE(v.verified()) << joined(v.reasons());
    EXPECT_TRUE(v.differences.empty());
    // Six logs, the note and the results, each with its size and hash.
    ASSERT_EQ(m_manifest.files.size(), 8u);
    for (const auto& f : m_manifest.files) {
        if (f.path == kResultsName) continue;
        const std::string original = test::readWhole(m_dir / "camp" / f.path.substr(9));
        EXPECT_EQ(f.size, original.size()) << f.path;
        EXPECT_EQ(f.sha256, Sha256::of(original)) << f.path;
    }
    EXPECT_EQ(m_manifest.createdBy, "tester@site-a");
    EXPECT_EQ(m_manifest.results.warmup, 10);
    // The results are summarize's document, with the cases' figures in it.
    const auto files = untar(gunzip(m_bytes));
    const auto results = std::find_if(files.begin(), files.end(), [](const auto& f) {
        return f.first == std::string("svbundle/") + kResultsName;
    });
    ASSERT_NE(results, files.end());
    const auto doc = nlohmann::json::parse(results->second);
    ASSERT_EQ(doc["cases"].size(), 2u);
    ASSERT_TRUE(doc["cases"][1]["median_speed"].is_number()) << doc["cases"][1].dump();
    EXPECT_NEAR(doc["cases"][1]["median_speed"].get<double>(), 64.0 * 2 * 1000.0 / 520.0, 1.0);
    // SHA256SUMS is sha256sum's own format: the manifest's line first.
    EXPECT_EQ(files[1].first, "svbundle/SHA256SUMS");
    EXPECT_EQ(files[1].second.substr(0, 64), Sha256::of(files[0].second));
    EXPECT_EQ(files[1].second.substr(64, 16), "  MANIFEST.json\n");
}

// What a refusal or difference is about, for counting.
std::string kindOf(const std::string& why) {
    for (const char* kind : {"differs from its checksum", "gzip header byte", "not a gzip file",
                             "compressed stream is corrupt", "tar header", "MANIFEST.json",
                             "SHA256SUMS", "truncated", "data after"})
        if (why.find(kind) != std::string::npos) return kind;
    return "a file or the archive's end named";
}

// Every byte of the file: the gzip header and its checksum, the deflate stream and its trailer.
// None may pass, not even a bit of the deflate stream that inflates to the very same bytes.
TEST_F(BundleTest, AThousandSingleByteChangesOfTheFileAreAllCaughtAndNamed) {
    std::mt19937 rng(39);
    std::uniform_int_distribution<std::size_t> at(0, m_bytes.size() - 1);
    std::uniform_int_distribution<int> delta(1, 255);
    const std::string content = gunzip(m_bytes);
    std::map<std::string, int> byReason;
    int sameContent = 0;
    for (int i = 0; i < 1000; ++i) {
        std::string bytes = m_bytes;
        // The ends too: each tenth change lands in the header or the trailer.
        const std::size_t pos = i % 10 == 0 ? (i % 20 == 0 ? i / 20 * 13 % GzipWriter::kHeaderSize
                                                           : bytes.size() - 1 - i / 20 % 8)
                                            : at(rng);
        bytes[pos] = static_cast<char>(static_cast<unsigned char>(bytes[pos]) + delta(rng));
        const BundleVerdict v = verdictOn(bytes);
        ASSERT_FALSE(v.verified()) << "byte " << pos << " changed, yet verified";
        const std::string why = v.reasons().front();
        if (pos >= GzipWriter::kHeaderSize && gunzip(bytes) == content) {
            // Only the header's checksum can see this one: it must say so.
            ++sameContent;
            EXPECT_EQ(why, "refused: the compressed stream differs from its checksum: the file "
                           "was changed after it was written")
                << "byte " << pos;
        }
        ++byReason[kindOf(why)];
    }
    std::string counts;
    for (const auto& [reason, n] : byReason)
        counts += std::to_string(n) + " x " + reason + "\n";
    std::cout << "of 1000 changes, " << sameContent
              << " inflated to the same bytes; first reasons:\n"
              << counts;
    EXPECT_GT(byReason["differs from its checksum"], 0) << counts;
}

// The file stays a standard .tar.gz (gzip and tar read it) whose checksum standard tools check,
// as docs/sharing-campaigns.md shows.
TEST_F(BundleTest, StandardToolsReadItAndCheckItsChecksum) {
    const fs::path file = m_dir / "a.svbundle";
    writeBytes(file, m_bytes);
    EXPECT_EQ(test::runProcess({"/usr/bin/gzip", "-t", file.string()}).exitCode, 0);
    const test::ProcessResult listed = test::runProcess({"/usr/bin/tar", "tzf", file.string()});
    EXPECT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_EQ(listed.out.substr(0, 23), "svbundle/MANIFEST.json\n");
    EXPECT_EQ(m_bytes.substr(16, 64), Sha256::of(std::string_view(m_bytes).substr(80)));
    const std::string byShell = "[ \"$(head -c 80 \"$1\" | tail -c 64)\" = \"$(tail -c +81 "
                                "\"$1\" | sha256sum | head -c 64)\" ] && echo ok || echo CHANGED";
    const std::string byPython =
        "import sys, hashlib; b = open(sys.argv[1], 'rb').read(); "
        "print('ok' if b[16:80].decode() == hashlib.sha256(b[80:]).hexdigest() else 'CHANGED')";
    EXPECT_EQ(test::runProcess({"/bin/sh", "-c", byShell, "sh", file.string()}).out, "ok\n");
    EXPECT_EQ(test::runProcess({"/usr/bin/python3", "-c", byPython, file.string()}).out, "ok\n");
    std::string changed = m_bytes;
    changed[changed.size() - 3] ^= 1;
    writeBytes(file, changed);
    EXPECT_EQ(test::runProcess({"/bin/sh", "-c", byShell, "sh", file.string()}).out, "CHANGED\n");
    EXPECT_EQ(test::runProcess({"/usr/bin/python3", "-c", byPython, file.string()}).out,
              "CHANGED\n");
}

// A bundle an older ScaleView wrote (the same stream, a header with no checksum) is read and
// verified with a note saying what it cannot show; its content is still checked.
TEST_F(BundleTest, AnOlderBundleWithoutTheChecksumIsReadWithANote) {
    const std::string older = std::string(reinterpret_cast<const char*>(GzipWriter::kOlderHeader),
                                          sizeof GzipWriter::kOlderHeader) +
                              m_bytes.substr(GzipWriter::kHeaderSize);
    const BundleVerdict v = verdictOn(older);
    EXPECT_TRUE(v.verified()) << joined(v.reasons());
    EXPECT_NE(joined(v.notes).find("a bundle of an older ScaleView: its gzip header carries no "
                                   "checksum"),
              std::string::npos)
        << joined(v.notes);
    EXPECT_EQ(joined(verdictOn(m_bytes).notes).find("older"), std::string::npos);
    // Its logs are checked as ever: one changed byte of a file's content is named.
    auto files = untar(gunzip(m_bytes));
    files[3].second[10] ^= 1;
    const std::string repacked = pack(files);
    const BundleVerdict changed =
        verdictOn(std::string(reinterpret_cast<const char*>(GzipWriter::kOlderHeader),
                              sizeof GzipWriter::kOlderHeader) +
                  repacked.substr(GzipWriter::kHeaderSize));
    EXPECT_FALSE(changed.verified());
    EXPECT_NE(joined(changed.reasons()).find(files[3].first.substr(9) + ": its SHA-256 differs"),
              std::string::npos)
        << joined(changed.reasons());
}

// Every byte inside: each log, the manifest, the results, the tar headers and padding, with a
// gzip stream that is itself intact (so only the bundle's own checks can catch it).
TEST_F(BundleTest, FiveHundredSingleByteChangesInsideAreCaughtNamingWhat) {
    const std::string tar = gunzip(m_bytes);
    const auto files = untar(tar);
    std::mt19937 rng(3939);
    std::uniform_int_distribution<std::size_t> at(0, tar.size() - 1);
    std::uniform_int_distribution<int> delta(1, 255);
    int named = 0, inData = 0;
    for (int i = 0; i < 500; ++i) {
        std::string bytes = tar;
        const std::size_t pos = at(rng);
        bytes[pos] = static_cast<char>(static_cast<unsigned char>(bytes[pos]) + delta(rng));
        const BundleVerdict v = verdictOn(gzip(bytes));
        ASSERT_FALSE(v.verified()) << "tar byte " << pos << " changed, yet verified";
        // Which entry holds pos: its path must be named (a header's or a file's).
        std::size_t start = 0;
        for (const auto& [path, content] : files) {
            const std::size_t end = start + 512 + (content.size() + 511) / 512 * 512;
            if (pos < end) {
                const std::string rel = path.substr(9);
                const bool data = pos >= start + 512 && pos < start + 512 + content.size();
                inData += data;
                const std::string all = joined(v.reasons());
                // A change in the manifest is named by what no longer matches it.
                if (all.find(rel) != std::string::npos ||
                    all.find("at byte " + std::to_string(start) + "'") != std::string::npos ||
                    all.find("at byte " + std::to_string(start) + " ") != std::string::npos ||
                    (rel == kManifestName && all.find(kSumsName) != std::string::npos) ||
                    all.find("MANIFEST.json") != std::string::npos)
                    ++named;
                else
                    ADD_FAILURE() << "tar byte " << pos << " in " << rel << ": " << all;
                break;
            }
            start = end;
        }
    }
    EXPECT_GT(inData, 300); // most changes land in the files' data, as they should
    EXPECT_GT(named, 450);  // the rest are in the end blocks, named as the archive's end
}

TEST_F(BundleTest, DeletedOrAddedFileIsNamed) {
    auto files = untar(gunzip(m_bytes));
    auto fewer = files;
    fewer.erase(fewer.begin() + 3);
    const BundleVerdict gone = verdictOn(pack(fewer));
    EXPECT_FALSE(gone.verified());
    EXPECT_NE(
        joined(gone.reasons()).find(files[3].first.substr(9) + ": in the manifest but missing"),
        std::string::npos)
        << joined(gone.reasons());
    auto more = files;
    more.emplace_back("svbundle/campaign/1n1g/r50_b64_fp32_4.log", "a log nobody measured\n");
    const BundleVerdict added = verdictOn(pack(more));
    EXPECT_FALSE(added.verified());
    EXPECT_NE(joined(added.reasons())
                  .find("campaign/1n1g/r50_b64_fp32_4.log: in the archive but not in the manifest"),
              std::string::npos)
        << joined(added.reasons());
}

// A forger edits a log and makes the manifest and SHA256SUMS match: only the recomputation can
// tell, and it names the figures that no longer follow from the logs.
TEST_F(BundleTest, EditedLogWithRehashedManifestIsCaughtByRecomputation) {
    auto files = untar(gunzip(m_bytes));
    // Every step of 1n2g's second repeat 5 ms shorter: its clock says faster than it ran.
    for (auto& [path, content] : files)
        if (path.find("1n2g/r50_b64_fp32_2.log") != std::string::npos) {
            test::RunSpec spec;
            spec.ranks = 2;
            spec.iterations = 60;
            spec.stepMs = 515;
            content = test::makeLog(spec, [](int k, int) {
                return std::to_string(64.0 * 2 * 1000.0 / 520.0 + (k % 3 - 1) * 0.01);
            });
        }
    rehash(files);
    const BundleVerdict v = verdictOn(pack(files));
    EXPECT_TRUE(v.opened.problems.empty()) << joined(v.opened.problems);
    EXPECT_FALSE(v.verified());
    ASSERT_FALSE(v.differences.empty());
    // The run's figure and the case's median no longer follow from the logs.
    EXPECT_NE(joined(v.differences).find("runs[4].throughput_time: recorded"), std::string::npos)
        << joined(v.differences);
    EXPECT_NE(joined(v.differences).find("cases[1].median_speed: recorded"), std::string::npos)
        << joined(v.differences);
    EXPECT_NE(joined(v.differences).find("recorded"), std::string::npos);
}

TEST_F(BundleTest, AFutureVersionIsRefusedAndAnUnknownFieldIsNamed) {
    auto files = untar(gunzip(m_bytes));
    auto future = files;
    auto manifest = nlohmann::json::parse(future[0].second);
    manifest["format_version"] = 2;
    future[0].second = manifest.dump(2);
    const BundleVerdict v2 = verdictOn(pack(future));
    ASSERT_TRUE(v2.opened.refused);
    EXPECT_NE(v2.opened.refused->find("format version 2"), std::string::npos) << *v2.opened.refused;
    EXPECT_NE(v2.opened.refused->find("update ScaleView"), std::string::npos);

    manifest["format_version"] = 1;
    manifest["attestation"] = "something newer";
    files[0].second = manifest.dump(2);
    rehash(files);
    const BundleVerdict v = verdictOn(pack(files));
    EXPECT_FALSE(v.verified());
    EXPECT_NE(joined(v.reasons()).find("field 'attestation' this ScaleView does not know"),
              std::string::npos)
        << joined(v.reasons());
}

// Hostile archives: each refused with its reason, and nothing written outside the private folder.
class HostileBundle : public ::testing::Test {
  protected:
    std::string refusal(const std::string& bytes) {
        const fs::path file = m_dir / "hostile.svbundle";
        writeBytes(file, bytes);
        const fs::path folder = m_dir / "private";
        fs::remove_all(folder);
        fs::create_directory(folder);
        const OpenedBundle b = readBundle(file, folder);
        // Nothing beside the private folder but the bundle itself.
        for (const auto& e : fs::directory_iterator(m_dir.path()))
            EXPECT_TRUE(e.path() == file || e.path() == folder) << e.path();
        EXPECT_FALSE(fs::exists(m_dir.path().parent_path() / m_evil)) << "written outside";
        return b.refused.value_or("(not refused)");
    }
    std::string manifestFor(const std::vector<std::pair<std::string, std::uint64_t>>& files) {
        BundleManifest m;
        for (const auto& [path, size] : files)
            m.files.push_back({path, size, std::string(64, 'a')});
        return m.toJson();
    }
    TempDir m_dir;
    std::string m_evil = "scaleview-evil-" + std::to_string(::getpid());
};

std::string block(const std::string& header, const std::string& data) {
    std::string out = header + data;
    out.resize((out.size() + 511) / 512 * 512, '\0');
    return out;
}

TEST_F(HostileBundle, PathsThatLeaveTheBundleAreRefused) {
    const std::string manifest = manifestFor({{"a.log", 4}});
    const std::string head =
        block(TarWriter::header("svbundle/MANIFEST.json", manifest.size(), 0), manifest);
    const std::string end(1024, '\0');
    const std::string up = "svbundle/../../" + m_evil;
    EXPECT_NE(refusal(gzip(head + block(TarWriter::header(up, 4, 0), "evil") + end))
                  .find("leaves the bundle ('..')"),
              std::string::npos);
    const std::string absolute = (m_dir.path().parent_path() / m_evil).string();
    EXPECT_NE(refusal(gzip(head + block(TarWriter::header(absolute, 4, 0), "evil") + end))
                  .find("is absolute"),
              std::string::npos);
    EXPECT_NE(
        refusal(gzip(head +
                     block(TarWriter::header("svbundle/a.log", 0, 0, '2', "/etc/passwd"), "") +
                     end))
            .find("a symbolic link (a bundle holds regular files only)"),
        std::string::npos);
    EXPECT_NE(
        refusal(gzip(head +
                     block(TarWriter::header("svbundle/a.log", 0, 0, '1', "svbundle/MANIFEST.json"),
                           "") +
                     end))
            .find("a hard link"),
        std::string::npos);
    EXPECT_NE(refusal(gzip(head + block(TarWriter::header("svbundle/a.log", 0, 0, '3'), "") + end))
                  .find("a character device"),
              std::string::npos);
    EXPECT_NE(refusal(gzip(head + block(TarWriter::header("svbundle/a.log", 0, 0, '6'), "") + end))
                  .find("a FIFO"),
              std::string::npos);
    EXPECT_NE(refusal(gzip(head + block(TarWriter::header("elsewhere/a.log", 4, 0), "evil") + end))
                  .find("outside the bundle's folder"),
              std::string::npos);
}

// One gzip stream: prefix, then mib MiB of zeros, each MiB one full-flushed deflate piece (it
// needs no history, so the same bytes repeat), then the final block; gunzip would write it all.
std::string bomb(const std::string& prefix, int mib) {
    z_stream s{};
    deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    auto run = [&s](const std::string& in) {
        std::string out;
        char buf[1 << 16];
        s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        s.avail_in = static_cast<uInt>(in.size());
        do {
            s.next_out = reinterpret_cast<Bytef*>(buf);
            s.avail_out = sizeof buf;
            deflate(&s, Z_FULL_FLUSH);
            out.append(buf, sizeof buf - s.avail_out);
        } while (s.avail_out == 0);
        return out;
    };
    std::string out = run(prefix);
    const std::string piece = run(std::string(1 << 20, '\0'));
    deflateEnd(&s);
    out.reserve(out.size() + piece.size() * static_cast<std::size_t>(mib) + 16);
    for (int i = 0; i < mib; ++i)
        out += piece;
    out += std::string("\x03\x00", 2); // the final, empty block
    out += std::string(8, '\0');       // a trailer no reader should get to
    // Its checksum right: the bound on inflating stops it, not the checksum at its end.
    return GzipWriter::headerFor(out) + out;
}

// 10 GB of zeros in a file of about 10 MB: refused from the manifest's sizes before any is
// inflated, and when the manifest is small, at the bytes the manifest accounts for.
TEST_F(HostileBundle, ATenGigabyteDecompressionBombIsRefused) {

    const std::uint64_t half = 5ULL << 30;
    const std::string claims = manifestFor({{"a.log", half}, {"b.log", half}});
    const auto start = std::chrono::steady_clock::now();
    const std::string big =
        bomb(block(TarWriter::header("svbundle/MANIFEST.json", claims.size(), 0), claims) +
                 TarWriter::header("svbundle/a.log", half, 0),
             10240);
    ASSERT_LT(big.size(), 20u << 20);
    std::string why = refusal(big);
    EXPECT_NE(why.find("a decompression bomb is refused"), std::string::npos) << why;
    EXPECT_NE(why.find("the manifest lists 10737418240 bytes"), std::string::npos) << why;

    // The manifest says 4 bytes, the header 5 GiB: never extracted, refused at the bound.
    const std::string small = manifestFor({{"a.log", 4}});
    why = refusal(bomb(block(TarWriter::header("svbundle/MANIFEST.json", small.size(), 0), small) +
                           TarWriter::header("svbundle/a.log", half, 0),
                       10240));
    EXPECT_NE(why.find("a decompression bomb is refused"), std::string::npos) << why;
    // The bomb without a manifest at all.
    why = refusal(bomb(TarWriter::header("svbundle/a.log", half, 0), 10240));
    EXPECT_NE(why.find("not svbundle/MANIFEST.json"), std::string::npos) << why;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    std::uintmax_t written = 0;
    for (const auto& e : fs::recursive_directory_iterator(m_dir / "private"))
        if (e.is_regular_file()) written += e.file_size();
    EXPECT_LT(written, 64u << 20);
}

TEST_F(HostileBundle, TruncatedAndForeignFilesAreRefused) {
    TempDir camp;
    writeCampaign(camp.path());
    const std::string whole = buildBundle(requestFor(camp.path())).bytes;
    for (std::size_t keep : {std::size_t(0), std::size_t(5), std::size_t(40), whole.size() / 2,
                             whole.size() - 9, whole.size() - 1}) {
        const std::string why = refusal(whole.substr(0, keep));
        EXPECT_TRUE(why.find("truncated") != std::string::npos ||
                    why.find("not a gzip file") != std::string::npos)
            << keep << ": " << why;
    }
    EXPECT_NE(refusal(whole + "x").find("data after the end of the compressed stream"),
              std::string::npos);
    EXPECT_NE(refusal("hello, not a bundle").find("not a gzip file"), std::string::npos);
}

TEST(BundlePrivateFolder, IsNewAndOnlyTheUsers) {
    std::string error;
    const auto folder = makePrivateFolder(&error);
    ASSERT_TRUE(folder) << error;
    struct stat st {};
    ASSERT_EQ(::stat(folder->c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_TRUE(fs::is_empty(*folder));
    fs::remove(*folder);
}

TEST(BundleWriter, ALinkInTheCampaignIsRefusedByName) {
    TempDir dir;
    writeCampaign(dir / "camp");
    fs::create_symlink("/etc/passwd", dir / "camp" / "passwd");
    const BundleBuilt built = buildBundle(requestFor(dir / "camp"));
    ASSERT_TRUE(built.error);
    EXPECT_NE(built.error->find("passwd: not a regular file"), std::string::npos) << *built.error;
}

} // namespace
} // namespace sv
