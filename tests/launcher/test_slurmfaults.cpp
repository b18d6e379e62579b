// What Slurm itself ends, on a real private cluster of its own (its slurmd timeout short, so
// that a dead node is noticed in seconds): an emulated node's slurmd killed mid-run, and a job
// that reaches its time limit. Slurm checks time limits every 30 s from slurmctld's start, so a
// 1-minute job started within the first 30 s ends at about 90 s: the node test runs first,
// inside that window, and this binary is a ctest of its own that runs beside the others.

#include "slurmtest.h"

#include <csignal>
#include <fstream>

using namespace sv::test;

namespace {
// Seconds without an answer before slurmctld sets a node DOWN: short, for this cluster only
// (slurmd answers a ping in milliseconds; 5 s leaves room on a loaded machine).
constexpr int kSlurmdTimeout = 5;
} // namespace

TEST(SlurmFaults, ADeadNodeEndsTheRunFailedNamingItAndTheCampaignGoesOn) {
    NEED_CLUSTER();
    const std::string dir = tempDir("slurm-nodefail");
    // A run on several ranks goes on until stopped (only the node failure can end the first
    // run); a run on one rank ends after its iterations.
    const std::string profile = dir + "/fake-profile.json";
    std::ofstream(profile) << R"J({"name": "fake", "label": "fake workload (tests)", "model": "r50",
      "logRoot": "logs/fake", "defaultLauncher": "mpirun",
      "launchers": {"mpirun": ["mpirun", "-np", "{ranks}"]},
      "program": ["/bin/sh", "-c",
                  "[ \"$WORLD_SIZE\" -gt 1 ] && set -- \"$@\" --hang; exec /usr/bin/python3 )J"
                           << kFake << R"J( \"$@\"", "fake"],
      "args": ["--iterations", "{iterations}", "--batch", "{batch}", "--interval", "0.05"]})J";
    const std::string out = g_cluster->jobsDir() + "/nodefail";
    const std::string log = out + "/logs/fake/bz2/2n1g/r50_b2_fp32_1.log";
    // Then a run on one node: it fits on the node left.
    auto args = slurmCliArgs(profile, out, "2n1g,1n1g");
    const pid_t cli = spawn(args, dir + "/cli.log");
    ASSERT_TRUE(
        waitUntil([&] { return loggedRanks(readFile(log)).size() == 2; }, std::chrono::seconds(30)))
        << readFile(dir + "/cli.log");
    const pid_t slurmd = g_cluster->slurmdPid(2);
    ASSERT_GT(slurmd, 0);
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(slurmd, SIGKILL), 0);
    // The first run ends when slurmctld gives node2 up, the second runs on node1.
    ASSERT_TRUE(waitUntil([&] { return journalEnds(out).size() >= 1; }, std::chrono::seconds(60)))
        << readFile(dir + "/cli.log");
    std::printf("slurmd killed to the run's end: %.1f s\n", since(t0));
    EXPECT_EQ(waitExit(cli), 1) << readFile(dir + "/cli.log");
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 2u) << readFile(out + "/journal.jsonl");
    EXPECT_EQ(ends[0]["state"], "failed") << ends[0].dump();
    const std::string reason = ends[0]["reason"];
    const auto ids = journalJobIds(out);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_NE(reason.find("Slurm job " + ids[0] + ": node node2 failed (Not responding)"),
              std::string::npos)
        << reason;
    EXPECT_EQ(ends[0]["host"], "node2") << ends[0].dump();
    EXPECT_EQ(ends[1]["state"], "ok") << ends[1].dump();
    EXPECT_TRUE(g_cluster->jobs().empty());

    // node2 back for the next test: its slurmd registers again, and Slurm stops what the dead
    // slurmd left running of the failed job.
    const auto restarted = g_cluster->startSlurmd(2);
    ASSERT_EQ(restarted.exitCode, 0) << restarted.err;
    EXPECT_TRUE(g_cluster->waitIdle(std::chrono::seconds(30)));
    EXPECT_TRUE(waitUntil([&] { return leftoverOf(out).empty(); }, std::chrono::seconds(20)))
        << leftoverOf(out).size() << " processes of the failed job are left";
    std::filesystem::remove_all(dir);
}

TEST(SlurmFaults, ATimeLimitEndsTheRunTimeoutWithTheReason) {
    NEED_CLUSTER();
    const std::string dir = tempDir("slurm-timeout");
    const auto profile = writeFakeProfile(dir, {"--hang", "--interval", "0.05"});
    const std::string out = g_cluster->jobsDir() + "/timeout";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess(slurmCliArgs(profile, out, "2n1g", {"--slurm-time", "1"}));
    std::printf("1-minute job to the run's end: %.1f s\n", since(t0));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err;
    EXPECT_EQ(ends[0]["state"], "timeout") << ends[0].dump();
    const std::string reason = ends[0]["reason"];
    EXPECT_NE(reason.find("Slurm job " + journalJobIds(out).at(0) +
                          " reached its time limit of 00:01:00 on node[1-2]"),
              std::string::npos)
        << reason;
    EXPECT_TRUE(g_cluster->jobs().empty());
    EXPECT_TRUE(leftoverOf(out).empty());
    std::filesystem::remove_all(dir);
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(
        new SlurmClusterEnvironment({.slurmdTimeout = kSlurmdTimeout, .spankPlugin = ""}));
    return RUN_ALL_TESTS();
}
