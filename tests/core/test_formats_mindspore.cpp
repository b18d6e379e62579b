// MindSpore ResNet-50 and BERT logs: detection, DLPerf's own figures (from running its
// extract_mindspore_logs_time.py scripts on these very logs), the shared cur_step quirk, the
// "cost time is 0" early return, and broken logs.

#include "tests/support/formattest.h"
#include "core/report/dlperfview.h"
#include "core/formats/formatregistry.h"
#include "tests/support/logwriter.h"
#include "tests/support/mindsporewriter.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(MindsporeFormats, LinesAreDetectedAsTheirFormat) {
    MindsporeSpec spec;
    spec.sinks = 2;
    const LogFormat* rn50 = detectLogFormat(makeMindsporeLog(spec));
    ASSERT_NE(rn50, nullptr);
    EXPECT_EQ(rn50->id, "mindspore-rn50");
    // The script's own defaults, not its README's 100/200.
    EXPECT_EQ(rn50->defaultWarmup, 20);
    EXPECT_EQ(rn50->defaultIterations, 120);
    spec.bert = true;
    const LogFormat* bert = detectLogFormat(makeMindsporeLog(spec));
    ASSERT_NE(bert, nullptr);
    EXPECT_EQ(bert->id, "mindspore-bert");
    EXPECT_EQ(detectLogFormat("epoch time: 5600.000 ms, per step time: 560.000 ms\n"), nullptr);
}

// Expected: DLPerf's MindSpore/resnet50v1.5/extract_mindspore_logs_time.py with its defaults
// (20/120) on these logs. 1n8g's third run has lagging ranks: the script's one cur_step for all
// ranks leaves their last sink out and still divides by 100 x 8 steps.
TEST(MindsporeFormats, Rn50MatchesDlperfScriptAndNamesTheSharedStepQuirk) {
    TempDir dir;
    writeMindsporeTree(dir / "bz256", false);
    const Summary s = summarizeDirectory(dir / "bz256", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 6u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "mindspore-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    const DlperfView view = dlperfView(s, Method::Time);
    EXPECT_EQ(
        nlohmann::json::parse(formatDlperfJson(view.summary)),
        nlohmann::json::parse(
            R"({"rn50": {"1n1g": {"average_speed": 1382.37, "batch_size_per_device": 256, "median_speed": 1382.29, "speedup": 1.0}, "1n8g": {"average_speed": 10028.12, "batch_size_per_device": 256, "median_speed": 9799.04, "speedup": 7.09}}})"))
        << formatDlperfJson(view.summary);
    const RunResult* lagged = runAt(s, "1n8g/rn50_b256_fp32_3.log");
    ASSERT_NE(lagged, nullptr);
    ASSERT_FALSE(lagged->notes.empty());
    EXPECT_NE(lagged->notes[0].find("DLPerf's extract_mindspore_logs_time.py gives 10565.35"),
              std::string::npos)
        << lagged->notes[0];
}

// Expected: DLPerf's MindSpore/bert/extract_mindspore_logs_time.py with its defaults (20/120).
TEST(MindsporeFormats, BertMatchesDlperfScript) {
    TempDir dir;
    writeMindsporeTree(dir / "bz32", true);
    const Summary s = summarizeDirectory(dir / "bz32", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "mindspore-bert") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        EXPECT_TRUE(r.notes.empty()) << r.path << ": " << r.notes[0];
    }
    const DlperfView view = dlperfView(s, Method::Speed);
    EXPECT_EQ(
        nlohmann::json::parse(formatDlperfJson(view.summary)),
        nlohmann::json::parse(
            R"({"bert": {"1n1g": {"average_speed": 173.59, "batch_size_per_device": 32, "median_speed": 173.59, "speedup": 1.0}, "1n8g": {"average_speed": 1219.94, "batch_size_per_device": 32, "median_speed": 1219.94, "speedup": 7.03}}})"))
        << formatDlperfJson(view.summary);
}

// A run that stops before the window: the script prints "cost time is 0" and records nothing
// for it, but still prints the others (verified: the same JSON as without that file).
TEST(MindsporeFormats, CostTimeZeroLeavesOnlyThatRunOut) {
    TempDir dir;
    writeMindsporeTree(dir / "bz32", true);
    MindsporeSpec spec;
    spec.bert = true;
    spec.ranks = 8;
    spec.sinks = 2;
    writeFile(dir / "bz32/1n8g/bert_b32_fp32_3.log", makeMindsporeLog(spec));
    const Summary s = summarizeDirectory(dir / "bz32", dlperfDefaults(), {});
    const RunResult* shortRun = runAt(s, "1n8g/bert_b32_fp32_3.log");
    ASSERT_NE(shortRun, nullptr);
    EXPECT_EQ(shortRun->status, RunStatus::Incomplete);
    EXPECT_NE(shortRun->reason.find("found 16 of 96 epoch time lines"), std::string::npos)
        << shortRun->reason;
    const DlperfView view = dlperfView(s, Method::Time);
    EXPECT_EQ(
        nlohmann::json::parse(formatDlperfJson(view.summary)),
        nlohmann::json::parse(
            R"({"bert": {"1n1g": {"average_speed": 173.59, "batch_size_per_device": 32, "median_speed": 173.59, "speedup": 1.0}, "1n8g": {"average_speed": 1219.94, "batch_size_per_device": 32, "median_speed": 1219.94, "speedup": 7.03}}})"));
    // The script still prints the other runs: the note says this run alone is left out.
    bool noted = false;
    for (const auto& n : view.notes) {
        noted = noted ||
                n.find("records no entry for this run (\"cost time is 0\"") != std::string::npos;
        EXPECT_EQ(n.find("prints nothing for this directory"), std::string::npos) << n;
    }
    EXPECT_TRUE(noted);
}

TEST(MindsporeFormats, BrokenLogsSayWhyAndCrlfReadsAsLf) {
    TempDir dir;
    MindsporeSpec spec;
    spec.ranks = 2;
    spec.sinks = 9; // truncated: 12 sinks reach step 120
    writeFile(dir / "1n2g/rn50_b256_fp32_1.log", makeMindsporeLog(spec));
    spec.sinks = 20;
    std::string garbage = makeMindsporeLog(spec);
    const auto at = garbage.find("epoch: 5 step: 10");
    const auto time = garbage.find("epoch time: ", at);
    garbage.replace(time + 12, 3, "abc"); // the window's epoch time is no number
    garbage.insert(at, std::string("\xff\xfe garbage epoch\x01\n", 18));
    writeFile(dir / "1n2g/rn50_b256_fp32_2.log", garbage);
    spec.eol = "\r\n";
    writeFile(dir / "1n2g/rn50_b256_fp32_3.log", makeMindsporeLog(spec));
    spec.eol = "\n";
    std::string headless = makeMindsporeLog(spec);
    headless.erase(0, headless.find('\n') + 1);
    writeFile(dir / "1n2g/rn50_b256_fp32_4.log", headless);
    writeFile(dir / "1n2g/rn50_b256_fp32_5.log", makeMindsporeLog(spec));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 5u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[0].reason.find("found 18 of 24 epoch time lines (12 sinks of 10 steps, 2 "
                                    "ranks)"),
              std::string::npos)
        << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Unusable);
    EXPECT_NE(s.runs[1].reason.find("no epoch time value at line 20"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_NE(s.runs[1].dlperfNote.find("stops with an error at line 20"), std::string::npos)
        << s.runs[1].dlperfNote;
    for (int i : {2, 3}) {
        ASSERT_EQ(s.runs[i].status, RunStatus::Complete) << s.runs[i].reason;
        EXPECT_EQ(*s.runs[i].timeThroughput, *s.runs[4].timeThroughput);
        EXPECT_EQ(*s.runs[i].dlperfThroughput, *s.runs[4].dlperfThroughput);
    }
}
