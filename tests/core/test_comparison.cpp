// The comparison of series: matching cases by their whole key, the ratio's bootstrap interval
// (checked against an exact enumeration), and verdicts that never call noise a change.

#include "core/compare/comparison.h"
#include "core/report/comparisonreport.h"
#include "core/model/numerics.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace sv;

namespace {

CaseStats makeCase(const std::string& topology, std::vector<double> values,
                   const std::string& precision = "fp32", int batch = 128) {
    CaseStats c;
    c.key.model = "r50";
    c.key.precision = precision;
    c.key.batchPerDevice = batch;
    c.key.topology = *parseTopology(topology);
    for (std::size_t i = 0; i < values.size(); ++i)
        c.repeats.push_back(static_cast<int>(i) + 1);
    c.values = std::move(values);
    if (!c.values.empty()) c.median = roundNumpy2(numpyMedian(c.values));
    return c;
}

ComparisonSeries series(const std::string& label, std::vector<CaseStats> cases) {
    ComparisonSeries s;
    s.label = label;
    s.source = "/logs/" + label;
    s.cases = std::move(cases);
    return s;
}

std::vector<double> scaled(const std::vector<double>& v, double f) {
    std::vector<double> out;
    for (double x : v)
        out.push_back(x * f);
    return out;
}

// Seven repeats with about 0.5 % spread, like the seed's FP32 table.
const std::vector<double> kSteady = {392.24, 390.09, 392.63, 393.53, 391.58, 392.85, 391.77};

} // namespace

TEST(Comparison, SameSeriesAgainstItselfIsNoDifferenceEverywhere) {
    const std::vector<CaseStats> cases = {makeCase("1n1g", kSteady),
                                          makeCase("1n8g", scaled(kSteady, 7.6)),
                                          makeCase("2n8g", {5758.49, 5685.5, 5717.04})};
    const Comparison c = compareSeries({series("a", cases), series("a", cases)});
    ASSERT_EQ(c.cases.size(), 3u);
    for (const auto& cc : c.cases) {
        ASSERT_EQ(cc.contrasts.size(), 1u);
        EXPECT_EQ(cc.contrasts[0].verdict, Verdict::NoDifference) << cc.key.topology.name();
        EXPECT_DOUBLE_EQ(*cc.contrasts[0].ratio, 1.0);
        ASSERT_TRUE(cc.contrasts[0].ratioCi95);
        EXPECT_TRUE(cc.contrasts[0].ratioCi95->contains(1.0));
        // A and B are resampled independently: the interval has a width, as for two
        // measurements, rather than collapsing to [1, 1].
        EXPECT_LT(cc.contrasts[0].ratioCi95->lo, 1.0);
        EXPECT_GT(cc.contrasts[0].ratioCi95->hi, 1.0);
    }
}

TEST(Comparison, TenPercentFasterIsFasterWithAnIntervalExcludingOne) {
    const Comparison c = compareSeries({series("before", {makeCase("1n1g", kSteady)}),
                                        series("after", {makeCase("1n1g", scaled(kSteady, 1.1))})});
    ASSERT_EQ(c.cases.size(), 1u);
    const auto& k = c.cases[0].contrasts[0];
    EXPECT_EQ(k.verdict, Verdict::Faster);
    EXPECT_NEAR(*k.ratio, 1.1, 0.001);
    ASSERT_TRUE(k.ratioCi95);
    EXPECT_GT(k.ratioCi95->lo, 1.0);
    EXPECT_TRUE(k.ratioCi95->contains(*k.ratio));
    // And the other way round: slower.
    const Comparison back =
        compareSeries({series("after", {makeCase("1n1g", scaled(kSteady, 1.1))}),
                       series("before", {makeCase("1n1g", kSteady)})});
    EXPECT_EQ(back.cases[0].contrasts[0].verdict, Verdict::Slower);
    EXPECT_LT(back.cases[0].contrasts[0].ratioCi95->hi, 1.0);
}

TEST(Comparison, NoisyOnePercentChangeIsNoDifference) {
    // +-4 % noise between repeats; B is 1 % faster on average.
    const std::vector<double> a = {100.0, 96.0, 104.0, 98.0, 102.0, 97.0, 103.0};
    const Comparison c = compareSeries(
        {series("a", {makeCase("1n1g", a)}), series("b", {makeCase("1n1g", scaled(a, 1.01))})});
    const auto& k = c.cases[0].contrasts[0];
    EXPECT_EQ(k.verdict, Verdict::NoDifference);
    EXPECT_TRUE(k.ratioCi95->contains(1.0));
}

TEST(Comparison, ReproducibleChangeBelowTheThresholdIsNoDifference) {
    // Steady repeats, 1 % faster: the interval excludes 1, but 1 % is within the default 2 %.
    const std::vector<CaseStats> a = {makeCase("1n1g", kSteady)};
    const std::vector<CaseStats> b = {makeCase("1n1g", scaled(kSteady, 1.01))};
    const Comparison c = compareSeries({series("a", a), series("b", b)});
    const auto& k = c.cases[0].contrasts[0];
    ASSERT_TRUE(k.ratioCi95);
    EXPECT_GT(k.ratioCi95->lo, 1.0);
    EXPECT_EQ(k.verdict, Verdict::NoDifference);
    // A threshold of 0.5 % calls it.
    ComparisonOptions strict;
    strict.thresholdPct = 0.5;
    EXPECT_EQ(compareSeries({series("a", a), series("b", b)}, strict).cases[0].contrasts[0].verdict,
              Verdict::Faster);
}

TEST(Comparison, CasesInOneSeriesOnlyAreListedAsSuch) {
    const Comparison c =
        compareSeries({series("a", {makeCase("1n1g", kSteady), makeCase("1n2g", kSteady)}),
                       series("b", {makeCase("1n1g", kSteady), makeCase("1n4g", kSteady)}),
                       series("c", {makeCase("1n8g", kSteady)})});
    ASSERT_EQ(c.cases.size(), 4u); // ordered by GPUs
    EXPECT_EQ(c.cases[0].key.topology.name(), "1n1g");
    EXPECT_EQ(c.cases[1].key.topology.name(), "1n2g");
    EXPECT_EQ(c.cases[2].key.topology.name(), "1n4g");
    EXPECT_EQ(c.cases[3].key.topology.name(), "1n8g");
    EXPECT_EQ(c.cases[0].contrasts[0].verdict, Verdict::NoDifference);
    EXPECT_EQ(c.cases[0].contrasts[1].verdict, Verdict::OnlyInA);
    EXPECT_EQ(c.cases[1].contrasts[0].verdict, Verdict::OnlyInA);
    EXPECT_EQ(c.cases[2].contrasts[0].verdict, Verdict::OnlyInB);
    EXPECT_EQ(c.cases[2].contrasts[1].verdict, Verdict::Absent);
    EXPECT_EQ(c.cases[3].contrasts[0].verdict, Verdict::Absent);
    EXPECT_EQ(c.cases[3].contrasts[1].verdict, Verdict::OnlyInB);
    EXPECT_FALSE(c.cases[1].medians[1]);
    EXPECT_FALSE(c.cases[1].contrasts[0].ratio);
}

TEST(Comparison, CasesMatchByTheWholeKey) {
    // Same topology, another precision or batch: two cases, each in one series only.
    const Comparison c = compareSeries({series("a", {makeCase("1n1g", kSteady, "fp32", 128)}),
                                        series("b", {makeCase("1n1g", kSteady, "fp16", 128),
                                                     makeCase("1n1g", kSteady, "fp32", 64)})});
    ASSERT_EQ(c.cases.size(), 3u);
    int onlyA = 0, onlyB = 0;
    for (const auto& cc : c.cases) {
        onlyA += cc.contrasts[0].verdict == Verdict::OnlyInA;
        onlyB += cc.contrasts[0].verdict == Verdict::OnlyInB;
    }
    EXPECT_EQ(onlyA, 1);
    EXPECT_EQ(onlyB, 2);
}

TEST(Comparison, OneRepeatGivesARatioButNoIntervalAndNoVerdict) {
    const Comparison c = compareSeries(
        {series("a", {makeCase("1n1g", {100.0})}), series("b", {makeCase("1n1g", {150.0})})});
    const auto& k = c.cases[0].contrasts[0];
    EXPECT_DOUBLE_EQ(*k.ratio, 1.5);
    EXPECT_FALSE(k.ratioCi95);
    EXPECT_EQ(k.verdict, Verdict::NoDifference);
    EXPECT_NE(k.note.find("fewer than 2 repeats"), std::string::npos);
}

TEST(Comparison, RatioIntervalMatchesAnExactEnumerationOfTheBootstrap) {
    // With three values per series, a resample's median takes each value with a known
    // probability (the 27 equally likely resamples of each series, 729 pairs): the bootstrap's
    // percentiles must lie near the exact distribution's, computed here without any random draw.
    const std::vector<double> a = {100.0, 104.0, 97.0}, b = {110.0, 106.0, 115.0};
    std::vector<std::pair<double, double>> dist; // ratio, probability
    auto medians = [](const std::vector<double>& v) {
        std::vector<double> out;
        for (double x : v)
            for (double y : v)
                for (double z : v) {
                    std::vector<double> s = {x, y, z};
                    std::sort(s.begin(), s.end());
                    out.push_back(s[1]);
                }
        return out;
    };
    const auto ma = medians(a), mb = medians(b);
    std::vector<double> ratios;
    for (double x : ma)
        for (double y : mb)
            ratios.push_back(y / x);
    std::sort(ratios.begin(), ratios.end());
    // The exact quantile function of the 729 equally likely ratios.
    auto quantile = [&](double p) {
        return ratios[std::min(ratios.size() - 1, static_cast<std::size_t>(p * 729.0))];
    };
    const auto ci = bootstrapRatioCi(a, b, 1, 2, 10000);
    ASSERT_TRUE(ci);
    // 10 000 draws put the 2.5th percentile within about a percentage point of the exact one.
    EXPECT_GE(ci->lo, quantile(0.010));
    EXPECT_LE(ci->lo, quantile(0.040));
    EXPECT_GE(ci->hi, quantile(0.960));
    EXPECT_LE(ci->hi, quantile(0.990));
    // Reproducible: the same seeds give the same interval.
    EXPECT_EQ(*ci, *bootstrapRatioCi(a, b, 1, 2, 10000));
}

TEST(Comparison, JsonHasTheIssueShape) {
    const Comparison c =
        compareSeries({series("before", {makeCase("1n1g", kSteady), makeCase("1n2g", kSteady)}),
                       series("after", {makeCase("1n1g", scaled(kSteady, 1.1))})});
    const auto j = nlohmann::json::parse(formatComparisonJson(c, "test"));
    ASSERT_EQ(j["cases"].size(), 2u);
    const auto& first = j["cases"][0];
    EXPECT_EQ(first["topology"], "1n1g");
    EXPECT_EQ(first["model"], "r50");
    EXPECT_EQ(first["precision"], "fp32");
    EXPECT_EQ(first["batch_size_per_device"], 128);
    EXPECT_DOUBLE_EQ(first["series"][0].get<double>(), 392.24);
    EXPECT_NEAR(first["ratio"].get<double>(), 1.1, 0.001);
    EXPECT_GT(first["ratio_ci95"][0].get<double>(), 1.0);
    EXPECT_EQ(first["verdict"], "faster");
    EXPECT_EQ(j["cases"][1]["verdict"], "only-in-A");
    EXPECT_TRUE(j["cases"][1]["series"][1].is_null());
    EXPECT_TRUE(j["cases"][1]["ratio_ci95"].is_null());
    EXPECT_EQ(j["series"][1]["label"], "after");
}
