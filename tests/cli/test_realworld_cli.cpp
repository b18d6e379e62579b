// Issue 26 from the command line: summarize DIR and summarize FILE... on the real logs of
// ../shared/data/realworld-logs as found, and on a generated mixed folder.

#include "tests/support/logwriter.h"
#include "tests/support/process.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
}

TEST(RealWorldCli, SummarizeTheFolderAsFound) {
    SKIP_WITHOUT_REAL_LOGS();
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
    SKIP_WITHOUT_REAL_LOGS();
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
                           "dllogger-tf", "gluonnlp-throughput", "dllogger-json",
                           "tf-cnn-benchmarks", "keras-timehistory", "pytorch-progressmeter"})
        EXPECT_NE(r.out.find(id), std::string::npos) << id;
}

// The families no real log of shared/ shows, generated, from the command line: tf_cnn_benchmarks
// under Horovod on two hosts (NCCL lines of its 8 ranks: 2n4g; each rank's images/sec times 8),
// a DLLogger JSON stream whose last line has no newline (read), and the PyTorch ImageNet
// example's step times with the batch from a scaleview.json.
TEST(RealWorldCli, TheOtherFamiliesFromTheCommandLine) {
    TempDir dir;
    std::string tf;
    for (int r = 0; r < 8; ++r)
        tf += "[1," + std::to_string(r) + "]<stdout>:node" + std::to_string(r / 4 + 1) +
              ":77:78 [" + std::to_string(r % 4) + "] NCCL INFO Init COMPLETE\n[1," +
              std::to_string(r) + "]<stdout>:Batch size:  256 global\n[1," + std::to_string(r) +
              "]<stdout>:             32 per device\n";
    for (int k = 0; k < 30; ++k)
        for (int r = 0; r < 8; ++r)
            tf += "[1," + std::to_string(r) + "]<stdout>:" + std::to_string(k * 10 + 1) +
                  "\timages/sec: " + (k < 2 ? "40.0" : "360.0") +
                  " +/- 0.3 (jitter = 1.1)\t7.912\n";
    writeFile(dir / "tf" / "horovod.out", tf);
    std::string dll = "DLLL {\"type\": \"PARAMETER\", \"data\": {\"batch_size\": 256, "
                      "\"amp\": true, \"world_size\": 8}}\n";
    for (int k = 1; k <= 30; ++k)
        dll += "DLLL {\"type\": \"LOG\", \"step\": [0, " + std::to_string(k) +
               "], \"data\": {\"train.total_ips\": " + (k == 30 ? "9999.5" : "9000.5") + "}}\n";
    dll.pop_back();
    writeFile(dir / "pt" / "dllogger.json.log", dll);
    std::string pm = "python main.py -a resnet50 --multiprocessing-distributed --world-size 1 "
                     "--rank 0 /imagenet\nUse GPU: 0 for training\nUse GPU: 1 for training\n";
    for (int k = 0; k < 30; ++k)
        pm += "Epoch: [0][" + std::to_string(k * 10) +
              "/5005]\tTime  0.100 ( 0.120)\tData  0.001 "
              "( 0.100)\tLoss 6.9 (6.9)\tAcc@1   0.00 (  0.10)\tAcc@5   0.78 (  0.51)\n";
    writeFile(dir / "pm" / "train.txt", pm);
    writeFile(dir / "pm" / "scaleview.json", R"({"files": {"train.txt": {"batch": 64}}})");
    const auto r = cli({"summarize", dir.path().string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 3u) << r.out.substr(0, 400);
    for (const auto& run : j["runs"]) {
        SCOPED_TRACE(run.dump().substr(0, 300));
        ASSERT_EQ(run["status"], "complete");
        const std::string path = run["path"];
        const double t = run["throughput_time"];
        if (path.rfind("tf/", 0) == 0) {
            EXPECT_EQ(run["format"], "tf-cnn-benchmarks");
            EXPECT_EQ(run["topology"], "2n4g");
            EXPECT_EQ(run["batch_size_per_device"], 32);
            EXPECT_NEAR(t, 360.0 * 8, 1e-6);
        } else if (path.rfind("pt/", 0) == 0) {
            EXPECT_EQ(run["format"], "dllogger-json");
            EXPECT_EQ(run["precision"], "fp16");
            EXPECT_NEAR(t, 9000.5, 1e-6); // 27 reports: the 30th, without its newline, read
            const std::string notes = run["notes"].dump();
            EXPECT_NE(notes.find("has no newline: read"), std::string::npos) << notes;
        } else {
            EXPECT_EQ(run["format"], "pytorch-progressmeter");
            EXPECT_EQ(run["topology"], "1n2g");
            EXPECT_NEAR(t, 64.0 * 2 / 0.1, 1e-6);
        }
    }
}

// Issue 37, items 3 and 6: a tokens/s log's table names its unit and what its figure is, with or
// without a window given: its own reports, never "time method" or "images/s", and no negative
// window.
TEST(RealWorldCli, ATokensLogsTableSaysItsUnitAndItsOwnReports) {
    TempDir dir;
    writeFile(dir / "bert_base_pretrain.log",
              gluonnlpLog("0,1,2,3,4,5,6,7", 60, [](int) { return 133000.0; }));
    for (const std::vector<std::string>& window :
         {std::vector<std::string>{},
          std::vector<std::string>{"--warmup", "1", "--iterations", "10"}}) {
        std::vector<std::string> args{"summarize", (dir / "bert_base_pretrain.log").string()};
        args.insert(args.end(), window.begin(), window.end());
        const auto r = cli(args);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const std::string header = r.out.substr(0, r.out.find('\n'));
        EXPECT_NE(header.find("throughput in tokens/s, the log's own reports"), std::string::npos)
            << header;
        EXPECT_EQ(header.find("method"), std::string::npos) << header;
        EXPECT_EQ(r.out.find("images/s"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("-1"), std::string::npos) << r.out;
        if (!window.empty()) {
            EXPECT_NE(header.find("the log's own reports 1-9"), std::string::npos) << header;
        }
    }
}
