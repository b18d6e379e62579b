// What Slurm itself ends, on a real private cluster of its own (its slurmd timeout short, so
// that a dead node is noticed in seconds): an emulated node's slurmd killed mid-run, and a job
// that reaches its time limit. slurmctld checks time limits every 30 s from its start (fixed in
// Slurm 22.05), so a 1-minute job started in the cluster's first 30 s ends at about 90 s: that
// campaign starts with the suite, on node1 only, and the dead-node test runs meanwhile.

#include "tests/launcher/slurmtest.h"

#include <algorithm>
#include <csignal>
#include <fstream>

using namespace sv::test;

namespace {

// Seconds without an answer before slurmctld sets a node DOWN: short, for this cluster only.
constexpr int kSlurmdTimeout = 5;

class SlurmFaults : public ::testing::Test {
  protected:
    // The time-limit campaign, started before any test: the slowest thing here is Slurm's own
    // check period, which it waits out while the other test runs.
    static void SetUpTestSuite() {
        if (!g_cluster) return;
        s_dir = tempDir("slurm-timeout");
        s_out = g_cluster->jobsDir() + "/timeout";
        s_started = std::chrono::steady_clock::now();
        s_cli = spawn(slurmCliArgs(writeFakeProfile(s_dir, {"--hang", "--interval", "0.05"}), s_out,
                                   "1n1g",
                                   {"--slurm-time", "1", "--slurm-sbatch-arg", "--nodelist=node1"}),
                      s_dir + "/cli.log");
    }
    static void TearDownTestSuite() {
        if (s_cli > 0 && ::waitpid(s_cli, nullptr, WNOHANG) == 0) {
            ::kill(s_cli, SIGTERM);
            waitExit(s_cli);
        }
        if (!s_dir.empty()) std::filesystem::remove_all(s_dir);
    }

    static inline std::string s_dir, s_out;
    static inline pid_t s_cli = 0;
    static inline std::chrono::steady_clock::time_point s_started;
};

} // namespace

TEST_F(SlurmFaults, ADeadNodeEndsTheRunFailedNamingItAndTheCampaignGoesOn) {
    NEED_RUNNING_CLUSTER(); // the time-limit job runs on node1 meanwhile
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
    const pid_t cli = spawn(slurmCliArgs(profile, out, "2n1g,1n1g"), dir + "/cli.log");
    ASSERT_TRUE(waitUntil([&] { return loggedRanks(readWhole(log)).size() == 2; },
                          std::chrono::seconds(30)))
        << readWhole(dir + "/cli.log");
    const pid_t slurmd = g_cluster->slurmdPid(2);
    ASSERT_GT(slurmd, 0);
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(slurmd, SIGKILL), 0);
    // The first run ends when slurmctld gives node2 up, the second runs on node1.
    ASSERT_TRUE(waitUntil([&] { return journalEnds(out).size() >= 1; }, std::chrono::seconds(60)))
        << readWhole(dir + "/cli.log");
    std::printf("slurmd killed to the run's end: %.1f s\n", since(t0));
    EXPECT_EQ(waitExit(cli), 1) << readWhole(dir + "/cli.log");
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 2u) << readWhole(out + "/journal.jsonl");
    EXPECT_EQ(ends[0]["state"], "failed") << ends[0].dump();
    const std::string reason = ends[0]["reason"];
    const auto ids = journalJobIds(out);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_NE(reason.find("Slurm job " + ids[0] + ": node node2 failed (Not responding)"),
              std::string::npos)
        << reason;
    EXPECT_EQ(ends[0]["host"], "node2") << ends[0].dump();
    EXPECT_EQ(ends[1]["state"], "ok") << ends[1].dump();
    const auto queued = g_cluster->jobs(); // the time-limit job may still be there
    for (const auto& id : ids)
        EXPECT_EQ(std::count(queued.begin(), queued.end(), id), 0) << id;

    // node2 back: its slurmd registers again, and Slurm stops what the dead slurmd left running
    // of the failed job.
    const auto restarted = g_cluster->startSlurmd(2);
    ASSERT_EQ(restarted.exitCode, 0) << restarted.err;
    EXPECT_TRUE(g_cluster->waitNodeUp(2, std::chrono::seconds(30)));
    EXPECT_TRUE(waitUntil([&] { return leftoverOf(out).empty(); }, std::chrono::seconds(20)))
        << leftoverOf(out).size() << " processes of the failed job are left";
    std::filesystem::remove_all(dir);
}

TEST_F(SlurmFaults, ATimeLimitEndsTheRunTimeoutWithTheReason) {
    NEED_RUNNING_CLUSTER();
    ASSERT_GT(s_cli, 0);
    const int exitCode = waitExit(s_cli);
    s_cli = 0;
    std::printf("1-minute job, from its submission to the run's end: %.1f s\n", since(s_started));
    EXPECT_EQ(exitCode, 1) << readWhole(s_dir + "/cli.log");
    const auto ends = journalEnds(s_out);
    ASSERT_EQ(ends.size(), 1u) << readWhole(s_dir + "/cli.log");
    EXPECT_EQ(ends[0]["state"], "timeout") << ends[0].dump();
    const std::string reason = ends[0]["reason"];
    EXPECT_NE(reason.find("Slurm job " + journalJobIds(s_out).at(0) +
                          " reached its time limit of 00:01:00 on node1"),
              std::string::npos)
        << reason;
    EXPECT_TRUE(g_cluster->jobs().empty());
    EXPECT_TRUE(leftoverOf(s_out).empty());
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(
        new SlurmClusterEnvironment({.slurmdTimeout = kSlurmdTimeout, .spankPlugin = ""}));
    return RUN_ALL_TESTS();
}
