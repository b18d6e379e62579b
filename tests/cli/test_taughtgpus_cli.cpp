// scaleview-cli summarize on a taught Horovod log (issue 37, item 1): the 8-GPU job is 8 GPUs at
// its total, a 1-GPU log beside it is another case, and a log that states no count prints "?",
// never "nodes 0, GPUs 0".

#include "tests/support/files.h"
#include "tests/support/freshtrainer.h"
#include "tests/support/horovodlog.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(TaughtGpusCli, AnEightGpuHorovodJobIsEightGpusAtItsTotal) {
    TempDir dir;
    writeFile(dir / "hvd.json", horovodFormat("hvd-synthetic"));
    const auto eight = writeHorovodLog(dir / "runs" / "hvd8" / "horovod.log", {.gpus = 8});
    writeHorovodLog(dir / "runs" / "hvd1" / "horovod.log", {.gpus = 1, .perGpu = 257, .seed = 2});
    const auto r = cli({"summarize", (dir / "runs").string(), "--format-file",
                        (dir / "hvd.json").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["cases"].size(), 2u) << r.out; // never one case of two repeats
    bool sawEight = false;
    for (const auto& c : j["cases"]) {
        EXPECT_EQ(c["values"].size(), 1u) << c.dump();
        if (c["gpus"].get<int>() != 8) continue;
        sawEight = true;
        // The median of the per-GPU values after the first tenth, times 8: the job's figure.
        const double median = medianAfterFirstTenth(eight);
        EXPECT_NEAR(c["median_speed"].get<double>(), median * 8, 0.01) << c.dump();
    }
    EXPECT_TRUE(sawEight) << r.out;

    const auto table =
        cli({"summarize", (dir / "runs").string(), "--format-file", (dir / "hvd.json").string()});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_EQ(table.err.find("CV"), std::string::npos) << table.err; // no repeats to disagree
}

TEST(TaughtGpusCli, ALogThatStatesNoCountPrintsAQuestionMark) {
    TempDir dir;
    writeFile(dir / "hvd.json", horovodFormat("hvd-synthetic", false));
    writeHorovodLog(dir / "runs" / "horovod.log", {.stated = false, .tags = false});
    const auto r =
        cli({"summarize", (dir / "runs").string(), "--format-file", (dir / "hvd.json").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    EXPECT_EQ(r.out.find("    0     0 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("    ?     ?       1"), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find("0n0g"), std::string::npos) << r.err;
    // Rank 0's tags alone are no count either: "?", not 1 node x 1 GPU.
    writeHorovodLog(dir / "tagged" / "horovod.log", {.stated = false});
    const auto t =
        cli({"summarize", (dir / "tagged").string(), "--format-file", (dir / "hvd.json").string()});
    ASSERT_EQ(t.exitCode, 0) << t.err << t.out;
    EXPECT_NE(t.out.find("    ?     ?       1"), std::string::npos) << t.out;
    EXPECT_EQ(t.out.find("    1     1       1"), std::string::npos) << t.out;
}

// JSON and CSV wrote 0 for what the table prints as "?": a reader summing GPUs or plotting
// batches took unknown for a figure. Unknown counts are null in JSON and empty in CSV.
TEST(TaughtGpusCli, UnknownCountsAreNullInJsonAndEmptyInCsv) {
    TempDir dir;
    writeFile(dir / "hvd.json", horovodFormat("hvd-synthetic", false));
    writeHorovodLog(dir / "runs" / "horovod.log",
                    {.stated = false, .tags = false, .batchLine = false});
    const auto r = cli({"summarize", (dir / "runs").string(), "--format-file",
                        (dir / "hvd.json").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["cases"].size(), 1u) << r.out;
    const auto& c = j["cases"][0];
    for (const char* key : {"batch_size_per_device", "topology", "nodes", "gpus_per_node", "gpus"})
        EXPECT_TRUE(c[key].is_null()) << key << ": " << c.dump();
    ASSERT_EQ(c["repeats"].size(), 1u);
    EXPECT_TRUE(c["repeats"][0].is_null()) << c.dump();
    ASSERT_EQ(j["runs"].size(), 1u);
    for (const char* key : {"batch_size_per_device", "topology", "nodes", "gpus_per_node", "repeat"})
        EXPECT_TRUE(j["runs"][0][key].is_null()) << key << ": " << j["runs"][0].dump();
    EXPECT_GT(c["median_speed"].get<double>(), 0.0); // the figure itself is known

    const auto csv = cli({"summarize", (dir / "runs").string(), "--format-file",
                          (dir / "hvd.json").string(), "--format", "csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    const auto row = csv.out.substr(csv.out.find('\n') + 1);
    // model,precision,batch_size_per_device,nodes,gpus_per_node,gpus,method: four empty counts.
    // Its "Model: ResNet50" is stated.
    EXPECT_EQ(row.rfind("r50,?,,,,,time,", 0), 0u) << csv.out;
}

// "Number of GPUs: 8" and rank 0's tags say nothing of the nodes: the case is keyed 1 node x 8
// GPUs, but no output may say 1 node. The table's nodes are "?", the warnings name "8 GPUs", JSON's
// nodes, GPUs per node and topology are null (its GPUs 8) and CSV's empty.
TEST(TaughtGpusCli, GpusStatedWithoutNodesAreNeverOneNode) {
    TempDir dir;
    writeHorovodLog(dir / "runs" / "horovod.log", {.gpus = 8});
    const auto table = cli({"summarize", (dir / "runs").string()});
    ASSERT_EQ(table.exitCode, 0) << table.err << table.out;
    EXPECT_NE(table.out.find("    ?     8       1"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("    1     8       1"), std::string::npos) << table.out;
    const std::string said = table.out + table.err;
    EXPECT_EQ(said.find("1n8g"), std::string::npos) << said;
    EXPECT_NE(said.find("r50 ? b32 8 GPUs: only 1 usable repeat"), std::string::npos) << said;

    const auto r = cli({"summarize", (dir / "runs").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["cases"].size(), 1u);
    ASSERT_EQ(j["runs"].size(), 1u);
    for (const auto* item : {&j["cases"][0], &j["runs"][0]}) {
        for (const char* key : {"topology", "nodes", "gpus_per_node"})
            EXPECT_TRUE((*item)[key].is_null()) << key << ": " << item->dump();
        EXPECT_EQ((*item)["gpus"], 8) << item->dump();
    }
    const auto csv = cli({"summarize", (dir / "runs").string(), "--format", "csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    // model,precision,batch_size_per_device,nodes,gpus_per_node,gpus,method
    EXPECT_EQ(csv.out.substr(csv.out.find('\n') + 1).rfind("r50,?,32,,,8,time,", 0), 0u) << csv.out;
}
