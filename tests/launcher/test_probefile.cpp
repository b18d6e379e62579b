// probes.json written through the one atomic write (issue 36): a symlink planted at the name its
// temporary had (probes.json.tmp) in a shared campaign folder is never written through.

#include "launcher/probe/caseprobes.h"
#include "launcher/probe/probe.h"

#include "tests/support/files.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;

namespace fs = std::filesystem;

TEST(ProbeFile, ASymlinkPlantedAtItsTemporaryIsNeverWrittenThrough) {
    TempDir dir;
    const fs::path victim = dir / "victim.txt";
    writeFile(victim, "precious\n");
    const fs::path campaign = dir / "campaign";
    fs::create_directories(campaign);
    fs::create_symlink(victim, campaign / "probes.json.tmp");
    const sv::AllReduceProbe probe{"gloo", 1 << 20, 2, {0.010, 0.011, 0.012}};
    ASSERT_EQ(sv::launcher::appendProbeRecords(campaign, {"1n2g", "r50", "fp32", 16}, {}, {probe}),
              "");
    EXPECT_EQ(readWhole(victim), "precious\n");
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(campaign / "probes.json")));
    const auto j = nlohmann::json::parse(readWhole(campaign / "probes.json"));
    ASSERT_EQ(j["probes"].size(), 1u);
    EXPECT_EQ(j["probes"][0]["backend"], "gloo");
}

// Issue 37's polish: during a run the probes' line read "alone at 1 rank(s) 41.20 samples/s per
// device" beside the progress's "images/s": the same workload's figure in one unit, counted in
// words.
TEST(ProbeFile, TheCasesProbeLineIsInTheRunsUnitAndCountsInWords) {
    sv::launcher::CaseProbeOutcome o;
    o.solo.push_back({"localhost", 1, 41.2, {}});
    o.solo.push_back({"n2", 2, 39.5, {}});
    o.allReduce = sv::AllReduceProbe{"gloo", 102.4e6, 2, {0.010, 0.012, 0.011}};
    const std::string line = o.summary("r50_b16_fp32 1n2g");
    EXPECT_NE(line.find("localhost alone at 1 rank, 41.20 images/s per rank;"), std::string::npos)
        << line;
    EXPECT_NE(line.find("n2 alone at 2 ranks, 39.50 images/s per rank;"), std::string::npos)
        << line;
    EXPECT_NE(line.find("all-reduce of 102.4 MB across 2 ranks (gloo) 11.0 ms"), std::string::npos)
        << line;
    EXPECT_EQ(line.find("samples/s"), std::string::npos) << line;
    EXPECT_EQ(line.find("(s)"), std::string::npos) << line;
}
