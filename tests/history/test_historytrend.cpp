// The regression rule on stored campaigns built by hand: the latest median against the earlier
// campaigns' min-max envelope, beyond the practical threshold.

#include "history/historytrend.h"

#include <gtest/gtest.h>

using namespace sv::history;

namespace {

StoredCampaign campaign(const std::string& time, double median, double min, double max) {
    StoredCampaign s;
    s.record.time = time;
    s.record.label = "c" + time;
    s.record.method = "time";
    CaseRecord c;
    c.key = {"r50", "fp32", 64, {1, 2}, "ngc-mxnet"};
    c.runs = 5;
    c.median = median;
    c.min = min;
    c.max = max;
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
    // 97 is below the earlier 98 but by 1 %, under the 2 % threshold.
    const auto t =
        computeTrends({campaign("2026-11-01", 100, 98, 102), campaign("2026-11-10", 101, 99, 103),
                       campaign("2026-11-20", 97, 96, 98)});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_FALSE(t[0].regression);
    EXPECT_NE(t[0].note.find("within noise"), std::string::npos) << t[0].note;
    // A tighter threshold calls it.
    TrendOptions strict;
    strict.thresholdPct = 0.5;
    EXPECT_TRUE(
        computeTrends({campaign("2026-11-01", 100, 98, 102), campaign("2026-11-20", 97, 96, 98)},
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
