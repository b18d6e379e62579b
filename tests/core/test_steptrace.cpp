// Issue 27: a per-iteration trace puts each line at the iterations it describes. TensorFlow 2's
// TimeHistory prints one line per 100 steps ("between steps 100 and 200"); its 6 lines were
// drawn at iterations 0-5, all inside the 100-step warmup band.

#include "tests/support/formatlogs.h"
#include "tests/support/logwriter.h"

#include "core/load/logscan.h"
#include "core/load/runlog.h"
#include "core/measure/iterationtrace.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sv;
using namespace sv::test;

TEST(StepTrace, Tf2TimeHistoryLinesSitAtTheStepsTheyAverage) {
    TempDir dir;
    const std::string log = makeTf2Rn50Log(128, 250000); // 600 steps, a line every 100
    writeFile(dir / "1n1g/rn50_b128_fp32_1.log", log);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunLog run = readRunLog(scan.logs[0], MeasureOptions{100, 600});
    ASSERT_TRUE(run.trace);
    const IterationTrace& t = *run.trace;
    ASSERT_EQ(t.median.size(), 600u); // one value per step, not per line
    // Each line's rate, in the order printed: "examples/second between steps A and B".
    std::vector<double> rates;
    for (std::size_t at = log.find("seconds, "); at != std::string::npos;
         at = log.find("seconds, ", at + 1))
        rates.push_back(std::stod(log.substr(at + 9)));
    ASSERT_EQ(rates.size(), 6u);
    for (std::size_t k = 0; k < 600; ++k) {
        ASSERT_FALSE(std::isnan(t.median[k])) << k;
        EXPECT_DOUBLE_EQ(t.median[k], rates[k / 100]) << k;
    }
    // The first line (steps 1-100, the warmup) inside the warmup; the other five after it.
    EXPECT_NE(rates[0], rates[1]);
    EXPECT_DOUBLE_EQ(t.median[99], rates[0]);
    EXPECT_DOUBLE_EQ(t.median[100], rates[1]);
}

// The builder alone: spans only where asked for; other formats keep their lines' places.
TEST(StepTrace, SpansOnlyWhereTheFormatNamesItsSteps) {
    SpeedSample s;
    s.hasSpeed = true;
    s.speed = 500.0;
    s.hasIteration = true;
    s.batchFirst = 100;
    s.batchLast = 200;
    IterationTraceBuilder spans(1, true), lines(1);
    spans.add(s);
    lines.add(s);
    EXPECT_EQ(spans.trace().median.size(), 200u);
    EXPECT_TRUE(std::isnan(spans.trace().median[99]));
    EXPECT_DOUBLE_EQ(spans.trace().median[150], 500.0);
    EXPECT_EQ(lines.trace().median.size(), 1u);
    // An absurd step number does not allocate a trace of its size: the line's place instead.
    s.batchFirst = 0;
    s.batchLast = std::int64_t{1} << 40;
    IterationTraceBuilder huge(1, true);
    huge.add(s);
    EXPECT_EQ(huge.trace().median.size(), 1u);
}
