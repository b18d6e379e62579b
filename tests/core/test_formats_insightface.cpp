// The InsightFace report's three formats (MXNet ArcFace, MXNet Partial-FC, OneFlow): detection,
// DLPerf's own figures (from running its extract_mxnet_logs.py and extract_oneflow_logs_time.py
// on these very logs), the quirks it has and ScaleView's intended figures beside them, and
// broken logs.

#include "core/report/dlperfview.h"
#include "core/formats/insightface.h"
#include "core/formats/insightfaceoneflow.h"
#include "tests/support/formattest.h"
#include "tests/support/insightfacewriter.h"
#include "core/formats/formatregistry.h"
#include "tests/support/logwriter.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace sv;
using namespace sv::test;

namespace {

bool hasViewNote(const std::vector<std::string>& notes, const std::string& text) {
    for (const auto& n : notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(InsightfaceFormats, LinesAreDetectedAsTheirFormat) {
    const std::pair<std::string, const char*> logs[] = {
        {makeArcfaceLog({}), "insightface-arcface"},
        {makeArcfaceLog({.iterLines = true}), "insightface-arcface"},
        {makePartialfcLog({}), "insightface-partialfc"},
        {makePartialfcLog({.tagged = true}), "insightface-partialfc"},
        {makeOneflowFaceLog({}), "oneflow-insightface"},
    };
    for (const auto& [log, id] : logs) {
        const LogFormat* f = detectLogFormat(log);
        ASSERT_NE(f, nullptr) << id;
        EXPECT_EQ(f->id, id);
        EXPECT_EQ(f->unit, "samples/s");
        // The extractors' own argparse defaults.
        EXPECT_EQ(f->defaultWarmup, 20);
        EXPECT_EQ(f->defaultIterations, 120);
    }
    // Their neighbours keep theirs: NGC MXNet's Speedometer and gluon-cv's.
    EXPECT_EQ(detectLogFormat("2020-08-20 10:00:00,123:INFO: Epoch[0] Batch [0-20]\tSpeed: "
                              "3000.12 samples/sec\taccuracy=0.1\n")
                  ->id,
              "ngc-mxnet");
    EXPECT_EQ(detectLogFormat("INFO:root:Epoch[0] Batch[20]\tSpeed: 512.00 samples/sec\n")->id,
              "mxnet-gluoncv-rn50");
    EXPECT_EQ(detectLogFormat("train: epoch 0, iter 20, loss: 6.9, top_1: 0.0, top_k: 0.0, "
                              "samples/s: 3000.1 1597933962.1\n")
                  ->id,
              "oneflow-cnn");
    EXPECT_EQ(detectLogFormat("INFO:root:Iter:21 loss 45.1\ntrain: iter 3 done\n"), nullptr);
}

namespace {

SpeedSample parsed(void (*parse)(std::string_view, std::size_t, SpeedSample&),
                   std::string_view line) {
    SpeedSample s;
    parse(line, std::string_view::npos, s);
    return s;
}

} // namespace

// Each line as DLPerf's regexes and Python's int() and float() read it (checked in Python).
TEST(InsightfaceFormats, ParsersReadWhatDlperfsRegexesRead) {
    auto arc = parsed(&parseArcfaceLine, "INFO:root:Epoch[0] Batch [20-40]\tSpeed: 763.86 "
                                         "samples/sec\tacc=0.000000");
    EXPECT_TRUE(arc.hasIteration);
    EXPECT_EQ(arc.batchFirst, 20);
    EXPECT_EQ(arc.batchLast, 40);
    EXPECT_EQ(arc.speed, 763.86);
    EXPECT_EQ(arc.dlperfValue, 763.86);
    arc = parsed(&parseArcfaceLine, "INFO:root:Iter[0] Batch [60]\tSpeed: 757.02 samples/sec");
    EXPECT_EQ(arc.batchFirst, 60);
    EXPECT_EQ(arc.batchLast, 60);
    // r'Speed: (\d+\.\d+) samples/sec' finds nothing in "inf": the script raises (NaN here).
    arc = parsed(&parseArcfaceLine, "INFO:root:Epoch[0] Batch [0-20]\tSpeed: inf samples/sec");
    EXPECT_FALSE(arc.hasSpeed);
    ASSERT_TRUE(arc.hasDlperfValue);
    EXPECT_TRUE(std::isnan(arc.dlperfValue));
    // Without "INFO:root:" the script does not read the line; ScaleView does.
    arc = parsed(&parseArcfaceLine, "I0204 Epoch[0] Batch [0-20]\tSpeed: 417.62 samples/sec");
    EXPECT_TRUE(arc.hasSpeed);
    EXPECT_FALSE(arc.hasDlperfValue);

    auto pfc = parsed(&parsePartialfcLine,
                      "INFO:root:Iter:21 Rank:95.12 it/sec Total:761.00 it/sec [0][loss]:45.12 ");
    EXPECT_EQ(pfc.batchLast, 21);
    EXPECT_EQ(pfc.speed, 761.0);
    EXPECT_EQ(pfc.dlperfValue, 761.0);
    pfc = parsed(&parsePartialfcLine, "INFO:root:Iter:22 Rank:95.12 it/sec Total:x it/sec");
    EXPECT_FALSE(pfc.hasSpeed);
    EXPECT_TRUE(std::isnan(pfc.dlperfValue));
    pfc = parsed(&parsePartialfcLine, "INFO:root:Iter:23 Total:761.00 it/sec"); // no "Rank:"
    EXPECT_FALSE(pfc.hasIteration);
    EXPECT_FALSE(pfc.hasDlperfValue);

    auto of =
        parsed(&parseOneflowFaceLine, "train: iter  +8 , loss 46.47, throughput:  1_156.5e0 ");
    EXPECT_EQ(of.batchLast, 8);
    EXPECT_EQ(of.dlperfValue, 1156.5);
    of = parsed(&parseOneflowFaceLine, "train: iter 9, loss 4, loss 5, throughput: 1e999");
    EXPECT_FALSE(of.hasIteration); // int("9, loss 4"): the greedy group runs to the last ", loss"
    EXPECT_TRUE(std::isinf(of.dlperfValue));
    of = parsed(&parseOneflowFaceLine, "train: iter 10, loss 4, throughput: 12x");
    EXPECT_TRUE(of.hasIteration);
    EXPECT_FALSE(of.hasDlperfValue);
    EXPECT_FALSE(of.hasSpeed);
}

// Expected: DLPerf's MxNet/InsightFace/ArcFace/extract_mxnet_logs.py, defaults 20/120, run on
// this tree (1n8g's fourth run prints "Iter[0] Batch [N]" lines, a Speedometer without metric).
TEST(InsightfaceFormats, ArcfaceMatchesDlperfScript) {
    TempDir dir;
    writeArcfaceTree(dir / "bz64");
    writeFile(dir / "bz64/1n8g/r100_b64_fp32_4.log",
              makeArcfaceLog({.speed = 761.0, .iterLines = true}));
    const Summary s = summarizeDirectory(dir / "bz64", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 10u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "insightface-arcface") << r.path;
        ASSERT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        EXPECT_TRUE(r.notes.empty()) << r.path << ": " << r.notes[0];
    }
    // ScaleView: the mean of the windows from batch 20 to 120, not rounded to 1 decimal first.
    EXPECT_DOUBLE_EQ(*runAt(s, "1n8g/r100_b64_fp32_2.log")->speedThroughput, 755.2);
    EXPECT_DOUBLE_EQ(*runAt(s, "1n8g/r100_b64_fp32_4.log")->speedThroughput, 754.61);
    EXPECT_DOUBLE_EQ(*runAt(s, "1n8g/r100_b64_fp32_4.log")->dlperfThroughput, 754.6);
    std::vector<std::string> notes;
    EXPECT_EQ(
        dlperfJson(s, Method::Speed),
        nlohmann::json::parse(
            R"({"r100": {"1n1g": {"average_speed": 238.58, "batch_size_per_device": 64, "median_speed": 238.58, "speedup": 1.0}, "1n4g": {"average_speed": 651.09, "batch_size_per_device": 64, "median_speed": 651.1, "speedup": 2.73}, "1n8g": {"average_speed": 755.05, "batch_size_per_device": 64, "median_speed": 754.91, "speedup": 3.16}}})"));
    dlperfJson(s, Method::Time, &notes);
    EXPECT_TRUE(hasViewNote(notes, "DLPerf has no --method time script for insightface-arcface"));
}

// Two nodes: the node's Speedometer rate times the node count, as DLPerf's speed * node_num.
// Expected: the script on this tree.
TEST(InsightfaceFormats, ArcfaceCountsEveryNodeAsTheLoggedOne) {
    TempDir dir;
    writeFile(dir / "bz64/1n1g/r100_b64_fp32_1.log", makeArcfaceLog({.speed = 240.0}));
    writeFile(dir / "bz64/2n8g/r100_b64_fp32_1.log", makeArcfaceLog({.speed = 700.0}));
    const Summary s = summarizeDirectory(dir / "bz64", dlperfDefaults(), {});
    const RunResult* two = runAt(s, "2n8g/r100_b64_fp32_1.log");
    ASSERT_NE(two, nullptr);
    ASSERT_EQ(two->status, RunStatus::Complete) << two->reason;
    EXPECT_DOUBLE_EQ(*two->speedThroughput, 1388.24);
    EXPECT_TRUE(hasNote(*two, "one node's samples/s: the run's figure is 2 times it"));
    EXPECT_EQ(
        dlperfJson(s, Method::Speed),
        nlohmann::json::parse(
            R"({"r100": {"1n1g": {"average_speed": 237.98, "batch_size_per_device": 64, "median_speed": 237.98, "speedup": 1.0}, "2n8g": {"average_speed": 1388.24, "batch_size_per_device": 64, "median_speed": 1388.24, "speedup": 5.83}}})"));
}

// The script's assert refuses a warmup that is no multiple of 20: it prints nothing.
TEST(InsightfaceFormats, ArcfaceWarmupOffTheSpeedometerIsRefusedByDlperf) {
    TempDir dir;
    writeArcfaceTree(dir / "bz64");
    const Summary s = summarizeDirectory(dir / "bz64", window(30, 120), {});
    const RunResult* r = runAt(s, "1n1g/r100_b64_fp32_1.log");
    ASSERT_NE(r, nullptr);
    // ScaleView's window starts at the first line after batch 30: batches 40 to 120.
    ASSERT_EQ(r->status, RunStatus::Complete) << r->reason;
    EXPECT_FALSE(r->dlperfThroughput);
    EXPECT_NE(r->dlperfNote.find("its assert: the warmup a multiple of 20"), std::string::npos)
        << r->dlperfNote;
}

// Expected: DLPerf's MxNet/InsightFace/PartailFC/extract_mxnet_logs.py, defaults 20/120.
TEST(InsightfaceFormats, PartialfcMatchesDlperfScript) {
    TempDir dir;
    writePartialfcTree(dir / "bz64");
    const Summary s = summarizeDirectory(dir / "bz64", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "insightface-partialfc") << r.path;
        ASSERT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        EXPECT_TRUE(r.notes.empty()) << r.path << ": " << r.notes[0];
    }
    EXPECT_DOUBLE_EQ(*runAt(s, "1n8g/r100_b64_fp32_2.log")->speedThroughput, 1431.42);
    EXPECT_DOUBLE_EQ(*runAt(s, "2n8g/r100_b64_fp32_3.log")->speedThroughput, 2620.04);
    EXPECT_EQ(
        dlperfJson(s, Method::Speed),
        nlohmann::json::parse(
            R"({"r100": {"2n8g": {"average_speed": 2608.94, "batch_size_per_device": 64, "median_speed": 2608.93, "speedup": 11.93}, "1n1g": {"average_speed": 218.61, "batch_size_per_device": 64, "median_speed": 218.61, "speedup": 1.0}, "1n8g": {"average_speed": 1431.42, "batch_size_per_device": 64, "median_speed": 1431.43, "speedup": 6.55}}})"));
}

// A run of 150 updates whose last 30 ran 5 % slower: the script's list[19:] has no upper bound
// and averages them too (expected: the script on this tree), ScaleView stops at update 120.
TEST(InsightfaceFormats, PartialfcLongRunIsNotedWithBothFigures) {
    TempDir dir;
    writeFile(dir / "bz64/1n1g/r100_b64_fp32_1.log",
              makePartialfcLog({.ranks = 1, .rankSpeed = 219.0}));
    writeFile(dir / "bz64/1n8g/r100_b64_fp32_1.log",
              makePartialfcLog({.updates = 150, .rankSpeed = 180.0, .slowFrom = 121}));
    const Summary s = summarizeDirectory(dir / "bz64", dlperfDefaults(), {});
    const RunResult* r = runAt(s, "1n8g/r100_b64_fp32_1.log");
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->status, RunStatus::Complete) << r->reason;
    EXPECT_DOUBLE_EQ(*r->speedThroughput, 1428.25);
    EXPECT_DOUBLE_EQ(*r->dlperfThroughput, 1411.98);
    EXPECT_TRUE(hasNote(*r, "DLPerf's extract_mxnet_logs.py gives 1411.98, 1.14 % apart from "
                            "1428.25: it averages every Total line from line 20 to the end of "
                            "the log (130 lines, to iteration 150), with no bound at 120"))
        << (r->notes.empty() ? "" : r->notes[0]);
    EXPECT_EQ(
        dlperfJson(s, Method::Speed),
        nlohmann::json::parse(
            R"({"r100": {"1n1g": {"average_speed": 217.21, "batch_size_per_device": 64, "median_speed": 217.21, "speedup": 1.0}, "1n8g": {"average_speed": 1411.98, "batch_size_per_device": 64, "median_speed": 1411.98, "speedup": 6.5}}})"));
}

// Expected: DLPerf's OneFlow/Recognition/insightface/extract_oneflow_logs_time.py, 20/120.
TEST(InsightfaceFormats, OneflowMatchesDlperfScript) {
    TempDir dir;
    const auto root = dir / "85744_fp32_b64_oneflow_model_parallel_1_partial_fc_1";
    writeOneflowFaceTree(root);
    const Summary s = summarizeDirectory(root, dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "oneflow-insightface") << r.path;
        ASSERT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        EXPECT_TRUE(r.notes.empty()) << r.path << ": " << r.notes[0];
    }
    // ScaleView: iterations 21 to 120, as printed.
    EXPECT_DOUBLE_EQ(*runAt(s, "1n8g/r100_b64_fp32_2.log")->timeThroughput, 1920.93);
    std::vector<std::string> notes;
    EXPECT_EQ(
        dlperfJson(s, Method::Time),
        nlohmann::json::parse(
            R"({"r100": {"2n8g": {"average_speed": 3768.51, "batch_size_per_device": 64, "median_speed": 3768.51, "speedup": 15.21}, "1n1g": {"average_speed": 247.79, "batch_size_per_device": 64, "median_speed": 247.79, "speedup": 1.0}, "1n8g": {"average_speed": 1921.01, "batch_size_per_device": 64, "median_speed": 1921.01, "speedup": 7.75}}})"));
    dlperfJson(s, Method::Speed, &notes);
    EXPECT_TRUE(hasViewNote(notes, "DLPerf has no --method speed script for oneflow-insightface"));
}

// The script averages 101 values, iterations 25 to 125: a stall at iteration 123 (outside
// ScaleView's 21 to 120) moves its figure 0.79 %; the note gives both. A run of 125 iterations
// never reaches its line 120 (iteration 125): it records 0, which enters its median.
// Expected: the script on this tree.
TEST(InsightfaceFormats, OneflowHundredAndOneValuesAreNotedWithBothFigures) {
    TempDir dir;
    writeFile(dir / "x/1n1g/r100_b64_fp32_1.log", makeOneflowFaceLog({.throughput = 245.0}));
    writeFile(
        dir / "x/1n8g/r100_b64_fp32_1.log",
        makeOneflowFaceLog({.throughput = 1925.0, .stallIteration = 123, .stallFactor = 0.2}));
    writeFile(dir / "x/1n8g/r100_b64_fp32_2.log",
              makeOneflowFaceLog({.iterations = 125, .throughput = 1925.0}));
    const Summary s = summarizeDirectory(dir / "x", dlperfDefaults(), {});
    const RunResult* stalled = runAt(s, "1n8g/r100_b64_fp32_1.log");
    ASSERT_NE(stalled, nullptr);
    ASSERT_EQ(stalled->status, RunStatus::Complete) << stalled->reason;
    EXPECT_DOUBLE_EQ(*stalled->timeThroughput, 1917.15);
    EXPECT_TRUE(hasNote(*stalled,
                        "DLPerf's extract_oneflow_logs_time.py gives 1902.07, 0.79 % apart from "
                        "1917.15: it skips iterations 0 to 5 and averages its lines 20 to 120 "
                        "both included: 101 values (iterations 25 to 125), not the 100 "
                        "iterations after 20"))
        << (stalled->notes.empty() ? "" : stalled->notes[0]);
    const RunResult* shortRun = runAt(s, "1n8g/r100_b64_fp32_2.log");
    ASSERT_NE(shortRun, nullptr);
    ASSERT_EQ(shortRun->status, RunStatus::Complete) << shortRun->reason;
    EXPECT_EQ(*shortRun->dlperfThroughput, 0.0);
    EXPECT_TRUE(hasNote(*shortRun, "records 0.00 for this run: after skipping iterations 0 to 5 "
                                   "it finds 119 of its 120 lines"));
    EXPECT_EQ(
        dlperfJson(s, Method::Time),
        nlohmann::json::parse(
            R"({"r100": {"1n1g": {"average_speed": 244.01, "batch_size_per_device": 64, "median_speed": 244.01, "speedup": 1.0}, "1n8g": {"average_speed": 951.04, "batch_size_per_device": 64, "median_speed": 951.04, "speedup": 3.9}}})"));
}

// Truncated, garbage, CRLF and headerless logs of each format; a log of no format.
TEST(InsightfaceFormats, BrokenLogsSayWhyAndCrlfReadsAsLf) {
    TempDir dir;
    const std::string logs[] = {makeArcfaceLog({}), makePartialfcLog({}), makeOneflowFaceLog({})};
    const char* names[] = {"arcface", "pfc", "oneflow"};
    const char* firstLines[] = {"INFO:root:Epoch[0]", "INFO:root:Iter:", "train: iter 0,"};
    for (int f = 0; f < 3; ++f) {
        const std::string& log = logs[f];
        const auto at = [&](const std::string& rel) { return dir / names[f] / "1n8g" / rel; };
        writeFile(at("r100_b64_fp32_1.log"), log);
        writeFile(at("r100_b64_fp32_2.log"), log.substr(0, log.size() * 3 / 5)); // truncated
        std::string crlf;
        for (char c : log)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        writeFile(at("r100_b64_fp32_3.log"), crlf);
        writeFile(at("r100_b64_fp32_4.log"), log.substr(log.find(firstLines[f]))); // headerless
        // Garbage holding each marker, and binary noise, in the window.
        std::string garbage = log;
        const auto mid = garbage.find('\n', garbage.size() / 2) + 1;
        garbage.insert(mid, "\x01\x02 [0] Batch Total: train: iter \x7f\n"
                            "\x1b[31m\x03\x04 noise\r\n");
        writeFile(at("r100_b64_fp32_5.log"), garbage);
    }
    writeFile(dir / "oneflow/1n8g/r100_b64_fp32_6.log", "Traceback (most recent call last):\n"
                                                        "  File \"insightface_train.py\"\n");
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 16u);
    for (const char* name : names) {
        const std::string d = std::string(name) + "/1n8g/r100_b64_fp32_";
        const RunResult* whole = runAt(s, d + "1.log");
        ASSERT_NE(whole, nullptr);
        ASSERT_EQ(whole->status, RunStatus::Complete) << whole->reason;
        const RunResult* truncated = runAt(s, d + "2.log");
        EXPECT_EQ(truncated->status, RunStatus::Incomplete) << name;
        EXPECT_NE(truncated->reason.find(" of 120 ("), std::string::npos) << truncated->reason;
        for (int i : {3, 4, 5}) {
            const RunResult* r = runAt(s, d + std::to_string(i) + ".log");
            ASSERT_EQ(r->status, RunStatus::Complete) << r->path << ": " << r->reason;
            EXPECT_EQ(*r->speedThroughput, *whole->speedThroughput) << r->path;
        }
        for (int i : {3, 4})
            EXPECT_EQ(*runAt(s, d + std::to_string(i) + ".log")->dlperfThroughput,
                      *whole->dlperfThroughput);
    }
    // The MXNet scripts read none of the garbage (no "INFO:root:Epoch[0] Batch", no "Rank:");
    // OneFlow's dies on its "train: iter" without ", loss".
    EXPECT_EQ(*runAt(s, "arcface/1n8g/r100_b64_fp32_5.log")->dlperfThroughput,
              *runAt(s, "arcface/1n8g/r100_b64_fp32_1.log")->dlperfThroughput);
    EXPECT_EQ(*runAt(s, "pfc/1n8g/r100_b64_fp32_5.log")->dlperfThroughput,
              *runAt(s, "pfc/1n8g/r100_b64_fp32_1.log")->dlperfThroughput);
    const RunResult* ofGarbage = runAt(s, "oneflow/1n8g/r100_b64_fp32_5.log");
    EXPECT_FALSE(ofGarbage->dlperfThroughput);
    EXPECT_NE(ofGarbage->dlperfNote.find("stops with an error at line "), std::string::npos);
    EXPECT_TRUE(hasNote(*ofGarbage, "int() of its iteration fails"));
    // No format: reported with its path and why, never a 0.
    const RunResult* none = runAt(s, "oneflow/1n8g/r100_b64_fp32_6.log");
    ASSERT_NE(none, nullptr);
    EXPECT_EQ(none->status, RunStatus::Empty);
    EXPECT_FALSE(none->speedThroughput);
    EXPECT_NE(none->reason.find("none of its first 2000 lines is a throughput line"),
              std::string::npos)
        << none->reason;
    bool warned = false;
    for (const auto& w : s.warnings)
        warned = warned || w.text().find("oneflow/1n8g/r100_b64_fp32_6.log") != std::string::npos;
    EXPECT_TRUE(warned);
}

// A line lost inside the window: where the lines name their first batch (ArcFace's
// "Batch [60-80]") the window is short; where they name only their last, the lines there are
// are averaged, and a note says which steps have none.
TEST(InsightfaceFormats, LostLinesInTheWindowAreSaid) {
    TempDir dir;
    auto drop = [](std::string log, const std::string& line) {
        const auto at = log.find(line);
        return log.erase(at, log.find('\n', at) + 1 - at);
    };
    writeFile(dir / "1n8g/r100_b64_fp32_1.log",
              drop(makeArcfaceLog({}), "INFO:root:Epoch[0] Batch [60-80]"));
    writeFile(dir / "1n8g/r100_b64_fp32_2.log",
              drop(makeArcfaceLog({.iterLines = true}), "INFO:root:Iter[0] Batch [80]"));
    writeFile(dir / "1n8g/r100_b64_fp32_3.log", drop(makePartialfcLog({}), "INFO:root:Iter:50 "));
    std::string of = makeOneflowFaceLog({});
    for (const char* lost : {"train: iter 60,", "train: iter 61,", "train: iter 62,"})
        of = drop(of, lost);
    writeFile(dir / "1n8g/r100_b64_fp32_4.log", of);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    const RunResult* arcface = runAt(s, "1n8g/r100_b64_fp32_1.log");
    EXPECT_EQ(arcface->status, RunStatus::Incomplete);
    EXPECT_NE(arcface->reason.find("the rate lines cover 80 of the 100 steps"), std::string::npos)
        << arcface->reason;
    const std::pair<const char*, const char*> noted[] = {
        {"1n8g/r100_b64_fp32_2.log", "no line for step 80 (lost lines?): the window's mean is of "
                                     "the 4 lines there are"},
        {"1n8g/r100_b64_fp32_3.log", "no line for step 50 (lost lines?): the window's mean is of "
                                     "the 99 lines there are"},
        {"1n8g/r100_b64_fp32_4.log", "no line for step 60 to 62 (lost lines?): the window's mean "
                                     "is of the 97 lines there are"},
    };
    for (const auto& [path, note] : noted) {
        const RunResult* r = runAt(s, path);
        ASSERT_EQ(r->status, RunStatus::Complete) << path << ": " << r->reason;
        EXPECT_TRUE(hasNote(*r, note)) << path << ": " << (r->notes.empty() ? "" : r->notes[0]);
    }
}

// Rank 1's lines in a Partial-FC log (a logger on every rank): ScaleView reads rank 0's, says
// so; DLPerf counts them all.
TEST(InsightfaceFormats, PartialfcOtherRanksLinesAreIgnored) {
    TempDir dir;
    const std::string rank0 = makePartialfcLog({.tagged = true});
    std::string both;
    std::size_t pos = 0;
    for (int line = 0; pos < rank0.size(); ++line) {
        const auto nl = rank0.find('\n', pos) + 1;
        const std::string text = rank0.substr(pos, nl - pos);
        both += text;
        if (line > 0) both += "[1,1]<stderr>:" + text.substr(14);
        pos = nl;
    }
    writeFile(dir / "1n8g/r100_b64_fp32_1.log", rank0);
    writeFile(dir / "1n8g/r100_b64_fp32_2.log", both);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    const RunResult* alone = runAt(s, "1n8g/r100_b64_fp32_1.log");
    const RunResult* mixed = runAt(s, "1n8g/r100_b64_fp32_2.log");
    ASSERT_EQ(mixed->status, RunStatus::Complete) << mixed->reason;
    EXPECT_EQ(*mixed->speedThroughput, *alone->speedThroughput);
    EXPECT_TRUE(hasNote(*mixed, "119 step lines from ranks other than 0 not counted"));
    // Expected: the script on each file alone.
    EXPECT_DOUBLE_EQ(*alone->dlperfThroughput, 1428.24);
    EXPECT_DOUBLE_EQ(*mixed->dlperfThroughput, 1427.97);
}

// The unit reaches every output: samples/s in the table, the CSV and the JSON.
TEST(InsightfaceFormats, CasesSayTheirFrameworkAndSamplesPerSecond) {
    TempDir dir;
    writeArcfaceTree(dir / "bz64");
    const Summary s = summarizeDirectory(dir / "bz64", dlperfDefaults(), {});
    EXPECT_NE(formatTable(s).find("MXNet ArcFace  r100  fp32  batch 64 per GPU  (throughput in "
                                  "samples/s"),
              std::string::npos)
        << formatTable(s);
    EXPECT_NE(formatCsv(s).find(",MXNet ArcFace,insightface-arcface,samples/s,"),
              std::string::npos);
    const auto json = nlohmann::json::parse(formatJson(s, "test"));
    EXPECT_EQ(json["cases"][0]["unit"], "samples/s");
    // The report's data-parallel, model-parallel and Partial-FC tables share model and batch,
    // and the log does not say which it ran: no table is picked for it.
    for (const auto& c : s.cases)
        EXPECT_FALSE(c.reference) << c.key.topology.name();
}

// An InsightFace tree beside NGC MXNet's loads as one: the framework is a case dimension, so
// MXNet's and OneFlow's R100 cases of the same batch stay apart.
TEST(InsightfaceFormats, TreeBesideAnotherFrameworkLoadsAsOne) {
    TempDir dir;
    writeSteadyRuns(dir / "logs/ngc/mxnet", {{"1n1g", 1}}, 120, 2);
    writeArcfaceTree(dir / "logs/insightface/arcface/bz64");
    writeOneflowFaceTree(dir / "logs/oneflow/85744_fp32_b64_oneflow_model_parallel_1_partial_fc_1");
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    EXPECT_EQ(s.runs.size(), 20u);
    std::set<std::string> formats;
    for (const auto& c : s.cases)
        formats.insert(c.key.format);
    EXPECT_EQ(formats,
              (std::set<std::string>{"ngc-mxnet", "insightface-arcface", "oneflow-insightface"}));
    EXPECT_EQ(s.cases.size(), 7u); // mxnet 1n1g; arcface 1n1g, 1n4g, 1n8g; oneflow 1n1g, 1n8g, 2n8g
    EXPECT_TRUE(caseMix(s).mixed());
}
