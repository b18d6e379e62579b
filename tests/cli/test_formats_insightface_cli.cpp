// scaleview-cli on the InsightFace formats: `formats` lists them, and `summarize --format dlperf`
// prints exactly the DLPerf script's JSON on standard output, its notes on standard error.

#include "tests/support/insightfacewriter.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;

TEST(InsightfaceCli, FormatsListsTheThreeWithTheirScripts) {
    const auto r = cli({"formats"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const char* text :
         {"insightface-arcface\n  framework: MXNet ArcFace; throughput in samples/s\n"
          "  --method speed: DLPerf MxNet/InsightFace/ArcFace/extract_mxnet_logs.py\n"
          "  defaults: warmup 20, iterations 120\n",
          "insightface-partialfc\n  framework: MXNet Partial FC; throughput in samples/s\n"
          "  --method speed: DLPerf MxNet/InsightFace/PartailFC/extract_mxnet_logs.py\n",
          "oneflow-insightface\n  framework: OneFlow InsightFace; throughput in samples/s\n"
          "  --method time: DLPerf OneFlow/Recognition/insightface/extract_oneflow_logs_time.py\n"})
        EXPECT_NE(r.out.find(text), std::string::npos) << text << r.out;
}

// Expected: DLPerf's extract_oneflow_logs_time.py on this tree (its only script: --method speed
// prints its output too, and says so).
TEST(InsightfaceCli, OneflowDlperfJsonOnStdoutNotesOnStderr) {
    TempDir dir;
    writeOneflowFaceTree(dir / "r100");
    const auto expected = nlohmann::json::parse(
        R"({"r100": {"2n8g": {"average_speed": 3768.51, "batch_size_per_device": 64, "median_speed": 3768.51, "speedup": 15.21}, "1n1g": {"average_speed": 247.79, "batch_size_per_device": 64, "median_speed": 247.79, "speedup": 1.0}, "1n8g": {"average_speed": 1921.01, "batch_size_per_device": 64, "median_speed": 1921.01, "speedup": 7.75}}})");
    const auto time = cli({"summarize", (dir / "r100").string(), "--format", "dlperf"});
    ASSERT_EQ(time.exitCode, 0) << time.err;
    EXPECT_EQ(nlohmann::json::parse(time.out), expected) << time.out;
    const auto speed =
        cli({"summarize", (dir / "r100").string(), "--format", "dlperf", "--method", "speed"});
    ASSERT_EQ(speed.exitCode, 0) << speed.err;
    EXPECT_EQ(nlohmann::json::parse(speed.out), expected) << speed.out;
    EXPECT_NE(speed.err.find("DLPerf has no --method speed script for oneflow-insightface"),
              std::string::npos)
        << speed.err;
}
