// MXNet gluon-cv and gluon-nlp logs: detection, DLPerf's own figures (from running its
// MxNet/.../extract_mxnet_logs.py on these very logs), its quirks named, and broken logs.

#include "tests/support/formattest.h"
#include "core/report/dlperfview.h"
#include "tests/support/gluonwriter.h"
#include "core/formats/formatregistry.h"
#include "tests/support/logwriter.h"
#include "core/load/logscan.h"
#include "core/report/report.h"
#include "core/load/runlog.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(GluonFormats, LinesAreDetectedAsTheirFormat) {
    const LogFormat* cv = detectLogFormat(makeGluoncvLog(128, 250.0, 3));
    ASSERT_NE(cv, nullptr);
    EXPECT_EQ(cv->id, "mxnet-gluoncv-rn50");
    const LogFormat* nlp = detectLogFormat(makeGluonnlpLog(2, 300.0, 3));
    ASSERT_NE(nlp, nullptr);
    EXPECT_EQ(nlp->id, "mxnet-gluonnlp-bert");
    EXPECT_EQ(nlp->defaultWarmup, 100);
    EXPECT_EQ(nlp->defaultIterations, 200);
    // The end-of-epoch line and the Rank[0] lines are no Speed lines of DLPerf's filter.
    EXPECT_EQ(detectLogFormat("INFO:root:Epoch[0]\tSpeed: 4800.12 samples/sec\n"), nullptr);
}

// Expected: DLPerf's MxNet/Classification/RN50v1b/extract_mxnet_logs.py run on these logs with
// its defaults (20/120).
TEST(GluonFormats, GluoncvMatchesDlperfScript) {
    TempDir dir;
    writeGluoncvTree(dir / "bz128");
    const Summary s = summarizeDirectory(dir / "bz128", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "mxnet-gluoncv-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    const auto golden = nlohmann::json::parse(
        R"({"rn50": {"2n8g": {"average_speed": 6907.1, "batch_size_per_device": 128, "median_speed": 6907.0, "speedup": 14.26}, "1n1g": {"average_speed": 484.46, "batch_size_per_device": 128, "median_speed": 484.45, "speedup": 1.0}, "1n8g": {"average_speed": 3700.56, "batch_size_per_device": 128, "median_speed": 3700.5, "speedup": 7.64}}})");
    EXPECT_EQ(dlperfJson(s, Method::Speed), golden) << dlperfJson(s, Method::Speed).dump();
    // DLPerf has no time script for these logs (they carry no time): the one it has, said so.
    std::vector<std::string> notes;
    EXPECT_EQ(dlperfJson(s, Method::Time, &notes), golden);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("no --method time script"), std::string::npos) << notes[0];
}

// Expected: DLPerf's MxNet/BERT/extract_mxnet_logs.py with its defaults (100/200), which reshape
// the lines of every rank into 200 rows of N x G.
TEST(GluonFormats, GluonnlpMatchesDlperfScript) {
    TempDir dir;
    writeGluonnlpTree(dir / "bz32");
    const Summary s = summarizeDirectory(dir / "bz32", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "mxnet-gluonnlp-bert") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    EXPECT_EQ(
        dlperfJson(s, Method::Speed),
        nlohmann::json::parse(
            R"({"bert": {"1n1g": {"average_speed": 96.59, "batch_size_per_device": 32, "median_speed": 96.59, "speedup": 1.0}, "1n8g": {"average_speed": 719.93, "batch_size_per_device": 32, "median_speed": 719.93, "speedup": 7.45}}})"))
        << dlperfJson(s, Method::Speed).dump();
}

// ScaleView groups gluon-nlp's lines by their "[step N]": interleaved ranks give the figure of
// the same log in order, where DLPerf's blocks of N x G consecutive lines mix two steps.
TEST(GluonFormats, GluonnlpInterleavedRanksMeetInTheirStep) {
    TempDir dir;
    writeFile(dir / "1n8g/bert_b32_fp32_1.log", makeGluonnlpLog(8, 320.0));
    writeFile(dir / "1n8g/bert_b32_fp32_2.log", makeGluonnlpLog(8, 320.0, 200, 2));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 2u);
    ASSERT_EQ(s.runs[1].status, RunStatus::Complete) << s.runs[1].reason;
    EXPECT_EQ(*s.runs[1].timeThroughput, *s.runs[0].timeThroughput);
    ASSERT_TRUE(s.runs[1].dlperfThroughput);
    EXPECT_NE(*s.runs[1].dlperfThroughput, *s.runs[0].dlperfThroughput);
}

// DLPerf's window starts at row W - 20 (gluon-cv) for W > 20: with --warmup 60 it averages
// batches 41-120, ScaleView 61-120; the note names the quirk and both figures.
// Expected DLPerf figure: extract_mxnet_logs.py --warmup_batches 60 on the same logs.
TEST(GluonFormats, GluoncvWindowQuirkNamedWithBothFigures) {
    TempDir dir;
    writeGluoncvTree(dir / "bz128");
    const Summary s = summarizeDirectory(dir / "bz128", window(60, 120), {});
    const RunResult* r = nullptr;
    for (const auto& x : s.runs)
        if (x.path == "1n1g/rn50_b128_fp32_1.log") r = &x;
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->status, RunStatus::Complete) << r->reason;
    ASSERT_TRUE(r->dlperfThroughput);
    EXPECT_DOUBLE_EQ(*r->dlperfThroughput, 481.87);
    EXPECT_TRUE(hasNote(*r, "its window starts at row 40 (warmup 60 minus 20), not 60"))
        << (r->notes.empty() ? "" : r->notes[0]);
    EXPECT_TRUE(hasNote(*r, "apart from")) << r->notes.size();
}

TEST(GluonFormats, BrokenLogsSayWhyAndCrlfReadsAsLf) {
    TempDir dir;
    writeFile(dir / "1n1g/rn50_b128_fp32_1.log", makeGluoncvLog(128, 250.0, 90)); // truncated
    std::string garbage = makeGluoncvLog(128, 250.0);
    const auto at = garbage.find("Batch[50]\tSpeed: ");
    ASSERT_NE(at, std::string::npos);
    garbage.replace(at + 19, 1, "x"); // "51x.53": DLPerf's regex finds no number, and raises
    garbage.insert(garbage.find("INFO:root:Epoch[0] Batch[30]"),
                   std::string("\x00\xff\x1b[0mbinary junk\n", 18));
    writeFile(dir / "1n1g/rn50_b128_fp32_2.log", garbage);
    writeFile(dir / "1n1g/rn50_b128_fp32_3.log", makeGluoncvLog(128, 250.0, 120, "\r\n"));
    std::string headless = makeGluoncvLog(128, 250.0);
    headless.erase(0, headless.find('\n') + 1); // no Namespace(...) line
    writeFile(dir / "1n1g/rn50_b128_fp32_4.log", headless);
    writeFile(dir / "1n1g/rn50_b128_fp32_5.log", makeGluoncvLog(128, 250.0));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 5u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[0].reason.find("found 90 of 120 batches"), std::string::npos)
        << s.runs[0].reason;
    EXPECT_NE(s.runs[0].dlperfNote.find("needs exactly 120"), std::string::npos)
        << s.runs[0].dlperfNote;
    EXPECT_EQ(s.runs[1].status, RunStatus::Unusable);
    EXPECT_NE(s.runs[1].reason.find("no Speed value at line 53"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_NE(s.runs[1].dlperfNote.find("stops with an error at line 53"), std::string::npos)
        << s.runs[1].dlperfNote;
    for (int i : {2, 3}) {
        ASSERT_EQ(s.runs[i].status, RunStatus::Complete) << s.runs[i].reason;
        EXPECT_EQ(s.runs[i].key.format, "mxnet-gluoncv-rn50");
        EXPECT_EQ(*s.runs[i].timeThroughput, *s.runs[4].timeThroughput);
    }
}

TEST(GluonFormats, GluonnlpMissingRankLineIsIncomplete) {
    TempDir dir;
    std::string log = makeGluonnlpLog(8, 320.0);
    const auto at = log.find("INFO:root:[step 150]");
    log.erase(at, log.find('\n', at) + 1 - at);
    writeFile(dir / "1n8g/bert_b32_fp32_1.log", log);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 1u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[0].reason.find("step 150 has 7 lines for 8 ranks"), std::string::npos)
        << s.runs[0].reason;
    EXPECT_NE(s.runs[0].dlperfNote.find("1599 lines into 200 rows of 8"), std::string::npos)
        << s.runs[0].dlperfNote;
}

// The GUI's per-iteration trace draws a line's throughput: gluon-cv's Speed lines are one, and
// gluon-nlp's latency in ms is not (drawn as images/s it would read 40 for a 40 ms step).
TEST(GluonFormats, OnlyLinesCarryingAThroughputMakeATrace) {
    TempDir dir;
    writeGluoncvTree(dir / "cv");
    writeGluonnlpTree(dir / "nlp");
    for (const char* tree : {"cv", "nlp"}) {
        const ScanResult scan = scanLogDirectory(dir / tree);
        ASSERT_FALSE(scan.logs.empty());
        const RunLog log = readRunLog(scan.logs.front());
        ASSERT_TRUE(log.trace);
        if (std::string(tree) == "cv")
            EXPECT_FALSE(log.trace->median.empty()) << log.file.display;
        else
            EXPECT_TRUE(log.trace->median.empty()) << log.file.display;
    }
}
