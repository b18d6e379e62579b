// Issue 26, item 3: the families real runs write that ../shared/data/realworld-logs holds no log
// of, generated here in the shapes their public sources print (no real log is committed):
//   DLLogger JSON ("DLLL {...}", NGC PyTorch and TensorFlow ConvNets),
//   tf_cnn_benchmarks ("100\timages/sec: 1234.5 +/- 2.1 (jitter = 5.0)\t7.123"), alone and under
//   Horovod with Open MPI rank tags,
//   Keras' TimeHistory (absl's prefix), the PyTorch ImageNet example's ProgressMeter (tabs or
//   spaces), gluon-nlp's "throughput=12.3K tks/s" and its "[Epoch e Batch k/n]" variant.
// For each: the family detected (never another), the figure within 3 % of the median of the
// log's own values past the first tenth, the unit, and ranks/batch where the shape states them.

#include "core/formats/formatregistry.h"
#include "core/formats/realworld.h"
#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

std::string num(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// "{:4d}" as ProgressMeter pads the batch index to the width of the batch count (5005).
std::string padded(int k) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%4d", k);
    return buf;
}

// Report k's value: slow start-up reports, then a steady rate with a small ripple.
double rateAt(double base, int k) {
    return k < 2 ? base / 8 : base * (1.0 + 0.004 * ((k * 7) % 5 - 2));
}

double medianPastFirstTenth(std::vector<double> v) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 10));
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// A generated log and what it must read as.
struct Shape {
    std::string text;
    std::vector<double> values; // the job's throughput per report, as the log implies it
    std::string format, unit;
    int gpus = 0, nodes = 0, batch = 0; // 0: the shape does not state it
    std::string sidecar = {};           // a scaleview.json beside it, for what it does not say
};

// NGC PyTorch ConvNets' DLLogger JSON stream: a PARAMETER record, (epoch, iteration) steps whose
// counter restarts each epoch, an epoch summary with step [e], the run's with step [].
Shape dllJsonPytorch(int reports) {
    Shape s{"", {}, "dllogger-json", "images/s", 8, 0, 256};
    s.text = "=> creating model '('resnet50', 'classic')'\n"
             "DLLL {\"timestamp\": \"1591234560.123\", \"datetime\": \"2020-06-04 01:36:00.123\", "
             "\"elapsedtime\": 0.01, \"type\": \"PARAMETER\", \"data\": {\"data\": \"/imagenet\", "
             "\"arch\": \"resnet50\", \"batch_size\": 256, \"amp\": true, \"world_size\": 8, "
             "\"workers\": 5}}\n";
    const int perEpoch = reports / 2;
    for (int k = 0; k < reports; ++k) {
        const int e = k / perEpoch, i = k % perEpoch + 1;
        const double v = rateAt(9800.0, k);
        s.values.push_back(v);
        s.text += "DLLL {\"timestamp\": \"1591234570.5\", \"datetime\": \"2020-06-04 01:36:10.5\", "
                  "\"elapsedtime\": " +
                  num(10.0 + k, 1) + ", \"type\": \"LOG\", \"step\": [" + std::to_string(e) + ", " +
                  std::to_string(i * 10) +
                  "], \"data\": "
                  "{\"train.loss\": 6.91, \"train.total_ips\": " +
                  num(v, 6) + ", \"train.lr\": 0.256}}\n";
        if (i == perEpoch)
            s.text += "DLLL {\"timestamp\": \"1591234600.0\", \"type\": \"LOG\", \"step\": [" +
                      std::to_string(e) +
                      "], \"data\": {\"train.loss\": 6.5, "
                      "\"train.total_ips\": 812.5}}\n";
    }
    s.text += "DLLL {\"timestamp\": \"1591234700.0\", \"type\": \"LOG\", \"step\": [], \"data\": "
              "{\"train.total_ips\": 9300.1}}\n";
    return s;
}

// NGC TensorFlow ConvNets' JSON stream: "step": "PARAMETER" records one key each, total_ips.
Shape dllJsonTf(int reports) {
    Shape s{"", {}, "dllogger-json", "images/s", 0, 0, 128};
    for (const char* kv : {"\"arch\": \"resnet50\"", "\"batch_size\": 128",
                           "\"precision\": \"fp16\"", "\"use_xla\": true"})
        s.text += "DLLL {\"timestamp\": \"1592615738.0\", \"datetime\": \"2020-06-20 01:15:38\", "
                  "\"elapsedtime\": 0.0, \"type\": \"LOG\", \"step\": \"PARAMETER\", \"data\": {" +
                  std::string(kv) + "}}\n";
    for (int k = 0; k < reports; ++k) {
        const double v = rateAt(2650.0, k);
        s.values.push_back(v);
        s.text += "DLLL {\"timestamp\": \"1592615799.7\", \"type\": \"LOG\", \"step\": [0, " +
                  std::to_string(50 + 10 * k) + "], \"data\": {\"total_ips\": " + num(v, 9) +
                  "}}\n";
    }
    return s;
}

// tf_cnn_benchmarks, one process driving num_gpus GPUs (variable_update=replicated): its info
// block ("Batch size: 512 global / 64 per device", "Devices: [...]"), then every display_every
// steps the running mean of images/sec over the job's global batch.
Shape tfCnnReplicated(int reports) {
    Shape s{"", {}, "tf-cnn-benchmarks", "images/s", 8, 0, 64};
    s.text =
        "TensorFlow:  1.15\nModel:       resnet50\nDataset:     imagenet (synthetic)\n"
        "Mode:        BenchmarkMode.TRAIN\nSingleSess:  False\n"
        "Batch size:  512 global\n             64 per device\nNum batches: 1000\n"
        "Num epochs:  0.40\nDevices:     ['/gpu:0', '/gpu:1', '/gpu:2', '/gpu:3', '/gpu:4', "
        "'/gpu:5', '/gpu:6', '/gpu:7']\nNUMA bind:   False\nData format: NCHW\n"
        "Optimizer:   sgd\nVariables:   replicated\nAllReduce:   None\n==========\n"
        "Generating training model\nRunning warm up\nDone warm up\nStep\tImg/sec\ttotal_loss\n";
    for (int k = 0; k < reports; ++k) {
        const double v = rateAt(2900.0, k);
        s.values.push_back(v);
        s.text += std::to_string(k == 0 ? 1 : k * 10) + "\timages/sec: " + num(v, 1) + " +/- " +
                  num(0.1 + k % 3, 1) + " (jitter = " + num(0.2 * (k % 7), 1) + ")\t" +
                  num(7.8 - k * 0.001, 3) + "\n";
    }
    s.text += "----------------------------------------------------------------\n"
              "total images/sec: 2890.11\n"
              "----------------------------------------------------------------\n";
    return s;
}

// Under Horovod (horovodrun: Open MPI's --tag-output), each of `ranks` processes drives one GPU
// and prints its own images/sec (its own batch), interleaved; the job's is that times ranks.
Shape tfCnnHorovod(int ranks, int reports) {
    Shape s{"", {}, "tf-cnn-benchmarks", "images/s", ranks, 0, 32};
    auto tag = [](int r) { return "[1," + std::to_string(r) + "]<stdout>:"; };
    for (int r = 0; r < ranks; ++r)
        s.text += tag(r) + "Batch size:  " + std::to_string(32 * ranks) + " global\n" + tag(r) +
                  "             32 per device\n" + tag(r) + "Devices:     ['horovod/gpu:0']\n" +
                  tag(r) + "Variables:   horovod\n";
    for (int r = 0; r < ranks; ++r)
        s.text += tag(r) + "Step\tImg/sec\ttotal_loss\n";
    for (int k = 0; k < reports; ++k) {
        const double per = rateAt(360.0, k);
        s.values.push_back(per * ranks);
        for (int r = 0; r < ranks; ++r)
            s.text += tag(r) + std::to_string(k == 0 ? 1 : k * 10) +
                      "\timages/sec: " + num(per + r * 0.1, 1) + " +/- 0.3 (jitter = 1.1)\t7.912\n";
    }
    for (int r = 0; r < ranks; ++r)
        s.text += tag(r) + "total images/sec: " + num(355.0 * ranks, 2) + "\n";
    return s;
}

// Keras' TimeHistory callback (TF official models), through absl logging, every log_steps steps:
// examples_per_second over the global batch.
Shape kerasTimeHistory(int reports) {
    Shape s{"", {}, "keras-timehistory", "samples/s", 0, 0, 0};
    s.text = "I1205 02:11:56.123456 140234 resnet_ctl_imagenet_main.py:120] Training 90 epochs\n";
    for (int k = 0; k < reports; ++k) {
        const double v = rateAt(2540.0, k);
        s.values.push_back(v);
        const int a = k * 100, b = a + 100;
        s.text += "I1205 02:" + num(12 + k / 60, 0) + ":" + num(k % 60 + 10, 0) +
                  ".000001 140234 keras_utils.py:148] TimeHistory: " + num(256.0 * 100 / v, 2) +
                  " seconds, " + num(v, 2) + " examples/second between steps " + std::to_string(a) +
                  " and " + std::to_string(b) + "\n";
    }
    return s;
}

// The PyTorch ImageNet example (examples/imagenet/main.py), --multiprocessing-distributed on one
// node: each process prints "Use GPU: g for training" and its own ProgressMeter lines every
// print_freq batches, "Epoch: [e][ k/n]\tTime  t ( avg)\tData ..."; it prints no batch size
// (-b is the node's, divided among its GPUs): a scaleview.json says 64 per GPU. sep: '\t' as
// main.py joins them, or spaces (a log re-wrapped).
Shape progressMeter(int gpus, int reports, const std::string& sep) {
    Shape s{"", {}, "pytorch-progressmeter", "images/s", gpus, 1, 0};
    s.sidecar = R"({"files": {"*.out": {"batch": 64}}})";
    s.text = "python main.py -a resnet50 --dist-url tcp://127.0.0.1:23456 --dist-backend nccl "
             "--multiprocessing-distributed --world-size 1 --rank 0 -b " +
             std::to_string(64 * gpus) + " /imagenet\n";
    for (int g = 0; g < gpus; ++g)
        s.text += "Use GPU: " + std::to_string(g) + " for training\n";
    s.text += "=> creating model 'resnet50'\n";
    for (int k = 0; k < reports; ++k) {
        const double step = 64.0 * gpus / rateAt(2800.0, k);
        s.values.push_back(64.0 * gpus / step);
        for (int g = 0; g < gpus; ++g)
            s.text += "Epoch: [0][" + padded(k * 10) + "/5005]" + sep + "Time " + num(step, 3) +
                      " (" + num(step * 1.1, 3) + ")" + sep + "Data  0.001 ( 0.120)" + sep +
                      "Loss 6.9021e+00 (6.9123e+00)" + sep + "Acc@1   0.00 (  0.10)" + sep +
                      "Acc@5   0.78 (  0.51)\n";
    }
    return s;
}

// gluon-nlp's BERT pretraining ("[step N] ... throughput=X.YK tks/s", M once it is past a
// million) and its machine translation scripts ("[Epoch e Batch k/n] ... throughput=X.YYK wps").
Shape gluonnlpSteps(int reports) {
    Shape s{"", {}, "gluonnlp-throughput", "tokens/s", 16, 0, 8};
    s.text = "INFO:root:Namespace(batch_size=8, dtype='float16', gpus='0,1,2,3,4,5,6,7', "
             "model='bert_24_1024_16')\n[1,0]<stderr>:INFO:root:start\n"
             "[1,1]<stderr>:INFO:root:start\n";
    for (int k = 0; k < reports; ++k) {
        const double v = rateAt(1.24e6, k);
        const bool mega = v >= 1e6;
        s.values.push_back(mega ? std::round(v / 1e4) * 1e4 : std::round(v / 100) * 100);
        s.text += "[1,0]<stderr>:INFO:root:[step " + std::to_string(k * 20 + 19) +
                  "]\tmlm_loss=7.12\tmlm_acc=12.3\tnsp_loss=0.69\tnsp_acc=54.8\tthroughput=" +
                  (mega ? num(v / 1e6, 2) + "M" : num(v / 1e3, 1) + "K") +
                  " tks/s\tlr=0.0001 time=1.23, latency=120.1 ms/batch\n";
    }
    return s;
}

Shape gluonnlpEpochBatch(int reports) {
    Shape s{"", {}, "gluonnlp-throughput", "tokens/s", 4, 0, 0};
    s.text = "2019-03-01 10:00:00,000 - root - Namespace(dataset='WMT2014BPE', gpus='0,1,2,3', "
             "num_buckets=20, epochs=30)\n";
    for (int k = 0; k < reports; ++k) {
        const double v = rateAt(41230.0, k);
        s.values.push_back(std::round(v / 10) * 10);
        s.text += "2019-03-01 10:01:00,000 - root - [Epoch 0 Batch " + std::to_string(k * 10 + 10) +
                  "/6000] loss=9.1203, ppl=9142.0912, throughput=" + num(v / 1e3, 2) +
                  "K wps, wc=503.23K\n";
    }
    return s;
}

// What detection says of shape.text, and how a folder holding it as "run.out" reads.
void expectReads(const Shape& shape) {
    std::string why;
    const LogFormat* f = detectAnyLogFormat(shape.text, &why);
    ASSERT_TRUE(f) << shape.format;
    EXPECT_EQ(f->id, shape.format) << why;
    TempDir dir;
    writeFile(dir / "job" / "run.out", shape.text);
    if (!shape.sidecar.empty()) writeFile(dir / "job" / "scaleview.json", shape.sidecar);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_FALSE(scan.error);
    ASSERT_EQ(scan.logs.size(), 1u) << shape.format;
    const RunKey& key = scan.logs[0].key;
    EXPECT_EQ(key.format, shape.format);
    LoadOptions o;
    o.measure.formatDefaults = true;
    const RunResult r = loadRun(scan.logs[0], o);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    ASSERT_TRUE(r.timeThroughput);
    const double expected = medianPastFirstTenth(shape.values);
    EXPECT_LE(std::fabs(*r.timeThroughput - expected) / expected, 0.03)
        << shape.format << ": " << *r.timeThroughput << " vs " << expected;
    EXPECT_EQ(logFormatOf(key.format).unit, shape.unit);
    if (shape.gpus) {
        EXPECT_EQ(key.topology.ranks(), shape.gpus) << shape.format;
        EXPECT_EQ(key.origins.topology, KeySource::Log);
    }
    if (shape.nodes) {
        EXPECT_EQ(key.topology.nodes, shape.nodes);
        EXPECT_FALSE(key.origins.nodesUnknown);
    }
    if (shape.batch) {
        EXPECT_EQ(key.batchPerDevice, shape.batch) << shape.format;
        EXPECT_EQ(key.origins.batch, KeySource::Log);
    }
}

} // namespace

TEST(RealWorldFamilies, DlloggerJsonPytorch) {
    expectReads(dllJsonPytorch(80));
    // An epoch's summary (step [e]) and the run's (step []) are no reports.
    const LogFormat* f = findLogFormat("dllogger-json");
    ASSERT_TRUE(f);
    for (const char* line : {"DLLL {\"type\": \"LOG\", \"step\": [0], \"data\": "
                             "{\"train.total_ips\": 812.5}}",
                             "DLLL {\"type\": \"LOG\", \"step\": [], \"data\": "
                             "{\"train.total_ips\": 9300.1}}"}) {
        SpeedSample s;
        f->message.parse(line, std::string_view::npos, s);
        EXPECT_TRUE(s.hasSpeed) << line;
        EXPECT_FALSE(s.hasIteration) << line;
    }
}

TEST(RealWorldFamilies, DlloggerJsonTensorflow) {
    const Shape s = dllJsonTf(60);
    expectReads(s);
    const ScanResult scan = [&] {
        TempDir dir;
        writeFile(dir / "x", s.text);
        return scanLogDirectory(dir.path());
    }();
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.precision, "fp16");
}

TEST(RealWorldFamilies, TfCnnBenchmarksOneProcess) {
    expectReads(tfCnnReplicated(40));
}

TEST(RealWorldFamilies, TfCnnBenchmarksUnderHorovod) {
    expectReads(tfCnnHorovod(4, 40));
}

TEST(RealWorldFamilies, KerasTimeHistory) {
    expectReads(kerasTimeHistory(50));
}

TEST(RealWorldFamilies, ProgressMeterTabs) {
    expectReads(progressMeter(4, 40, "\t"));
}

TEST(RealWorldFamilies, ProgressMeterSpaces) {
    expectReads(progressMeter(2, 40, "   "));
}

TEST(RealWorldFamilies, GluonnlpStepsKAndM) {
    expectReads(gluonnlpSteps(60));
}

TEST(RealWorldFamilies, GluonnlpEpochBatchWps) {
    expectReads(gluonnlpEpochBatch(50));
}

// No family is taken for another: each generated shape is detected as its own, and a folder
// with one of each reads each as its own.
TEST(RealWorldFamilies, NoFamilyTakenForAnother) {
    const std::vector<Shape> shapes = {dllJsonPytorch(30),   dllJsonTf(30),
                                       tfCnnReplicated(30),  tfCnnHorovod(2, 30),
                                       kerasTimeHistory(30), progressMeter(2, 30, "\t"),
                                       gluonnlpSteps(30),    gluonnlpEpochBatch(30)};
    TempDir dir;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const LogFormat* f = detectAnyLogFormat(shapes[i].text);
        ASSERT_TRUE(f) << i;
        EXPECT_EQ(f->id, shapes[i].format) << i;
        writeFile(dir / ("log" + std::to_string(i) + ".txt"), shapes[i].text);
    }
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i)
        EXPECT_EQ(scan.logs[i].key.format, shapes[i].format) << scan.logs[i].display;
}
