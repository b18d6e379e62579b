#include "core/stats/casestats.h"
#include "core/model/numerics.h"

#include <gtest/gtest.h>

using namespace sv;

namespace {

RunResult run(Topology t, int repeat, std::optional<double> time, std::string precision = "fp32",
              int batch = 128, RunStatus status = RunStatus::Complete) {
    RunResult r;
    r.key = RunKey{"r50", precision, batch, t, repeat};
    r.path = t.name() + "/r50_b" + std::to_string(batch) + "_" + precision + "_" +
             std::to_string(repeat) + ".log";
    r.status = status;
    r.timeThroughput = time;
    r.speedThroughput = time;
    if (status != RunStatus::Complete) r.reason = "found 576 of 960 speed lines";
    return r;
}

// The seed's worked example (methodology section 5), FP32, batch 128, runs 1..7.
std::vector<RunResult> workedExample() {
    std::vector<RunResult> runs;
    const double one[] = {392.24, 390.09, 392.63, 393.53, 391.58, 392.85, 391.77};
    const double four[] = {11434.12, 11331.93, 11429.36, 11305.35, 11283.49, 11313.33, 11461.68};
    for (int i = 0; i < 7; ++i) {
        runs.push_back(run({1, 1}, i + 1, one[i]));
        runs.push_back(run({4, 8}, i + 1, four[i]));
    }
    return runs;
}

} // namespace

TEST(CaseStats, SeedWorkedExampleExactly) {
    const auto cases = computeCases(workedExample(), {});
    ASSERT_EQ(cases.size(), 2u);
    const auto& one = cases[0];
    EXPECT_EQ(one.key.topology, (Topology{1, 1}));
    EXPECT_EQ(*one.mean, 392.1);
    EXPECT_EQ(*one.median, 392.24);
    EXPECT_EQ(*one.speedup, 1.0);
    const auto& four = cases[1];
    EXPECT_EQ(*four.mean, 11365.61);
    EXPECT_EQ(*four.median, 11331.93);
    EXPECT_EQ(*four.speedup, 28.89);
    EXPECT_NEAR(*four.efficiency, 11331.93 / 392.24 / 32, 1e-12);
    EXPECT_EQ(*four.min, 11283.49);
    EXPECT_EQ(*four.max, 11461.68);
    EXPECT_NEAR(*four.stdev, 73.291234, 1e-5); // statistics.stdev
    EXPECT_NEAR(*four.cvPct, 0.644851, 1e-5);
    // The seed's own published row for 4n8g.
    ASSERT_TRUE(four.reference);
    EXPECT_EQ(four.reference->table->id, "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(four.reference->throughput, 11331.93);
    EXPECT_EQ(*four.deltaPct, 0.0);
}

TEST(CaseStats, ResultsDoNotDependOnRunOrder) {
    auto runs = workedExample();
    const auto a = computeCases(runs, {});
    std::reverse(runs.begin(), runs.end());
    const auto b = computeCases(runs, {});
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].mean, b[i].mean);
        EXPECT_EQ(a[i].values, b[i].values);
    }
}

TEST(CaseStats, BrokenRunsAreExcludedNeverCountedAsZero) {
    auto runs = workedExample();
    runs.push_back(run({4, 8}, 8, std::nullopt, "fp32", 128, RunStatus::Incomplete));
    const auto cases = computeCases(runs, {});
    const auto& four = cases[1];
    EXPECT_EQ(four.values.size(), 7u);
    ASSERT_EQ(four.excluded.size(), 1u);
    EXPECT_EQ(four.excluded[0].repeat, 8);
    EXPECT_EQ(four.excluded[0].reason, "found 576 of 960 speed lines");
    EXPECT_EQ(*four.mean, 11365.61); // unchanged
    EXPECT_EQ(*four.median, 11331.93);
}

TEST(CaseStats, NoBaselineMeansNoSpeedupNeverOne) {
    std::vector<RunResult> runs = {run({1, 8}, 1, 3000.0), run({1, 8}, 2, 3010.0)};
    const auto cases = computeCases(runs, {});
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_FALSE(cases[0].speedup);
    EXPECT_FALSE(cases[0].efficiency);
    EXPECT_EQ(cases[0].speedupNote, "no 1n1g baseline for r50 fp32 batch 128");
}

TEST(CaseStats, PrecisionsAndBatchSizesNeverMix) {
    std::vector<RunResult> runs = {run({1, 1}, 1, 392.0), run({1, 1}, 1, 1390.0, "fp16-noamp", 256),
                                   run({1, 1}, 1, 1280.0, "fp16", 256),
                                   run({1, 8}, 1, 9600.0, "fp16-noamp", 256)};
    const auto cases = computeCases(runs, {});
    ASSERT_EQ(cases.size(), 4u);
    const auto noamp8 = std::find_if(cases.begin(), cases.end(), [](const CaseStats& c) {
        return c.key.precision == "fp16-noamp" && c.key.topology.gpusPerNode == 8;
    });
    ASSERT_NE(noamp8, cases.end());
    EXPECT_EQ(*noamp8->speedup, roundNumpy2(9600.0 / 1390.0));
    ASSERT_TRUE(noamp8->reference);
    EXPECT_EQ(noamp8->reference->table->id, "dlperf-ngc-mxnet-fp16-noamp-bs256");
    EXPECT_EQ(noamp8->reference->throughput, 9621.31);
}

TEST(CaseStats, OutlierFlaggedNotDropped) {
    std::vector<RunResult> runs;
    const double v[] = {392.2, 392.5, 391.9, 392.4, 350.0, 392.1, 392.6};
    for (int i = 0; i < 7; ++i)
        runs.push_back(run({1, 1}, i + 1, v[i]));
    const auto cases = computeCases(runs, {});
    ASSERT_EQ(cases[0].outlierRepeats, std::vector<int>{5});
    EXPECT_EQ(cases[0].values.size(), 7u);
}

TEST(CaseStats, NamedReferenceAndSeries) {
    SummaryOptions opt;
    opt.reference = "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0";
    const auto cases = computeCases(workedExample(), opt);
    ASSERT_TRUE(cases[1].reference);
    EXPECT_EQ(cases[1].reference->throughput, 12411.97);
    EXPECT_NEAR(*cases[1].deltaPct, (11331.93 - 12411.97) / 12411.97 * 100, 1e-9);
}

TEST(ReferenceCatalog, BuiltinTablesAndLookups) {
    const auto& cat = ReferenceCatalog::builtin();
    ASSERT_GE(cat.tables().size(), 7u);
    EXPECT_EQ(cat.tables()[0].id, "dlperf-ngc-mxnet-fp32-bs128");
    // A comparison table stands by its NGC MXNet series, which is the without-AMP one.
    const auto* amp = cat.find("dlperf-report-v1-amp-bs256");
    ASSERT_TRUE(amp);
    EXPECT_EQ(amp->primary()->name, "NGC MXNet 1.6.0 (without AMP)");
    EXPECT_EQ(amp->primary()->precision, "fp16-noamp");
    // NVIDIA's DGX-1 table names precision and batch in each series.
    auto dgx = cat.lookup("fp32", 96, "1n4g");
    ASSERT_TRUE(dgx);
    EXPECT_EQ(dgx->table->id, "nvidia-dle-mxnet-dgx1-19.07");
    EXPECT_EQ(dgx->throughput, 1513);
    EXPECT_FALSE(cat.lookup("fp32", 64, "1n1g"));
    EXPECT_TRUE(cat.knows("nvidia-dle-mxnet-dgx2-19.07:FP32, batch 128"));
    EXPECT_FALSE(cat.knows("nope"));
    EXPECT_EQ(cat.find("dlperf-ngc-mxnet-fp16-amp-bs256")->hardware, cat.tables()[0].hardware);
}

TEST(ReferenceCatalog, MalformedJsonIsAnError) {
    std::string error;
    EXPECT_FALSE(ReferenceCatalog::fromJson("{\"tables\": 3", &error));
    EXPECT_FALSE(error.empty());
}

TEST(CaseStats, NoDeltaAgainstATableOfAnotherBatchOrPrecision) {
    // A CPU campaign at batch 8 compared with the V100 batch-128 table: a delta of -90 % would
    // read as a finding. The reference stays visible; the delta says why it is absent.
    std::vector<RunResult> runs;
    for (int p = 1; p <= 3; ++p)
        runs.push_back(run({1, 1}, p, 37.0 + p, "fp32", 8));
    SummaryOptions o;
    o.reference = "dlperf-ngc-mxnet-fp32-bs128";
    const auto cases = computeCases(runs, o);
    ASSERT_EQ(cases.size(), 1u);
    ASSERT_TRUE(cases[0].reference);
    EXPECT_EQ(cases[0].reference->throughput, 392.24);
    EXPECT_FALSE(cases[0].deltaPct);
    EXPECT_EQ(cases[0].deltaNote,
              "no delta: dlperf-ngc-mxnet-fp32-bs128 is fp32 batch 128 per GPU, "
              "this case fp32 batch 8");
    // Another precision at the same batch is no match either.
    runs.clear();
    for (int p = 1; p <= 3; ++p)
        runs.push_back(run({1, 1}, p, 800.0 + p, "fp16", 128));
    const auto amp = computeCases(runs, o);
    EXPECT_FALSE(amp[0].deltaPct);
    EXPECT_NE(amp[0].deltaNote.find("this case fp16 batch 128"), std::string::npos);
}
