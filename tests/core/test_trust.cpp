// How sure a figure is: the bootstrap interval of the median against an exhaustive computation,
// and each case warning raised by exactly the disturbance it names.
#include "core/stats/casestats.h"
#include "core/stats/confidence.h"
#include "tests/support/logwriter.h"
#include "core/model/numerics.h"
#include "core/measure/slowiterations.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace sv;
using namespace sv::test;

namespace {

// Every one of the n^n equally likely resamples, each one's median: the bootstrap distribution
// itself, with no random draws, to check the seeded Monte-Carlo one against.
Interval exhaustiveBootstrap(const std::vector<double>& values) {
    const std::size_t n = values.size();
    std::vector<std::size_t> idx(n, 0);
    std::vector<double> medians, sample(n);
    while (true) {
        for (std::size_t i = 0; i < n; ++i)
            sample[i] = values[idx[i]];
        medians.push_back(numpyMedianInPlace(sample));
        std::size_t k = 0;
        while (k < n && ++idx[k] == n)
            idx[k++] = 0;
        if (k == n) break;
    }
    std::sort(medians.begin(), medians.end());
    return {percentileSorted(medians, 2.5), percentileSorted(medians, 97.5)};
}

RunResult run(Topology t, int repeat, double value) {
    RunResult r;
    r.key = RunKey{"r50", "fp32", 128, t, repeat};
    r.path = t.name() + "/r50_b128_fp32_" + std::to_string(repeat) + ".log";
    r.status = RunStatus::Complete;
    r.timeThroughput = value;
    r.speedThroughput = value;
    r.methodDifferencePct = 0.1;
    r.rankSpreadPct = 0.5;
    r.driftPct = 0.3;
    return r;
}

// A quiet 1n1g / 1n2g pair, 5 repeats each, 1.9x scaling.
std::vector<RunResult> clean() {
    std::vector<RunResult> runs;
    const double one[] = {100.2, 99.8, 100.0, 100.5, 99.6};
    const double two[] = {190.1, 189.5, 190.8, 190.0, 189.9};
    for (int i = 0; i < 5; ++i) {
        runs.push_back(run({1, 1}, i + 1, one[i]));
        runs.push_back(run({1, 2}, i + 1, two[i]));
    }
    return runs;
}

std::set<std::string> kinds(const CaseStats& c) {
    std::set<std::string> out;
    for (const auto& w : c.warnings)
        out.insert(w.kind);
    return out;
}

const CaseStats& find(const std::vector<CaseStats>& cases, Topology t) {
    for (const auto& c : cases)
        if (c.key.topology == t) return c;
    throw std::runtime_error("no case " + t.name());
}

} // namespace

TEST(Bootstrap, MatchesTheExhaustiveDistribution) {
    // Odd and even counts (an even median averages two values, so more atoms).
    const std::vector<std::vector<double>> sets = {
        {392.24, 390.09, 392.63, 393.53, 391.58, 392.85, 391.77},
        {11434.12, 11331.93, 11429.36, 11305.35, 11283.49, 11313.33, 11461.68},
        {10.0, 11.0, 13.0, 16.0, 20.0, 25.0},
        {5.0, 7.0, 6.0, 9.0, 8.0}};
    for (const auto& v : sets) {
        const Interval exact = exhaustiveBootstrap(v);
        const auto mc = bootstrapMedianCi(v, 42, 20000);
        ASSERT_TRUE(mc);
        const double range =
            *std::max_element(v.begin(), v.end()) - *std::min_element(v.begin(), v.end());
        EXPECT_NEAR(mc->lo, exact.lo, 0.02 * range) << v.front();
        EXPECT_NEAR(mc->hi, exact.hi, 0.02 * range) << v.front();
        EXPECT_LE(mc->lo, numpyMedian(v));
        EXPECT_GE(mc->hi, numpyMedian(v));
    }
    // Seven repeats: the 2.5th percentile is the second smallest value, not the smallest (the
    // median of a resample is the smallest value only 1.0 % of the time).
    const auto seven = bootstrapMedianCi(sets[0], 7);
    EXPECT_EQ(seven->lo, 391.58);
    EXPECT_EQ(seven->hi, 392.85);
}

TEST(Bootstrap, EachResampleMedianIsTheSortedResamplesMedian) {
    // The medians come from counts of draws, not from sorting each resample; they must be what
    // sorting the same draws (mt19937_64, unbiased rejection) gives, bit for bit, ties included.
    std::mt19937_64 gen(3);
    for (std::size_t n : {1u, 2u, 3u, 6u, 7u, 8u, 31u, 64u}) {
        std::vector<double> values(n);
        for (double& x : values)
            x = static_cast<double>(gen() % 5) + 0.1 * static_cast<double>(gen() % 3); // ties
        const std::uint64_t seed = seedFor("n" + std::to_string(n));
        std::mt19937_64 rng(seed);
        const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % n;
        const std::vector<double> got = bootstrapMedians(values, seed, 500);
        ASSERT_EQ(got.size(), 500u);
        std::vector<double> sample(n);
        for (double m : got) {
            for (double& x : sample) {
                std::uint64_t r;
                do
                    r = rng();
                while (r >= limit);
                x = values[r % n];
            }
            std::sort(sample.begin(), sample.end());
            const double want = n % 2 ? sample[n / 2] : (sample[n / 2 - 1] + sample[n / 2]) / 2;
            ASSERT_EQ(m, want) << "n " << n;
        }
    }
}

TEST(Bootstrap, Middle95IsThePercentilesOfTheSortedValues) {
    // Selection, not a sort: the same two figures as percentileSorted on the sorted values, for
    // every size from one value up, with ties.
    std::mt19937_64 gen(5);
    for (std::size_t n = 1; n <= 300; n += (n < 50 ? 1 : 37)) {
        std::vector<double> v(n);
        for (double& x : v)
            x = static_cast<double>(gen() % 50) / 4.0;
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        const Interval got = middle95(v);
        ASSERT_EQ(got.lo, percentileSorted(sorted, 2.5)) << n;
        ASSERT_EQ(got.hi, percentileSorted(sorted, 97.5)) << n;
    }
}

TEST(Bootstrap, ReproducibleAndSeeded) {
    const std::vector<double> v{3.1, 2.7, 3.3, 2.9, 3.0, 3.6};
    EXPECT_EQ(*bootstrapMedianCi(v, 1), *bootstrapMedianCi(v, 1));
    EXPECT_FALSE(bootstrapMedianCi({3.0}, 1)); // one value has no interval
    EXPECT_EQ(seedFor("r50/fp32/128/1n1g"), seedFor("r50/fp32/128/1n1g"));
    EXPECT_NE(seedFor("r50/fp32/128/1n1g"), seedFor("r50/fp32/128/1n2g"));
    // The case statistics use it, and the same runs give the same interval every time.
    const auto a = computeCases(clean(), {}), b = computeCases(clean(), {});
    ASSERT_TRUE(a[0].medianCi95);
    EXPECT_EQ(*a[0].medianCi95, *b[0].medianCi95);
    EXPECT_TRUE(a[0].medianCi95->contains(*a[0].median));
}

TEST(Bootstrap, CasesComputedTogetherEqualEachComputedAlone) {
    // The cases' statistics are computed side by side on the cores: each must come out as it
    // does when its case is the only one besides its 1n1g baseline.
    std::vector<RunResult> runs;
    const Topology topologies[] = {{1, 1}, {1, 2}, {1, 4}, {1, 8}, {2, 8}, {4, 8}};
    std::mt19937_64 gen(17);
    for (const Topology& t : topologies)
        for (int i = 1; i <= 7; ++i)
            runs.push_back(
                run(t, i, 390.0 * t.ranks() * (0.9 + 0.01 * static_cast<double>(gen() % 20))));
    const auto together = computeCases(runs, {});
    ASSERT_EQ(together.size(), std::size(topologies));
    int contrasts = 0;
    for (const Topology& t : topologies) {
        std::vector<RunResult> alone;
        for (const auto& r : runs)
            if (r.key.topology == t || r.key.topology == Topology{1, 1}) alone.push_back(r);
        const auto aloneCases = computeCases(alone, {});
        const CaseStats& a = find(aloneCases, t);
        const CaseStats& b = find(together, t);
        ASSERT_TRUE(a.medianCi95 && b.medianCi95) << t.name();
        EXPECT_EQ(*a.medianCi95, *b.medianCi95) << t.name();
        EXPECT_EQ(a.speedupCi95, b.speedupCi95) << t.name();
        EXPECT_EQ(kinds(a), kinds(b)) << t.name();
        ASSERT_EQ(a.referenceContrast.has_value(), b.referenceContrast.has_value()) << t.name();
        if (a.referenceContrast) {
            EXPECT_EQ(a.referenceContrast->ratioCi95, b.referenceContrast->ratioCi95) << t.name();
            contrasts += a.referenceContrast->ratioCi95.has_value();
        }
    }
    EXPECT_GT(contrasts, 0); // the published repeats were resampled too
}

TEST(Bootstrap, SpeedupIntervalSpansBothCases) {
    const auto cases = computeCases(clean(), {});
    const CaseStats& one = find(cases, {1, 1});
    const CaseStats& two = find(cases, {1, 2});
    ASSERT_TRUE(two.speedupCi95 && two.efficiencyCi95);
    EXPECT_DOUBLE_EQ(two.speedupCi95->lo, two.medianCi95->lo / one.medianCi95->hi);
    EXPECT_DOUBLE_EQ(two.speedupCi95->hi, two.medianCi95->hi / one.medianCi95->lo);
    EXPECT_TRUE(two.speedupCi95->contains(*two.median / *one.median));
    EXPECT_DOUBLE_EQ(two.efficiencyCi95->hi, two.speedupCi95->hi / 2);
}

TEST(CaseWarnings, CleanRepeatsGetNone) {
    const auto cases = computeCases(clean(), {});
    ASSERT_EQ(cases.size(), 2u); // 1n1g and 1n2g: a loop over no case would pass
    for (const auto& c : cases)
        EXPECT_TRUE(c.warnings.empty()) << c.key.topology.name() << ": " << c.warnings[0].message;
}

TEST(CaseWarnings, DisturbedRepeatIsHighCv) {
    auto runs = clean();
    runs[0].timeThroughput = 50.0; // 1n1g repeat 1 ran while something else had the machine
    const auto cases = computeCases(runs, {});
    const CaseStats& one = find(cases, {1, 1});
    EXPECT_EQ(kinds(one), (std::set<std::string>{"high-cv"}));
    EXPECT_NE(one.warnings[0].message.find("CV 2"), std::string::npos) << one.warnings[0].message;
    EXPECT_TRUE(find(cases, {1, 2}).warnings.empty());
    // The threshold is the user's.
    SummaryOptions lax;
    lax.trust.cvPct = 50.0;
    EXPECT_TRUE(find(computeCases(runs, lax), {1, 1}).warnings.empty());
}

TEST(CaseWarnings, SuperlinearPairNamesTheSmallerCase) {
    // A speedup of 3.04 on 2 "GPUs", as a disturbed 1n1g once gave a CPU campaign.
    auto runs = clean();
    for (auto& r : runs)
        r.timeThroughput = r.key.topology.ranks() == 1 ? 100.0 : 304.0;
    const auto cases = computeCases(runs, {});
    const CaseStats& two = find(cases, {1, 2});
    EXPECT_EQ(kinds(two), (std::set<std::string>{"superlinear"}));
    EXPECT_NE(two.warnings[0].message.find("152.0 % of linear"), std::string::npos)
        << two.warnings[0].message;
    EXPECT_TRUE(find(cases, {1, 1}).warnings.empty());
    // 1.5 % beyond linear is within the default 2 % margin.
    for (auto& r : runs)
        r.timeThroughput = r.key.topology.ranks() == 1 ? 100.0 : 203.0;
    EXPECT_TRUE(find(computeCases(runs, {}), {1, 2}).warnings.empty());
}

TEST(CaseWarnings, EachRunLevelDisturbanceOnItsOwn) {
    struct Case {
        const char* kind;
        void (*disturb)(RunResult&);
        const char* words;
    };
    const Case all[] = {
        {"methods-disagree",
         [](RunResult& r) {
             r.methodsDisagree = true;
             r.methodDifferencePct = 3.4;
         },
         "repeat 3: the time and speed methods differ by more than 2.0 % (up to 3.4 %)"},
        {"slow-rank", [](RunResult& r) { r.rankSpreadPct = 12.0; },
         "repeat 3: the ranks' mean speeds spread by up to 12.0 %"},
        {"drift", [](RunResult& r) { r.driftPct = 7.5; },
         "repeat 3: the measured window's last third ran 7.5 % slower"},
    };
    for (const auto& c : all) {
        auto runs = clean();
        c.disturb(runs[5]); // 1n2g repeat 3
        const auto cases = computeCases(runs, {});
        const CaseStats& two = find(cases, {1, 2});
        EXPECT_EQ(kinds(two), (std::set<std::string>{c.kind})) << c.kind;
        ASSERT_EQ(two.warnings.size(), 1u);
        EXPECT_NE(two.warnings[0].message.find(c.words), std::string::npos)
            << two.warnings[0].message;
        EXPECT_TRUE(find(cases, {1, 1}).warnings.empty()) << c.kind;
    }
}

TEST(CaseWarnings, FewRepeats) {
    auto runs = clean();
    runs.resize(4); // two repeats of each case
    const auto cases = computeCases(runs, {});
    ASSERT_EQ(cases.size(), 2u);
    for (const auto& c : cases) {
        EXPECT_EQ(kinds(c), (std::set<std::string>{"few-repeats"}));
        EXPECT_NE(c.warnings[0].message.find("only 2 usable repeats"), std::string::npos);
    }
}

namespace {

// A log where iteration k takes stepMs(k) for every rank (they leave it together, as after an
// all-reduce) and rank r reports the global speed (methodology section 3) times factor(r).
template <class Step, class Factor>
std::string pacedLog(int ranks, int batch, Step stepMs, Factor factor) {
    std::string out = "begin time: 2020-09-01 10:00:00\n";
    std::int64_t t = 0;
    for (int k = 0; k < 120; ++k) {
        const double step = stepMs(k);
        t += static_cast<std::int64_t>(step);
        for (int r = 0; r < ranks; ++r)
            out += speedLine(TagStyle::OpenMpi, r, t, k,
                             std::to_string(batch * ranks * 1000.0 / step * factor(r)));
    }
    return out;
}

void writeRun(const TempDir& dir, int batch, Topology t, int repeat, const std::string& text) {
    writeFile(dir / ("bz" + std::to_string(batch) + "/" + t.name() + "/r50_b" +
                     std::to_string(batch) + "_fp32_" + std::to_string(repeat) + ".log"),
              text);
}

} // namespace

TEST(CaseWarnings, GeneratedLogsWithKnownNoiseGetExactlyTheirWarnings) {
    TempDir dir;
    auto plain = [](int) { return 1.0; };
    for (int p = 1; p <= 5; ++p) {
        const double jitter = 1.0 + 0.002 * p; // quiet repeats differ by tenths of a percent
        // Batch 64: 1n1g and 1n2g at 95 % efficiency, with one disturbance each.
        writeRun(dir, 64, {1, 1}, p,
                 pacedLog(
                     1, 64, [&](int) { return (p == 3 ? 2000.0 : 1000.0) * jitter; }, plain));
        if (p == 2) // throttled from the middle of the window on: 15 % slower
            writeRun(dir, 64, {1, 2}, p,
                     pacedLog(
                         2, 64, [&](int k) { return (k < 70 ? 1000.0 : 1150.0) / 0.95 * jitter; },
                         plain));
        else if (p == 4) // rank 1 reports 15 % less than rank 0; the pair's pace is unchanged
            writeRun(dir, 64, {1, 2}, p,
                     pacedLog(
                         2, 64, [&](int) { return 1000.0 / 0.95 * jitter; },
                         [](int r) { return r == 0 ? 1.075 : 0.925; }));
        else
            writeRun(dir, 64, {1, 2}, p,
                     pacedLog(
                         2, 64, [&](int) { return 1000.0 / 0.95 * jitter; }, plain));
        // Batch 16: a superlinear pair, 110 % of linear.
        writeRun(dir, 16, {1, 1}, p,
                 pacedLog(
                     1, 16, [&](int) { return 1000.0 * jitter; }, plain));
        writeRun(dir, 16, {1, 2}, p,
                 pacedLog(
                     2, 16, [&](int) { return 1000.0 / 1.10 * jitter; }, plain));
    }
    const Summary s = summarizeDirectory(dir.path(), {}, {});
    ASSERT_FALSE(s.error);
    ASSERT_EQ(s.cases.size(), 4u);
    std::map<std::string, std::set<std::string>> got;
    for (const auto& c : s.cases)
        got["b" + std::to_string(c.key.batchPerDevice) + " " + c.key.topology.name()] = kinds(c);
    const std::map<std::string, std::set<std::string>> expected = {
        {"b16 1n1g", {}},
        {"b16 1n2g", {"superlinear"}},
        {"b64 1n1g", {"high-cv"}},
        {"b64 1n2g", {"drift", "slow-rank"}},
    };
    EXPECT_EQ(got, expected);
    for (const auto& c : s.cases)
        for (const auto& w : c.warnings) {
            if (w.kind == "drift") {
                EXPECT_NE(w.message.find("repeat 2:"), std::string::npos);
            }
            if (w.kind == "slow-rank") {
                EXPECT_NE(w.message.find("repeat 4:"), std::string::npos);
            }
        }
}

TEST(SlowIterations, OnlyTheWindowsDipsBeyondTenPercent) {
    std::vector<double> v(40, 100.0);
    v[2] = 10.0;  // warmup: not measured, not marked
    v[15] = 85.0; // 15 % below: marked
    v[16] = 92.0; // 8 % below: within the margin
    v[30] = std::nan("");
    v[35] = 50.0; // beyond the window's end (iterations 30)
    EXPECT_EQ(slowIterations(v, MeasureOptions{5, 30}), (std::vector<int>{15}));
    EXPECT_EQ(slowIterations(v, MeasureOptions{5, 30}, 5.0), (std::vector<int>{15, 16}));
    EXPECT_TRUE(slowIterations(std::vector<double>(40, 100.0), MeasureOptions{5, 30}).empty());
}
