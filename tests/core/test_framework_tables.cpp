// DLPerf's per-framework README tables among the published references (issue 27 item 1): each
// is the reference of its own log format's cases, the figures are the README's, and no other
// format's reference moves (NGC MXNet's above all).

#include "core/formats/formatregistry.h"
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
     "dlperf-oneflow-fp16-bs256"},    // MindSpore/resnet50v1.5/README.md, "FP32 batch size=128": 2 16 -> 5483.22; FP16 256: 4 32
    {"dlperf-mindspore-fp32-bs128", "mindspore-rn50", "fp32", 128, "2n8g", 5483.22},
    {"dlperf-mindspore-fp16-bs256", "mindspore-rn50", "fp16", 256, "4n8g", 24183.95},
    // BERT-base, sequences/s.
    // NVIDIADeepLearningExamples/PyTorch/BERT/README.md, "FP32 batch_size = 32": 1 4 -> 457.72
    {"dlperf-ngc-pytorch-bert-fp32-bs32", "ngc-pytorch-bert", "fp32", 32, "1n4g", 457.72},
    {"dlperf-ngc-pytorch-bert-fp32-bs48", "ngc-pytorch-bert", "fp32", 48, "4n8g", 3039.3},
    // "batch_size = 64, dynamic loss scale": 2 8 -> 4936.92; "static loss scale": 1 8 -> 3130.63
    {"dlperf-ngc-pytorch-bert-fp16-bs64", "ngc-pytorch-bert", "fp16", 64, "2n8g", 4936.92},
    {"dlperf-ngc-pytorch-bert-fp16-static-bs64", "ngc-pytorch-bert", "fp16", 64, "1n8g", 3130.63,
     "dlperf-ngc-pytorch-bert-fp16-bs64"},
    {"dlperf-ngc-pytorch-bert-fp16-bs96", "ngc-pytorch-bert", "fp16", 96, "4n8g", 10349.12},
    {"dlperf-ngc-pytorch-bert-fp16-static-bs96", "ngc-pytorch-bert", "fp16", 96, "1n4g", 1705.8,
     "dlperf-ngc-pytorch-bert-fp16-bs96"},
    // NVIDIADeepLearningExamples/TensorFlow/LanguageModeling/BERT/README.md: FP32 bs32 1 4 ->
    // 397.71, bs48 2 16 -> 1576.88; FP16 bs64 4 32 -> 5189.07, with xla 1 4 -> 1552.11, bs96 xla
    {"dlperf-ngc-tf1-bert-fp32-bs32", "ngc-tf-bert", "fp32", 32, "1n4g", 397.71},
    {"dlperf-ngc-tf1-bert-fp32-bs48", "ngc-tf-bert", "fp32", 48, "2n8g", 1576.88},
    {"dlperf-ngc-tf1-bert-fp16-bs64", "ngc-tf-bert", "fp16", 64, "4n8g", 5189.07},
    {"dlperf-ngc-tf1-bert-fp16-xla-bs64", "ngc-tf-bert", "fp16", 64, "1n4g", 1552.11,
     "dlperf-ngc-tf1-bert-fp16-bs64"},
    {"dlperf-ngc-tf1-bert-fp16-xla-bs96", "ngc-tf-bert", "fp16", 96, "4n8g", 11650.0},
    // TensorFlow/bert/README.md: FP32 bs32 1 2 -> 177.18 (with xla 4 32 -> 1693.59), bs48,
    // bs64; FP16 bs64 2 16 -> 1893.51, bs96, bs128 with xla 1 8 -> 3200.86
    {"dlperf-tf2-bert-fp32-bs32", "tf2-bert", "fp32", 32, "1n2g", 177.18},
    {"dlperf-tf2-bert-fp32-xla-bs32", "tf2-bert", "fp32", 32, "4n8g", 1693.59,
     "dlperf-tf2-bert-fp32-bs32"},
    {"dlperf-tf2-bert-fp32-bs48", "tf2-bert", "fp32", 48, "1n8g", 752.21},
    {"dlperf-tf2-bert-fp32-xla-bs48", "tf2-bert", "fp32", 48, "2n8g", 1262.4,
     "dlperf-tf2-bert-fp32-bs48"},
    {"dlperf-tf2-bert-fp32-bs64", "tf2-bert", "fp32", 64, "4n8g", 2244.38},
    {"dlperf-tf2-bert-fp32-xla-bs64", "tf2-bert", "fp32", 64, "1n4g", 505.63,
     "dlperf-tf2-bert-fp32-bs64"},
    {"dlperf-tf2-bert-fp16-bs64", "tf2-bert", "fp16", 64, "2n8g", 1893.51},
    {"dlperf-tf2-bert-fp16-xla-bs64", "tf2-bert", "fp16", 64, "1n8g", 2241.6,
     "dlperf-tf2-bert-fp16-bs64"},
    {"dlperf-tf2-bert-fp16-bs96", "tf2-bert", "fp16", 96, "4n8g", 4168.79},
    {"dlperf-tf2-bert-fp16-xla-bs96", "tf2-bert", "fp16", 96, "1n2g", 851.97,
     "dlperf-tf2-bert-fp16-bs96"},
    {"dlperf-tf2-bert-fp16-xla-bs128", "tf2-bert", "fp16", 128, "1n8g", 3200.86},
    // PaddlePaddle/bert/README.md: FP32 bs32 1 2 -> 228.12, bs64, bs96; FP16 bs64 1 8 ->
    // 1298.96, without dynamic_loss_scaling 4 32 -> 3801.84, bs128, bs160
    {"dlperf-paddle-bert-fp32-bs32", "paddle-bert", "fp32", 32, "1n2g", 228.12},
    {"dlperf-paddle-bert-fp32-bs64", "paddle-bert", "fp32", 64, "2n8g", 1426.52},
    {"dlperf-paddle-bert-fp32-bs96", "paddle-bert", "fp32", 96, "1n8g", 868.6},
    {"dlperf-paddle-bert-fp16-bs64", "paddle-bert", "fp16", 64, "1n8g", 1298.96},
    {"dlperf-paddle-bert-fp16-nodls-bs64", "paddle-bert", "fp16", 64, "4n8g", 3801.84,
     "dlperf-paddle-bert-fp16-bs64"},
    {"dlperf-paddle-bert-fp16-bs128", "paddle-bert", "fp16", 128, "1n4g", 877.31},
    {"dlperf-paddle-bert-fp16-bs160", "paddle-bert", "fp16", 160, "4n8g", 5452.35},
    // MxNet/BERT/README.md (gluon-nlp, W/O clip): FP32 bs64 1 2 -> 295.42, bs48, bs32; FP16
    // bs64, bs96 2 16 -> 6684.57, bs128
    {"dlperf-gluonnlp-bert-fp32-bs64", "mxnet-gluonnlp-bert", "fp32", 64, "1n2g", 295.42},
    {"dlperf-gluonnlp-bert-fp32-bs48", "mxnet-gluonnlp-bert", "fp32", 48, "1n8g", 1127.41},
    {"dlperf-gluonnlp-bert-fp32-bs32", "mxnet-gluonnlp-bert", "fp32", 32, "4n8g", 3671.45},
    {"dlperf-gluonnlp-bert-fp16-bs64", "mxnet-gluonnlp-bert", "fp16", 64, "1n4g", 1623.56},
    {"dlperf-gluonnlp-bert-fp16-bs96", "mxnet-gluonnlp-bert", "fp16", 96, "2n8g", 6684.57},
    {"dlperf-gluonnlp-bert-fp16-bs128", "mxnet-gluonnlp-bert", "fp16", 128, "4n8g", 14822.31},
    // MindSpore/bert/README.md: FP32 bs32 1 2 -> 174.45 (with graph kernel fusion 4 32 ->
    // 3423.44), bs64, bs96 with fusion; FP16 bs64 4 32 -> 4659.76, bs128
    {"dlperf-mindspore-bert-fp32-bs32", "mindspore-bert", "fp32", 32, "1n2g", 174.45},
    {"dlperf-mindspore-bert-fp32-gkf-bs32", "mindspore-bert", "fp32", 32, "4n8g", 3423.44,
     "dlperf-mindspore-bert-fp32-bs32"},
    {"dlperf-mindspore-bert-fp32-bs64", "mindspore-bert", "fp32", 64, "1n8g", 827.83},
    {"dlperf-mindspore-bert-fp32-gkf-bs64", "mindspore-bert", "fp32", 64, "2n8g", 2044.75,
     "dlperf-mindspore-bert-fp32-bs64"},
    {"dlperf-mindspore-bert-fp32-gkf-bs96", "mindspore-bert", "fp32", 96, "1n4g", 601.62},
    {"dlperf-mindspore-bert-fp16-bs64", "mindspore-bert", "fp16", 64, "4n8g", 4659.76},
    {"dlperf-mindspore-bert-fp16-bs128", "mindspore-bert", "fp16", 128, "1n8g", 1652.89},
    // OneFlow/LanguageModeling/BERT/reports/bert_base_oneflow_v0.2_report_1009.md: FP16 with
    // clip bs160 4 8 -> 15724.70, bs128, bs64; without clip; FP32 with clip bs96, bs64, bs32;
    // without clip
    {"dlperf-oneflow-bert-fp16-bs160", "oneflow-bert", "fp16", 160, "4n8g", 15724.70},
    {"dlperf-oneflow-bert-fp16-bs128", "oneflow-bert", "fp16", 128, "2n8g", 7673.42},
    {"dlperf-oneflow-bert-fp16-bs64", "oneflow-bert", "fp16", 64, "1n8g", 3399.43},
    {"dlperf-oneflow-bert-fp16-noclip-bs160", "oneflow-bert", "fp16", 160, "4n8g", 17210.63,
     "dlperf-oneflow-bert-fp16-bs160"},
    {"dlperf-oneflow-bert-fp16-noclip-bs64", "oneflow-bert", "fp16", 64, "2n8g", 6669.93,
     "dlperf-oneflow-bert-fp16-bs64"},
    {"dlperf-oneflow-bert-fp32-bs96", "oneflow-bert", "fp32", 96, "4n8g", 4664.10},
    {"dlperf-oneflow-bert-fp32-bs64", "oneflow-bert", "fp32", 64, "1n8g", 1191.13},
    {"dlperf-oneflow-bert-fp32-bs32", "oneflow-bert", "fp32", 32, "2n8g", 2015.78},
    {"dlperf-oneflow-bert-fp32-noclip-bs96", "oneflow-bert", "fp32", 96, "1n1g", 156.25,
     "dlperf-oneflow-bert-fp32-bs96"},
    {"dlperf-oneflow-bert-fp32-noclip-bs32", "oneflow-bert", "fp32", 32, "4n8g", 4019.45,
     "dlperf-oneflow-bert-fp32-bs32"},
    // .../bert_base_oneflow_v0.3.1_report_1202.md: FP16 with clip bs160 1 8 -> 4514.64, ...
    {"dlperf-oneflow-0.3.1-bert-fp16-bs160", "oneflow-bert", "fp16", 160, "1n8g", 4514.64,
     "dlperf-oneflow-bert-fp16-bs160"},
    {"dlperf-oneflow-0.3.1-bert-fp16-bs128", "oneflow-bert", "fp16", 128, "4n8g", 15113.94,
     "dlperf-oneflow-bert-fp16-bs128"},
    {"dlperf-oneflow-0.3.1-bert-fp16-bs64", "oneflow-bert", "fp16", 64, "2n8g", 5991.1,
     "dlperf-oneflow-bert-fp16-bs64"},
    // MxNet/Classification/RN50v1b/README.md (gluon-cv): FP32 bs128 1 1 -> 384.19, 4 8 ->
    // 9579.74; FP16 bs256 4 8 -> 10565.55 (bundled once "NGC " was kept to NVIDIA's own tables,
    // so that "MXNet gluon-cv" does not stand for NGC MXNet).
    {"dlperf-gluoncv-fp32-bs128", "mxnet-gluoncv-rn50", "fp32", 128, "1n1g", 384.19},
    {"dlperf-gluoncv-fp16-bs256", "mxnet-gluoncv-rn50", "fp16", 256, "4n8g", 10565.55},
    // PyTorch/resnet50v1.5/README.md (pytorch/examples): FP32 bs128 4 8 -> 10021.29; with -j8
    // 4 8 -> 4119.84; DALI -j8 1 1 -> 354.44; DALI 4 8 -> 10032.72.
    {"dlperf-pytorch-fp32-bs128", "pytorch-rn50", "fp32", 128, "4n8g", 10021.29},
    {"dlperf-pytorch-fp32-j8-bs128", "pytorch-rn50", "fp32", 128, "4n8g", 4119.84,
     "dlperf-pytorch-fp32-bs128"},
    {"dlperf-pytorch-fp32-dali-j8-bs128", "pytorch-rn50", "fp32", 128, "1n1g", 354.44,
     "dlperf-pytorch-fp32-bs128"},
    {"dlperf-pytorch-fp32-dali-bs128", "pytorch-rn50", "fp32", 128, "4n8g", 10032.72,
     "dlperf-pytorch-fp32-bs128"},
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
        // gluon-nlp's and gluon-cv's tables are "MXNet gluon-… (...)": the prefix rule makes
        // them MXNet's (the generic speedometer reader's), never NGC MXNet's (the "NGC " alias
        // is for NVIDIA's own tables only).
        const bool gluon = own.rfind("MXNet gluon-", 0) == 0;
        for (const LogFormat& f : logFormats()) {
            if (f.framework == own) continue;
            if (gluon && f.framework == "MXNet") continue;
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
    // PyTorch's (pytorch/examples) and gluon-cv's cases meet their own README tables.
    EXPECT_EQ(id("fp32", 128, "r50", framework("pytorch-rn50")), "dlperf-pytorch-fp32-bs128");
    EXPECT_EQ(id("fp32", 128, "r50", framework("mxnet-gluoncv-rn50")),
              "dlperf-gluoncv-fp32-bs128");
    EXPECT_EQ(id("fp32", 128, "r50", framework("tf2-rn50")), "dlperf-tf2-fp32-bs128");
    // A BERT case meets its framework's own README table (the report's column has the same
    // figures, fewer topologies), never a ResNet-50 table. (NGC MXNet's format reads ResNet-50
    // logs only.)
    EXPECT_EQ(id("fp32", 32, "bert", framework("ngc-pytorch-bert")),
              "dlperf-ngc-pytorch-bert-fp32-bs32");
    // A BERT case of no known format: OneFlow's figures, as the report's first column gave
    // (now from OneFlow's own report table, first of the BERT tables).
    EXPECT_EQ(id("fp32", 32, "bert", ""), "dlperf-oneflow-bert-fp32-bs32");
    EXPECT_EQ(id("fp16", 64, "bert", ""), "dlperf-oneflow-bert-fp16-bs64");
    EXPECT_EQ(cat.lookup("fp16", 160, "4n8g", "bert")->throughput,
              cat.lookup("dlperf-report-v1-bert-amp-bsmax:OneFlow 0.2.0, batch 160", "4n8g")
                  ->throughput);
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
