// Issue 35, item 1 and 4: the general throughput reader. Logs in the shapes real runs commit to
// public repositories, which no family of ScaleView's knows (docs/reading-logs.md names each
// source), are generated here (none is committed): each must be read by the general reader, in
// its own unit, with the median of its reports past the first tenth, and say how. Documents,
// scripts and configs that quote the same lines, and a log with one stray rate line, are no run.

#include "core/formats/formatregistry.h"
#include "core/formats/generalreader.h"
#include "core/formats/realworld.h"
#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/load/runlog.h"
#include "core/load/sidecars.h"
#include "core/parse/ratephrase.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace sv;
using namespace sv::test;

namespace {

std::string num(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Report k: a slow first report, then a steady rate with a ripple.
double rateAt(double base, int k) {
    return k == 0 ? base / 8 : base * (1.0 + 0.004 * ((k * 7) % 5 - 2));
}

double medianPastFirstTenth(std::vector<double> v) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(
                                       v.size() >= 2 ? 1 : 0, v.size() / 10)));
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

struct Read {
    ScanResult scan;
    RunResult run;
};

Read readOne(const std::string& name, const std::string& text) {
    TempDir dir;
    writeFile(dir / "job" / name, text);
    Read r;
    r.scan = scanLogDirectory(dir.path());
    if (r.scan.logs.size() == 1) {
        LoadOptions o;
        o.measure.formatDefaults = true;
        r.run = loadRun(r.scan.logs[0], o);
    }
    return r;
}

std::string notes(const RunResult& r) {
    std::string s;
    for (const auto& n : r.notes)
        s += n + "\n";
    return s;
}

void expectFigure(const Read& r, double expected, std::string_view unit) {
    ASSERT_EQ(r.scan.logs.size(), 1u) << r.scan.summaryLine();
    const LogFormat& f = logFormatOf(r.scan.logs[0].key.format);
    EXPECT_TRUE(isGeneralFormat(f)) << f.id;
    EXPECT_EQ(f.unit, unit);
    ASSERT_EQ(r.run.status, RunStatus::Complete) << r.run.reason;
    ASSERT_TRUE(r.run.timeThroughput);
    EXPECT_LE(std::fabs(*r.run.timeThroughput - expected) / expected, 1e-9)
        << *r.run.timeThroughput << " vs " << expected << "\n"
        << notes(r.run);
    EXPECT_NE(notes(r.run).find("read by the general reader"), std::string::npos) << notes(r.run);
}

} // namespace

TEST(RatePhrase, NumbersJoinedToThroughputUnits) {
    struct Case {
        std::string line;
        double value;
        std::string token, unit;
    };
    const Case cases[] = {
        {"Epoch[3] Speed: 3203.4 samples/sec", 3203.4, "samples/sec", "samples/s"},
        {"step 10 speed: 812.5 [imgs/sec]", 812.5, "imgs/sec", "images/s"},
        {"| epoch 001 | loss 9.1 | wps 26613 | ups 0", 26613, "wps", "words/s"},
        {"epoch 1: ... wps=26613, ups=3", 26613, "wps", "words/s"},
        {"| batches 20 / 1681 | ms/batch 767.5 | tok/s   80050 | loss 12.55", 80050, "tok/s",
         "tokens/s"},
        {"{'training_steps': 20, 'seq/s': 24193.01, 'global_steps': 13}", 24193.01, "seq/s",
         "sequences/s"},
        {"{\"throughput\": 351.86, \"loss\": 2.1}", 351.86, "throughput", "samples/s"},
        {"train_samples_per_second: 12.5", 12.5, "train_samples_per_second", "samples/s"},
        {"[step 249] throughput=122.0K tks/s", 122000.0, "tks/s", "tokens/s"},
        {"iter 5 1.2M tokens/s", 1.2e6, "tokens/s", "tokens/s"},
        {"Throughput is 538913.12 record / second.", 538913.12, "record / second", "records/s"},
        {"train_iter_items/sec: 31252.59", 31252.59, "train_iter_items/sec", "items/s"},
        {"DLL - () avg_img/sec : 6919.28 images/s", 6919.28, "images/s", "images/s"},
        {"ips: 1234.5 samples/sec", 1234.5, "samples/sec", "samples/s"},
        {"rate 2.922e+10 samples/s", 2.922e10, "samples/s", "samples/s"},
    };
    for (const auto& c : cases) {
        const auto p = findRatePhrase(c.line);
        ASSERT_TRUE(p) << c.line;
        EXPECT_EQ(p->kind, RatePhrase::Kind::Rate) << c.line;
        EXPECT_DOUBLE_EQ(p->value, c.value) << c.line;
        EXPECT_EQ(p->token, c.token) << c.line;
        EXPECT_EQ(p->unit, c.unit) << c.line;
    }
}

TEST(RatePhrase, StepTimesAndStepRates) {
    auto p = findRatePhrase(" iteration 10/ 171661 | elapsed time per iteration (ms): 613.8 |");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->kind, RatePhrase::Kind::StepSeconds);
    EXPECT_DOUBLE_EQ(p->value, 0.6138);
    p = findRatePhrase("step:1000/6200 train_loss:3.8490 train_time:214465ms step_avg:216.63ms");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->kind, RatePhrase::Kind::StepSeconds);
    EXPECT_DOUBLE_EQ(p->value, 0.21663);
    p = findRatePhrase("Iteration:  51%|#####     | 48/95 [00:30<00:25, 1.96it/s]");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->kind, RatePhrase::Kind::StepRate);
    EXPECT_DOUBLE_EQ(p->value, 1.96);
    p = findRatePhrase("eta: 0:10:47  iter: 40  loss: 6.8133 (6.8196)  time: 1.6673 (1.9399)");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->kind, RatePhrase::Kind::StepSeconds);
    EXPECT_DOUBLE_EQ(p->value, 1.6673);
    // A rate on the line wins over a step time before it.
    p = findRatePhrase("| ms/batch 767.5 | tok/s 80050 |");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->token, "tok/s");
}

TEST(RatePhrase, NotRates) {
    for (std::string_view line :
         {"loss 2.31 lr 0.001", "resnet50 fp16 128", "epoch 3/90", "saved to /data/s/imgs/1.png",
          "batch_size: 256", "http://example.org/samples/s3", "fp16 8 GPUs",
          "the throughput 1234.5 of the model"})
        EXPECT_FALSE(findRatePhrase(line)) << line;
}

TEST(RatePhrase, TemplatesMaskNumbersPaddingAndColours) {
    EXPECT_EQ(maskNumbers("| tok/s   80050 | loss 12.55"),
              maskNumbers("| tok/s  180050 | loss 9.1"));
    EXPECT_EQ(maskNumbers("\x1b[32mstep 10 1.2e+03 samples/s\x1b[0m"),
              maskNumbers("step 999 7.5e+02 samples/s"));
    EXPECT_NE(maskNumbers("train 10 samples/s"), maskNumbers("eval 10 samples/s"));
}

// fairseq (PerfKitBenchmarker's roberta_mmlm_output.txt): per-update lines with wps=, a
// validation line, an epoch summary.
TEST(GeneralReader, FairseqWps) {
    std::string text = "| distributed init (rank 0): tcp://localhost:16099\n"
                       "Namespace(arch='roberta_large', fp16=True, max_tokens=4400)\n";
    std::vector<double> v;
    for (int k = 0; k < 40; ++k) {
        const double r = std::round(rateAt(26600, k));
        v.push_back(r);
        text += "| epoch 001:    " + std::to_string(10 * (k + 1)) +
                " / 11 loss=9.1, nll_loss=8.2, ppl=300.1, wps=" + num(r, 0) +
                ", ups=0, wpb=59562.667, bsz=128.000, num_updates=" + std::to_string(k + 1) +
                ", lr=1e-05, gnorm=2.1, clip=1.000, oom=0.000\n";
    }
    text += "| epoch 001 | valid on 'valid' subset | loss 7.1 | wps 91234 | wpb 1200\n";
    const Read r = readOne("train.log", text);
    expectFigure(r, medianPastFirstTenth(v), "words/s");
    EXPECT_NE(notes(r.run).find("`wps`"), std::string::npos) << notes(r.run);
}

// Megatron-LM: the step time in ms with the global batch stated; the throughput is their ratio.
TEST(GeneralReader, MegatronStepTimeWithGlobalBatch) {
    std::string text = "using world size: 8, data-parallel-size: 8\n"
                       "  global_batch_size ............................... 256\n";
    std::vector<double> v;
    for (int k = 0; k < 30; ++k) {
        const double ms = k == 0 ? 1001.5 : 488.0 + (k % 3);
        v.push_back(256.0 / (ms / 1000.0));
        text += " iteration       " + std::to_string(10 * (k + 1)) +
                "/  171661 | consumed samples:  " + std::to_string(2560 * (k + 1)) +
                " | elapsed time per iteration (ms): " + num(ms, 1) +
                " | learning rate: 9.339E-08 | global batch size:   256 | lm loss: 1.07E+01 |\n";
    }
    const Read r = readOne("megatron.log", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("global batch"), std::string::npos) << notes(r.run);
}

// MLPerf v1.x-v3.x: the figure is a :::MLLOG record, key "throughput" or tracked_stats, often
// both for one report (Dell's maskrcnn), behind srun's rank label: each report counts once.
TEST(GeneralReader, MlperfThroughputRecordsCountOnce) {
    std::string text = "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": 1, \"event_type\": "
                       "\"POINT_IN_TIME\", \"key\": \"global_batch_size\", \"value\": 160}\n";
    std::vector<double> v;
    for (int k = 0; k < 25; ++k) {
        const double r = rateAt(322.0, k);
        v.push_back(r);
        text += "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(1000 + k) +
                ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"tracked_stats\", \"value\": "
                "{\"time\": 0.13, \"loss\": 2.3, \"throughput\": " +
                num(r, 6) +
                "}, \"metadata\": {\"file\": \"trainer.py\", \"lineno\": 488, "
                "\"step\": " +
                std::to_string(k) + "}}\n";
        text += "0: :::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(1000 + k) +
                ", \"event_type\": \"POINT_IN_TIME\", \"key\": \"throughput\", \"value\": " +
                num(r, 6) + ", \"metadata\": {\"file\": \"trainer.py\", \"lineno\": 489}}\n";
    }
    const Read r = readOne("result_0.txt", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("25 reports"), std::string::npos) << notes(r.run);
    EXPECT_NE(notes(r.run).find("MLPerf"), std::string::npos) << notes(r.run);
}

// BigDL's per-epoch summaries, with the validation's rate in other words beside them.
TEST(GeneralReader, PerEpochSummariesWithoutTheValidation) {
    std::string text = "INFO  DistriOptimizer$:  batch size=98304 parallelism=28\n";
    std::vector<double> v;
    for (int k = 0; k < 20; ++k) {
        const double r = rateAt(623000, k);
        v.push_back(r);
        text += "2018-11-15 11:10:46 INFO  NCFOptimizer2$:251 - [Epoch " + std::to_string(k + 1) +
                " 99385344/99385344][Iteration " + std::to_string(1012 * (k + 1)) +
                "][Wall Clock 184.4s] loss is 0.129, training cost 184.4s. Throughput is " +
                num(r, 4) + " record / second.\n";
        text += "2018-11-15 11:10:50 INFO  NCFOptimizer2$:300 - [Validation] 6040 in 0.1s. "
                "Throughput is 2870480.19 samples / sec\n";
    }
    const Read r = readOne("result_0.txt", text);
    expectFigure(r, medianPastFirstTenth(v), "records/s");
}

// The Horovod synthetic benchmark's closing line is the run's one report; its per-iteration
// lines are per GPU and the closing one says the whole job.
TEST(GeneralReader, ASingleClosingSummaryIsOneReport) {
    std::string text = "Model: ResNet50\nBatch size: 32\nNumber of GPUs: 8\n";
    text += "Running benchmark...\nIter #0: 301.2 img/sec per GPU\nIter #1: 302.5 img/sec per "
            "GPU\nImg/sec per GPU: 301.9 +-1.2\nTotal img/sec on 8 GPU(s): 2415.2 +-9.6\n";
    const Read r = readOne("horovod.out", text);
    ASSERT_EQ(r.scan.logs.size(), 1u);
    ASSERT_EQ(r.run.status, RunStatus::Complete) << r.run.reason;
    // Two per-GPU reports repeat in one template: they are the series; per device, said.
    EXPECT_NE(notes(r.run).find("per device"), std::string::npos) << notes(r.run);

    const Read closing = readOne("squad.out", "Iteration: 100%|####| 53/53 [00:27<00:00,  1.96it/s]"
                                              "\nreal 5m3s\n training throughput: 334.517\n");
    expectFigure(closing, 334.517, "samples/s");
    EXPECT_NE(notes(closing.run).find("single closing summary"), std::string::npos);
}

// A README that quotes DLLogger lines in a code block, a training script that prints its
// throughput, a YAML config, CSV and Markdown tables, and a log with one stray rate line: none
// is a run.
TEST(GeneralReader, DocumentsScriptsConfigsAndStrayLinesAreNoRun) {
    TempDir dir;
    std::string dll;
    for (int k = 1; k <= 30; ++k)
        dll += "DLL 2020-09-15 14:29:13 - Epoch: 0 Iteration: " + std::to_string(k) +
               "  train.loss : 7.09  train.total_ips : 267.44 img/s\n";
    writeFile(dir / "docs" / "README.md", "# ResNet-50\n\n```\n" + dll + "```\n");
    writeFile(dir / "docs" / "results.rst", dll);
    writeFile(dir / "scripts" / "train.py",
              "for step in range(100):\n    print(f'step {step} {rate:.1f} samples/sec')\n" + dll);
    writeFile(dir / "scripts" / "run.sh", "echo 'Speed: 1234 samples/sec'\n" + dll);
    writeFile(dir / "configs" / "gpu.yaml", "num_gpus: 1\nbatch_size: 128\nthroughput: 1234\n");
    writeFile(dir / "results" / "table.csv", "gpus,samples/s\n1,1234\n8,9100\n");
    writeFile(dir / "results" / "summary.md", "| gpus | samples/s |\n|---|---|\n| 1 | 1234 |\n");
    writeFile(dir / "notes.txt", "We ran it once and saw 1234 samples/sec, more or less.\n"
                                 "Next time with fp16.\n");
    // A plain text file whose only rate lines sit in a fenced block.
    writeFile(dir / "NOTES", "Quoted:\n```\n" + dll + "```\n");
    const ScanResult scan = scanLogDirectory(dir.path());
    EXPECT_TRUE(scan.logs.empty()) << scan.logs.size() << " " << scan.logs.front().display;
    EXPECT_EQ(scan.otherFiles, 9u) << scan.summaryLine();
}

// Evaluation rates are never the run's, even where they repeat more than the training's.
TEST(GeneralReader, EvaluationRatesAreNotTheRun) {
    std::string text;
    for (int k = 0; k < 30; ++k)
        text += "step " + std::to_string(k) + " eval_samples_per_second: 900.5\n";
    const Read r = readOne("eval.log", text);
    EXPECT_TRUE(r.scan.logs.empty());
}

// Megatron-DeepSpeed prints DeepSpeed's timer (samples/s) beside Megatron's iteration line. The
// log's own timestamps (10 steps of 256 in 4.85 s: 528/s) agree with Megatron's 484.7 ms per
// step, not with the timer's 428 samples/s: the step time with its global batch is the run's.
TEST(GeneralReader, MegatronStepLinesBeatADeepSpeedTimerInTheSameLog) {
    std::string text = "using world size: 8, data-parallel-size: 8\n"
                       "  global_batch_size ............................... 256\n"
                       "  micro_batch_size ................................ 4\n";
    std::vector<double> v;
    for (int k = 0; k < 30; ++k) {
        const double ms = k == 0 ? 1001.5 : 484.0 + (k % 4) * 0.3;
        v.push_back(256.0 / (ms / 1000.0));
        text += "[2022-10-31 10:59:51,434] [INFO] [logging.py:68:log_dist] [Rank 0] step=" +
                std::to_string(10 * (k + 1)) + ", skipped=0, lr=[9.3e-08, 9.3e-08]\n";
        text += "[2022-10-31 10:59:51,436] [INFO] [timer.py:198:stop] 0/" +
                std::to_string(10 * (k + 1)) +
                ", RunningAvgSamplesPerSec=" + num(428.07 - k * 0.1, 4) +
                ", CurrSamplesPerSec=" + num(431.95 - k * 0.1, 4) +
                ", MemAllocated=1.64GB, MaxMemAllocated=7.01GB\n";
        text += " iteration       " + std::to_string(10 * (k + 1)) +
                "/  171661 | consumed samples:  " + std::to_string(2560 * (k + 1)) +
                " | elapsed time per iteration (ms): " + num(ms, 1) +
                " | learning rate: 9.339E-08 | global batch size:   256 |reserve_length:   256 | "
                "lm loss: 1.078335E+01 |\n";
        text +=
            "time (ms) | forward-compute: 260.12 | backward-compute: 191.56 | optimizer: 14.15\n";
    }
    const Read r = readOne("megatron-deepspeed.log", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("`elapsed time per iteration (ms)`"), std::string::npos)
        << notes(r.run);
    EXPECT_NE(notes(r.run).find("global_batch_size 256"), std::string::npos) << notes(r.run);
}

// maskrcnn-benchmark: seconds per step ("time: 1.6673 (1.9399)", the window's median and the
// average since the start), the images of a step over all GPUs only in the Namespace's opts;
// the config dump's TEST IMS_PER_BATCH: 1 is not it.
TEST(GeneralReader, MaskrcnnStepTimeWithItsSolverBatchInTheOpts) {
    std::string text =
        "2020-03-09 03:23:05,056 maskrcnn_benchmark INFO: Using 8 GPUs\n"
        "2020-03-09 03:23:05,056 maskrcnn_benchmark INFO: Namespace(config_file='/workspace/"
        "e2e_mask_rcnn_R_50_FPN_1x.yaml', distributed=True, local_rank=0, opts=['SOLVER.IMS_PER_"
        "BATCH', '160', 'DTYPE', 'float16', 'SOLVER.MAX_ITER', '400'], skip_test=True)\n"
        "TEST:\n  IMS_PER_BATCH: 1\nSOLVER:\n  IMS_PER_BATCH: 160\n";
    std::vector<double> v;
    for (int k = 0; k < 20; ++k) {
        const double s = k == 0 ? 1.6673 : 1.70 + (k % 3) * 0.01;
        v.push_back(160.0 / s);
        text += "2020-03-09 03:24:16,428 maskrcnn_benchmark.trainer INFO: eta: 0:12:17  iter: " +
                std::to_string(20 * (k + 1)) +
                "  loss: 6.8087 (6.8283)  loss_box_reg: 0.0083 (0.0086)  time: " + num(s, 4) +
                " (1.9399)  data: 0.0603 (0.2886)  lr: 0.000000  max mem: 23527\n";
    }
    const Read r = readOne("maskrcnn.log", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("SOLVER.IMS_PER_BATCH 160"), std::string::npos) << notes(r.run);
    EXPECT_EQ(r.scan.logs[0].key.topology.ranks(), 8);
}

// DINO's MetricLogger prints seconds per step and neither its batch nor its GPUs: no figure,
// and the reason names both (or the global batch that would stand for them).
TEST(GeneralReader, AStepTimeLogWithoutBatchOrGpusNamesWhatIsMissing) {
    std::string text;
    for (int k = 0; k < 30; ++k)
        text += "Epoch: [99/100]  [" + std::to_string(10 * k) +
                "/2502]  eta: 0:40:23  loss: 2.039744 (1.972398)  lr: 0.000001 (0.000001)  time: " +
                num(0.5 + (k % 3) * 0.01, 6) + "  data: 0.583517  max mem: 11665\n";
    const Read r = readOne("dino.txt", text);
    ASSERT_EQ(r.scan.logs.size(), 1u) << r.scan.summaryLine();
    EXPECT_EQ(r.run.status, RunStatus::Unusable);
    EXPECT_FALSE(r.run.timeThroughput);
    EXPECT_NE(r.run.reason.find("needs the batch size per device and the GPU count (or the "
                                "global batch size)"),
              std::string::npos)
        << r.run.reason;
}

// modded-nanogpt logs start with their own script, whose f-strings hold "step_avg:" and whose
// hyperparameters state the batch across all devices as a product ("8*64"); the reports are the
// cumulative step_avg in ms, "nan" before timing starts.
TEST(GeneralReader, AScriptsBatchAcrossAllDevicesOverItsStepAverage) {
    std::string text =
        "import os\n@dataclass\nclass Hyperparameters:\n"
        "    batch_size : int = 8*64 # batch size, in sequences, across all devices\n"
        "    device_batch_size : int = 64 # batch size, in sequences, per device\n"
        "    print(f\"step:{step+1}/{args.num_iterations} train_loss:{train_loss.item():.4f} "
        "train_time:{approx_time:.0f}ms step_avg:{approx_time/timed_steps:.2f}ms\")\n"
        "step:1/6200 train_loss:10.9184 train_time:74701ms step_avg:nanms\n";
    std::vector<double> v;
    for (int k = 0; k < 40; ++k) {
        const double ms = 216.0 + (k % 5) * 0.1;
        v.push_back(512.0 / (ms / 1000.0));
        text += "step:" + std::to_string(k + 11) + "/6200 train_loss:3.4469 train_time:" +
                std::to_string(static_cast<int>(ms * (k + 1))) + "ms step_avg:" + num(ms, 2) +
                "ms\n";
    }
    const Read r = readOne("eb5659d0.txt", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("batch_size 8*64 (across all devices)"), std::string::npos)
        << notes(r.run);
    // The per-device line alone is no global batch.
    std::string perDevice = text;
    perDevice.erase(perDevice.find("    batch_size : int"),
                    perDevice.find("    device_batch") - perDevice.find("    batch_size : int"));
    const Read alone = readOne("eb5659d0.txt", perDevice);
    ASSERT_EQ(alone.scan.logs.size(), 1u);
    EXPECT_FALSE(alone.run.timeThroughput);
}

// A trainer's train_results.json is one figure (train_samples_per_second), not a run's reports:
// refused, and the reason says it is a results file, not a document or a configuration.
TEST(GeneralReader, AResultsJsonIsRefusedAsAResultsFile) {
    TempDir dir;
    writeFile(dir / "train_results.json",
              "{\n    \"epoch\": 2.9965936739659367,\n    \"train_runtime\": 5980.6912,\n    "
              "\"train_samples_per_second\": 14.427,\n    \"train_steps_per_second\": 0.128\n}");
    Sidecars sidecars(dir.path());
    std::vector<Warning> warnings;
    std::string why;
    EXPECT_FALSE(sniffLogFile(dir / "train_results.json", "train_results.json", dir.path(),
                              sidecars, warnings, nullptr, &why));
    EXPECT_NE(why.find("a configuration or results file (.json)"), std::string::npos) << why;
    EXPECT_NE(why.find("one figure"), std::string::npos) << why;
    writeFile(dir / "README.md", "Speed: 1234 samples/sec\n");
    EXPECT_FALSE(sniffLogFile(dir / "README.md", "README.md", dir.path(), sidecars, warnings,
                              nullptr, &why));
    EXPECT_NE(why.find("a document, source or configuration file (.md)"), std::string::npos) << why;
}

// MLPerf v0.5's NCF: each epoch's tqdm bars on one physical line joined by '\r' (the terminal
// shows the last), steps per second; the batch of a step over all 8 GPUs is MLPerf's
// input_batch_size (the command line's -b says the same, but not whether per GPU or in all).
TEST(GeneralReader, TqdmBarsJoinedByCarriageReturnsWithMlperfsBatch) {
    std::string text =
        "+ python -m torch.distributed.launch --nproc_per_node=8 ncf.py /data/ml-20m -l 0.0045 "
        "-b 1048576 -b1 0.25 --valid-batch-size 1048576 --fp16\n"
        ":::MLPv0.5.0 ncf 1541731861.629229784 (ncf.py:312) input_batch_size: 1048576\n";
    std::vector<double> v;
    for (int epoch = 0; epoch < 15; ++epoch) {
        const double last = epoch == 0 ? 75.39 : 110.0 + (epoch % 4);
        v.push_back(last * 1048576.0);
        text += "\r  0%|          | 0/95 [00:00<?, ?it/s]\r 13%|\xe2\x96\x88\xe2\x96\x8e       "
                " | 12/95 [00:00<00:03, 22.30it/s]\r 88%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x8a | 84/95 "
                "[00:01<00:00, 72.14it/s]\r100%|\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88"
                "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88| 95/95 "
                "[00:01<00:00, " +
                num(last, 2) + "it/s]\n";
        text += ":::MLPv0.5.0 ncf 1541731866.786517859 (ncf.py:438) eval_start\n";
        text += "Epoch " + std::to_string(epoch) +
                ": HR@10 = 0.4302, NDCG@10 = 0.2439, train_time = 1.02, val_time = 0.29\n";
    }
    const Read r = readOne("result_0.txt", text);
    expectFigure(r, medianPastFirstTenth(v), "samples/s");
    EXPECT_NE(notes(r.run).find("the global batch input_batch_size 1048576"), std::string::npos)
        << notes(r.run);
}

// Horovod's synthetic benchmark on 8 GPUs: rank 0 prints one GPU's rate each step ("Iter #3: 245.3
// img/sec per GPU") and states the GPUs. The job's figure is the rate times 8 (its own closing
// "Total img/sec on 8 GPU(s)" agrees), never one GPU's 245 as the 8-GPU case's throughput; and
// its Runs trace is drawn at that figure. Where no GPU count is stated there is no figure, and the
// reason says why.
TEST(GeneralReader, PerGpuRatesAreTimesTheGpusTheLogStates) {
    auto log = [](bool statesGpus) {
        std::string text = "[1,0]<stdout>:Model: ResNet50\n[1,0]<stdout>:Batch size: 32\n";
        if (statesGpus) text += "[1,0]<stdout>:Number of GPUs: 8\n";
        text += "[1,0]<stdout>:Running benchmark...\n";
        std::vector<double> v;
        for (int k = 0; k < 30; ++k) {
            const double r = std::round(rateAt(245.0, k) * 10) / 10;
            v.push_back(r);
            text += "[1,0]<stdout>:Iter #" + std::to_string(k) + ": " + num(r, 1) +
                    " img/sec per GPU\n";
        }
        text += "[1,0]<stdout>:Img/sec per GPU: 245.1 +-1.2\n";
        if (statesGpus) text += "[1,0]<stdout>:Total img/sec on 8 GPU(s): 1960.9 +-9.6\n";
        return std::pair(text, medianPastFirstTenth(v));
    };
    const auto [eight, perGpu] = log(true);
    const Read r = readOne("synthetic_benchmark.log", eight);
    expectFigure(r, 8 * perGpu, "images/s");
    EXPECT_EQ(r.run.key.topology.ranks(), 8);
    // Its "Model: ResNet50" and "Batch size: 32" (per GPU, the benchmark's --batch-size).
    EXPECT_EQ(r.run.key.model, "r50");
    EXPECT_EQ(r.run.key.batchPerDevice, 32);
    EXPECT_NE(notes(r.run).find("one GPU's rate: the figure is it times the 8 GPUs"),
              std::string::npos)
        << notes(r.run);
    LoadOptions o;
    o.measure.formatDefaults = true;
    TempDir dir;
    writeFile(dir / "job" / "synthetic_benchmark.log", eight);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunLog runLog = readRunLog(scan.logs[0], o.measure);
    ASSERT_TRUE(runLog.trace && !runLog.trace->median.empty());
    EXPECT_GT(runLog.trace->median.back(), 1900.0); // the job's pace, not one GPU's 245

    // Without a GPU count, no figure: one GPU's 245 is never the job's (as a format file's
    // per_gpu values); the reason says what is missing and how to give it.
    const auto [unstated, onePerGpu] = log(false);
    const Read one = readOne("synthetic_benchmark.log", unstated);
    EXPECT_EQ(one.run.status, RunStatus::Unusable);
    EXPECT_FALSE(one.run.timeThroughput.has_value()) << onePerGpu;
    EXPECT_NE(one.run.reason.find("one GPU's rate (\"per GPU\", line 4)"), std::string::npos)
        << one.run.reason;
    EXPECT_NE(one.run.reason.find("Set batch, GPUs, precision"), std::string::npos);
}

// HuggingFace's Trainer written to a file: tqdm redraws its bar with '\r', so each stretch of
// bars between two logged lines ({'loss': ...}) is one physical line, read at its last bar (what
// a terminal shows), and the bars grow between them ("25%|██▌       |", "50%|█████     |"): one
// series all the same. The bar counts optimisation steps, each of the "Total train batch size (w.
// parallel, distributed & accumulation)" samples: the figure is steps/s times it. Without that
// line the reason says the lines give steps per second, not "seconds per step".
TEST(GeneralReader, HuggingFaceTqdmBarsJoinedByCarriageReturnsTimesTheTotalBatch) {
    auto log = [](bool statesTotal) {
        std::string text = "***** Running training *****\n  Num examples = 12800\n"
                           "  Num Epochs = 1\n  Instantaneous batch size per device = 16\n";
        if (statesTotal)
            text += "  Total train batch size (w. parallel, distributed & accumulation) = 64\n";
        text += "  Gradient Accumulation steps = 2\n  Total optimization steps = 200\n";
        std::vector<double> v;
        std::string bars;
        for (int step = 0; step <= 200; ++step) {
            const int pct = step / 2;
            std::string bar;
            for (int k = 0; k < pct / 10; ++k)
                bar += "\u2588";
            if (pct % 10 >= 5) bar += "\u258c";
            const std::size_t glyphs = static_cast<std::size_t>(pct / 10 + (pct % 10 >= 5));
            bar += std::string(10 - glyphs, ' ');
            const double rate = 1.5 + 0.01 * (step % 7);
            bars += (bars.empty() ? "" : "\r") + num(pct, 0) + "%|" + bar + "| " +
                    std::to_string(step) + "/200 [00:10<00:20, " +
                    (step ? num(rate, 2) + "it/s]" : std::string("?it/s]"));
            if (step % 20 == 0 && step > 0) {
                v.push_back(std::round(rate * 100) / 100 * 64);
                text += bars + "\n{'loss': 2.31, 'learning_rate': 4.5e-05, 'epoch': " +
                        num(step / 200.0, 2) + "}\n";
                bars.clear();
            }
        }
        text += "{'train_runtime': 130.5, 'train_samples_per_second': 98.1, "
                "'train_steps_per_second': 1.532, 'train_loss': 2.2, 'epoch': 1.0}\n";
        return std::pair(text, medianPastFirstTenth(v));
    };
    const auto [text, expected] = log(true);
    const Read r = readOne("train.log", text);
    expectFigure(r, expected, "samples/s");
    EXPECT_EQ(r.run.key.batchPerDevice, 16);
    EXPECT_NE(notes(r.run).find("(w. parallel, distributed & accumulation) 64"), std::string::npos)
        << notes(r.run);

    const Read unstated = readOne("train.log", log(false).first);
    ASSERT_EQ(unstated.scan.logs.size(), 1u) << unstated.scan.summaryLine();
    EXPECT_FALSE(unstated.run.timeThroughput.has_value());
    EXPECT_NE(unstated.run.reason.find("its lines give steps per second (it/s)"), std::string::npos)
        << unstated.run.reason;
}

// timm's train.py: "Time: 0.389s, 2631.57/s  (0.409s, 2503.67/s)", the job's samples per second
// (the batch times the world size over the step's seconds) after the step time, then the
// averages. No unit is printed: samples/s, said so. Its "Model resnet50 created" and "Process 0,
// total 8" give the model and the GPUs; its single-process line gives 1 GPU, and so 1 node.
TEST(GeneralReader, TimmsTrainLogIsTheJobsSamplesPerSecondAfterTheStepTime) {
    auto log = [](const std::string& size) {
        std::string text = size + "\nModel resnet50 created, param count:25557032\n";
        std::vector<double> v;
        for (int epoch = 0; epoch < 2; ++epoch) {
            for (int b = 0; b < 1251; b += 50) {
                const double t = 0.389 + 0.002 * (b % 3), rate = std::round(1024 / t * 100) / 100;
                v.push_back(rate);
                text += "Train: " + std::to_string(epoch) + " [" + std::to_string(b) + "/1251 (" +
                        std::to_string(b * 100 / 1251) +
                        "%)]  Loss: 6.912 (6.93)  "
                        "Time: " +
                        num(t, 3) + "s, " + num(rate, 2) + "/s  (" + num(t + 0.02, 3) + "s, " +
                        num(1024 / (t + 0.02), 2) + "/s)  LR: 1.000e-05  Data: 0.011 (0.025)\n";
            }
            text += "Test: [   0/48]  Time: 1.234 (1.234)  Loss:  6.8 (6.8)  Acc@1:  0.1 ( 0.1)\n";
        }
        return std::pair(text, medianPastFirstTenth(v));
    };
    const auto [eight, expected] = log("Training in distributed mode with multiple processes, 1 "
                                       "device per process.Process 0, total 8, device cuda:0.");
    const Read r = readOne("train.log", eight);
    expectFigure(r, expected, "samples/s");
    EXPECT_EQ(r.run.key.model, "r50");
    EXPECT_EQ(r.run.key.topology.ranks(), 8);
    EXPECT_NE(notes(r.run).find("(the log prints no unit: samples/s assumed)"), std::string::npos)
        << notes(r.run);
    const Read one =
        readOne("train.log", log("Training with a single process on 1 device (cuda:0).").first);
    ASSERT_EQ(one.run.status, RunStatus::Complete) << one.run.reason;
    EXPECT_EQ(one.run.key.topology.nodes, 1);
    EXPECT_EQ(one.run.key.topology.gpusPerNode, 1);
    EXPECT_FALSE(one.run.key.origins.nodesUnknown);
    // A bare "/s" anywhere else is no rate: only right after a step's seconds.
    EXPECT_FALSE(findRatePhrase("lr 0.1, 3.2/s"));
    EXPECT_FALSE(findRatePhrase("queue: 12 jobs, 4/s"));
    const auto p = findRatePhrase("Time: 0.389s, 2632.39/s  (0.409s, 2503.67/s)");
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->value, 2632.39);
}

// PyTorch Lightning's bars ("Epoch 0:  45%|████▌     | 450/1000 [..., 5.42it/s, loss=2.31,
// v_num=0]"), an epoch's bars on one physical line: steps per second, and no batch anywhere, so no
// figure, and the reason says so in the log's words; its "CUDA_VISIBLE_DEVICES: [0,1,2,3]" is 4
// GPUs.
TEST(GeneralReader, LightningsBarsWithoutABatchSayWhatTheyLack) {
    std::string text = "GPU available: True (cuda), used: True\n"
                       "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]\n";
    for (int epoch = 0; epoch < 3; ++epoch) {
        std::string bars;
        for (int s = 0; s <= 1000; s += 25) {
            const int pct = s / 10;
            std::string bar;
            for (int k = 0; k < pct / 10; ++k)
                bar += "\u2588";
            bar += std::string(static_cast<std::size_t>(10 - pct / 10), ' ');
            bars += (bars.empty() ? "" : "\r") + std::string("Epoch ") + std::to_string(epoch) +
                    ": " + std::to_string(pct) + "%|" + bar + "| " + std::to_string(s) +
                    "/1000 [01:23<01:41,  " + num(5.4 + 0.01 * (s % 3), 2) +
                    "it/s, loss=2.31, v_num=0]";
        }
        text += bars + "\n";
    }
    const Read r = readOne("lightning.log", text);
    ASSERT_EQ(r.scan.logs.size(), 1u) << r.scan.summaryLine();
    EXPECT_EQ(r.run.status, RunStatus::Unusable);
    EXPECT_NE(r.run.reason.find("its lines give steps per second (it/s)"), std::string::npos)
        << r.run.reason;
    EXPECT_EQ(r.run.key.topology.ranks(), 4);
}

// Keras' epoch lines ("1563/1563 [=====] - 10s 6ms/step - loss: 1.52 - accuracy: 0.45"): a step
// time in whole milliseconds. Without a batch no figure, said; the notes say how coarse the
// milliseconds are. "ms/step", "us/step" and "s/step" after a number are step times.
TEST(GeneralReader, KerasStepTimesInWholeMillisecondsSaySo) {
    std::string text = "Epoch 1/10\n";
    for (int e = 0; e < 10; ++e)
        text += (e ? "Epoch " + std::to_string(e + 1) + "/10\n" : std::string()) +
                "1563/1563 [==============================] - " + (e ? "10s " : "12s ") +
                (e ? "6" : "7") + "ms/step - loss: 1.5" + std::to_string(e) +
                " - accuracy: 0.45 - val_loss: 1.2 - val_accuracy: 0.5\n";
    const Read r = readOne("keras.log", text);
    ASSERT_EQ(r.scan.logs.size(), 1u) << r.scan.summaryLine();
    EXPECT_EQ(r.run.status, RunStatus::Unusable);
    EXPECT_NE(r.run.reason.find("its lines give seconds per step"), std::string::npos)
        << r.run.reason;
    EXPECT_NE(notes(r.run).find("the log prints whole milliseconds: 7 ms/step is within 7.1 %"),
              std::string::npos)
        << notes(r.run);
    for (const auto& [line, seconds] :
         {std::pair{"- 10s 6ms/step - loss", 0.006}, std::pair{"- 2s 250us/step", 250e-6},
          std::pair{"- 300s 3s/step", 3.0}}) {
        const auto p = findRatePhrase(line);
        ASSERT_TRUE(p) << line;
        EXPECT_EQ(p->kind, RatePhrase::Kind::StepSeconds) << line;
        EXPECT_DOUBLE_EQ(p->value, seconds) << line;
    }
}
