#include "core/measure/iterationtrace.h"
#include "tests/support/logwriter.h"
#include "core/model/numerics.h"
#include "core/measure/runanalyzer.h"
#include "core/parse/logparser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace sv;
using namespace sv::test;

namespace {

RunResult analyze(const std::string& text, Topology topo, int batch, MeasureOptions opt) {
    RunAnalyzer analyzer(topo, batch, opt);
    LogParser parser({}, [&](const SpeedSample& s) { analyzer.add(s); });
    parser.feed(text);
    RunResult r;
    analyzer.finish(r, parser.counters(), parser.pendingBytes() > 0);
    return r;
}

const MeasureOptions kSmall{2, 6}; // warmup 2, iterations 6

// 1n2g, batch 128: iteration k ends at (k + 1) * 500 ms; rank 0 reports 500 + k, rank 1 501.016 +
// k.
std::string smallRun(TagStyle style, int iterations = 6) {
    RunSpec spec;
    spec.ranks = 2;
    spec.iterations = iterations;
    spec.stepMs = 500;
    spec.style = style;
    spec.noise = false;
    return makeLog(spec, [](int k, int r) {
        return r == 0 ? std::to_string(500 + k) : std::to_string(501 + k) + ".016";
    });
}

} // namespace

TEST(RunAnalyzer, BothMethodsMatchHandComputedFigures) {
    for (auto style : {TagStyle::OpenMpi, TagStyle::Gloo, TagStyle::TorchRank, TagStyle::None}) {
        const auto r = analyze(smallRun(style), {1, 2}, 128, kSmall);
        ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
        // time: lines 4 (1000 ms) and 12 (3000 ms): 2 s for 4 iterations of 256 images.
        EXPECT_EQ(*r.timeThroughput, 512.0);
        // speed: rows (500 + k, 501.02 + k) have median 500.51 + k; mean over k = 2..5 is 504.01.
        EXPECT_EQ(*r.speedThroughput, 504.01);
        EXPECT_NEAR(*r.methodDifferencePct, (512.0 - 504.01) / 512.0 * 100.0, 1e-9);
        EXPECT_FALSE(r.methodsDisagree);
        EXPECT_EQ(r.ranksTagged, style != TagStyle::None);
    }
}

TEST(RunAnalyzer, MethodsDisagreeAboveTwoPercent) {
    RunSpec spec;
    spec.ranks = 1;
    spec.iterations = 6;
    spec.stepMs = 500; // time method: 128 / 0.5 s = 256
    spec.noise = false;
    const auto r =
        analyze(makeLog(spec, [](int, int) { return std::string("300"); }), {1, 1}, 128, kSmall);
    ASSERT_EQ(r.status, RunStatus::Complete);
    EXPECT_EQ(*r.timeThroughput, 256.0);
    EXPECT_EQ(*r.speedThroughput, 300.0);
    EXPECT_TRUE(r.methodsDisagree);
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("differ by 17.2 %"), std::string::npos) << r.notes[0];
}

TEST(RunAnalyzer, TruncatedLogIsIncompleteNeverZero) {
    std::string text = smallRun(TagStyle::OpenMpi);
    text.resize(text.size() / 2); // ends mid-line, like a log still being written
    const auto r = analyze(text, {1, 2}, 128, kSmall);
    EXPECT_EQ(r.status, RunStatus::Incomplete);
    EXPECT_NE(r.reason.find("found 5 of 12 speed lines"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("unterminated last line"), std::string::npos) << r.reason;
    EXPECT_FALSE(r.timeThroughput);
    EXPECT_FALSE(r.speedThroughput);
}

// One GPU's truncated log says "x 1 rank", as a person writes it (it said "x 1 ranks").
TEST(RunAnalyzer, ATruncatedOneRankLogCountsItsRankInTheSingular) {
    std::string text = smallRun(TagStyle::OpenMpi);
    text.resize(text.size() / 2);
    const auto one = analyze(text, {1, 1}, 128, kSmall);
    EXPECT_EQ(one.status, RunStatus::Incomplete);
    EXPECT_NE(one.reason.find(" iterations x 1 rank)"), std::string::npos) << one.reason;
    const auto two = analyze(text, {1, 2}, 128, kSmall);
    EXPECT_NE(two.reason.find(" iterations x 2 ranks)"), std::string::npos) << two.reason;
}

TEST(RunAnalyzer, EmptyAndGarbageLogsAreEmpty) {
    for (const std::string& text : {std::string(), std::string("garbage\n\x01\x02\xff\n")}) {
        const auto r = analyze(text, {1, 1}, 128, kSmall);
        EXPECT_EQ(r.status, RunStatus::Empty);
        EXPECT_NE(r.reason.find("no speed lines"), std::string::npos);
        EXPECT_FALSE(r.timeThroughput);
    }
}

TEST(RunAnalyzer, NanSpeedNamesTheLine) {
    RunSpec spec;
    spec.ranks = 2;
    spec.iterations = 6;
    spec.noise = false;
    // Line 1 is "begin time"; speed line j (0-based) is line j + 2. Iteration 3, rank 1 is j = 7.
    const auto text = makeLog(spec, [](int k, int r) {
        return k == 3 && r == 1 ? std::string("nan") : std::string("100.0");
    });
    const auto r = analyze(text, {1, 2}, 128, kSmall);
    EXPECT_EQ(r.status, RunStatus::Unusable);
    EXPECT_EQ(r.reason, "speed is nan at line 9");
}

TEST(RunAnalyzer, MissingRankIsNamed) {
    // 1n4g with rank 2 silent; the other ranks log enough lines to reach the count.
    std::string text;
    for (int k = 0; k < 8; ++k)
        for (int r : {0, 1, 3})
            text += speedLine(TagStyle::OpenMpi, r, (k + 1) * 1000, k, "10.0");
    const auto r = analyze(text, {1, 4}, 64, kSmall);
    EXPECT_EQ(r.status, RunStatus::Incomplete);
    EXPECT_EQ(r.reason, "rank 2 has no lines");
}

TEST(RunAnalyzer, RankBeyondTopologyIsUnusable) {
    std::string text;
    for (int k = 0; k < 6; ++k)
        for (int r : {0, 5})
            text += speedLine(TagStyle::OpenMpi, r, (k + 1) * 1000, k, "10.0");
    const auto r = analyze(text, {1, 2}, 64, kSmall);
    EXPECT_EQ(r.status, RunStatus::Incomplete); // rank 1 never logged
    const auto text2 =
        smallRun(TagStyle::OpenMpi) + speedLine(TagStyle::OpenMpi, 9, 9000, 6, "1.0");
    const auto r2 = analyze(text2, {1, 2}, 64, kSmall);
    EXPECT_EQ(r2.status, RunStatus::Unusable);
    EXPECT_EQ(r2.reason, "rank 9 logged, but 1n2g has ranks 0-1");
}

TEST(RunAnalyzer, TimeThatDoesNotAdvanceIsUnusable) {
    RunSpec spec;
    spec.ranks = 1;
    spec.iterations = 6;
    spec.stepMs = 0;
    spec.noise = false;
    const auto r =
        analyze(makeLog(spec, [](int, int) { return std::string("1.0"); }), {1, 1}, 8, kSmall);
    EXPECT_EQ(r.status, RunStatus::Unusable);
    EXPECT_EQ(r.reason, "time does not advance from line 3 to line 7");
}

TEST(RunAnalyzer, LongerLogMeasuresTheFirstWindow) {
    const auto r = analyze(smallRun(TagStyle::OpenMpi, 10), {1, 2}, 128, kSmall);
    ASSERT_EQ(r.status, RunStatus::Complete);
    EXPECT_EQ(*r.timeThroughput, 512.0);
    EXPECT_EQ(*r.speedThroughput, 504.01);
    EXPECT_EQ(r.notes.back(),
              "20 speed lines in the log; the first 12 are measured (the window ends there)");
}

TEST(RunAnalyzer, RankSpreadAndNodeClockOffset) {
    // 2n2g: node 1 (ranks 2, 3) runs 7 ms ahead; rank 3 reports 10 % less than the others.
    std::string text;
    for (int k = 0; k < 6; ++k)
        for (int r = 0; r < 4; ++r)
            text += speedLine(TagStyle::OpenMpi, r, (k + 1) * 1000 + (r >= 2 ? 7 : 0), k,
                              r == 3 ? "90.0" : "100.0");
    const auto r = analyze(text, {2, 2}, 32, kSmall);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    ASSERT_TRUE(r.clockOffsetMs);
    EXPECT_NEAR(*r.clockOffsetMs, 7.0, 1e-6);
    EXPECT_EQ(r.slowestRank, 3);
    ASSERT_TRUE(r.rankSpreadPct);
    EXPECT_NEAR(*r.rankSpreadPct, 10.0 / 97.5 * 100.0, 1e-9);
}

// The per-iteration trace (median, min and max across ranks) while ranks run ahead of each other
// by up to 40 iterations, so that many iterations are open at once and closed out of order, and
// their buffers are reused: every iteration's figures equal those of its own values, and a rank
// that stops early leaves its last iterations open with what they hold.
TEST(IterationTrace, EachIterationIsItsOwnRanksWhateverTheirOrder) {
    const int ranks = 8, iterations = 500;
    std::mt19937_64 rng(77);
    std::vector<std::vector<double>> speeds(iterations, std::vector<double>(ranks));
    for (auto& row : speeds)
        for (double& v : row)
            v = 1000.0 + static_cast<double>(rng() % 100000) / 100.0;
    const int lastOfRank7 = iterations - 3; // rank 7 stops three iterations short
    std::vector<int> next(ranks, 0);
    IterationTraceBuilder builder(ranks);
    for (;;) {
        std::vector<int> live;
        for (int r = 0; r < ranks; ++r) {
            const int end = r == 7 ? lastOfRank7 : iterations;
            const int slowest = *std::min_element(next.begin(), next.end());
            if (next[r] < end && next[r] < slowest + 40) live.push_back(r);
        }
        if (live.empty()) {
            bool left = false;
            for (int r = 0; r < ranks; ++r)
                left = left || next[r] < (r == 7 ? lastOfRank7 : iterations);
            if (!left) break;
            for (int r = 0; r < ranks; ++r)
                if (next[r] < (r == 7 ? lastOfRank7 : iterations)) live.push_back(r);
        }
        const int r = live[rng() % live.size()];
        SpeedSample s;
        s.rank = r;
        s.hasSpeed = true;
        s.speed = speeds[static_cast<std::size_t>(next[r])][static_cast<std::size_t>(r)];
        builder.add(s);
        ++next[r];
    }
    const IterationTrace trace = builder.trace();
    ASSERT_EQ(trace.median.size(), static_cast<std::size_t>(iterations));
    for (int k = 0; k < iterations; ++k) {
        std::vector<double> values = speeds[static_cast<std::size_t>(k)];
        if (k >= lastOfRank7) values.pop_back(); // rank 7's value never came
        const auto i = static_cast<std::size_t>(k);
        EXPECT_EQ(trace.min[i], *std::min_element(values.begin(), values.end())) << k;
        EXPECT_EQ(trace.max[i], *std::max_element(values.begin(), values.end())) << k;
        EXPECT_EQ(trace.median[i], numpyMedian(values)) << k;
    }
    EXPECT_EQ(builder.openValues(), 3u * (ranks - 1));
}
