// NGC TensorFlow 1 BERT-base (dllogger "Iteration: N  throughput_train : X seq/s" every 10
// steps): detection, DLPerf's two scripts' figures (from running them on these very logs), the
// time script's substring quirk, and bad input.

#include "tests/support/formattest.h"
#include "core/formats/formatregistry.h"
#include "core/report/dlperfview.h"
#include "tests/support/formatlogs.h"
#include "core/formats/ngctfbert.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(NgcTfBert, LineGivesIterationTimeAndRate) {
    SpeedSample s;
    parseNgcTfBert("DLL 2020-08-26 18:06:39.031755 - Iteration: 20  throughput_train : 112.493 "
                   "seq/s mlm_loss : 7.8831  nsp_loss : 0.6990",
                   std::string_view::npos, s);
    EXPECT_TRUE(s.hasIteration);
    EXPECT_EQ(s.batchLast, 20);
    ASSERT_TRUE(s.hasTime);
    EXPECT_EQ(s.timeUs % 1000000, 31755);
    EXPECT_DOUBLE_EQ(s.speed, 112.493);
    EXPECT_TRUE(s.hasDlperfValue); // DLPerf's r'Iteration\: (\d+)0 ' takes it
    SpeedSample first;             // ... but not step 1's line
    parseNgcTfBert("DLL 2020-08-26 18:06:37.031755 - Iteration: 1  throughput_train : 98.1 seq/s",
                   std::string_view::npos, first);
    EXPECT_EQ(first.batchLast, 1);
    EXPECT_FALSE(first.hasDlperfValue);
    EXPECT_EQ(detectLogFormat(makeNgcTfBertLog(32, 200000))->id, "ngc-tf-bert");
    // The final summary line has no iteration: not a line of the format by itself.
    EXPECT_EQ(detectLogFormat("DLL 2020-08-26 18:10:00.000000 -  throughput_train : 250.1 seq/s\n"),
              nullptr);
}

// Expected: DLPerf's extract_tensorflow_logs.py (speed) and _time.py (time) run on this tree with
// their defaults (20/120). Both average the repeats to 4 decimals.
TEST(NgcTfBert, MatchesBothDlperfScripts) {
    TempDir dir;
    writeNgcTfBertTree(dir / "bz32");
    const Summary s = summarizeDirectory(dir / "bz32", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "ngc-tf-bert") << r.path;
        EXPECT_EQ(r.key.model, "bert");
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        EXPECT_TRUE(r.notes.empty()) << r.notes[0]; // the same figures as DLPerf's by default
    }
    EXPECT_EQ(dlperfJson(s, Method::Speed), nlohmann::json::parse(R"({"bert": {
        "1n1g": {"average_speed": 152.7567, "batch_size_per_device": 32, "median_speed": 152.75, "speedup": 1.0},
        "1n8g": {"average_speed": 1152.56, "batch_size_per_device": 32, "median_speed": 1152.47, "speedup": 7.54},
        "2n8g": {"average_speed": 2089.0667, "batch_size_per_device": 32, "median_speed": 2088.77, "speedup": 13.67}}})"))
        << dlperfJson(s, Method::Speed).dump();
    EXPECT_EQ(dlperfJson(s, Method::Time), nlohmann::json::parse(R"({"bert": {
        "1n1g": {"average_speed": 150.5, "batch_size_per_device": 32, "median_speed": 150.5, "speedup": 1.0},
        "1n8g": {"average_speed": 1135.5333, "batch_size_per_device": 32, "median_speed": 1135.44, "speedup": 7.54},
        "2n8g": {"average_speed": 2058.2033, "batch_size_per_device": 32, "median_speed": 2057.91, "speedup": 13.67}}})"))
        << dlperfJson(s, Method::Time).dump();
    // ScaleView's own table keeps 2 decimals.
    EXPECT_DOUBLE_EQ(*s.cases[0].mean, 150.5);
}

// With --warmup 10 the time script looks for "Iteration: 10" as a substring, which the line of
// iteration 100 also holds: it measures 100 -> 120 and divides by 110 steps (699.57 for this
// file, from running it); the speed script starts at step 20 whatever the warmup (153.69, within
// 0.5 % of ours here: no note).
TEST(NgcTfBert, SubstringQuirkIsNotedWithBothFigures) {
    TempDir dir;
    writeFile(dir / "1n1g/bert_b32_fp32_1.log", makeNgcTfBertLog(32, 201234));
    LoadOptions load = dlperfDefaults();
    load.measure.formatDefaults = false;
    load.measure = {10, 120};
    const Summary s = summarizeDirectory(dir.path(), load, {});
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs[0];
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_EQ(r.dlperfThroughput, 699.57);
    EXPECT_EQ(r.dlperfSpeedThroughput, 153.69);
    // Ours: 110 steps from the line of iteration 10 to that of 120.
    std::int64_t us = 0;
    for (int k = 11; k <= 120; ++k)
        us += dllStepUs(201234, k);
    EXPECT_DOUBLE_EQ(*r.timeThroughput, std::round(32.0 / (us / 1e6 / 110) * 100) / 100);
    EXPECT_TRUE(hasNote(r, "DLPerf's extract_tensorflow_logs_time.py gives 699.57")) << r.notes[0];
    EXPECT_TRUE(hasNote(r, "such as Iteration: 100"));
    EXPECT_NE(r.speedThroughput, r.dlperfSpeedThroughput); // ours starts at step 10
    // --format dlperf prints the scripts' figures.
    EXPECT_EQ(dlperfJson(s, Method::Time)["bert"]["1n1g"]["median_speed"], 699.57);
}

TEST(NgcTfBert, ShortInterleavedCrlfAndGarbageLogs) {
    TempDir dir;
    const std::string good = makeNgcTfBertLog(32, 201234);
    writeFile(dir / "1n1g/bert_b32_fp32_1.log", good);
    // Truncated at iteration 95 (and mid-line): incomplete, the reason says how far it got.
    writeFile(dir / "1n1g/bert_b32_fp32_2.log", makeNgcTfBertLog(32, 201234, 95) + "DLL 2020-09");
    // Another rank's lines (a tagging launcher): ignored, and said.
    std::string tagged;
    for (std::size_t at = 0, nl; (nl = good.find('\n', at)) != std::string::npos; at = nl + 1) {
        const std::string line = good.substr(at, nl - at + 1);
        tagged += "[1,0]<stdout>:" + line;
        if (line.find("Iteration: ") != std::string::npos) tagged += "[1,1]<stdout>:" + line;
    }
    writeFile(dir / "1n1g/bert_b32_fp32_3.log", tagged);
    // No PARAMETER header, CRLF line ends, NULs and binary garbage between the lines.
    std::string crlf = makeNgcTfBertLog(32, 201234, 120, "\r\n");
    crlf.erase(0, crlf.find("\r\n") + 2);
    // A NUL, a stray byte and a colour code: sizeof counts every byte of the literal.
    constexpr char kGarbage[] = "\x00\xff\x1b[0m junk\r\n";
    crlf.insert(crlf.find("DLL", 300), std::string(kGarbage, sizeof kGarbage - 1));
    writeFile(dir / "1n1g/bert_b32_fp32_4.log", crlf);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Complete) << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[1].reason.find("reaches step 90 of 120"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_NE(s.runs[1].reason.find("unterminated last line"), std::string::npos);
    EXPECT_EQ(s.runs[1].dlperfThroughput, 0.0); // the time script never reaches its end line
    EXPECT_EQ(s.runs[2].status, RunStatus::Complete) << s.runs[2].reason;
    EXPECT_EQ(s.runs[2].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[2].speedThroughput, s.runs[0].speedThroughput);
    EXPECT_TRUE(hasNote(s.runs[2], "13 step lines from ranks other than 0 not counted"));
    EXPECT_EQ(s.runs[3].status, RunStatus::Complete) << s.runs[3].reason;
    EXPECT_EQ(s.runs[3].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[3].speedThroughput, s.runs[0].speedThroughput);
}
