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
