// The regression rule on stored campaigns built by hand: the latest campaign against the
// earlier ones by Compare's rule (the ratio of the medians and its bootstrap interval), beyond
// the practical threshold, with the earlier campaigns' min-max envelope said beside it.

#include "history/historytrend.h"

#include "core/compare/comparison.h"
#include "core/model/numerics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace sv::history;

namespace {

StoredCampaign campaign(const std::string& time, double median, double min, double max) {
    StoredCampaign s;
    s.record.time = time;
    s.record.label = "c" + time;
    s.record.method = "time";
    CaseRecord c;
    c.key = {"r50", "fp32", 64, {1, 2}, "ngc-mxnet"};
    c.runs = 3;
    c.median = median;
    c.min = min;
    c.max = max;
    // A recorded case always carries its repeats (recordFromSummary): the verdict rests on them.
    c.values = {min, median, max};
    s.record.cases.push_back(c);
    return s;
}

} // namespace

TEST(HistoryTrend, LatestBelowEveryEarlierMinBeyondThresholdIsARegression) {
    const auto t =
        computeTrends({campaign("2026-11-01", 100, 98, 102), campaign("2026-11-10", 101, 99, 103),
                       campaign("2026-11-20", 90, 89, 91)});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_TRUE(t[0].regression);
    EXPECT_DOUBLE_EQ(*t[0].previousLow, 98);
    EXPECT_DOUBLE_EQ(*t[0].previousHigh, 103);
    EXPECT_NEAR(*t[0].changePct, (90 - 98) / 98.0 * 100, 1e-9);
    EXPECT_NE(t[0].note.find("regression"), std::string::npos) << t[0].note;
}

TEST(HistoryTrend, OutsideTheSpreadWithinNoiseIsNoRegression) {
    // 99 is below every earlier repeat, but 1 % below their median, under the 2 % threshold.
    const auto t = computeTrends({campaign("2026-11-01", 100, 99.8, 100.2),
                                  campaign("2026-11-10", 100.1, 99.9, 100.3),
                                  campaign("2026-11-20", 99, 98.9, 99.1)});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_FALSE(t[0].regression);
    EXPECT_NE(t[0].note.find("within noise"), std::string::npos) << t[0].note;
    // A tighter threshold calls it.
    TrendOptions strict;
    strict.thresholdPct = 0.5;
    EXPECT_TRUE(computeTrends({campaign("2026-11-01", 100, 99.8, 100.2),
                               campaign("2026-11-20", 99, 98.9, 99.1)},
                              strict)[0]
                    .regression);
}

TEST(HistoryTrend, OrderIsByTimeAndTheFilterKeepsOneTopology) {
    // Given newest first, judged oldest first: 90 is the earliest, not the latest.
    const auto t =
        computeTrends({campaign("2026-11-20", 100, 99, 101), campaign("2026-11-01", 90, 89, 91)});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t[0].points.front().median, 90);
    EXPECT_FALSE(t[0].regression);
    EXPECT_TRUE(t[0].improvement);
    TrendOptions only;
    only.topology = "1n1g";
    EXPECT_TRUE(computeTrends({campaign("2026-11-01", 90, 89, 91)}, only).empty());
}

TEST(HistoryTrend, OneCampaignHasNothingToCompare) {
    const auto t = computeTrends({campaign("2026-11-01", 100, 98, 102)});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_FALSE(t[0].regression);
    EXPECT_FALSE(t[0].previousLow);
}

namespace {

StoredCampaign withRepeats(const std::string& time, std::vector<double> values) {
    std::sort(values.begin(), values.end());
    StoredCampaign s = campaign(time, values[values.size() / 2], values.front(), values.back());
    s.record.cases[0].values = values;
    s.record.cases[0].runs = static_cast<int>(values.size());
    return s;
}

} // namespace

// Issue 37 item 11: History said "Faster: 14.1 % above the earlier campaigns' range" where
// Compare, on the same repeats, said "no measurable difference" (ratio 1.16 [0.95, 1.37]). An
// improvement now takes the evidence a regression takes: the one-sided Welch test in its
// direction, a discovery under Benjamini-Hochberg.
TEST(HistoryTrend, AnImprovementTakesTheEvidenceARegressionTakes) {
    // The latest median, 137, is 14.2 % above the earlier range (80-120), but its repeats are
    // as spread as the earlier ones: not told from noise.
    const auto noisy = computeTrends(
        {withRepeats("2026-11-01", {80, 100, 120}), withRepeats("2026-11-02", {100, 137, 175})});
    ASSERT_EQ(noisy.size(), 1u);
    EXPECT_NEAR(*noisy[0].changePct, (137 - 120) / 120.0 * 100, 1e-9);
    ASSERT_TRUE(noisy[0].pValue);
    EXPECT_GT(*noisy[0].pValue, 0.05);
    EXPECT_FALSE(noisy[0].improvement) << noisy[0].note;
    EXPECT_EQ(noisy[0].note.rfind("within noise: latest median 137.0 is 14.2 % above", 0), 0u)
        << noisy[0].note;
    // Tight repeats a whole step above: faster, and said with its test.
    const auto clear = computeTrends(
        {withRepeats("2026-11-01", {99, 100, 101}), withRepeats("2026-11-02", {137, 138, 139})});
    ASSERT_TRUE(clear[0].pValue);
    EXPECT_LT(*clear[0].pValue, 0.01);
    EXPECT_TRUE(clear[0].improvement) << clear[0].note;
    EXPECT_NE(clear[0].note.find("faster: latest median 138.0"), std::string::npos)
        << clear[0].note;
    EXPECT_NE(clear[0].note.find("a discovery"), std::string::npos) << clear[0].note;
    // The same rule the other way: a slower latest campaign is tested for being slower.
    const auto slower = computeTrends(
        {withRepeats("2026-11-01", {137, 138, 139}), withRepeats("2026-11-02", {99, 100, 101})});
    EXPECT_TRUE(slower[0].regression) << slower[0].note;
}

namespace {

// One case's repeats as Compare reads a series: its median as the summary gives it.
sv::ComparisonSeries compareSide(const std::string& label, const sv::CaseKey& key,
                                 std::vector<double> values, bool disturbed) {
    sv::CaseStats c;
    c.key = key;
    c.values = values;
    c.median = sv::numpyMedian(values);
    if (disturbed) c.warnings.push_back({"disturbed", "repeat 2 ran on a busy host (load 3.1)"});
    sv::ComparisonSeries s;
    s.label = label;
    s.cases.push_back(c);
    return s;
}

// The same repeats as the history records them.
StoredCampaign historySide(const std::string& time, const sv::CaseKey& key,
                           const std::vector<double>& values, int disturbed) {
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    StoredCampaign s = campaign(time, sv::numpyMedian(values), sorted.front(), sorted.back());
    s.record.cases[0].key = key;
    s.record.cases[0].values = values;
    s.record.cases[0].runs = static_cast<int>(values.size());
    s.record.cases[0].disturbed = disturbed;
    return s;
}

sv::Verdict historyVerdict(const CaseTrend& t) {
    return t.regression    ? sv::Verdict::Slower
           : t.improvement ? sv::Verdict::Faster
                           : sv::Verdict::NoDifference;
}

} // namespace

// Issue 37 item 11: History said "Faster: 14.1 % above the earlier campaigns' range" where
// Compare, on the same two campaigns, said "no measurable difference" (ratio 1.16 [0.95, 1.37]).
// One rule of evidence: History's latest campaign against one earlier campaign gets Compare's
// verdict, whatever the two campaigns' repeats, and both say when the runs were disturbed.
TEST(HistoryTrend, HistoryAndCompareGiveTheSameVerdictOnTheSameTwoCampaigns) {
    const sv::CaseKey key{"r50", "fp32", 64, {1, 2}, "ngc-mxnet"};
    std::mt19937_64 rng(37);
    std::uniform_real_distribution<double> step(-0.15, 0.15), spread(0.002, 0.08);
    std::uniform_int_distribution<int> repeats(2, 6);
    int called = 0, disagreed = 0;
    std::string first;
    for (int pair = 0; pair < 200; ++pair) {
        const double level = 1000.0, ratio = 1.0 + step(rng);
        std::normal_distribution<double> a(level, level * spread(rng)),
            b(level * ratio, level * ratio * spread(rng));
        std::vector<double> va, vb;
        for (int r = repeats(rng); r > 0; --r)
            va.push_back(a(rng));
        for (int r = repeats(rng); r > 0; --r)
            vb.push_back(b(rng));
        const sv::Comparison compared =
            sv::compareSeries({compareSide("A", key, va, false), compareSide("B", key, vb, false)});
        ASSERT_EQ(compared.cases.size(), 1u);
        const sv::Verdict expected = compared.cases[0].contrasts[0].verdict;
        const auto trend = computeTrends(
            {historySide("2026-11-01", key, va, 0), historySide("2026-11-02", key, vb, 0)});
        ASSERT_EQ(trend.size(), 1u);
        called += expected != sv::Verdict::NoDifference ? 1 : 0;
        if (historyVerdict(trend[0]) != expected && disagreed++ == 0)
            first = "pair " + std::to_string(pair) + ": Compare says " +
                    std::string(sv::verdictName(expected)) + ", History: " + trend[0].note;
    }
    EXPECT_EQ(disagreed, 0) << first;
    EXPECT_GT(called, 40) << "the pairs must include real changes both pages call";

    // The issue's two campaigns: a 14 % faster median over noisy repeats, the latest's second
    // run disturbed. Compare: no measurable difference; History the same, and both say so.
    const std::vector<double> earlier{1190.0, 1240.0, 1410.0}, latest{1230.0, 1440.0, 1620.0};
    const sv::Comparison issue = sv::compareSeries({compareSide("nightly-1", key, earlier, false),
                                                    compareSide("nightly-2", key, latest, true)});
    const auto trend = computeTrends(
        {historySide("2026-11-01", key, earlier, 0), historySide("2026-11-02", key, latest, 1)});
    EXPECT_EQ(issue.cases[0].contrasts[0].verdict, sv::Verdict::NoDifference);
    EXPECT_EQ(historyVerdict(trend[0]), sv::Verdict::NoDifference) << trend[0].note;
    ASSERT_TRUE(trend[0].contrast);
    EXPECT_EQ(trend[0].contrast->ratio, issue.cases[0].contrasts[0].ratio);
    ASSERT_TRUE(trend[0].contrast->ratioCi95 && issue.cases[0].contrasts[0].ratioCi95);
    EXPECT_EQ(trend[0].contrast->ratioCi95->lo, issue.cases[0].contrasts[0].ratioCi95->lo);
    EXPECT_EQ(trend[0].contrast->ratioCi95->hi, issue.cases[0].contrasts[0].ratioCi95->hi);
    ASSERT_EQ(issue.cases[0].disturbed.size(), 2u);
    EXPECT_TRUE(issue.cases[0].disturbed[0].empty());
    EXPECT_NE(issue.cases[0].disturbed[1].find("busy host"), std::string::npos);
    EXPECT_NE(trend[0].note.find("1 of the latest campaign's 3 runs"), std::string::npos)
        << trend[0].note;
}

// Issue 37 item 12: after a step the latest campaign is judged against the level the case has
// run at since the step (the step is said as its own change): a further drop is a regression of
// its own, and a night at the step's level is no change.
TEST(HistoryTrend, AfterAStepTheLatestIsJudgedAgainstTheNewLevel) {
    std::vector<StoredCampaign> nights;
    const sv::CaseKey key{"r50", "fp32", 64, {1, 2}, "ngc-mxnet"};
    for (int d = 1; d <= 10; ++d) {
        const double level = d < 5 ? 1000.0 : 910.0;
        nights.push_back(
            historySide("2026-11-" + std::string(d < 10 ? "0" : "") + std::to_string(d), key,
                        {level - 2.0, level, level + 2.0}, 0));
    }
    const auto level = computeTrends(nights);
    ASSERT_EQ(level[0].steps.size(), 1u);
    EXPECT_FALSE(level[0].regression) << level[0].note;
    EXPECT_NE(level[0].note.find("since the step at c2026-11-05"), std::string::npos)
        << level[0].note;
    nights.push_back(historySide("2026-11-11", key, {858.0, 860.0, 862.0}, 0));
    const auto drop = computeTrends(nights);
    EXPECT_TRUE(drop[0].regression) << drop[0].note;
    EXPECT_TRUE(drop[0].failsCheck()) << drop[0].note;
    ASSERT_TRUE(drop[0].baselineMedian);
    EXPECT_DOUBLE_EQ(*drop[0].baselineMedian, 910.0);
}
