// probes.json written through the one atomic write (issue 36): a symlink planted at the name its
// temporary had (probes.json.tmp) in a shared campaign folder is never written through.

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
