// Issue 26 item 2: the app writes a log's keys into scaleview.json; the reader
// (core/load/runidentity.h) reads them back. The user's other entries stay; a sidecar that is not
// JSON is refused and left as it is; a folder that cannot be written says so.

#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/load/sidecarwriter.h"
#include "core/stats/summary.h"
#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

LoadOptions formatDefaults() {
    LoadOptions o;
    o.measure.formatDefaults = true;
    return o;
}

std::string bertLog() {
    return gluonnlpLog(
        "0,1", 40, [](int k) { return 100000.0 + k; }, false);
}

SidecarEntry batchOnly(int batch) {
    SidecarEntry e;
    e.batch = batch;
    return e;
}

} // namespace

// Written, then read by the scan: the run has the batch the user set, from the sidecar.
TEST(SidecarWriter, RoundTripThroughTheReader) {
    TempDir dir;
    writeFile(dir / "logs/bert.log", bertLog());
    SidecarEntry keys;
    keys.batch = 32;
    keys.nodes = 1;
    keys.gpus = 2;
    keys.precision = "fp16";
    const SidecarWriteResult w = setSidecarEntry(dir / "logs/bert.log", dir.path(), keys);
    ASSERT_FALSE(w.error) << *w.error;
    EXPECT_EQ(fs::path(w.sidecar), dir / "logs/scaleview.json");
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.batchPerDevice, 32);
    EXPECT_EQ(scan.logs[0].key.origins.batch, KeySource::Sidecar);
    const Summary s = summarizeDirectory(dir.path(), formatDefaults(), SummaryOptions{});
    ASSERT_EQ(s.runs.size(), 1u);
    EXPECT_EQ(batchText(s.runs[0].key), "32");
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_TRUE(s.cases[0].median);
}

// The nearest sidecar up to the root is the one updated; every other entry and key stays, and the
// file's own entry wins over a glob that also matches it.
TEST(SidecarWriter, KeepsEveryOtherEntry) {
    TempDir dir;
    writeFile(dir / "a/B/bert.log", bertLog());
    const std::string before = R"({"label": "cluster A", "custom": [1, 2.5, {"x": null}],
        "files": {"[AB]/*.log": {"batch": 8, "repeat": 7}, "other.log": {"model": "m", "note": "n"}}})";
    writeFile(dir / "a/scaleview.json", before);
    const SidecarWriteResult w = setSidecarEntry(dir / "a/B/bert.log", dir.path(), batchOnly(64));
    ASSERT_FALSE(w.error) << *w.error;
    EXPECT_EQ(fs::path(w.sidecar), dir / "a/scaleview.json");
    EXPECT_FALSE(fs::exists(dir / "a/B/scaleview.json"));
    nlohmann::json expected = nlohmann::json::parse(before);
    expected["files"]["B/bert.log"] = {{"batch", 64}};
    EXPECT_EQ(nlohmann::json::parse(readWhole(dir / "a/scaleview.json")), expected);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.batchPerDevice, 64); // its entry, over the glob sorted after it
    EXPECT_EQ(scan.logs[0].key.repeat, 7);          // the glob's other key still applies
    // Set again: the entry is updated, its other keys kept.
    SidecarEntry more;
    more.model = "bert-large";
    ASSERT_FALSE(setSidecarEntry(dir / "a/B/bert.log", dir.path(), more).error);
    expected["files"]["B/bert.log"] = {{"batch", 64}, {"model", "bert-large"}};
    EXPECT_EQ(nlohmann::json::parse(readWhole(dir / "a/scaleview.json")), expected);
}

// A name with wildcard characters is escaped: its entry is this file's alone.
TEST(SidecarWriter, WildcardsInTheNameAreEscaped) {
    TempDir dir;
    writeFile(dir / "run[1].log", bertLog());
    writeFile(dir / "run1.log", bertLog());
    ASSERT_FALSE(setSidecarEntry(dir / "run[1].log", dir.path(), batchOnly(16)).error);
    EXPECT_EQ(sidecarEntryName(dir / "run[1].log", dir.path()), "run\\[1].log");
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 2u);
    for (const auto& log : scan.logs)
        EXPECT_EQ(log.key.batchPerDevice, log.path.string().find('[') != std::string::npos ? 16 : 0)
            << log.path;
}

// A sidecar that is not JSON: refused, named, and left byte for byte.
TEST(SidecarWriter, InvalidExistingJsonIsRefusedAndUnchanged) {
    TempDir dir;
    writeFile(dir / "bert.log", bertLog());
    const std::string broken = "{\"batch\": 8,,\n";
    writeFile(dir / "scaleview.json", broken);
    const SidecarWriteResult w = setSidecarEntry(dir / "bert.log", dir.path(), batchOnly(32));
    ASSERT_TRUE(w.error);
    EXPECT_NE(w.error->find((dir / "scaleview.json").string()), std::string::npos) << *w.error;
    EXPECT_NE(w.error->find("not a JSON object"), std::string::npos) << *w.error;
    EXPECT_EQ(readWhole(dir / "scaleview.json"), broken);
    for (const auto& e : fs::directory_iterator(dir.path())) // no temporary left behind
        EXPECT_NE(e.path().filename().string().rfind(".scaleview", 0), 0u) << e.path();
}

// A folder nobody may write (0555; for root, who writes anyway, /sys): the error names the file.
TEST(SidecarWriter, ReadOnlyFolderGivesTheError) {
    TempDir dir;
    writeFile(dir / "ro/bert.log", bertLog());
    ASSERT_EQ(::chmod((dir / "ro").c_str(), 0555), 0);
    fs::path folder = dir / "ro";
    if (::access(folder.c_str(), W_OK) == 0) folder = "/sys"; // root: chmod does not stop it
    const SidecarWriteResult w = setSidecarEntry(folder / "bert.log", folder, batchOnly(32));
    ::chmod((dir / "ro").c_str(), 0755);
    ASSERT_TRUE(w.error);
    EXPECT_NE(w.error->find((folder / "scaleview.json").string()), std::string::npos) << *w.error;
    EXPECT_NE(w.error->find("Permission denied"), std::string::npos) << *w.error;
    EXPECT_FALSE(fs::exists(folder / "scaleview.json"));
}
