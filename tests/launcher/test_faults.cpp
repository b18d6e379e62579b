// Runs that go wrong on this machine, with the fake workload under mpirun: the right state,
// nothing tagged left behind, no hang. And kill -9 of the runner, then resume.

#include "tests/launcher/launchertest.h"

#include <chrono>
#include <csignal>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

using sv::test::journalEnds;
using sv::test::kCli;
using sv::test::runProcess;

TEST(Faults, OneRankExitingNonZeroFailsTheRunWithExitCodeAndHost) {
    const std::string dir = sv::test::tempDir("rankfail");
    const auto profile = sv::test::writeFakeProfile(
        dir, {"--fail-rank", "1", "--fail-at", "3", "--interval", "0.05"});
    const auto r = runProcess({kCli, "run", "--profile", profile, "--topologies", "1n2g",
                               "--batch-size", "2", "--repeats", "1", "--iterations", "20",
                               "--warmup", "2", "--cooldown", "0", "--out", dir + "/out"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto ends = journalEnds(dir + "/out");
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "failed");
    EXPECT_NE(ends[0]["exitCode"].get<int>(), 0);
    EXPECT_EQ(ends[0]["host"], "this machine");
    EXPECT_TRUE(ends[0]["leftover"].empty());
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(Faults, ExitZeroWithoutUsableThroughputIsIncomplete) {
    const std::string dir = sv::test::tempDir("short");
    // The payload stops after 5 iterations but the campaign measures up to 20.
    const auto profile = sv::test::writeFakeProfile(dir, {"--iterations", "5"});
    const auto r = runProcess({kCli, "run", "--profile", profile, "--topologies", "1n1g",
                               "--batch-size", "2", "--repeats", "1", "--iterations", "20",
                               "--warmup", "2", "--cooldown", "0", "--out", dir + "/out"});
    EXPECT_EQ(r.exitCode, 1);
    const auto ends = journalEnds(dir + "/out");
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "incomplete");
    EXPECT_EQ(ends[0]["exitCode"], 0);
    std::filesystem::remove_all(dir);
}

TEST(Faults, PayloadIgnoringTermAndForkingIsKilledByTagOnWallTimeout) {
    const std::string dir = sv::test::tempDir("ignoreterm");
    const auto profile = sv::test::writeFakeProfile(dir, {"--ignore-term-fork", "--hang"});
    const auto t0 = std::chrono::steady_clock::now();
    const auto r =
        runProcess({kCli,           "run", "--profile",  profile,     "--topologies",   "1n1g",
                    "--batch-size", "2",   "--repeats",  "1",         "--iterations",   "10",
                    "--warmup",     "2",   "--cooldown", "0",         "--wall-timeout", "3",
                    "--grace",      "1",   "--out",      dir + "/out"});
    const double seconds = sv::test::since(t0);
    EXPECT_LT(seconds, 30.0);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto ends = journalEnds(dir + "/out");
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "timeout");
    EXPECT_NE(ends[0]["reason"].get<std::string>().find("wall-clock"), std::string::npos);
    EXPECT_TRUE(ends[0]["leftover"].empty()) << ends[0].dump();
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(Faults, StartTimeoutIsItsOwnState) {
    const std::string dir = sv::test::tempDir("starttimeout");
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "30"});
    const auto r =
        runProcess({kCli,           "run", "--profile",  profile,     "--topologies",    "1n1g",
                    "--batch-size", "2",   "--repeats",  "1",         "--iterations",    "10",
                    "--warmup",     "2",   "--cooldown", "0",         "--start-timeout", "2",
                    "--grace",      "1",   "--out",      dir + "/out"});
    const auto ends = journalEnds(dir + "/out");
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "timeout");
    EXPECT_NE(ends[0]["reason"].get<std::string>().find("start timeout"), std::string::npos);
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(Faults, SigtermToTheCliCancelsCleanly) {
    const std::string dir = sv::test::tempDir("sigterm");
    const auto profile = sv::test::writeFakeProfile(dir, {"--ignore-term-fork", "--hang"});
    const std::string out = dir + "/out";
    const pid_t cli = sv::test::spawn(
        {kCli,        "run", "--profile",    profile, "--topologies", "1n1g", "--batch-size", "2",
         "--repeats", "2",   "--iterations", "10",    "--warmup",     "2",    "--cooldown",   "0",
         "--grace",   "1",   "--out",        out},
        dir + "/cli.log");
    for (int i = 0; i < 100 && sv::test::leftoverOf(out).size() < 2; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_GE(sv::test::leftoverOf(out).size(), 2u);
    ::kill(cli, SIGTERM);
    int status = 0;
    ::waitpid(cli, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 130) << sv::test::readWhole(dir + "/cli.log");
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u); // the second run never started
    EXPECT_EQ(ends[0]["state"], "cancelled");
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(Faults, KillNineOfTheRunnerThenResumeRerunsOnlyWhatDidNotFinish) {
    const std::string dir = sv::test::tempDir("resume");
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.1"});
    const std::string out = dir + "/out";
    const pid_t cli = sv::test::spawn({kCli, "run", "--profile", profile, "--topologies", "1n1g",
                                       "--batch-size", "2", "--repeats", "3", "--iterations", "20",
                                       "--warmup", "2", "--cooldown", "0", "--out", out},
                                      dir + "/cli.log");
    // Kill -9 the runner once the second run is under way: its start is in the journal and its
    // log has output (so there is a partial log to keep beside).
    const std::string secondLog = out + "/logs/fake/bz2/1n1g/r50_b2_fp32_2.log";
    const auto secondRunWriting = [&] {
        const std::string j = sv::test::readWhole(out + "/journal.jsonl");
        return j.find("\"id\":\"bz2/1n1g/r50_b2_fp32_2\"") != std::string::npos &&
               sv::test::readWhole(secondLog).find("Speed: ") != std::string::npos;
    };
    const auto t0 = std::chrono::steady_clock::now();
    while (!secondRunWriting() && sv::test::since(t0) < 30.0)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(secondRunWriting())
        << sv::test::readWhole(out + "/journal.jsonl") << sv::test::readWhole(dir + "/cli.log");
    ::kill(cli, SIGKILL);
    ::waitpid(cli, nullptr, 0);
    ASSERT_EQ(journalEnds(out).size(), 1u) << sv::test::readWhole(out + "/journal.jsonl");

    const auto r = runProcess({kCli, "resume", out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    std::map<std::string, std::vector<std::string>> states;
    for (const auto& e : ends)
        states[e["id"]].push_back(e["state"]);
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_1"], std::vector<std::string>{"ok"}); // not run twice
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_2"], (std::vector<std::string>{"interrupted", "ok"}));
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_3"], std::vector<std::string>{"ok"});
    // The interrupted run's partial log was kept beside, not overwritten.
    const std::string logDir = out + "/logs/fake/bz2/1n1g/";
    EXPECT_TRUE(std::filesystem::exists(logDir + "r50_b2_fp32_2.log.interrupted-1"));
    const auto s = runProcess(
        {kCli, "summarize", out, "--warmup", "2", "--iterations", "20", "--format", "csv"});
    EXPECT_EQ(s.exitCode, 0) << s.err;
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}
