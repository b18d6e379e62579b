// The history's statistics on generated series whose truth is known: Welch's p-values against
// reference values, Benjamini-Hochberg's false discovery rate over many checks with a known set
// of regressed cases, and change points found where generated steps are (and not on noise).
// Then the whole trend: expected verdicts, the environment diff and the steps it names.

#include "history/historystats.h"
#include "history/historytrend.h"

#include <gtest/gtest.h>

#include <random>

using namespace sv;
using namespace sv::history;

TEST(HistoryStats, StudentTailAndWelchMatchReferenceValues) {
    // Student's t survival function (scipy.stats.t.sf; checked by integrating the density)
    EXPECT_NEAR(studentUpperTail(2.0, 10), 0.036694017385370196, 1e-12);
    EXPECT_NEAR(studentUpperTail(-1.0, 5), 0.8183912661754, 1e-10);
    EXPECT_NEAR(studentUpperTail(0.0, 3.5), 0.5, 1e-15);
    // Welch: t = 5.5535, df = 8.2626 (Welch-Satterthwaite), the density integrated numerically
    // from t on gives 2.40385e-4.
    const std::vector<double> a{100, 101, 99, 100.5, 99.5}, b{97, 98, 96.5, 97.5, 98.5, 97.2};
    EXPECT_NEAR(*welchLowerPValue(a, b), 2.40385e-4, 1e-8);
    EXPECT_FALSE(welchLowerPValue(a, {90}));
    EXPECT_EQ(*welchLowerPValue({1, 1}, {0.5, 0.5}), 0.0);
    EXPECT_EQ(*welchLowerPValue({1, 1}, {1, 1}), 1.0);
}

TEST(HistoryStats, BenjaminiHochbergStepsUpAsDefined) {
    // m = 10, q = 0.1: thresholds 0.01 k. p(4) = 0.035 <= 0.04 rejects the four smallest even
    // though p(3) = 0.031 > 0.03 (the step-up), p(5) = 0.06 > 0.05 stops it.
    const std::vector<double> p{0.5, 0.001, 0.06, 0.031, 0.008, 0.9, 0.035, 0.2, 0.7, 0.3};
    const auto r = benjaminiHochberg(p, 0.1);
    const std::vector<bool> want{false, true, false, true, true, false, true, false, false, false};
    EXPECT_EQ(r, want);
    EXPECT_TRUE(benjaminiHochberg({}, 0.05).empty());
}

// 60 cases a night over 200 generated nights: 54 unchanged (five repeats of N(100, 1) on each
// side), 6 regressed by 3 %. Per-case testing at 5 % would cry wolf on most nights; BH at 5 %
// keeps the share of false discoveries among discoveries at or below 5 % on average and finds
// the regressions.
TEST(HistoryStats, BenjaminiHochbergKeepsFalseDiscoveriesAtTheRateOnGeneratedNights) {
    std::mt19937_64 rng(20261204);
    std::normal_distribution<double> noise(0.0, 1.0);
    constexpr int kNights = 200, kCases = 60, kRegressed = 6;
    double fdpSum = 0.0;
    int nightsWithNaiveFalseAlarm = 0, found = 0;
    for (int night = 0; night < kNights; ++night) {
        std::vector<double> p;
        for (int c = 0; c < kCases; ++c) {
            std::vector<double> before, after;
            for (int r = 0; r < 10; ++r)
                before.push_back(100 + noise(rng));
            const double level = c < kRegressed ? 97.0 : 100.0;
            for (int r = 0; r < 5; ++r)
                after.push_back(level + noise(rng));
            p.push_back(*welchLowerPValue(before, after));
        }
        const auto rejected = benjaminiHochberg(p, 0.05);
        int falses = 0, all = 0, naive = 0;
        for (int c = 0; c < kCases; ++c) {
            all += rejected[c] ? 1 : 0;
            falses += rejected[c] && c >= kRegressed ? 1 : 0;
            found += rejected[c] && c < kRegressed ? 1 : 0;
            naive += p[c] < 0.05 && c >= kRegressed ? 1 : 0;
        }
        fdpSum += all ? static_cast<double>(falses) / all : 0.0;
        nightsWithNaiveFalseAlarm += naive > 0 ? 1 : 0;
    }
    const double fdr = fdpSum / kNights;
    EXPECT_LE(fdr, 0.05 + 0.02) << "the observed false discovery rate";
    EXPECT_GT(nightsWithNaiveFalseAlarm, kNights * 9 / 10) << "testing each case at 5 %";
    EXPECT_GT(found, kNights * kRegressed * 8 / 10) << "the regressions found";
}

namespace {

std::vector<double> stepped(std::mt19937_64& rng, int n, double noisePct,
                            const std::vector<std::pair<int, double>>& steps) {
    std::normal_distribution<double> noise(0.0, noisePct);
    std::vector<double> x;
    double level = 100.0;
    for (int i = 0; i < n; ++i) {
        for (const auto& [at, factor] : steps)
            if (i == at) level *= factor;
        x.push_back(level + noise(rng));
    }
    return x;
}

} // namespace

TEST(HistoryStats, ChangePointsAreFoundWhereTheGeneratedStepsAre) {
    std::mt19937_64 rng(7);
    int exact = 0, within1 = 0;
    constexpr int kSeries = 200;
    for (int s = 0; s < kSeries; ++s) {
        // 40 nights, 1 % noise: -10 % at 12, +6 % at 27.
        const auto cps = findChangePoints(stepped(rng, 40, 1.0, {{12, 0.90}, {27, 1.06}}));
        if (cps.size() != 2) continue;
        exact += cps[0].index == 12 && cps[1].index == 27 ? 1 : 0;
        within1 += std::abs(static_cast<int>(cps[0].index) - 12) <= 1 &&
                           std::abs(static_cast<int>(cps[1].index) - 27) <= 1
                       ? 1
                       : 0;
        EXPECT_NEAR(cps[0].stepPct, -10.0, 2.0);
    }
    EXPECT_GE(exact, kSeries * 95 / 100);
    EXPECT_GE(within1, kSeries * 98 / 100);
}

TEST(HistoryStats, NoChangePointOnNoiseAlone) {
    std::mt19937_64 rng(11);
    int falseAlarms = 0;
    constexpr int kSeries = 500;
    for (int s = 0; s < kSeries; ++s)
        falseAlarms += findChangePoints(stepped(rng, 30, 1.0, {})).empty() ? 0 : 1;
    EXPECT_LE(falseAlarms, kSeries * 2 / 100) << "series of 30 nights, 1 % noise";
    // One or two slow nights are outliers, not a step: a step must hold for three campaigns,
    // and the two sides' medians must step too.
    std::vector<double> blips(20, 100.0);
    blips[8] = 80.0;
    blips[19] = 80.0;
    EXPECT_TRUE(findChangePoints(blips).empty());
    blips[18] = 80.0;
    EXPECT_TRUE(findChangePoints(blips).empty());
    blips[17] = 80.0;
    const auto cps = findChangePoints(blips);
    ASSERT_EQ(cps.size(), 1u);
    EXPECT_EQ(cps[0].index, 17u);
}

namespace {

StoredCampaign night(int day, double level, const std::string& driver, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.5);
    StoredCampaign s;
    char time[32];
    std::snprintf(time, sizeof time, "2026-11-%02dT02:00:00Z", day);
    s.record.time = time;
    s.record.label = "night" + std::to_string(day);
    s.record.identity = "id" + std::to_string(day);
    s.record.method = "time";
    s.record.environment.driver = driver;
    s.record.environment.hosts = {"node1", "node2"};
    CaseRecord c;
    c.key = {"r50", "fp32", 64, {2, 8}, "ngc-mxnet"};
    for (int r = 0; r < 5; ++r)
        c.values.push_back(level + noise(rng));
    std::vector<double> sorted = c.values;
    std::sort(sorted.begin(), sorted.end());
    c.runs = 5;
    c.median = sorted[2];
    c.min = sorted.front();
    c.max = sorted.back();
    s.record.cases.push_back(c);
    return s;
}

} // namespace

TEST(HistoryTrend, AStepIsNamedWithItsEnvironmentDiffAndAnExpectedVerdictDoesNotFail) {
    std::vector<StoredCampaign> nights;
    for (int d = 1; d <= 12; ++d)
        nights.push_back(night(d, d < 7 ? 100.0 : 90.0, d < 7 ? "535.104.05" : "550.54.14", d));
    auto t = computeTrends(nights);
    ASSERT_EQ(t.size(), 1u);
    ASSERT_EQ(t[0].steps.size(), 1u);
    EXPECT_EQ(t[0].points[t[0].steps[0].point.index].label, "night7");
    EXPECT_NEAR(t[0].steps[0].point.stepPct, -10.0, 1.0);
    ASSERT_EQ(t[0].steps[0].changed.size(), 1u);
    EXPECT_EQ(t[0].steps[0].changed[0], (EnvironmentChange{"driver", "535.104.05", "550.54.14"}));
    EXPECT_TRUE(t[0].changed.empty()) << "night11 -> night12: nothing recorded changed";

    // The regression night itself: the latest campaign is the first at the new level.
    std::vector<StoredCampaign> upToSeven(nights.begin(), nights.begin() + 7);
    t = computeTrends(upToSeven);
    ASSERT_EQ(t.size(), 1u);
    EXPECT_TRUE(t[0].regression) << t[0].note;
    EXPECT_TRUE(t[0].discovery);
    EXPECT_TRUE(t[0].failsCheck());
    ASSERT_EQ(t[0].changed.size(), 1u);
    EXPECT_EQ(t[0].changed[0].what, "driver");
    // Marked expected: still a regression, no longer failing; and the nights after it are
    // judged against the expected level, so night12 passes.
    TrendOptions marked;
    marked.expectations.push_back({caseKeyText(t[0].key, "time"), "id7", "ana", "new driver", {}});
    t = computeTrends(upToSeven, marked);
    EXPECT_TRUE(t[0].regression);
    EXPECT_TRUE(t[0].expected);
    EXPECT_FALSE(t[0].failsCheck());
    EXPECT_NE(t[0].note.find("marked expected by ana: new driver"), std::string::npos);
    EXPECT_EQ(summarizeCheck(t, 0.05).expected, 1);
    EXPECT_EQ(summarizeCheck(t, 0.05).regressions, 0);
    t = computeTrends(nights, marked);
    EXPECT_FALSE(t[0].regression) << t[0].note;
    EXPECT_EQ(t[0].baselineFrom, "night7");
    EXPECT_NE(t[0].note.find("since the expected change at night7"), std::string::npos)
        << t[0].note;
}

// Issue 37 item 12: one slower night after a step re-sized the step (-9.0 % became -9.8 %),
// folding a new regression into the old step. A step keeps the size it was found with; the
// slower night is a regression of its own.
TEST(HistoryTrend, AStepIsNotResizedByALaterSlowerNight) {
    std::vector<StoredCampaign> nights;
    for (int d = 1; d <= 12; ++d)
        nights.push_back(night(d, d < 7 ? 100.0 : 91.0, "535.104.05", d));
    const auto before = computeTrends(nights);
    ASSERT_EQ(before.size(), 1u);
    ASSERT_EQ(before[0].steps.size(), 1u);
    const ChangePoint step = before[0].steps[0].point;
    EXPECT_EQ(before[0].points[step.index].label, "night7");
    EXPECT_FALSE(before[0].regression) << before[0].note;
    // The size it was found with: the first nights after it that made it a step (three).
    std::vector<StoredCampaign> firstSeen(nights.begin(), nights.begin() + 9);
    const auto found = computeTrends(firstSeen);
    ASSERT_EQ(found[0].steps.size(), 1u);
    EXPECT_DOUBLE_EQ(step.stepPct, found[0].steps[0].point.stepPct);
    EXPECT_DOUBLE_EQ(step.after, found[0].steps[0].point.after);

    nights.push_back(night(13, 86.0, "535.104.05", 13)); // 5 % below the new level
    const auto after = computeTrends(nights);
    ASSERT_EQ(after[0].steps.size(), 1u);
    EXPECT_EQ(after[0].steps[0].point.index, step.index);
    EXPECT_DOUBLE_EQ(after[0].steps[0].point.stepPct, step.stepPct);
    EXPECT_DOUBLE_EQ(after[0].steps[0].point.after, step.after);
    EXPECT_TRUE(after[0].regression) << after[0].note;
    EXPECT_TRUE(after[0].failsCheck());
}

TEST(EnvironmentSummary, DiffNamesEachRecordedChange) {
    EnvironmentSummary a, b;
    a.driver = "535";
    b.driver = "550";
    a.hosts = {"n1", "n2"};
    b.hosts = {"n1", "n3"};
    b.containerImage = "sha256:beef";
    const auto d = diffEnvironments(a, b);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0], (EnvironmentChange{"driver", "535", "550"}));
    EXPECT_EQ(d[1], (EnvironmentChange{"container_image", "", "sha256:beef"}));
    EXPECT_EQ(d[2], (EnvironmentChange{"hosts", "n1 n2", "n1 n3"}));
    EXPECT_EQ(describeChanges(d),
              "driver 535 -> 550; container_image (none) -> sha256:beef; hosts n1 n2 -> n1 n3");
    EXPECT_TRUE(diffEnvironments(a, a).empty());
    EXPECT_EQ(describeChanges({}), "nothing recorded changed");
}
