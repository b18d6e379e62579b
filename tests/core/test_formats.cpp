// The log-format table: detection from content, NGC PyTorch's dllogger lines, and DLPerf's own
// figures (from running its extract_pytorch_logs_time.py scripts on these very logs).

#include "tests/support/dllwriter.h"
#include "core/parse/dlloggerline.h"
#include "core/report/dlperfview.h"
#include "core/formats/formatregistry.h"
#include "tests/support/logwriter.h"
#include "core/report/report.h"
#include "core/load/runlog.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

namespace {

// DLPerf's golden tree for NGC PyTorch ResNet-50: amp_ngc/pytorch/{1n1g,1n8g,2n8g}, batch 256,
// three repeats, 150 iterations (the runner's --prof), steps of base + repeat x delta us.
void writeRn50Tree(const std::filesystem::path& root, const std::string& eol = "\n") {
    const std::tuple<const char*, std::int64_t, std::int64_t> topos[] = {
        {"1n1g", 300000, 1111}, {"1n8g", 310000, 2222}, {"2n8g", 330000, 3333}};
    for (const auto& [topo, base, delta] : topos)
        for (int rep = 1; rep <= 3; ++rep) {
            DllSpec spec;
            spec.baseStepUs = base + rep * delta;
            spec.eol = eol;
            writeFile(root / topo / ("r50_b256_amp_" + std::to_string(rep) + ".log"),
                      makeDllLog(spec));
        }
}

void writeBertTree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t> topos[] = {{"1n1g", 200000, 777},
                                                                         {"1n8g", 220000, 999}};
    for (const auto& [topo, base, delta] : topos)
        for (int rep = 1; rep <= 2; ++rep) {
            DllSpec spec;
            spec.model = DllModel::Bert;
            spec.baseStepUs = base + rep * delta;
            writeFile(root / topo /
                          ("bert-base-adam-training_b32_fp32_" + std::to_string(rep) + ".log"),
                      makeDllLog(spec));
        }
}

LoadOptions dlperfDefaults() {
    LoadOptions load;
    load.measure.formatDefaults = true;
    load.threads = 2;
    return load;
}

const RunResult* runAt(const Summary& s, const std::string& path) {
    for (const auto& r : s.runs)
        if (r.path == path) return &r;
    return nullptr;
}

} // namespace

TEST(LogFormats, TableHasUniqueIdsAndSaneDefaults) {
    std::set<std::string_view> ids;
    for (const auto& f : logFormats()) {
        EXPECT_TRUE(ids.insert(f.id).second) << f.id;
        EXPECT_GT(f.defaultIterations, f.defaultWarmup) << f.id;
        EXPECT_FALSE(f.speedScript.empty() && f.timeScript.empty()) << f.id;
        EXPECT_EQ(findLogFormat(f.id), &f);
    }
    EXPECT_EQ(findLogFormat("ngc-mxnet"), &ngcMxnetFormat());
    EXPECT_EQ(findLogFormat("pytorch"), nullptr);
    EXPECT_EQ(findLogFormat("ngc-pytorch-bert")->defaultIterations, 110); // the script's default
}

TEST(LogFormats, DetectedFromTheFirstLineOfAKnownFormat) {
    std::int64_t line = 0;
    const std::string mxnet =
        "Namespace(arch='resnetv15')\n" + speedLine(TagStyle::OpenMpi, 0, 1000, 0, "3007.1");
    ASSERT_NE(detectLogFormat(mxnet, &line), nullptr);
    EXPECT_EQ(detectLogFormat(mxnet)->id, "ngc-mxnet");
    EXPECT_EQ(line, 2);
    EXPECT_EQ(detectLogFormat(makeDllLog({}))->id, "ngc-pytorch-rn50");
    DllSpec bert;
    bert.model = DllModel::Bert;
    EXPECT_EQ(detectLogFormat(makeDllLog(bert))->id, "ngc-pytorch-bert");
    // A header line alone, or garbage, is no format: reported, never counted as 0.
    EXPECT_EQ(detectLogFormat("DLL 2020-09-15 14:00:00.000000 - PARAMETER arch : resnet50\n"),
              nullptr);
    EXPECT_EQ(detectLogFormat(std::string("\x00\xff garbage\r\n", 12)), nullptr);
}

TEST(LogFormats, DllPytorchLineGivesIterationTimeAndIps) {
    SpeedSample s;
    parseDllPytorchRn50("DLL 2020-09-15 14:29:14.427490 - Epoch: 0 Iteration: 2  train.loss : "
                        "6.93504  train.total_ips : 4294.91 img/s",
                        std::string_view::npos, s);
    EXPECT_TRUE(s.hasIteration);
    EXPECT_EQ(s.batchFirst, 2);
    ASSERT_TRUE(s.hasTime);
    EXPECT_EQ(s.timeUs % 1000000, 427490);
    EXPECT_EQ(s.timeUs / 1000000 % 86400, 14 * 3600 + 29 * 60 + 14);
    EXPECT_DOUBLE_EQ(s.speed, 4294.91);
    SpeedSample broken; // DLPerf's int() fails on this; the line has no iteration
    parseDllPytorchRn50("DLL 2020-09-15 14:29:14.427490 - Epoch: 0 Iteration: x  train.loss : 6",
                        std::string_view::npos, broken);
    EXPECT_FALSE(broken.hasIteration);
}

// Expected figures: DLPerf's extract_pytorch_logs_time.py (NGC PyTorch ResNet-50) run on these
// logs with its defaults: {"r50": {"1n1g": 787.87/787.87/1.0, "1n8g": 6058.17/6057.97/7.69,
// "2n8g": 11317.05/11316.31/14.36}} (average, median, speedup).
TEST(LogFormats, NgcPytorchRn50MatchesDlperfScript) {
    TempDir dir;
    writeRn50Tree(dir.path());
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "ngc-pytorch-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    const DlperfView view = dlperfView(s, Method::Time);
    EXPECT_NE(view.script.find("PyTorch/resnet50v1.5/extract_pytorch_logs_time.py"),
              std::string::npos);
    const auto got = nlohmann::json::parse(formatDlperfJson(view.summary));
    const auto expected = nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 787.87, "batch_size_per_device": 256, "median_speed": 787.87, "speedup": 1.0},
        "1n8g": {"average_speed": 6058.17, "batch_size_per_device": 256, "median_speed": 6057.97, "speedup": 7.69},
        "2n8g": {"average_speed": 11317.05, "batch_size_per_device": 256, "median_speed": 11316.31, "speedup": 14.36}}})");
    EXPECT_EQ(got, expected) << got.dump();
    // --method speed has no NGC PyTorch script: the time one is used, and a note says so.
    const DlperfView speed = dlperfView(s, Method::Speed);
    EXPECT_EQ(nlohmann::json::parse(formatDlperfJson(speed.summary)), expected);
    ASSERT_FALSE(speed.notes.empty());
    EXPECT_NE(speed.notes[0].find("no --method speed script"), std::string::npos) << speed.notes[0];
}

// ScaleView measures iterations 20 to 120; DLPerf's script skips iterations 1-5 first and so
// measures 25 to 125, which here crosses the slowdown after iteration 110: both figures differ
// by more than 0.5 %, and the run's note names the quirk and both.
TEST(LogFormats, NgcPytorchQuirkIsNotedWithBothFigures) {
    TempDir dir;
    writeRn50Tree(dir.path());
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    const RunResult* r = runAt(s, "1n1g/r50_b256_amp_2.log");
    ASSERT_NE(r, nullptr);
    ASSERT_TRUE(r->timeThroughput && r->dlperfThroughput);
    EXPECT_DOUBLE_EQ(*r->dlperfThroughput, 787.87); // DLPerf's, per file
    // Ours: 100 steps from iteration 20 to 120: 90 of 302222 us, 10 of 453333 us, plus jitter.
    std::int64_t us = 0;
    for (int k = 21; k <= 120; ++k)
        us += dllStepUs(302222, k);
    EXPECT_DOUBLE_EQ(*r->timeThroughput, std::round(256.0 / (us / 1e6 / 100) * 100) / 100);
    ASSERT_FALSE(r->notes.empty());
    const std::string& note = r->notes[0];
    EXPECT_NE(note.find("787.87"), std::string::npos) << note;
    EXPECT_NE(note.find("skips the lines of iterations up to 5"), std::string::npos) << note;
    char ours[32];
    std::snprintf(ours, sizeof ours, "%.2f", *r->timeThroughput);
    EXPECT_NE(note.find(ours), std::string::npos) << note;
}

// Expected: DLPerf's NGC PyTorch BERT extract_pytorch_logs_time.py (defaults 20/110) on these
// logs: 1n1g 154.75/154.74/1.0, 1n8g 1124.35/1124.34/7.27.
TEST(LogFormats, NgcPytorchBertMatchesDlperfScript) {
    TempDir dir;
    writeBertTree(dir.path());
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "ngc-pytorch-bert") << r.path;
        EXPECT_EQ(r.key.model, "bert-base-adam-training");
        EXPECT_EQ(r.expectedLines, 110) << "the script's own default window";
    }
    const auto got = nlohmann::json::parse(formatDlperfJson(dlperfView(s, Method::Time).summary));
    const auto expected = nlohmann::json::parse(R"({"bert-base-adam-training": {
        "1n1g": {"average_speed": 154.75, "batch_size_per_device": 32, "median_speed": 154.74, "speedup": 1.0},
        "1n8g": {"average_speed": 1124.35, "batch_size_per_device": 32, "median_speed": 1124.34, "speedup": 7.27}}})");
    EXPECT_EQ(got, expected) << got.dump();
}

TEST(LogFormats, NgcPytorchCrlfLogsGiveTheSameFigures) {
    TempDir lf, crlf;
    writeRn50Tree(lf.path());
    writeRn50Tree(crlf.path(), "\r\n");
    const Summary a = summarizeDirectory(lf.path(), dlperfDefaults(), {});
    const Summary b = summarizeDirectory(crlf.path(), dlperfDefaults(), {});
    ASSERT_EQ(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) {
        EXPECT_EQ(b.runs[i].status, RunStatus::Complete) << b.runs[i].reason;
        EXPECT_EQ(a.runs[i].timeThroughput, b.runs[i].timeThroughput) << a.runs[i].path;
        EXPECT_EQ(a.runs[i].dlperfThroughput, b.runs[i].dlperfThroughput) << a.runs[i].path;
    }
}

// A run stopped at iteration 121 (the README's --prof 121): ScaleView measures 20-120 from it;
// DLPerf's script, which skips five lines, never reaches its line 120 and records 0, which
// enters its median. Both are said.
TEST(LogFormats, NgcPytorchTruncatedRunIsZeroForDlperfAndMeasuredByScaleView) {
    TempDir dir;
    DllSpec spec;
    spec.iterations = 121;
    writeFile(dir / "1n1g/r50_b256_amp_0.log", makeDllLog(spec)); // run index 0 is a run
    spec.iterations = 60;
    writeFile(dir / "1n1g/r50_b256_amp_1.log", makeDllLog(spec));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    const RunResult* full = runAt(s, "1n1g/r50_b256_amp_0.log");
    const RunResult* cut = runAt(s, "1n1g/r50_b256_amp_1.log");
    ASSERT_TRUE(full && cut);
    EXPECT_EQ(full->status, RunStatus::Complete) << full->reason;
    EXPECT_EQ(full->key.repeat, 0);
    EXPECT_EQ(full->dlperfThroughput, 0.0);
    EXPECT_NE(full->notes.at(0).find("records 0"), std::string::npos) << full->notes[0];
    EXPECT_EQ(cut->status, RunStatus::Incomplete);
    EXPECT_NE(cut->reason.find("found 60 of 120 iteration lines"), std::string::npos)
        << cut->reason;
    // DLPerf: {0: 0, 1: 0} -> 1n1g's average_speed is 0, falsy: speedup 1.0 and no median.
    const DlperfView view = dlperfView(s, Method::Time);
    ASSERT_EQ(view.summary.cases.size(), 1u);
    EXPECT_EQ(view.summary.cases[0].values, (std::vector<double>{0.0, 0.0}));
}

// Only rank 0 writes these lines; a launcher that tags output and lets another rank's lines in
// must not double the iteration count. DLPerf counts them: its figure differs, and is noted.
TEST(LogFormats, NgcPytorchOtherRanksLinesAreIgnored) {
    TempDir dir;
    std::string log;
    std::int64_t t = 0;
    for (int k = 1; k <= 150; ++k) {
        t += 300000;
        log += "[1,0]<stdout>:" + dllLine(DllModel::Rn50, t, k);
        if (k % 2 == 0) log += "[1,1]<stdout>:" + dllLine(DllModel::Rn50, t + 5000, k);
    }
    writeFile(dir / "1n2g/r50_b256_amp_1.log", log);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs[0];
    EXPECT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_DOUBLE_EQ(*r.timeThroughput, 1706.67); // 512 images / 0.3 s, rank 0 alone
    bool noted = false;
    for (const auto& n : r.notes)
        noted = noted || n.find("75 iteration lines from ranks other than 0 not counted") != n.npos;
    EXPECT_TRUE(noted);
}

TEST(LogFormats, UndetectedLogIsReportedWithPathAndReason) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b256_amp_1.log", "Traceback (most recent call last):\n  oops\n");
    writeFile(dir / "1n1g/r50_b256_amp_2.log", "");
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 2u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.status, RunStatus::Empty) << r.path;
        EXPECT_FALSE(r.usable());
    }
    EXPECT_NE(s.runs[0].reason.find("none of its first 2000 lines is a throughput line of a "
                                    "known format (ngc-mxnet, ngc-pytorch-rn50"),
              std::string::npos)
        << s.runs[0].reason;
    EXPECT_NE(s.runs[1].reason.find("the file is empty"), std::string::npos) << s.runs[1].reason;
    ASSERT_EQ(s.warnings.size(), 2u);
    EXPECT_NE(s.warnings[0].text().find("1n1g/r50_b256_amp_1.log"), std::string::npos);
}

TEST(LogFormats, ForcedFormatOverridesDetection) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b256_amp_1.log", makeDllLog({}));
    LoadOptions load = dlperfDefaults();
    load.logFormat = "ngc-mxnet";
    const Summary s = summarizeDirectory(dir.path(), load, {});
    ASSERT_EQ(s.runs.size(), 1u);
    EXPECT_EQ(s.runs[0].key.format, "ngc-mxnet");
    EXPECT_EQ(s.runs[0].status, RunStatus::Empty);
}

// Two frameworks in one tree load as one summary, their cases apart.
TEST(LogFormats, SeveralFrameworksInOneTreeAreSeparateCases) {
    TempDir dir;
    writeRn50Tree(dir / "logs/ngc/pytorch");
    writeSteadyRuns(dir / "logs/ngc/mxnet", {{"1n1g", 1}}, 120, 2);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    EXPECT_EQ(s.runs.size(), 11u);
    std::set<std::string> formats;
    for (const auto& c : s.cases)
        formats.insert(c.key.format);
    EXPECT_EQ(formats, (std::set<std::string>{"ngc-mxnet", "ngc-pytorch-rn50"}));
    EXPECT_EQ(s.cases.size(), 4u); // mxnet 1n1g; pytorch 1n1g, 1n8g, 2n8g
    EXPECT_TRUE(caseMix(s).mixed());
    // The framework is in every export, and the table names it with its unit.
    EXPECT_NE(formatCsv(s).find(",NGC PyTorch,ngc-pytorch-rn50,images/s,"), std::string::npos);
    EXPECT_NE(formatCsv(s).find(",NGC MXNet,ngc-mxnet,images/s,"), std::string::npos);
    EXPECT_NE(formatTable(s).find("NGC PyTorch  r50  amp  batch 256 per GPU  (throughput in "
                                  "images/s, time method)"),
              std::string::npos)
        << formatTable(s);
    const auto json = nlohmann::json::parse(formatJson(s, "test"));
    EXPECT_EQ(json["cases"][0]["framework"], "NGC MXNet");
    EXPECT_EQ(json["cases"][1]["format"], "ngc-pytorch-rn50");
    EXPECT_EQ(json["runs"].back()["unit"], "images/s");
}

TEST(LogFormats, BertCasesSayTheirUnit) {
    TempDir dir;
    writeBertTree(dir.path());
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    EXPECT_NE(formatTable(s).find("(throughput in sequences/s"), std::string::npos);
}

namespace {

// NGC TensorFlow 1 ResNet-50: bz128/{1n1g,1n8g,2n8g}, three repeats, steps 21-120 logged.
void writeTfTree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t, int> topos[] = {
        {"1n1g", 250000, 1234, 1}, {"1n8g", 260000, 2345, 8}, {"2n8g", 280000, 3456, 16}};
    for (const auto& [topo, base, delta, ranks] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("r50_b128_fp32_" + std::to_string(rep) + ".log"),
                      makeDllTfLog(128 * ranks, base + rep * delta));
}

} // namespace

// Expected: DLPerf's NGC TF RN50 extract_tensorflow_logs.py (speed) and _time.py (time), run on
// these logs with their defaults (20/120).
TEST(LogFormats, NgcTfRn50MatchesBothDlperfScripts) {
    TempDir dir;
    writeTfTree(dir / "bz128");
    const Summary s = summarizeDirectory(dir / "bz128", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "ngc-tf-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    const auto speed =
        nlohmann::json::parse(formatDlperfJson(dlperfView(s, Method::Speed).summary));
    EXPECT_EQ(speed, nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 490.03, "batch_size_per_device": 128, "median_speed": 490.02, "speedup": 1.0},
        "1n8g": {"average_speed": 3739.39, "batch_size_per_device": 128, "median_speed": 3739.19, "speedup": 7.63},
        "2n8g": {"average_speed": 6899.9, "batch_size_per_device": 128, "median_speed": 6899.24, "speedup": 14.08}}})"))
        << speed.dump();
    const auto time = nlohmann::json::parse(formatDlperfJson(dlperfView(s, Method::Time).summary));
    EXPECT_EQ(time, nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 482.56, "batch_size_per_device": 128, "median_speed": 482.55, "speedup": 1.0},
        "1n8g": {"average_speed": 3682.36, "batch_size_per_device": 128, "median_speed": 3682.17, "speedup": 7.63},
        "2n8g": {"average_speed": 6794.68, "batch_size_per_device": 128, "median_speed": 6794.03, "speedup": 14.08}}})"))
        << time.dump();
}

TEST(LogFormats, NgcTfRn50ShortOrBrokenRunsSayWhy) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b128_fp32_1.log", makeDllTfLog(128, 250000, 90));
    std::string broken = makeDllTfLog(128, 250000);
    const auto at = broken.find("(0, 30) imgs_per_sec : ");
    ASSERT_NE(at, std::string::npos);
    broken.replace(at + 23, 1, "x"); // "x23.4567": no number where DLPerf's regex wants one
    writeFile(dir / "1n1g/r50_b128_fp32_2.log", broken);
    std::string crlf = makeDllTfLog(128, 250000, 120, "\r\n");
    writeFile(dir / "1n1g/r50_b128_fp32_3.log", crlf);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 3u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[0].reason.find("found 70 of 100 rate lines"), std::string::npos)
        << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Unusable);
    EXPECT_NE(s.runs[1].reason.find("no imgs_per_sec value at line 11"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_EQ(s.runs[2].status, RunStatus::Complete) << s.runs[2].reason;
    EXPECT_EQ(s.runs[2].key.format, "ngc-tf-rn50");
}

// A run whose format was never detected (a live view reads the campaign's own NGC MXNet lines
// without detecting) is one case with the detected NGC MXNet runs of the same key.
TEST(LogFormats, RunsWithoutAFormatIdJoinTheNgcMxnetCase) {
    std::vector<RunResult> runs(2);
    for (int i = 0; i < 2; ++i) {
        runs[i].key = RunKey{"r50", "fp32", 64, {1, 1}, i + 1, i == 0 ? "" : "ngc-mxnet"};
        runs[i].path = std::to_string(i);
        runs[i].status = RunStatus::Complete;
        runs[i].timeThroughput = runs[i].speedThroughput = 100.0 + i;
    }
    const auto cases = computeCases(runs, {});
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0].values.size(), 2u);
    EXPECT_EQ(cases[0].key.format, "ngc-mxnet");
}

// Rank 0 alone logs NGC TensorFlow 1's rates: on 1n8g the per-iteration trace has one point per
// logged step, that step's own rate, not a median of eight steps as if they were eight ranks.
TEST(LogFormats, RankZeroLogsTraceEveryIteration) {
    TempDir dir;
    writeFile(dir / "1n8g/r50_b128_fp32_1.log", makeDllTfLog(128 * 8, 250000));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunLog log = readRunLog(scan.logs.front());
    EXPECT_EQ(log.file.key.format, "ngc-tf-rn50");
    ASSERT_TRUE(log.trace);
    EXPECT_EQ(log.trace->ranks, 1);
    ASSERT_EQ(log.trace->median.size(), 100u); // steps 21..120
    for (std::size_t i = 0; i < log.trace->median.size(); ++i) {
        const int k = static_cast<int>(i) + 21;
        const double rate = 128 * 8 / (static_cast<double>(dllStepUs(250000, k)) / 1e6);
        EXPECT_NEAR(log.trace->median[i], rate, 1e-3) << "step " << k;
        EXPECT_EQ(log.trace->min[i], log.trace->max[i]) << "step " << k;
    }
}

// Without a 1n1g figure DLPerf's compute_speedup writes speedup 1.0 and no median_speed for
// every case, keeps the last file's figure as average_speed, and leaves a stray empty 1n1g
// entry; the view says so on standard error's side.
TEST(LogFormats, DlperfJsonWithoutOneGpuRunIsTheScriptsOwn) {
    TempDir dir;
    writeRn50Tree(dir.path());
    std::filesystem::remove_all(dir / "1n1g");
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 6u);
    const DlperfView view = dlperfView(s, Method::Time);
    const std::string text = formatDlperfJson(view.summary);
    const auto got = nlohmann::json::parse(text);
    ASSERT_TRUE(got["r50"].contains("1n1g")) << text;
    EXPECT_EQ(got["r50"]["1n1g"], nlohmann::json::parse(R"({"average_speed": {}})")) << text;
    // The stray entry comes last, as the script's check adds it after the cases.
    EXPECT_NE(text.find("}, \"1n1g\": {\"average_speed\": {}}}}"), std::string::npos) << text;
    for (const char* topo : {"1n8g", "2n8g"}) {
        const auto& c = got["r50"][topo];
        EXPECT_EQ(c.size(), 3u) << c.dump(); // average_speed, batch_size_per_device, speedup
        EXPECT_EQ(c["speedup"], 1.0) << c.dump();
        EXPECT_FALSE(c.contains("median_speed")) << c.dump();
        // The highest repeat's figure, not the mean of the three.
        const auto* run = runAt(view.summary, std::string(topo) + "/r50_b256_amp_3.log");
        ASSERT_NE(run, nullptr);
        EXPECT_EQ(c["average_speed"].get<double>(), *run->timeThroughput) << c.dump();
    }
    bool noted = false;
    for (const auto& n : view.notes)
        noted = noted || n.find("no 1n1g figure for r50") != std::string::npos;
    EXPECT_TRUE(noted);
}
