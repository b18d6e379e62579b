// TensorFlow 2 official models (absl "I0915 HH:MM:SS.ffffff" lines): ResNet-50's TimeHistory
// every 100 steps and BERT's "Train Step:" lines; DLPerf's scripts' figures from running them on
// these very logs; the date-less clock across midnight; bad input.

#include "tests/support/formattest.h"
#include "core/formats/formatregistry.h"
#include "core/report/dlperfview.h"
#include "tests/support/formatlogs.h"
#include "core/formats/tf2.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

namespace {

// Global batch over the steps from..to (exclusive of from) of a dllStepUs run, rounded to 2.
double stepsRate(double globalBatch, std::int64_t base, int from, int to, int extraFirst = 0) {
    std::int64_t us = 0;
    for (int k = from + 1; k <= to; ++k)
        us += dllStepUs(base, k) + (k == 1 ? extraFirst * base : 0);
    return std::round(globalBatch / (us / 1e6 / (to - from)) * 100) / 100;
}

} // namespace

TEST(Tf2, LinesGiveStepsTimeAndRate) {
    SpeedSample s;
    parseTf2Rn50("I0915 14:30:13.000123 140123456789 keras_utils.py:145] TimeHistory: 51.00 "
                 "seconds, 2509.80 examples/second between steps 100 and 200",
                 std::string_view::npos, s);
    EXPECT_TRUE(s.hasIteration);
    EXPECT_EQ(s.batchFirst, 100);
    EXPECT_EQ(s.batchLast, 200);
    ASSERT_TRUE(s.hasTime);
    EXPECT_EQ(s.timeUs % (std::int64_t{86400} * 1000000),
              (14 * 3600 + 30 * 60 + 13) * std::int64_t{1000000} + 123);
    EXPECT_DOUBLE_EQ(s.speed, 2509.80);
    EXPECT_TRUE(s.hasDlperfValue);
    SpeedSample b;
    parseTf2Bert("I0915 14:29:23.200000 139876543210 model_training_utils.py:444] Train Step: "
                 "20/120  / loss = 7.53125",
                 std::string_view::npos, b);
    EXPECT_TRUE(b.hasIteration);
    EXPECT_EQ(b.batchLast, 20);
    EXPECT_TRUE(b.hasTime);
    EXPECT_EQ(detectLogFormat(makeTf2Rn50Log(128, 250000))->id, "tf2-rn50");
    EXPECT_EQ(detectLogFormat(makeTf2BertLog(200000))->id, "tf2-bert");
    EXPECT_EQ(findLogFormat("tf2-rn50")->defaultWarmup, 100); // the scripts' own defaults
    EXPECT_EQ(findLogFormat("tf2-rn50")->defaultIterations, 600);
}

// Expected: DLPerf's TensorFlow/resnet50v1.5 extract_tensorflow_logs.py and _time.py (100/600)
// and TensorFlow/bert/extract_tensorflow_logs_time.py (20/120) run on these trees.
TEST(Tf2, MatchesDlperfScripts) {
    TempDir dir;
    writeTf2Rn50Tree(dir / "resnet50/bz128");
    writeTf2BertTree(dir / "bert/bz32");
    const Summary rn50 = summarizeDirectory(dir / "resnet50/bz128", dlperfDefaults(), {});
    ASSERT_EQ(rn50.runs.size(), 9u);
    for (const auto& r : rn50.runs) {
        EXPECT_EQ(r.key.format, "tf2-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    EXPECT_EQ(dlperfJson(rn50, Method::Speed), nlohmann::json::parse(R"({"rn50": {
        "1n1g": {"average_speed": 340.3, "batch_size_per_device": 128, "median_speed": 340.29, "speedup": 1.0},
        "1n8g": {"average_speed": 2596.79, "batch_size_per_device": 128, "median_speed": 2596.65, "speedup": 7.63},
        "2n8g": {"average_speed": 4791.56, "batch_size_per_device": 128, "median_speed": 4791.1, "speedup": 14.08}}})"));
    EXPECT_EQ(dlperfJson(rn50, Method::Time), nlohmann::json::parse(R"({"rn50": {
        "1n1g": {"average_speed": 340.24, "batch_size_per_device": 128, "median_speed": 340.23, "speedup": 1.0},
        "1n8g": {"average_speed": 2596.31, "batch_size_per_device": 128, "median_speed": 2596.17, "speedup": 7.63},
        "2n8g": {"average_speed": 4790.68, "batch_size_per_device": 128, "median_speed": 4790.22, "speedup": 14.08}}})"));
    const Summary bert = summarizeDirectory(dir / "bert/bz32", dlperfDefaults(), {});
    ASSERT_EQ(bert.runs.size(), 9u);
    for (const auto& r : bert.runs)
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    const auto expected = nlohmann::json::parse(R"({"bert": {
        "1n1g": {"average_speed": 151.18, "batch_size_per_device": 32, "median_speed": 151.18, "speedup": 1.0},
        "1n8g": {"average_speed": 1098.08, "batch_size_per_device": 32, "median_speed": 1098.07, "speedup": 7.26},
        "2n8g": {"average_speed": 2012.83, "batch_size_per_device": 32, "median_speed": 2012.8, "speedup": 13.31}}})");
    EXPECT_EQ(dlperfJson(bert, Method::Time), expected);
    // TF2 BERT has one script: --method speed prints it too, and says so.
    const DlperfView speed = dlperfView(bert, Method::Speed);
    EXPECT_EQ(nlohmann::json::parse(formatDlperfJson(speed.summary)), expected);
    ASSERT_FALSE(speed.notes.empty());
}

// absl's time has no date: across midnight DLPerf's time scripts divide by a negative time
// (-0.74 and -0.04 here, from running them); ScaleView's clock goes on into the next day.
TEST(Tf2, RunAcrossMidnightKeepsItsClock) {
    TempDir dir;
    writeFile(dir / "rn50/1n1g/rn50_b128_fp32_1.log",
              makeTf2Rn50Log(128, 251234, 600, 86400 - 100));
    writeFile(dir / "bert/1n1g/bert_b32_fp32_1.log", makeTf2BertLog(200777, 120, 86400 - 15));
    const Summary rn50 = summarizeDirectory(dir / "rn50", dlperfDefaults(), {});
    ASSERT_EQ(rn50.runs.size(), 1u);
    const RunResult& r = rn50.runs[0];
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_DOUBLE_EQ(*r.timeThroughput, stepsRate(128, 251234, 100, 600));
    EXPECT_EQ(r.dlperfThroughput, -0.74);
    EXPECT_EQ(r.dlperfSpeedThroughput, 341.96); // the rates need no clock
    EXPECT_TRUE(hasNote(r, "DLPerf's extract_tensorflow_logs_time.py gives -0.74"));
    EXPECT_TRUE(hasNote(r, "time of day (no date)"));
    const Summary bert = summarizeDirectory(dir / "bert", dlperfDefaults(), {});
    ASSERT_EQ(bert.runs.size(), 1u);
    EXPECT_EQ(bert.runs[0].status, RunStatus::Complete) << bert.runs[0].reason;
    EXPECT_DOUBLE_EQ(*bert.runs[0].timeThroughput, stepsRate(32, 200777, 20, 120));
    EXPECT_EQ(bert.runs[0].dlperfThroughput, -0.04);
}

TEST(Tf2, ShortInterleavedCrlfAndGarbageLogs) {
    TempDir dir;
    const std::string good = makeTf2Rn50Log(128, 251234);
    writeFile(dir / "1n1g/rn50_b128_fp32_1.log", good);
    writeFile(dir / "1n1g/rn50_b128_fp32_2.log", makeTf2Rn50Log(128, 251234, 450) + "I0915 14:");
    // Two workers' lines in one file, the second's tagged: ignored, and said.
    std::string twice;
    for (std::size_t at = 0, nl; (nl = good.find('\n', at)) != std::string::npos; at = nl + 1) {
        const std::string line = good.substr(at, nl - at + 1);
        twice += "[1,0]<stderr>:" + line + "[1,1]<stderr>:" + line;
    }
    writeFile(dir / "1n1g/rn50_b128_fp32_3.log", twice);
    std::string crlf = makeTf2Rn50Log(128, 251234, 600, 14 * 3600, "\r\n");
    crlf.erase(0, crlf.find("\r\n") + 2); // no header line
    // A NUL, a stray byte and a colour code: sizeof counts every byte of the literal.
    constexpr char kGarbage[] = "\x00\xfe\x1b[0m garbage\r\n";
    crlf.insert(crlf.find("I0915", 10), std::string(kGarbage, sizeof kGarbage - 1));
    writeFile(dir / "1n1g/rn50_b128_fp32_4.log", crlf);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Complete) << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[1].reason.find("reaches step 400 of 600"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_EQ(s.runs[2].status, RunStatus::Complete) << s.runs[2].reason;
    EXPECT_EQ(s.runs[2].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_TRUE(hasNote(s.runs[2], "6 step lines from ranks other than 0 not counted"));
    EXPECT_EQ(s.runs[3].status, RunStatus::Complete) << s.runs[3].reason;
    EXPECT_EQ(s.runs[3].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[3].speedThroughput, s.runs[0].speedThroughput);
}

// A BERT log whose path says neither its batch nor its GPUs (as users keep them: `train`,
// `rank0.log`): its lines give steps and their times, and the figure needs the global batch. The
// run says which is missing, never "0 sequences/s ... a corrupted or misread line?".
TEST(Tf2, ABertLogWithoutItsBatchSaysItNeedsOneInsteadOfAZeroFigure) {
    TempDir dir;
    writeFile(dir / "experiments/bert_9/train", makeTf2BertLog(200777, 120));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs[0];
    EXPECT_EQ(r.status, RunStatus::Unusable);
    EXPECT_FALSE(r.timeThroughput.has_value());
    EXPECT_NE(r.reason.find("its lines give step numbers and their times, and the throughput "
                            "needs the batch size per device"),
              std::string::npos)
        << r.reason;
    EXPECT_EQ(r.reason.find("not above 0"), std::string::npos) << r.reason;
}
