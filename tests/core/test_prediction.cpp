// The next topology predicted: the backtest over the published tables (each table's error
// bounded), the refusal from too few multi-device cases, and generated clusters of a known link
// speed predicted within the interval.

#include "core/stats/predictionbacktest.h"
#include "core/stats/probelinkspeed.h"
#include "core/stats/topologyprediction.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sv;

namespace {

// A cluster of G = 8 devices per node, batch 128, ResNet-50's FP32 gradient: each iteration the
// node's compute, the ring all-reduce at `link` bytes/s and a fixed overhead; each measured
// median off by a deterministic +-0.3 % with a +-0.5 % interval.
constexpr int kBatch = 128;
constexpr double kGradient = 25557032.0 * 4;

double generatedThroughput(int nodes, double link, double overhead) {
    const Topology t{nodes, 8};
    const double seconds =
        0.34 + ringAllReduceSeconds(t.ranks(), kGradient, link) + (nodes > 1 ? overhead : 0.0);
    return t.ranks() * kBatch / seconds;
}

std::vector<ScalingPoint> generatedCluster(std::vector<int> nodes, double link, double overhead) {
    std::vector<ScalingPoint> out;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const double x = generatedThroughput(nodes[i], link, overhead) * (i % 2 ? 1.003 : 0.997);
        out.push_back({Topology{nodes[i], 8}, x, Interval{x * 0.995, x * 1.005}});
    }
    return out;
}

} // namespace

TEST(Prediction, BacktestOverThePublishedTablesEachWithinItsBound) {
    const Backtest& b = builtinBacktest();
    // Every bundled series with three node counts (ResNet-50, BERT, InsightFace r100).
    ASSERT_GE(b.rows.size(), 80u) << b.summary();
    for (const auto& r : b.rows) {
        SCOPED_TRACE(r.table + " " + r.series);
        EXPECT_EQ(r.target, "4n8g");
        EXPECT_LT(std::fabs(r.errorPct), 25.0)
            << "predicted " << r.predicted << " measured " << r.measured;
        EXPECT_GT(r.ci95.hi, r.ci95.lo);
    }
    EXPECT_LT(b.medianAbsPct, 4.0) << b.summary();
    EXPECT_GE(b.inside, static_cast<int>(b.rows.size() * 85 / 100)) << b.summary();
}

// The issue's figures: DLPerf's NGC MXNet AMP 4n8g from 1n8g and 2n8g at 100 Gbit/s is 3.3 %
// under the measured 27,558.28 (26,653 images/s); its FP32 table 1.5 % over 11,331.93.
TEST(Prediction, DlperfNgcMxnetFourNodesAsDerived) {
    const Backtest& b = builtinBacktest();
    bool amp = false, fp32 = false;
    for (const auto& r : b.rows) {
        if (r.table == "dlperf-ngc-mxnet-fp16-amp-bs256") {
            amp = true;
            EXPECT_NEAR(r.predicted, 26653.0, 1.0);
            EXPECT_NEAR(r.errorPct, -3.28, 0.05);
            EXPECT_TRUE(r.inside);
        }
        if (r.table == "dlperf-ngc-mxnet-fp32-bs128") {
            fp32 = true;
            EXPECT_NEAR(r.errorPct, 1.49, 0.05);
        }
    }
    EXPECT_TRUE(amp);
    EXPECT_TRUE(fp32);
}

TEST(Prediction, OneMultiNodePointRefuses) {
    PredictionInput in;
    in.batchPerDevice = kBatch;
    in.gradientBytes = kGradient;
    in.linkBytesPerSecond = 12.5e9;
    in.points = {{Topology{1, 1}, 400.0, std::nullopt}, {Topology{2, 1}, 700.0, std::nullopt}};
    const auto r = predictTopologies(in, {Topology{4, 1}});
    EXPECT_TRUE(r.predictions.empty());
    EXPECT_NE(r.refused.find("only 1 multi-device case"), std::string::npos) << r.refused;
    // None at all (every multi-device run left out): said so, not "only 0 multi-device case".
    in.points = {{Topology{1, 1}, 400.0, std::nullopt}};
    const auto none = predictTopologies(in, {Topology{4, 1}});
    EXPECT_EQ(none.refused.rfind("no multi-device case with a figure: ", 0), 0u) << none.refused;
    // One multi-node case and no link speed: none implied, none guessed.
    in.points = generatedCluster({1, 2}, 12.5e9, 0.02);
    in.linkBytesPerSecond.reset();
    const auto noLink = predictTopologies(in, {Topology{4, 8}});
    EXPECT_TRUE(noLink.predictions.empty());
    EXPECT_NE(noLink.refused.find("link speed is not known"), std::string::npos) << noLink.refused;
}

TEST(Prediction, GeneratedClusterWithAKnownLinkIsWithinTheInterval) {
    const double link = 12.5e9;
    PredictionInput in;
    in.batchPerDevice = kBatch;
    in.gradientBytes = kGradient;
    in.linkBytesPerSecond = link;
    in.linkSource = "given";
    in.calibratedHalfWidth = builtinBacktest().p90AbsPct / 100.0;
    in.points = generatedCluster({1, 2, 4}, link, 0.02);
    const auto r = predictTopologies(in, {Topology{8, 8}, Topology{16, 8}});
    ASSERT_EQ(r.predictions.size(), 2u) << r.refused;
    for (const auto& p : r.predictions) {
        const double truth = generatedThroughput(p.topology.nodes, link, 0.02);
        EXPECT_GT(truth, p.ci95.lo) << p.topology.name();
        EXPECT_LT(truth, p.ci95.hi) << p.topology.name();
        EXPECT_NEAR(p.throughput / truth, 1.0, 0.01) << p.model;
        EXPECT_NE(p.model.find("100.0 Gbit/s"), std::string::npos) << p.model;
    }
}

TEST(Prediction, SlowLinkImpliedByTheMultiNodeCases) {
    const double link = 3e9; // 24 Gbit/s: the all-reduce dominates
    PredictionInput in;
    in.batchPerDevice = kBatch;
    in.gradientBytes = kGradient;
    in.calibratedHalfWidth = 0.05;
    in.points = generatedCluster({1, 2, 4, 8}, link, 0.01);
    for (auto& p : in.points) { // exact figures: the slope is the link
        p.throughput = generatedThroughput(p.topology.nodes, link, 0.01);
        p.ci95 = Interval{p.throughput * 0.995, p.throughput * 1.005};
    }
    const auto r = predictTopologies(in, {Topology{16, 8}});
    ASSERT_EQ(r.predictions.size(), 1u) << r.refused;
    EXPECT_NEAR(r.linkBytesPerSecond / link, 1.0, 0.01);
    EXPECT_NE(r.linkSource.find("implied"), std::string::npos);
    const double truth = generatedThroughput(16, link, 0.01);
    EXPECT_GT(truth, r.predictions[0].ci95.lo);
    EXPECT_LT(truth, r.predictions[0].ci95.hi);
}

TEST(Prediction, LinkSpeedFromTheProbesMultiNodeAllReduceOnly) {
    // 2n8g: 16 ranks, the gradient in 2 x 15/16 of its bytes per link at 9.4 Gbit/s.
    const double link = 9.4e9 / 8;
    const double t = 2.0 * 15 / 16 * kGradient / link;
    const std::string text =
        R"({"probes": [{"kind": "allreduce", "topology": "1n8g", "bytes": )" +
        std::to_string(kGradient) + R"(, "ranks": 8, "seconds": [0.001, 0.001]},
                       {"kind": "allreduce", "topology": "2n8g", "bytes": )" +
        std::to_string(kGradient) + R"(, "ranks": 16, "seconds": [)" + std::to_string(t * 1.1) +
        "," + std::to_string(t) + "," + std::to_string(t * 0.95) + "]}]}";
    const ProbeFile probes = parseProbeFile(text, "probes.json");
    ASSERT_TRUE(probes.error.empty()) << probes.error;
    const auto speed = probeLinkSpeed(probes);
    ASSERT_TRUE(speed);
    EXPECT_NEAR(speed->bytesPerSecond * 8 / 1e9, 9.4, 1e-4);
    EXPECT_EQ(speed->source, "from the probes' all-reduce (102.2 MB across 16 ranks at 2n8g, "
                             "median of 3 timings)");
    // A single node's all-reduce measures NVLink or PCIe, not the link: no speed from it alone.
    const ProbeFile single = parseProbeFile(
        R"({"probes": [{"kind": "allreduce", "topology": "1n8g", "bytes": 1e8, "ranks": 8,
            "seconds": [0.001]}]})",
        "probes.json");
    ASSERT_TRUE(single.error.empty()) << single.error;
    EXPECT_FALSE(probeLinkSpeed(single));
    // And the prediction says the link came from the probes.
    PredictionInput in;
    in.points = generatedCluster({1, 2}, link, 0.02);
    in.batchPerDevice = kBatch;
    in.gradientBytes = kGradient;
    in.linkBytesPerSecond = speed->bytesPerSecond;
    in.linkSource = speed->source;
    const auto r = predictTopologies(in, {Topology{4, 8}});
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    ASSERT_EQ(r.predictions.size(), 1u);
    EXPECT_NE(r.predictions[0].model.find("at 9.4 Gbit/s, from the probes' all-reduce"),
              std::string::npos)
        << r.predictions[0].model;
    const double truth = generatedThroughput(4, link, 0.02);
    EXPECT_GT(truth, r.predictions[0].ci95.lo);
    EXPECT_LT(truth, r.predictions[0].ci95.hi);
}
