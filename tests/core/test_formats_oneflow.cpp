// OneFlow CNN and BERT logs: detection, topology and batch from the log's header, the Markdown
// tables DLPerf's extract_cnn_result.py / extract_bert_result.py print (from running them on
// these very logs), and broken logs.

#include "tests/support/formattest.h"
#include "core/report/dlperfview.h"
#include "core/formats/formatregistry.h"
#include "tests/support/logwriter.h"
#include "tests/support/oneflowwriter.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

std::string oneflowTables(const Summary& s) {
    const DlperfView view = dlperfView(s, Method::Time);
    EXPECT_NE(view.format, nullptr);
    EXPECT_EQ(view.format->dlperfOutput, DlperfOutput::MarkdownTables);
    return dlperfText(view);
}

} // namespace

TEST(OneflowFormats, LinesAreDetectedAsTheirFormat) {
    OneflowSpec spec;
    const LogFormat* cnn = detectLogFormat(makeOneflowLog(spec));
    ASSERT_NE(cnn, nullptr);
    EXPECT_EQ(cnn->id, "oneflow-cnn");
    spec.bert = true;
    const LogFormat* bert = detectLogFormat(makeOneflowLog(spec));
    ASSERT_NE(bert, nullptr);
    EXPECT_EQ(bert->id, "oneflow-bert");
    EXPECT_EQ(bert->defaultWarmup, 19);
    EXPECT_EQ(bert->defaultIterations, 119);
}

// Expected: the stdout of DLPerf's extract_cnn_result.py --benchmark_log_dir on this tree.
TEST(OneflowFormats, CnnPrintsDlperfsMarkdownTables) {
    TempDir dir;
    writeOneflowTree(dir / "oneflow", false);
    const Summary s = summarizeDirectory(dir / "oneflow", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 15u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "oneflow-cnn") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    const std::string golden =
        "## All Results\n"
        "| num_nodes | gpu_num_per_node | batch_size_per_device | throughput |\n"
        "| -------- | -------- | -------- | -------- |\n"
        "| 1 | 1 | 128 | 426.33 |\n"
        "| 1 | 1 | 128 | 423.93 |\n"
        "| 1 | 1 | 128 | 421.55 |\n"
        "| 1 | 8 | 128 | 3300.67 |\n"
        "| 1 | 8 | 128 | 3282.68 |\n"
        "| 1 | 8 | 128 | 3264.89 |\n"
        "| 1 | 8 | 64 | 2998.71 |\n"
        "| 1 | 8 | 64 | 2969.15 |\n"
        "| 1 | 8 | 64 | 2940.16 |\n"
        "| 2 | 8 | 128 | 6201.55 |\n"
        "| 2 | 8 | 128 | 6169.79 |\n"
        "| 2 | 8 | 128 | 6138.35 |\n"
        "| 2 | 8 | 64 | 5634.42 |\n"
        "| 2 | 8 | 64 | 5582.21 |\n"
        "| 2 | 8 | 64 | 5530.95 |\n"
        "\n"
        "## Filtered Result `median value`\n"
        "| num_nodes | gpu_num_per_node | batch_size_per_device | throughput | speedup |\n"
        "| -------- | -------- | -------- | -------- | -------- |\n"
        "| 1 | 1 | 128 | 423.93 | 1.00 |\n"
        "| 1 | 8 | 128 | 3282.68 | 7.74 |\n"
        "| 2 | 8 | 128 | 6169.79 | 14.55 |\n"
        "| 1 | 8 | 64 | 2969.15 | 0.00 |\n"
        "| 2 | 8 | 64 | 5582.21 | 0.00 |\n";
    EXPECT_EQ(oneflowTables(s), golden);
}

// Expected: the stdout of DLPerf's extract_bert_result.py --benchmark_log_dir on this tree.
TEST(OneflowFormats, BertPrintsDlperfsMarkdownTables) {
    TempDir dir;
    writeOneflowTree(dir / "oneflow", true);
    const Summary s = summarizeDirectory(dir / "oneflow", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    const std::string golden =
        "## All Results\n"
        "| num_nodes | gpu_num_per_node | batch_size_per_device | throughput |\n"
        "| -------- | -------- | -------- | -------- |\n"
        "| 1 | 1 | 96 | 319.74 |\n"
        "| 1 | 1 | 96 | 317.94 |\n"
        "| 1 | 1 | 96 | 316.16 |\n"
        "| 1 | 8 | 96 | 2475.50 |\n"
        "| 1 | 8 | 96 | 2462.01 |\n"
        "| 1 | 8 | 96 | 2448.67 |\n"
        "| 2 | 8 | 96 | 4651.16 |\n"
        "| 2 | 8 | 96 | 4627.34 |\n"
        "| 2 | 8 | 96 | 4603.76 |\n"
        "\n"
        "## Filtered Result `median value`\n"
        "| num_nodes | gpu_num_per_node | batch_size_per_device | throughput | speedup |\n"
        "| -------- | -------- | -------- | -------- | -------- |\n"
        "| 1 | 1 | 96 | 317.94 | 1.00 |\n"
        "| 1 | 8 | 96 | 2462.01 | 7.74 |\n"
        "| 2 | 8 | 96 | 4627.34 | 14.55 |\n";
    EXPECT_EQ(oneflowTables(s), golden);
}

// The header, not the path, says the topology and batch (DLPerf only globs the path).
TEST(OneflowFormats, TopologyAndBatchComeFromTheHeader) {
    TempDir dir;
    OneflowSpec spec;
    spec.nodes = 2;
    spec.gpus = 8;
    spec.batch = 64;
    writeFile(dir / "1n1g/bert_base_b128_fp32_0.log", makeOneflowLog(spec));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs[0];
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_EQ(r.key.topology, (Topology{2, 8}));
    EXPECT_EQ(r.key.batchPerDevice, 64);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_NE(r.notes[0].find("header says 2n8g, batch 64 per device; its path 1n1g, batch 128"),
              std::string::npos)
        << r.notes[0];
    // 64 x 16 x 100 examples over iterations 20 to 120: 5 x 20 x 0.25 s + 3 ms x (2+3+0+1+2).
    EXPECT_EQ(*r.timeThroughput, 4092.07);
}

TEST(OneflowFormats, BrokenLogsSayWhyAndCrlfReadsAsLf) {
    TempDir dir;
    OneflowSpec spec;
    spec.lines = 4; // truncated: iterations 20 to 80
    writeFile(dir / "1n1g/bert_base_b128_fp32_0.log", makeOneflowLog(spec));
    spec.lines = 6;
    spec.header = false;
    writeFile(dir / "1n1g/bert_base_b128_fp32_1.log", makeOneflowLog(spec));
    spec.header = true;
    std::string garbage = makeOneflowLog(spec);
    const auto nl = garbage.rfind(' ');
    garbage.replace(nl + 1, garbage.size() - nl - 2, "garbage");
    garbage.insert(garbage.find("train: epoch 0, iter 40"),
                   std::string("\x00\xff num_nodes\n", 13));
    writeFile(dir / "1n1g/bert_base_b128_fp32_2.log", garbage);
    spec.eol = "\r\n";
    writeFile(dir / "1n1g/bert_base_b128_fp32_3.log", makeOneflowLog(spec));
    spec.eol = "\n";
    writeFile(dir / "1n1g/bert_base_b128_fp32_4.log", makeOneflowLog(spec));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 5u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Incomplete);
    EXPECT_EQ(s.runs[0].reason, "no line of iteration 120 (the last is 80)");
    EXPECT_EQ(s.runs[1].status, RunStatus::Unusable);
    EXPECT_EQ(s.runs[1].reason, "no \"num_nodes = N\" line in the log's header");
    EXPECT_FALSE(s.runs[1].dlperfNote.empty());
    EXPECT_EQ(s.runs[2].status, RunStatus::Unusable);
    EXPECT_EQ(s.runs[2].reason, "no Unix timestamp at the end of line 14");
    for (int i : {3, 4}) {
        ASSERT_EQ(s.runs[i].status, RunStatus::Complete) << s.runs[i].reason;
        EXPECT_EQ(*s.runs[i].dlperfThroughput, *s.runs[4].dlperfThroughput);
    }
}
