// Issue 26 from the command line: summarize DIR and summarize FILE... on the real logs of
// ../shared/data/realworld-logs as found, and on a generated mixed folder.

#include "tests/support/logwriter.h"
#include "tests/support/process.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;
namespace fs = std::filesystem;

namespace {
const fs::path kReal = SV_REALWORLD_LOGS;
}

TEST(RealWorldCli, SummarizeTheFolderAsFound) {
    ASSERT_TRUE(fs::is_directory(kReal)) << kReal;
    const auto r = cli({"summarize", kReal.string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("note: read 6 files: 5 throughput logs, 1 other file skipped"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("warning:"), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("runs")) << r.out.substr(0, 400);
    EXPECT_EQ(j["runs"].size(), 5u);
    for (const auto& run : j["runs"])
        EXPECT_EQ(run["status"], "complete") << run.dump();
}

TEST(RealWorldCli, SummarizeSingleFiles) {
    const fs::path mlperf =
        kReal / "mlcommons-training_results_v0.6/NVIDIA/results/dgx2_ngc19.05_mxnet/resnet/"
                "result_0.txt";
    const fs::path nlp = kReal / "dmlc-web-data/gluonnlp/logs/bert/bert_base_pretrain.log";
    auto r = cli({"summarize", mlperf.string(), nlp.string(), "--format", "csv"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // Nothing skipped: no scan line, as for a DLPerf tree.
    EXPECT_EQ(r.err.find("read 2 files"), std::string::npos) << r.err;
    // Two cases: ResNet on 16 GPUs, BERT on 8.
    EXPECT_NE(r.out.find(",16,"), std::string::npos) << r.out;
    r = cli({"summarize", mlperf.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("MXNet"), std::string::npos) << r.out;
    // A file that is not a log: exit 2, its name and why.
    r = cli({"summarize", (kReal / "README.md").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("README.md: not a throughput log"), std::string::npos) << r.err;
}

TEST(RealWorldCli, FormatsListsTheRealWorldReaders) {
    const auto r = cli({"formats"});
    ASSERT_EQ(r.exitCode, 0);
    for (const char* id : {"mxnet-speedometer", "gluoncv-speedometer", "dllogger-pytorch",
                           "dllogger-tf", "gluonnlp-throughput"})
        EXPECT_NE(r.out.find(id), std::string::npos) << id;
}
