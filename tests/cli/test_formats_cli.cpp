// scaleview-cli on the gluon, MindSpore and OneFlow formats: the formats list, and
// `summarize --format dlperf` printing exactly the script's output on standard output (OneFlow's
// Markdown tables) with notes on standard error.

#include "core/report/dlperfview.h"
#include "tests/support/logwriter.h"
#include "tests/support/gluonwriter.h"
#include "tests/support/oneflowwriter.h"
#include "tests/support/process.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(FormatsCli, ListsTheGluonMindsporeAndOneflowFormats) {
    const auto r = cli({"formats"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const char* id : {"mxnet-gluoncv-rn50\n", "mxnet-gluonnlp-bert\n", "mindspore-rn50\n",
                           "mindspore-bert\n", "oneflow-cnn\n", "oneflow-bert\n"})
        EXPECT_NE(r.out.find(id), std::string::npos) << id << r.out;
    EXPECT_NE(r.out.find("MxNet/BERT/extract_mxnet_logs.py"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("defaults: warmup 100, iterations 200"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("defaults: warmup 19, iterations 119"), std::string::npos) << r.out;
}

// Two batch sizes in one directory, as DLPerf's script takes them: stdout is its Markdown.
TEST(FormatsCli, OneflowDlperfIsTheScriptsMarkdownOnStdout) {
    TempDir dir;
    writeOneflowTree(dir / "oneflow", false);
    const auto r = cli({"summarize", (dir / "oneflow").string(), "--format", "dlperf"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    LoadOptions load;
    load.measure.formatDefaults = true;
    const Summary s = summarizeDirectory(dir / "oneflow", load, {});
    const DlperfView view = dlperfView(s, Method::Time);
    EXPECT_EQ(r.out, dlperfText(view));
    EXPECT_EQ(r.out.rfind("## All Results\n| num_nodes | gpu_num_per_node | "
                          "batch_size_per_device | throughput |\n",
                          0),
              0u)
        << r.out;
    EXPECT_EQ(r.err.find("|"), std::string::npos) << r.err;
}

// gluon-cv has only extract_mxnet_logs.py: --method time prints its JSON, with a note.
TEST(FormatsCli, GluoncvTimeMethodSaysWhichScript) {
    TempDir dir;
    writeGluoncvTree(dir / "bz128");
    const auto r = cli({"summarize", (dir / "bz128").string(), "--format", "dlperf"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto json = nlohmann::json::parse(r.out);
    EXPECT_TRUE(json.contains("rn50")) << r.out;
    EXPECT_NE(r.err.find("DLPerf has no --method time script for mxnet-gluoncv-rn50"),
              std::string::npos)
        << r.err;
}
