// The DLPerf report's BERT-base tables and the InsightFace report's throughput tables among the
// published references, and the lookup that gives each log format its own framework's series
// of the right model.

#include "tests/support/formatlogs.h"
#include "core/reference/referencecatalog.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(FormatReferences, BertAndInsightFaceTablesLoadWithSourceAndHardware) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    for (const char* id : {"dlperf-report-v1-bert-fp32-bs32", "dlperf-report-v1-bert-fp32-bsmax",
                           "dlperf-report-v1-bert-amp-bs64", "dlperf-report-v1-bert-amp-bsmax"}) {
        const ReferenceTable* t = cat.find(id);
        ASSERT_NE(t, nullptr) << id;
        EXPECT_EQ(t->model, "bert");
        EXPECT_NE(t->source.find("dlperf_benchmark_test_report_v1.md"), std::string::npos);
        EXPECT_NE(t->hardware.find("V100"), std::string::npos) << t->hardware;
        EXPECT_GE(t->series.size(), 6u);
    }
    int face = 0;
    for (const auto& t : cat.tables())
        if (t.id.rfind("dlperf-insightface-", 0) == 0) {
            ++face;
            EXPECT_TRUE(t.model == "r100" || t.model == "y1") << t.id;
            EXPECT_NE(t.source.find("dlperf_insightface_test_report_v1.md"), std::string::npos);
        }
    EXPECT_EQ(face, 16);
    // Figures as printed: FP32 max batch, NGC PyTorch at 48 per GPU on 4 nodes.
    const auto v =
        cat.lookup("dlperf-report-v1-bert-fp32-bsmax:NGC PyTorch 1.5.0a0, batch 48", "4n8g");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->throughput, 3039.30);
    EXPECT_EQ(v->series->batchPerDevice, 48);
}

TEST(FormatReferences, LookupPicksTheFormatsFrameworkAndModel) {
    const ReferenceCatalog& cat = ReferenceCatalog::builtin();
    auto at = [&](const char* precision, int batch, const char* topo, const char* model,
                  const char* framework) {
        return cat.lookup(precision, batch, topo, model, framework);
    };
    auto tf1 = at("fp32", 32, "1n8g", "bert", "NGC TensorFlow 1");
    ASSERT_TRUE(tf1);
    // NGC TensorFlow 1's own BERT README table (the report's column copies its figures).
    EXPECT_EQ(tf1->table->id, "dlperf-ngc-tf1-bert-fp32-bs32");
    EXPECT_EQ(tf1->throughput, 790.03);
    EXPECT_EQ(at("fp32", 32, "2n8g", "bert-base-adam-training", "NGC PyTorch")->throughput,
              1499.40);
    EXPECT_EQ(at("fp32", 32, "4n8g", "bert", "PaddlePaddle")->throughput, 2073.60);
    // ResNet-50 under its other names, each framework its own column of the report.
    EXPECT_EQ(at("fp32", 128, "1n8g", "rn50", "TensorFlow 2")->throughput, 2458.74);
    EXPECT_EQ(at("fp32", 128, "1n8g", "r50", "PyTorch")->throughput, 2632.93);
    EXPECT_EQ(at("fp32", 128, "1n8g", "r50", "NGC PyTorch")->throughput, 2887.65);
    EXPECT_EQ(at("fp32", 128, "1n8g", "r50", "NGC MXNet")->table->id,
              "dlperf-ngc-mxnet-fp32-bs128");
    // A ResNet-50 run of batch 64 is no InsightFace R100 run of batch 64.
    EXPECT_FALSE(at("fp32", 64, "1n8g", "r50", "NGC MXNet"));
    EXPECT_EQ(at("fp32", 64, "1n8g", "r100", "")->table->id,
              "dlperf-insightface-emore-r100-dp-bs64");
    // Without a model, ResNet-50's tables only, as before.
    EXPECT_FALSE(cat.lookup("fp32", 64, "1n1g"));
    EXPECT_FALSE(cat.lookup("fp32", 32, "1n1g"));
}

// A summarized NGC TF BERT tree meets NGC TensorFlow 1's own BERT table (DLPerf's README; the
// report's NGC TensorFlow 1 column has the same figures).
TEST(FormatReferences, NgcTfBertCasesMeetTheirReportColumn) {
    TempDir dir;
    writeNgcTfBertTree(dir.path());
    LoadOptions load;
    load.measure.formatDefaults = true;
    load.threads = 2;
    const Summary s = summarizeDirectory(dir.path(), load, {});
    ASSERT_EQ(s.cases.size(), 3u);
    for (const auto& c : s.cases) {
        ASSERT_TRUE(c.reference) << c.key.topology.name();
        EXPECT_EQ(c.reference->table->id, "dlperf-ngc-tf1-bert-fp32-bs32");
        EXPECT_EQ(c.reference->series->name, "NGC TensorFlow 1.15.2");
    }
    EXPECT_EQ(s.cases[1].reference->throughput, 790.03); // 1n8g
}
