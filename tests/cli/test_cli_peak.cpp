// Issue 38 through the command line: a generated cluster whose iteration time is compute + a
// ring all-reduce at a known link + a fixed overhead; its percent of peak from a scaleview.json
// "device", and its next topology predicted within the interval; one multi-node case refused.

#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace sv::test;

namespace {

constexpr int kBatch = 64, kPerNode = 2;
constexpr double kGradient = 25557032.0 * 4; // ResNet-50's FP32 gradient, bytes
constexpr double kLink = 10e9 / 8;           // 10 Gbit/s

// Milliseconds per iteration at n nodes: 800 ms compute, the ring at kLink, 50 ms overhead.
double stepMs(int nodes) {
    const int ranks = nodes * kPerNode;
    const double ring = 2.0 * (ranks - 1) / ranks * kGradient / kLink;
    return 800.0 + 1e3 * ring + (nodes > 1 ? 50.0 : 0.0);
}

void writeCluster(const std::filesystem::path& root, std::vector<int> nodes) {
    const int jitter[] = {-4, 0, 4};
    for (int n : nodes)
        for (int p = 0; p < 3; ++p) {
            RunSpec spec;
            spec.ranks = n * kPerNode;
            spec.stepMs = std::lround(stepMs(n)) + jitter[p];
            const double rate = 1000.0 * kBatch * spec.ranks / spec.stepMs;
            writeFile(root / "bz64" / (std::to_string(n) + "n2g") /
                          ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                      makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
        }
    // The single-device case, for the percent of peak's simplest figure.
    for (int p = 0; p < 3; ++p) {
        RunSpec spec;
        spec.stepMs = 800 + jitter[p];
        writeFile(root / "bz64/1n1g" / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                  makeLog(spec, [](int, int) { return std::string("80.0"); }));
    }
}

} // namespace

TEST(CliPeak, SidecarDeviceGivesPercentOfPeakAndNamesItsSource) {
    TempDir dir;
    writeCluster(dir.path(), {1, 2});
    writeFile(dir.path() / "scaleview.json", R"({"device": "Tesla V100-SXM2-16GB"})");
    const auto r = cli({"summarize", dir.path().string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("not a key of scaleview.json"), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& one = j["cases"][0];
    ASSERT_EQ(one["topology"], "1n1g");
    // 64 / 0.8 s = 80 images/s x 24.5351 GFLOP / 15.7 TFLOP/s = 12.50 %.
    EXPECT_NEAR(one["peak"]["pct"].get<double>(), 80.0 * 24.5351e9 / 15.7e12 * 100, 0.01);
    EXPECT_EQ(one["peak"]["device"], "v100-sxm2-16gb");
    EXPECT_NE(one["peak"]["device_source"].get<std::string>().find("scaleview.json"),
              std::string::npos);
    // An unknown device named on the command line: no number, the name said.
    const auto unknown =
        cli({"summarize", dir.path().string(), "--device", "Acme X1", "--format", "csv"});
    ASSERT_EQ(unknown.exitCode, 0) << unknown.err;
    EXPECT_NE(unknown.out.find("peak unknown: device 'Acme X1' is not in the catalogue"),
              std::string::npos)
        << unknown.out;
}

TEST(CliPeak, GeneratedClusterPredictedWithinItsInterval) {
    TempDir dir;
    writeCluster(dir.path(), {1, 2, 4});
    const auto r = cli({"predict", dir.path().string(), "--topologies", "8n2g,16n", "--link-gbps",
                        "10", "--format", "json", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["predictions"].size(), 2u) << r.out;
    for (const auto& p : j["predictions"]) {
        const int nodes = p["topology"] == "8n2g" ? 8 : 16;
        EXPECT_EQ(p["topology"], nodes == 8 ? "8n2g" : "16n2g");
        const double truth = 1000.0 * kBatch * nodes * kPerNode / stepMs(nodes);
        EXPECT_GT(truth, p["ci95"][0].get<double>()) << p.dump();
        EXPECT_LT(truth, p["ci95"][1].get<double>()) << p.dump();
        EXPECT_NEAR(p["throughput"].get<double>() / truth, 1.0, 0.02) << p.dump();
        EXPECT_NE(p["backtest"].get<std::string>().find("published series"), std::string::npos);
    }
}

TEST(CliPeak, OneMultiNodeCaseWithoutALinkRefuses) {
    TempDir dir;
    writeCluster(dir.path(), {1, 2});
    const auto r = cli({"predict", dir.path().string(), "--topologies", "4n2g", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("no prediction: the link speed is not known and one multi-node case "
                         "cannot imply it"),
              std::string::npos)
        << r.out;
    const auto bad = cli({"predict", dir.path().string(), "--topologies", "4x2"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("'4x2' is not a topology"), std::string::npos) << bad.err;
}

namespace {

// A probes.json whose all-reduce of the gradient across the 2n2g case's 4 ranks took what a ring
// at `gbps` takes; and a single node's all-reduce 50 times as fast, which measures no link.
void writeProbes(const std::filesystem::path& root, double gbps) {
    const double link = gbps * 1e9 / 8;
    const double multi = 2.0 * 3 / 4 * kGradient / link;
    const double single = 2.0 * 1 / 2 * kGradient / (50 * link);
    nlohmann::json probes = {
        {"probes",
         {{{"kind", "allreduce"},
           {"topology", "2n2g"},
           {"backend", "nccl"},
           {"bytes", kGradient},
           {"ranks", 4},
           {"seconds", {multi * 0.98, multi, multi * 1.02, multi * 1.01, multi * 0.99}}},
          {{"kind", "allreduce"},
           {"topology", "1n2g"},
           {"backend", "nccl"},
           {"bytes", kGradient},
           {"ranks", 2},
           {"seconds", {single, single, single}}}}}};
    writeFile(root / "probes.json", probes.dump());
}

} // namespace

TEST(CliPeak, TheProbesAllReduceGivesTheLinkOneMultiNodeCaseCouldNot) {
    TempDir dir;
    writeCluster(dir.path(), {1, 2});
    writeProbes(dir.path(), 10.0);
    const auto r = cli(
        {"predict", dir.path().string(), "--topologies", "4n2g,8n", "--format", "json", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["predictions"].size(), 2u) << r.out;
    for (const auto& p : j["predictions"]) {
        const int nodes = p["topology"] == "4n2g" ? 4 : 8;
        const double truth = 1000.0 * kBatch * nodes * kPerNode / stepMs(nodes);
        EXPECT_GT(truth, p["ci95"][0].get<double>()) << p.dump();
        EXPECT_LT(truth, p["ci95"][1].get<double>()) << p.dump();
        EXPECT_NEAR(p["throughput"].get<double>() / truth, 1.0, 0.02) << p.dump();
        // The 2n2g all-reduce's speed, not the single node's 50 times faster one.
        EXPECT_NE(p["model"].get<std::string>().find(
                      "at 10.0 Gbit/s, from the probes' all-reduce (102.2 MB across 4 ranks at "
                      "2n2g, median of 5 timings)"),
                  std::string::npos)
            << p.dump();
    }
    // The user's --link-gbps comes before the probes'.
    const auto given = cli({"predict", dir.path().string(), "--topologies", "4n2g", "--link-gbps",
                            "25", "--format", "json", "--quiet"});
    ASSERT_EQ(given.exitCode, 0) << given.err;
    EXPECT_NE(given.out.find("at 25.0 Gbit/s, --link-gbps"), std::string::npos) << given.out;
}
