// DLPerf's per-framework README tables among the published references (issue 27 item 1): each
// is the reference of its own log format's cases, the figures are the README's, and no other
// format's reference moves (NGC MXNet's above all).

#include "core/parse/logformat.h"
#include "core/reference/referencecatalog.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace sv;

namespace {

struct Expected {
    const char* id;
    const char* format; // the log format whose cases it is the reference of (its framework)
    const char* precision;
    int batch;
    const char* topology; // a figure copied from the README, at this topology
    double figure;
    // The table a case of the format meets: this one (nullptr), or the README's earlier table
    // of the same precision and batch (this one is used when named).
    const char* first = nullptr;
};

// Every figure below is copied from DLPerf at commit c89430b (Oneflow-Inc/DLPerf), from the
// README named in each table's "source":
const std::vector<Expected> kTables = {
    // NVIDIADeepLearningExamples/PyTorch/resnet50v1.5/README.md,
    // "FP32 batch_size = 128": 4 8 -> 10917.09
    {"dlperf-ngc-pytorch-fp32-bs128", "ngc-pytorch-rn50", "fp32", 128, "4n8g", 10917.09},
    // same README, "AMP & dynamic loss scale, batch_size = 256": 1 4 -> 3137.44
    {"dlperf-ngc-pytorch-fp16-bs256", "ngc-pytorch-rn50", "fp16", 256, "1n4g", 3137.44},
    // same README, "AMP & static loss scale": 1 8 -> 6446.74
    {"dlperf-ngc-pytorch-fp16-static-bs256", "ngc-pytorch-rn50", "fp16", 256, "1n8g", 6446.74,
     "dlperf-ngc-pytorch-fp16-bs256"},
    // NVIDIADeepLearningExamples/TensorFlow/Classification/ConvNets/resnet50v1.5/README.md,
    // "FP32 batch size = 128 & without xla": 2 16 -> 5099.42
    {"dlperf-ngc-tf1-fp32-bs128", "ngc-tf-rn50", "fp32", 128, "2n8g", 5099.42},
    // same README, "FP16 batch size = 224 & without xla": 4 32 -> 24734.22
    {"dlperf-ngc-tf1-fp16-bs224", "ngc-tf-rn50", "fp16", 224, "4n8g", 24734.22},
    // same README, "batch size = 224 & with xla": 1 8 -> 8588.45
    {"dlperf-ngc-tf1-fp16-xla-bs224", "ngc-tf-rn50", "fp16", 224, "1n8g", 8588.45,
     "dlperf-ngc-tf1-fp16-bs224"},
    // same README, "real data & batch size = 224 & withxla": 1 8 -> 7886.64
    {"dlperf-ngc-tf1-fp16-xla-realdata-bs224", "ngc-tf-rn50", "fp16", 224, "1n8g", 7886.64,
     "dlperf-ngc-tf1-fp16-bs224"},
    // same README, "... withxla & with dali": 1 4 -> 4398.78
    {"dlperf-ngc-tf1-fp16-xla-dali-bs224", "ngc-tf-rn50", "fp16", 224, "1n4g", 4398.78,
     "dlperf-ngc-tf1-fp16-bs224"},
    // same README, "synthetic data & batch size = 224 & withxla": 1 8 -> 9265.83
    {"dlperf-ngc-tf1-fp16-xla-synthetic-bs224", "ngc-tf-rn50", "fp16", 224, "1n8g", 9265.83,
     "dlperf-ngc-tf1-fp16-bs224"},
    // PaddlePaddle/resnet50v1.5/README.md, "FP32 batch size = 128": 1 2 -> 644.66
    {"dlperf-paddle-fp32-bs128", "paddle-rn50", "fp32", 128, "1n2g", 644.66},
    // same README, "FP16 batch size = 224 & without xla": 1 8 -> 4380.66
    {"dlperf-paddle-fp16-bs224", "paddle-rn50", "fp16", 224, "1n8g", 4380.66},
    // same README, "... without dynamic_loss_scaling": 2 16 -> 5165.41
    {"dlperf-paddle-fp16-nodls-bs224", "paddle-rn50", "fp16", 224, "2n8g", 5165.41,
     "dlperf-paddle-fp16-bs224"},
    // same README, "batch size = 196 & with dali": 2 16 -> 6018.46
    {"dlperf-paddle-fp16-dali-bs196", "paddle-rn50", "fp16", 196, "2n8g", 6018.46},
    // OneFlow/Classification/ConvNets/resnet50v1.5/reports/resnet50_oneflow_v0.2_report_1009.md,
    // FP32 batch 128: 4 8 -> 12411.97; FP16 batch 256: 2 8 -> 17920.40; FP32 144 and 96
    {"dlperf-oneflow-fp32-bs128", "oneflow-cnn", "fp32", 128, "4n8g", 12411.97},
    {"dlperf-oneflow-fp16-bs256", "oneflow-cnn", "fp16", 256, "2n8g", 17920.40},
    {"dlperf-oneflow-fp32-bs144", "oneflow-cnn", "fp32", 144, "2n8g", 6254.94},
    {"dlperf-oneflow-fp32-bs96", "oneflow-cnn", "fp32", 96, "1n8g", 3095.36},
    // .../reports/resnet50_oneflow_v0.3.1_report_1202.md, FP16 batch 256: 4 8 -> 31958.78
    {"dlperf-oneflow-0.3.1-fp16-bs256", "oneflow-cnn", "fp16", 256, "4n8g", 31958.78,
     "dlperf-oneflow-fp16-bs256"},
};

std::string framework(const char* format) {
    return std::string(logFormatOf(format).framework);
}

} // namespace

TEST(FrameworkTables, EachIsItsFormatsReferenceWithTheReadmesFigure) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    for (const Expected& e : kTables) {
        SCOPED_TRACE(e.id);
        const ReferenceTable* t = cat.find(e.id);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->series.size(), 1u);
        EXPECT_NE(t->source.find("commit c89430b"), std::string::npos) << t->source;
        EXPECT_NE(t->hardware.find("V100"), std::string::npos) << t->hardware;
        // The figure as the README prints it.
        const auto v = cat.lookup(e.id, e.topology);
        ASSERT_TRUE(v);
        EXPECT_DOUBLE_EQ(v->throughput, e.figure);
        // The table's series stands for its format's framework ...
        EXPECT_TRUE(ReferenceCatalog::standsFor(*t, t->series[0], framework(e.format)));
        // ... and the format's case meets this table (or, for a second table of one precision
        // and batch, the first one of the same README: the same framework).
        const auto m = cat.match(e.precision, e.batch, t->model, framework(e.format));
        ASSERT_TRUE(m);
        EXPECT_EQ(m->table->id, e.first ? e.first : e.id);
    }
}

// No new table stands for another format's framework: NGC MXNet's, TensorFlow 2's, PyTorch's,
// gluon-cv's cases, BERT's, InsightFace's, the DLLogger readers' all keep their references.
TEST(FrameworkTables, NoTableStandsForAnotherFormatsFramework) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    for (const Expected& e : kTables) {
        const ReferenceTable* t = cat.find(e.id);
        ASSERT_NE(t, nullptr) << e.id;
        const std::string own = framework(e.format);
        for (const LogFormat& f : logFormats()) {
            if (f.framework == own) continue;
            EXPECT_FALSE(ReferenceCatalog::standsFor(*t, t->series[0], f.framework))
                << e.id << " stands for " << f.framework << " (" << f.id << ")";
        }
    }
}

TEST(FrameworkTables, NgcMxnetAndTheOtherFormatsMatchAsBefore) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    const std::string mxnet = framework("ngc-mxnet");
    auto id = [&](const char* precision, int batch, const char* model, const std::string& f) {
        const auto m = cat.match(precision, batch, model, f);
        return m ? m->label() : std::string("none");
    };
    // NGC MXNet: the seed's tables, NVIDIA's DGX-1 table at batch 96 (not OneFlow's batch 96).
    EXPECT_EQ(id("fp32", 128, "r50", mxnet), "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(id("fp16", 256, "r50", mxnet), "dlperf-ngc-mxnet-fp16-amp-bs256");
    EXPECT_EQ(id("fp16-noamp", 256, "r50", mxnet), "dlperf-ngc-mxnet-fp16-noamp-bs256");
    EXPECT_EQ(id("fp32", 96, "r50", mxnet), "nvidia-dle-mxnet-dgx1-19.07: FP32, batch 96");
    EXPECT_EQ(id("fp16", 224, "r50", mxnet), "none");
    EXPECT_EQ(id("fp32", 144, "r50", mxnet), "none");
    // Without a framework (a case of no known format): as before, the first table in file order.
    EXPECT_EQ(id("fp32", 128, "r50", ""), "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(id("fp16", 256, "r50", ""), "dlperf-ngc-mxnet-fp16-amp-bs256");
    EXPECT_EQ(id("fp16", 128, "r50", ""), "dlperf-tf2-fp16-bs128");
    EXPECT_EQ(id("fp32", 96, "r50", ""), "nvidia-dle-mxnet-dgx1-19.07: FP32, batch 96");
    // Formats without a table of their own keep the report's column, or none: the report's
    // "MXNet 1.6.0 (gluon-cv)" column is not a series of "MXNet gluon-cv" (ofFramework's prefix).
    EXPECT_EQ(id("fp32", 128, "r50", framework("pytorch-rn50")),
              "dlperf-report-v1-fp32-bs128: PyTorch 1.6.0");
    EXPECT_EQ(id("fp32", 128, "r50", framework("mxnet-gluoncv-rn50")), "none");
    EXPECT_EQ(id("fp32", 128, "r50", framework("tf2-rn50")), "dlperf-tf2-fp32-bs128");
    // BERT cases are not met by a ResNet-50 table.
    EXPECT_EQ(id("fp32", 32, "bert", framework("ngc-pytorch-bert")),
              "dlperf-report-v1-bert-fp32-bs32: NGC PyTorch 1.5.0a0");
}

// The repeats the READMEs print (the catalog refuses repeats whose median is not the figure).
TEST(FrameworkTables, PrintedRepeatsAreKept) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    const auto& pt = cat.find("dlperf-ngc-pytorch-fp16-bs256")->series[0].repeats;
    ASSERT_EQ(pt.size(), 5u);
    // "r50_b256_amp_4.log {... 4: 23049.75}" under 4n8g
    EXPECT_DOUBLE_EQ(pt.at("4n8g")[3], 23049.75);
    const auto& tf = cat.find("dlperf-ngc-tf1-fp32-bs128")->series[0].repeats;
    ASSERT_EQ(tf.at("1n1g").size(), 6u);
    const auto& pd = cat.find("dlperf-paddle-fp32-bs128")->series[0].repeats;
    ASSERT_EQ(pd.size(), 6u);
    EXPECT_EQ(cat.find("dlperf-ngc-pytorch-fp32-bs128")->method, "time");
    EXPECT_EQ(cat.find("dlperf-ngc-tf1-fp32-bs128")->method, "speed");
    EXPECT_EQ(cat.find("dlperf-paddle-fp32-bs128")->method, "speed");
}
