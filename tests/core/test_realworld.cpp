// Issue 26: the logs people actually have. The five real logs of ../shared/data/realworld-logs
// read as found (no renaming), and generated logs of their shapes with odd names in folders
// mixed with other files.

#include "core/formats/formatregistry.h"
#include "core/formats/realworld.h"
#include "core/load/logscan.h"
#include "core/load/runidentity.h"
#include "core/load/runloader.h"
#include "core/parse/runfacts.h"
#include "core/report/report.h"
#include "core/stats/summary.h"
#include "tests/support/logwriter.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

// The real logs sit in ../shared/ beside CI's clone, never in the repository: on a user's bare
// clone they are absent, and the tests that read them skip, saying so (issue 35 item 7).
#define SKIP_WITHOUT_REAL_LOGS()                                                                   \
    if (!fs::is_directory(kReal))                                                                  \
    GTEST_SKIP() << kReal.string()                                                                 \
                 << " is absent: the real logs sit in ../shared/data beside CI's clone, not in "   \
                    "the repository"

namespace {

const fs::path kReal = SV_REALWORLD_LOGS;

// Each log over its format's own window (the CLI's and the app's default).
LoadOptions formatDefaults() {
    LoadOptions o;
    o.measure.formatDefaults = true;
    return o;
}

LoadOptions windowOf(int warmup, int iterations) {
    LoadOptions o;
    o.measure.warmup = warmup;
    o.measure.iterations = iterations;
    return o;
}

// The log's own throughput values, read here by a regex of the test's own (not the parser's),
// on the lines that pass `keep`; scale multiplies them (gluon-nlp's K).
std::vector<double> valuesOf(const fs::path& file, const std::string& pattern,
                             const std::string& keep = "", double scale = 1.0) {
    const std::regex re(pattern);
    std::vector<double> out;
    std::istringstream in(readWhole(file));
    for (std::string line; std::getline(in, line);) {
        if (!keep.empty() && line.find(keep) == std::string::npos) continue;
        std::smatch m;
        if (std::regex_search(line, m, re)) out.push_back(std::stod(m[1]) * scale);
    }
    return out;
}

double medianPastFirstTenth(std::vector<double> v) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 10));
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

struct RealLog {
    std::string path;
    std::string pattern, keep;
    double scale;
    std::string unit;
    int gpus;
    std::string format;
};

const RealLog kRealLogs[] = {
    {"mlcommons-training_results_v0.6/NVIDIA/results/dgx2_ngc19.05_mxnet/resnet/result_0.txt",
     R"(Speed: ([0-9.]+) samples/sec)", "Batch [", 1.0, "samples/s", 16, "mxnet-speedometer"},
    {"dmlc-web-data/gluoncv/logs/classification/imagenet/resnet50_v1b.log",
     R"(Speed: ([0-9.]+) samples/sec)", "Batch [", 1.0, "samples/s", 8, "gluoncv-speedometer"},
    {"lambdal-deeplearning-benchmark/pytorch/results/8xV100/PyTorch_resnet50_FP32/"
     "09-03-2020_03-38-54.txt",
     R"(train\.total_ips : ([0-9.]+))", "Iteration:", 1.0, "images/s", 8, "dllogger-pytorch"},
    {"perfkitbenchmarker/tests/data/horovod_output_resnet.txt", R"(\) total_ips : ([0-9.]+))", "",
     1.0, "images/s", 8, "dllogger-tf"},
    {"dmlc-web-data/gluonnlp/logs/bert/bert_base_pretrain.log", R"(throughput=([0-9.]+)K tks/s)",
     "", 1000.0, "tokens/s", 8, "gluonnlp-throughput"},
};

void expectReadsAsFound(const RunResult& r, const RealLog& log) {
    SCOPED_TRACE(log.path);
    const auto values = valuesOf(kReal / log.path, log.pattern, log.keep, log.scale);
    ASSERT_GE(values.size(), 10u);
    const double median = medianPastFirstTenth(values);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    ASSERT_TRUE(r.timeThroughput);
    EXPECT_LE(std::fabs(*r.timeThroughput - median) / median, 0.03)
        << *r.timeThroughput << " vs the median " << median;
    EXPECT_EQ(r.key.format, log.format);
    EXPECT_EQ(logFormatOf(r.key.format).unit, log.unit);
    EXPECT_EQ(r.key.topology.ranks(), log.gpus);
    EXPECT_EQ(r.key.origins.topology, KeySource::Log);
}

} // namespace

TEST(RealWorldLogs, TheFolderReadsAsFound) {
    SKIP_WITHOUT_REAL_LOGS();
    const ScanResult scan = scanLogDirectory(kReal);
    ASSERT_FALSE(scan.error);
    EXPECT_EQ(scan.logs.size(), 5u);
    EXPECT_EQ(scan.otherFiles, 1u); // README.md
    EXPECT_EQ(scan.summaryLine(), "read 6 files: 5 throughput logs, 1 other file skipped");
    const Summary s = summarizeDirectory(kReal, formatDefaults(), SummaryOptions{});
    ASSERT_FALSE(s.error);
    ASSERT_EQ(s.runs.size(), 5u);
    for (const RealLog& log : kRealLogs) {
        const auto it = std::find_if(s.runs.begin(), s.runs.end(),
                                     [&](const RunResult& r) { return r.path == log.path; });
        ASSERT_NE(it, s.runs.end()) << log.path;
        expectReadsAsFound(*it, log);
    }
    // Every run counts: each case has a median.
    for (const auto& c : s.cases)
        EXPECT_TRUE(c.median) << c.key.model;
    // The table's headers say how each was measured: these are the logs' own reports over a
    // steady state, never "time method" (which they are not).
    const std::string table = formatTable(s);
    EXPECT_EQ(table.find("time method"), std::string::npos) << table;
    EXPECT_NE(table.find("the log's own reports: median after the first tenth)"), std::string::npos)
        << table;
}

TEST(RealWorldLogs, EachFileReadsAlone) {
    SKIP_WITHOUT_REAL_LOGS();
    for (const RealLog& log : kRealLogs) {
        const Summary s = summarizeDirectory(kReal / log.path, formatDefaults(), SummaryOptions{});
        ASSERT_FALSE(s.error) << log.path << ": " << *s.error;
        ASSERT_EQ(s.runs.size(), 1u);
        RealLog shown = log;
        expectReadsAsFound(s.runs[0], shown);
    }
}

// The run's keys come from what the log says: PyTorch's PARAMETER line (batch 296, 8 ranks,
// amp False: fp32), MLPerf's Namespace and rank tags (208, 16, float16), TensorFlow's wrapped
// PARAMETER line and "Num GPUs 8", gluon-cv's Namespace (num_gpus=8, one process: one node).
TEST(RealWorldLogs, KeysFromTheLogsOwnParameters) {
    SKIP_WITHOUT_REAL_LOGS();
    const ScanResult scan = scanLogDirectory(kReal);
    auto key = [&](const std::string& part) {
        for (const auto& l : scan.logs)
            if (l.display.find(part) != std::string::npos) return l.key;
        ADD_FAILURE() << part;
        return RunKey{};
    };
    const RunKey pt = key("09-03-2020");
    EXPECT_EQ(pt.batchPerDevice, 296);
    EXPECT_EQ(pt.precision, "fp32");
    EXPECT_EQ(pt.origins.batch, KeySource::Log);
    const RunKey mlperf = key("result_0.txt");
    EXPECT_EQ(mlperf.batchPerDevice, 208);
    EXPECT_EQ(mlperf.precision, "fp16");
    EXPECT_EQ(mlperf.topology, (Topology{1, 16}));
    EXPECT_EQ(mlperf.repeat, 0);
    const RunKey tf = key("horovod_output");
    EXPECT_EQ(tf.batchPerDevice, 256);
    EXPECT_EQ(tf.precision, "fp16");
    EXPECT_EQ(tf.topology.ranks(), 8);
    const RunKey cv = key("resnet50_v1b.log");
    EXPECT_EQ(cv.batchPerDevice, 128);
    EXPECT_EQ(cv.topology, (Topology{1, 8}));
    EXPECT_FALSE(cv.origins.nodesUnknown);
    EXPECT_EQ(cv.format, "gluoncv-speedometer"); // not InsightFace ArcFace
    const RunKey nlp = key("bert_base_pretrain.log");
    EXPECT_EQ(nlp.topology.ranks(), 8);
    EXPECT_EQ(nlp.precision, "fp16");
}

// Generated logs of each shape, odd names, in a folder with scripts, a binary and a big
// non-log file: the logs are read, the rest counted in one line, no warning per file.
TEST(RealWorldShapes, MixedFolderOneSummaryLine) {
    TempDir dir;
    auto rate = [](double base) {
        return [base](int k) { return k < 3 ? base / 10 : base + (k % 5) * 3.0; };
    };
    writeFile(dir / "mlperf/dgx2_run/result_3.txt", mlperfMxnetLog(16, 208, 120, rate(18000)));
    writeFile(dir / "gluoncv/train log", gluoncvLog(8, 128, 100, rate(5000)));
    writeFile(dir / "pt/slurm-1234.out", dllPytorchLog(8, 256, 2, 60, rate(2900)));
    writeFile(dir / "tf/output.LOG.1", dllTfLog(8, 256, 200, rate(6700)));
    writeFile(dir / "nlp/bert", gluonnlpLog("0,1,2,3", 80, rate(130000)));
    writeFile(dir / "crlf.log", mlperfMxnetLog(2, 64, 50, rate(700), 20, 60, "\r\n"));
    writeFile(dir / "train.sh", "#!/bin/sh\nmpirun -np 16 python train.py --batch-size 208\n");
    writeFile(dir / "config.yaml", "batch_size: 256\nlr: 0.1\n");
    std::string bin(100000, '\0');
    for (std::size_t i = 0; i < bin.size(); ++i)
        bin[i] = static_cast<char>((i * 7919) % 256);
    writeFile(dir / "model.ckpt", bin);
    std::string big;
    while (big.size() < (std::size_t{3} << 20))
        big += "loss 0.123 accuracy 0.456 nothing about speed here\n";
    writeFile(dir / "big.txt", big);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_FALSE(scan.error);
    EXPECT_TRUE(scan.warnings.empty()) << scan.warnings.front().text();
    EXPECT_EQ(scan.summaryLine(),
              "read 10 files: 6 throughput logs, 4 other files skipped (1 binary)");
    const auto runs = loadRuns(scan.logs, formatDefaults());
    ASSERT_EQ(runs.size(), 6u);
    for (const auto& r : runs) {
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
        ASSERT_TRUE(r.timeThroughput) << r.path;
        // The warmup reports (a tenth of the base) are left out: the median is the steady one.
        EXPECT_GT(*r.timeThroughput, 600.0) << r.path;
    }
    auto find = [&](const std::string& p) {
        return *std::find_if(runs.begin(), runs.end(),
                             [&](const RunResult& r) { return r.path == p; });
    };
    EXPECT_EQ(find("mlperf/dgx2_run/result_3.txt").key.topology, (Topology{1, 16}));
    EXPECT_EQ(find("mlperf/dgx2_run/result_3.txt").key.repeat, 3);
    EXPECT_EQ(find("gluoncv/train log").key.format, "gluoncv-speedometer");
    EXPECT_EQ(find("pt/slurm-1234.out").key.format, "dllogger-pytorch");
    EXPECT_DOUBLE_EQ(*find("pt/slurm-1234.out").timeThroughput, 2906.0);
    EXPECT_EQ(find("tf/output.LOG.1").key.batchPerDevice, 256);
    EXPECT_EQ(find("nlp/bert").key.topology.ranks(), 4);
    EXPECT_EQ(logFormatOf(find("nlp/bert").key.format).unit, "tokens/s");
    EXPECT_EQ(find("crlf.log").key.topology.ranks(), 2);
}

// gluon-cv's Speedometer lines are not InsightFace's; InsightFace's (acc=, verification) are.
TEST(RealWorldShapes, GluoncvIsNotInsightface) {
    auto rate = [](int k) { return 1000.0 + k; };
    std::string why;
    const LogFormat* cv = detectAnyLogFormat(gluoncvLog(8, 128, 30, rate), &why);
    ASSERT_TRUE(cv);
    EXPECT_EQ(cv->id, "gluoncv-speedometer");
    EXPECT_NE(why.find("not InsightFace"), std::string::npos) << why;
    const LogFormat* face = detectAnyLogFormat(insightfaceLog(30, rate));
    ASSERT_TRUE(face);
    EXPECT_EQ(face->id, "insightface-speedometer");
    // MLPerf's lines fit DLPerf's NGC MXNet reading too: the run says which was used and why.
    const LogFormat* mx = detectAnyLogFormat(mlperfMxnetLog(4, 64, 30, rate), &why);
    ASSERT_TRUE(mx);
    EXPECT_EQ(mx->id, "mxnet-speedometer");
    EXPECT_NE(why.find("ngc-mxnet"), std::string::npos) << why;
}

// The name says batch 128, the log's PARAMETER line 296: the log wins, and a warning names both.
// A GPU count from a folder's name needs a GPU model or "gpu" after the x: 8xV100, 4xT4,
// 2xRTX3090, 8xgpu do; a temporary folder's random "1XHMvw" does not (it once made a test's
// scan see "1 GPU" in its own folder name).
TEST(RealWorldShapes, AGpuCountInANameNeedsAGpuAfterTheX) {
    const auto gpus = [](const char* folder) {
        return readPathHints(fs::path("/data") / folder / "result_0.txt", "/data").gpus;
    };
    EXPECT_EQ(gpus("8xV100"), 8);
    EXPECT_EQ(gpus("4xT4"), 4);
    EXPECT_EQ(gpus("2xRTX3090"), 2);
    EXPECT_EQ(gpus("8xgpu"), 8);
    EXPECT_EQ(gpus("16xa100_80gb"), 16);
    EXPECT_FALSE(gpus("scaleview-test-1XHMvw"));
    EXPECT_FALSE(gpus("box-2xlarge"));
}

// A DGX system's name gives its GPUs per node: a DGX-1 or DGX A100 8, a DGX-2 16, a DGX Station
// (V100 or A100) 4, not 8.
TEST(RealWorldShapes, ADgxSystemsNameGivesItsGpusPerNode) {
    const auto perNode = [](const char* folder) {
        return readPathHints(fs::path("/data") / folder / "result_0.txt", "/data").gpusPerNode;
    };
    EXPECT_EQ(perNode("dgx1_n4_ngc19.05_mxnet"), 8);
    EXPECT_EQ(perNode("dgxa100_ngc21.05_pytorch"), 8);
    EXPECT_EQ(perNode("dgx2h_n32_ngc19.05_mxnet"), 16);
    EXPECT_EQ(perNode("dgxstation_ngc19.05_pytorch"), 4);
    EXPECT_EQ(perNode("dgxstationa100_ngc21.05_pytorch"), 4);
}

TEST(RealWorldShapes, DisagreementIsSaid) {
    TempDir dir;
    writeFile(dir / "8xV100/r50_b128_fp32_1.log",
              dllPytorchLog(8, 296, 1, 40, [](int k) { return 2000.0 + k; }));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.batchPerDevice, 296);
    EXPECT_EQ(scan.logs[0].key.origins.batch, KeySource::Log);
    EXPECT_EQ(scan.logs[0].key.repeat, 1);
    ASSERT_EQ(scan.warnings.size(), 1u);
    const std::string w = scan.warnings[0].text();
    EXPECT_NE(w.find("296"), std::string::npos) << w;
    EXPECT_NE(w.find("128"), std::string::npos) << w;
    EXPECT_NE(w.find("the log's is used"), std::string::npos) << w;
}

// Nobody states the batch: "?" with the reason; the run counts, no speedup is made of it.
TEST(RealWorldShapes, UnknownBatchIsAQuestionMark) {
    TempDir dir;
    writeFile(dir / "bert.log", gluonnlpLog(
                                    "0,1", 40, [](int k) { return 100000.0 + k; }, false));
    const Summary s = summarizeDirectory(dir.path(), formatDefaults(), SummaryOptions{});
    ASSERT_EQ(s.runs.size(), 1u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Complete);
    EXPECT_EQ(s.runs[0].key.batchPerDevice, 0);
    EXPECT_EQ(batchText(s.runs[0].key), "?");
    EXPECT_EQ(s.runs[0].key.origins.batch, KeySource::Unknown);
    const auto& d = s.runs[0].key.origins.details;
    EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](const std::string& t) {
        return t.rfind("batch ?: the log states no batch size", 0) == 0;
    }));
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_TRUE(s.cases[0].median);
    EXPECT_FALSE(s.cases[0].speedup);
    EXPECT_NE(s.cases[0].speedupNote.find("batch size unknown"), std::string::npos);
}

// A scaleview.json beside logs that do not say their GPUs: per glob.
TEST(RealWorldShapes, SidecarFillsWhatTheLogDoesNotSay) {
    TempDir dir;
    std::string log = gluoncvLog(8, 128, 30, [](int k) { return 1000.0 + k; });
    log.replace(log.find("num_gpus=8, "), 12, "");
    writeFile(dir / "a/run.txt", log);
    writeFile(dir / "a/scaleview.json",
              R"({"model": "rn50-custom", "files": {"*.txt": {"topology": "2n8g", "repeat": 4}}})");
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunKey& k = scan.logs[0].key;
    EXPECT_EQ(k.topology, (Topology{2, 8}));
    EXPECT_EQ(k.origins.topology, KeySource::Sidecar);
    EXPECT_EQ(k.repeat, 4);
    EXPECT_EQ(k.model, "r50");      // the log's model (resnet50_v1b) wins over the sidecar's
    EXPECT_EQ(scan.otherFiles, 1u); // the sidecar itself
}

// A single file that is not a log: a clear error naming it.
TEST(RealWorldShapes, SingleNonLogFileIsAnError) {
    TempDir dir;
    writeFile(dir / "notes.txt", "hello\n");
    const ScanResult scan = scanLogDirectory(dir / "notes.txt");
    ASSERT_TRUE(scan.error);
    EXPECT_NE(scan.error->find("notes.txt"), std::string::npos);
    EXPECT_NE(scan.error->find("not a throughput log"), std::string::npos);
}

// The parameter dumps, line by line.
TEST(RunFacts, ParameterDumps) {
    const RunFacts a = readRunFacts(
        "DLL 2020 - PARAMETER arch : resnet50  batch_size : 296  amp : False  world_size : 8 \n");
    ASSERT_TRUE(a.batch && a.gpus && a.precision && a.model);
    EXPECT_EQ(a.batch->value, "296");
    EXPECT_EQ(a.gpus->value, "8");
    EXPECT_EQ(a.precision->value, "fp32");
    EXPECT_EQ(a.model->value, "resnet50");
    EXPECT_EQ(a.batch->line, 1);
    const RunFacts b = readRunFacts("[1,0]<stderr>:Namespace(batch_size=208, dtype='float16', "
                                    "gpus='0')\n[1,15]<stdout>:hello\n");
    ASSERT_TRUE(b.gpus && b.precision);
    EXPECT_EQ(b.gpus->value, "16");
    EXPECT_EQ(b.precision->value, "fp16");
    const RunFacts c = readRunFacts("python train.py --batch_size=64 --num_gpus=4\n");
    ASSERT_TRUE(c.batch && c.gpus);
    EXPECT_EQ(c.batch->value, "64");
    EXPECT_EQ(c.gpus->value, "4");
    EXPECT_FALSE(readRunFacts("nothing here\n").batch);
}

// An explicit window counts reports: W..I-1.
TEST(RealWorldShapes, ExplicitWindowCountsReports) {
    TempDir dir;
    writeFile(dir / "x.out", dllTfLog(8, 256, 100, [](int k) { return 1000.0 + k; }));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunResult r = loadRun(scan.logs[0], windowOf(10, 21));
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_DOUBLE_EQ(*r.timeThroughput, 1015.0); // median of 1010..1020
    const RunResult d = loadRun(scan.logs[0], formatDefaults());
    EXPECT_DOUBLE_EQ(*d.timeThroughput, 1054.5); // median of 1010..1099
}

// Issue 37 item 7: a log that names no model takes it from a word of its path
// (bert_base_pretrain.log is BERT's), never from part of a word.
TEST(RealWorldShapes, AModelANameSpellsOutIsTheRunsWhenTheLogNamesNone) {
    const auto model = [](const char* path) {
        return readPathHints(fs::path("/data") / path, "/data").model;
    };
    EXPECT_EQ(model("gluonnlp/bert_base_pretrain.log"), "bert");
    EXPECT_EQ(model("bert/train.log"), "bert");
    EXPECT_EQ(model("PyTorch_resnet50_FP32/run.txt"), "resnet50");
    EXPECT_FALSE(model("roberta_large/train.log"));
    EXPECT_FALSE(model("berta/train.log"));
    TempDir dir;
    // As gluon-nlp's real bert_base_pretrain.log: its Namespace names no model.
    std::string log = gluonnlpLog(
        "0,1", 40, [](int k) { return 100000.0 + k; }, false);
    const std::string named = ", model='bert_12_768_12'";
    log.erase(log.find(named), named.size());
    writeFile(dir / "bert_base_pretrain.log", log);
    const Summary s = summarizeDirectory(dir.path(), formatDefaults(), SummaryOptions{});
    ASSERT_EQ(s.runs.size(), 1u);
    EXPECT_EQ(s.runs[0].key.model, "bert");
    EXPECT_EQ(s.runs[0].key.origins.model, KeySource::Path);
}

// Issue 35 item 5: an MLPerf MXNet log whose first Speed line comes after 1.3 MiB of ":::MLL"
// preamble (a real one has 2,800 lines of it) was "not a throughput log"; the rest of the file
// is read past its head, and the run says where its throughput lines start.
TEST(RealWorldShapes, ThroughputLinesPastALongPreambleAreRead) {
    const std::string log = mlperfMxnetLog(4, 64, 30, [](int k) { return 1200.0 + k; });
    const auto cut = log.find("[1,0]<stderr>:2019-06-18 09:10:44,633 Node[0] Epoch[");
    ASSERT_NE(cut, std::string::npos);
    std::string preamble;
    for (int i = 0; preamble.size() < (std::size_t{13} << 17); ++i)
        preamble += ":::MLL 1560848966.700 opt_learning_rate_warmup_steps: {\"value\": " +
                    std::to_string(i) +
                    ", \"metadata\": {\"file\": \"train.py\", \"lineno\": 88}}\n";
    TempDir dir;
    writeFile(dir / "result_0.txt", log.substr(0, cut) + preamble + log.substr(cut));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u) << scan.summaryLine();
    EXPECT_EQ(scan.logs[0].key.format, "mxnet-speedometer");
    EXPECT_NE(scan.logs[0].detection.find("past its first 1 MiB"), std::string::npos)
        << scan.logs[0].detection;
    const Summary s = summarizeDirectory(dir.path(), formatDefaults(), SummaryOptions{});
    ASSERT_EQ(s.runs.size(), 1u);
    ASSERT_TRUE(s.runs[0].timeThroughput) << s.runs[0].reason;
    // The figure the same log gives without its preamble: the median past the first tenth.
    TempDir plain;
    writeFile(plain / "result_0.txt", log);
    const Summary p = summarizeDirectory(plain.path(), formatDefaults(), SummaryOptions{});
    ASSERT_EQ(p.runs.size(), 1u);
    ASSERT_TRUE(p.runs[0].timeThroughput);
    EXPECT_DOUBLE_EQ(*s.runs[0].timeThroughput, *p.runs[0].timeThroughput);
    EXPECT_DOUBLE_EQ(*s.runs[0].timeThroughput, 1216.0);
    EXPECT_EQ(s.runs[0].key.topology.ranks(), 4);

    // The same preamble with no throughput line after it: not a log, and the reason says how
    // far it was read.
    writeFile(dir / "result_0.txt", log.substr(0, cut) + preamble);
    const ScanResult none = scanLogDirectory(dir.path());
    EXPECT_TRUE(none.logs.empty());
}

// Reading past the head is for a log's preamble. A 16 MB file of prose with numbers and paths
// (a documentation or data folder) was read line by line to 64 MiB: 18 times grep's time on
// bench/run_bench.py --text-only. Its head reads as no log's, so only its head is read, and the
// reason says so; the same prose behind a log's 1 MiB preamble is still read to its Speed lines.
TEST(RealWorldShapes, ProseIsNotReadPastItsHead) {
    TempDir dir;
    std::string prose;
    for (int i = 0; prose.size() < (std::size_t{3} << 20); ++i)
        prose += "the model batch throughput of the data node see section " + std::to_string(i) +
                 ".25 /srv/data/" + std::to_string(i % 977) + "\n";
    const std::string speed = "2019-05-23 18:26:05,873 Node[0] Epoch[0] Batch [0-20]\tSpeed: "
                              "5623.38 samples/sec\taccuracy=0.002747\n";
    std::string speeds;
    for (int k = 0; k < 40; ++k)
        speeds += speed;
    writeFile(dir / "prose" / "notes.txt", prose);
    const ScanResult scan = scanLogDirectory(dir / "prose");
    EXPECT_TRUE(scan.logs.empty());
    const ScanResult alone = scanLogFiles({dir / "prose" / "notes.txt"});
    ASSERT_TRUE(alone.error);
    EXPECT_NE(alone.error->find("its first 1 MiB do not read as a log's, so no further"),
              std::string::npos)
        << *alone.error;
    std::string preamble;
    for (int i = 0; preamble.size() < (std::size_t{3} << 19); ++i)
        preamble += "2019-05-23 18:20:" + std::to_string(10 + i % 50) +
                    " INFO gathering sys log on node " + std::to_string(i) + "\n";
    writeFile(dir / "log" / "result_0.txt", preamble + prose + speeds);
    const ScanResult log = scanLogDirectory(dir / "log");
    ASSERT_EQ(log.logs.size(), 1u);
    EXPECT_NE(log.logs[0].detection.find("past its first 1 MiB"), std::string::npos)
        << log.logs[0].detection;
}
