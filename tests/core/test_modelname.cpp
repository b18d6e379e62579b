// Issue 27: one model under its runners' spellings is one model, and compared series are named
// after what tells them apart.

#include "tests/support/formatlogs.h"
#include "tests/support/formattest.h"
#include "tests/support/logwriter.h"

#include "core/compare/comparison.h"
#include "core/compare/serieslabels.h"
#include "core/load/logscan.h"
#include "core/model/modelname.h"
#include "core/report/dlperfview.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(ModelName, ResNet50UnderEverySpellingIsR50) {
    for (const char* name : {"r50", "rn50", "resnet50", "ResNet50", "resnet-50", "resnet_50",
                             "resnet50v1.5", "resnet50_v1.5", "resnet50-v1.5", "rn50_v1.5",
                             "RN50", "r50v15", "resnet50_v1b", "ResNet50_v1b"})
        EXPECT_EQ(canonicalModel(name), "r50") << name;
    // Other models, and other ResNets, as named.
    for (const char* name : {"resnet101", "r100", "resnet50v2", "bert_base", "bert", "y1",
                             "resnet50x", "rn501", "vgg16", "resnet50_v1c",
                             "resnet50_v1d"})
        EXPECT_EQ(canonicalModel(name), name) << name;
}

// DLPerf's TensorFlow 2 runner names its logs rn50_..., the NGC MXNet samples r50_...: their
// cases met nowhere ("only in" on every row). They are one model's cases now, and match case by
// case, while the DLPerf view still keys them by the file's own name, as DLPerf's script does.
TEST(ModelName, ATensorFlow2TreeMeetsAnNgcMxnetTreeCaseByCase) {
    TempDir tf2, mxnet;
    writeTf2Rn50Tree(tf2.path() / "tensorflow" / "resnet50"); // rn50_b128_fp32, 1n1g 1n8g 2n8g
    for (const auto& [topo, ranks] : {std::pair<std::string, int>{"1n1g", 1}, {"1n8g", 8}})
        for (int rep = 1; rep <= 3; ++rep) {
            RunSpec spec;
            spec.ranks = ranks;
            writeFile(mxnet.path() / "mxnet" / "resnet50" / topo /
                          ("r50_b128_fp32_" + std::to_string(rep) + ".log"),
                      makeLog(spec, [](int, int) { return std::string("390.5"); }));
        }
    const LoadOptions load = dlperfDefaults();
    const Summary a = summarizeDirectory(mxnet.path() / "mxnet" / "resnet50", load, {});
    const Summary b = summarizeDirectory(tf2.path() / "tensorflow" / "resnet50", load, {});
    ASSERT_EQ(a.cases.size(), 2u);
    ASSERT_EQ(b.cases.size(), 3u);
    for (const auto& c : b.cases)
        EXPECT_EQ(c.key.model, "r50");
    const Comparison cmp =
        compareSeries({ComparisonSeries{"a", "a", Method::Time, a.cases},
                       ComparisonSeries{"b", "b", Method::Time, b.cases}});
    ASSERT_EQ(cmp.cases.size(), 3u); // 1n1g and 1n8g met; 2n8g only in the TensorFlow 2 tree
    EXPECT_TRUE(cmp.cases[0].medians[0] && cmp.cases[0].medians[1]);
    EXPECT_TRUE(cmp.cases[1].medians[0] && cmp.cases[1].medians[1]);
    EXPECT_NE(cmp.cases[0].contrasts[0].verdict, Verdict::OnlyInA);
    EXPECT_NE(cmp.cases[0].contrasts[0].verdict, Verdict::OnlyInB);
    EXPECT_EQ(cmp.cases[2].contrasts[0].verdict, Verdict::OnlyInB);
    // DLPerf's script's output keys the model by its file name.
    const DlperfView view = dlperfView(b, Method::Speed);
    ASSERT_FALSE(view.summary.cases.empty());
    EXPECT_EQ(view.summary.cases.front().key.model, "rn50");

    // Named after what tells them apart: their frameworks, else their folders.
    const std::string ma = (mxnet.path() / "mxnet" / "resnet50").string();
    const std::string tb = (tf2.path() / "tensorflow" / "resnet50").string();
    EXPECT_EQ(distinguishingLabels({{ma, {"NGC MXNet"}}, {tb, {"TensorFlow 2"}}}),
              (std::vector<std::string>{"resnet50 (NGC MXNet)", "resnet50 (TensorFlow 2)"}));
    EXPECT_EQ(distinguishingLabels({{ma, {}}, {tb, {"TensorFlow 2"}}}),
              (std::vector<std::string>{"mxnet/resnet50", "tensorflow/resnet50"}));
    EXPECT_EQ(distinguishingLabels({{ma, {"NGC MXNet"}}, {ma + "/", {"NGC MXNet"}}}),
              (std::vector<std::string>{"resnet50", "resnet50 (2)"}));
    EXPECT_EQ(distinguishingLabels({{ma, {}}, {tb + "/../other", {}}}),
              (std::vector<std::string>{"resnet50", "other"}));
}
