// Issue 35, item 3: identity by content. A DLPerf tree with a copy of one of its own NGC MXNet
// logs in a side folder: the copy is NGC MXNet (never the generic MXNet Speedometer), in NGC
// MXNet's table, its topology unknown with why; `--format dlperf` gives DLPerf's JSON of the tree
// exactly as without the copy, and names the copy; a log of another format beside them is left
// out and named, never a refusal of the whole directory.

#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;
namespace fs = std::filesystem;

namespace {

// The shipped sample tree (DLPerf's layout) copied, so that files can be added beside it.
fs::path copySamples(const TempDir& dir) {
    const fs::path tree = dir / "ngc-mxnet";
    fs::copy(SCALEVIEW_SAMPLES, tree, fs::copy_options::recursive);
    return tree;
}

} // namespace

TEST(StrayCopy, ACopyOfANgcMxnetLogIsNgcMxnetWithItsTopologyUnknown) {
    TempDir dir;
    const fs::path tree = copySamples(dir);
    const auto before = cli({"summarize", tree.string(), "--format", "dlperf"});
    ASSERT_EQ(before.exitCode, 0) << before.err;

    fs::create_directories(tree / "bz128/misc");
    fs::copy_file(tree / "bz128/2n8g/r50_b128_fp32_1.log", tree / "bz128/misc/r50_b128_fp32_1.log");
    const auto json = cli({"summarize", tree.string(), "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    bool seen = false;
    for (const auto& run : j["runs"]) {
        EXPECT_EQ(run["format"], "ngc-mxnet") << run.dump();
        if (run["path"] != "bz128/misc/r50_b128_fp32_1.log") continue;
        seen = true;
        EXPECT_EQ(run["framework"], "NGC MXNet");
        EXPECT_EQ(run["batch_size_per_device"], 128);
        EXPECT_TRUE(run["nodes"].is_null()) << run.dump(); // unknown: null, never 0
        EXPECT_EQ(run["status"], "unusable");
        EXPECT_NE(run["reason"].get<std::string>().find("topology is unknown (?)"),
                  std::string::npos)
            << run.dump();
    }
    EXPECT_TRUE(seen) << json.out.substr(0, 400);

    const auto after = cli({"summarize", tree.string(), "--format", "dlperf"});
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(after.out, before.out);
    EXPECT_NE(after.err.find("bz128/misc/r50_b128_fp32_1.log"), std::string::npos) << after.err;
}

TEST(StrayCopy, AnotherFormatBesideTheTreeIsLeftOutAndNamed) {
    TempDir dir;
    const fs::path tree = copySamples(dir);
    const auto before = cli({"summarize", tree.string(), "--format", "dlperf"});
    ASSERT_EQ(before.exitCode, 0) << before.err;
    // A fairseq log (the general reader's) beside DLPerf's tree.
    std::string fairseq;
    for (int k = 1; k <= 30; ++k)
        fairseq += "| epoch 001:    " + std::to_string(k) + " / 900 loss=9.1, wps=2661" +
                   std::to_string(k % 10) + ", ups=0, num_updates=" + std::to_string(k) + "\n";
    writeFile(tree / "misc/fairseq.log", fairseq);
    const auto after = cli({"summarize", tree.string(), "--format", "dlperf"});
    ASSERT_EQ(after.exitCode, 0) << after.err;
    EXPECT_EQ(after.out, before.out);
    EXPECT_NE(after.err.find("left out of DLPerf's output: misc/fairseq.log (read as general-"),
              std::string::npos)
        << after.err;
}
