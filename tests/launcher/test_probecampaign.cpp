// Issue 28 end to end from the command line: a real local CPU campaign with --probes probes its
// 2-rank case before the first repeat (the node alone, the all-reduce across its ranks), writes
// probes.json, and summarize then shows measured parts; resume does not probe again; a probe
// that cannot run is said and the campaign goes on; --exclude-node leaves a node out, saying why.
#include "tests/launcher/launchertest.h"

#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <nlohmann/json.hpp>

using sv::test::kCli;
using sv::test::runProcess;

namespace {

std::vector<nlohmann::json> journalEvents(const std::string& out, const std::string& event) {
    std::vector<nlohmann::json> found;
    std::istringstream lines(sv::test::readWhole(out + "/journal.jsonl"));
    std::string line;
    while (std::getline(lines, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.value("event", "") == event) found.push_back(j);
    }
    return found;
}

std::vector<std::string> campaignArgs(const std::string& out) {
    return {kCli,
            "run",
            "--profile",
            "local-cpu-rn50",
            "--topologies",
            "1n1g,1n2g",
            "--batch-size",
            "16", // on one thread a batch of 16 steps as fast as one of 2, 4 times one of 8

            "--repeats",
            "1",
            "--iterations",
            "8",
            "--warmup",
            "2",
            "--image-size",
            "32",
            "--cooldown",
            "0",
            "--probes",
            "--out",
            out};
}

} // namespace

TEST(ProbeCampaign, ProbesBeforeTheTwoRankCaseFeedSummarizeAndResumeKeepsThem) {
    const std::string out = sv::test::tempDir("probecampaign") + "/out";
    const auto r = runProcess(campaignArgs(out));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // News on stdout, not a problem on stderr (issue 37: it was in the red banner).
    EXPECT_NE(r.out.find("bz16/1n2g/r50_b16_fp32: probing before its first repeat"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.err.find("probing before"), std::string::npos) << r.err;
    // Only the 2-rank case is probed, once, before its repeat.
    const auto probes = journalEvents(out, "probes");
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0]["id"], "bz16/1n2g/r50_b16_fp32");
    EXPECT_EQ(probes[0]["state"], "ok") << probes[0].dump();
    const std::string journal = sv::test::readWhole(out + "/journal.jsonl");
    EXPECT_LT(journal.find("\"event\":\"probes\""),
              journal.find("\"id\":\"bz16/1n2g/r50_b16_fp32_1\""));

    const auto file = nlohmann::json::parse(sv::test::readWhole(out + "/probes.json"));
    ASSERT_EQ(file["probes"].size(), 2u) << file.dump();
    EXPECT_EQ(file["probes"][0]["kind"], "solo");
    EXPECT_EQ(file["probes"][0]["node"], "localhost");
    EXPECT_EQ(file["probes"][0]["devices"], 2);
    EXPECT_GT(file["probes"][0]["pace_per_device"].get<double>(), 0.0);
    EXPECT_EQ(file["probes"][1]["kind"], "allreduce");
    EXPECT_EQ(file["probes"][1]["ranks"], 2);
    EXPECT_EQ(file["probes"][1]["bytes"], 102400000);

    const auto s = runProcess(
        {kCli, "summarize", out, "--warmup", "2", "--iterations", "8", "--format", "json"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    const nlohmann::json* twoRank = nullptr;
    for (const auto& c : j["cases"])
        if (c["topology"] == "1n2g") twoRank = &c;
    ASSERT_TRUE(twoRank);
    const auto& loss = (*twoRank)["scaling_loss"];
    ASSERT_TRUE(loss.is_object()) << twoRank->dump();
    std::cout << "1n2g scaling loss: " << loss.dump() << "\n";
    EXPECT_EQ(loss["not_measured"], nlohmann::json::array()) << loss.dump();
    std::set<std::string> kinds;
    for (const auto& p : loss["parts"])
        kinds.insert(p["kind"].get<std::string>());
    EXPECT_TRUE(kinds.count("device-slowdown") && kinds.count("communication")) << loss.dump();

    // Interrupted before the 2-rank case's repeat (its records cut from the journal): resume
    // finds the case's probes in probes.json and does not run them again.
    std::string kept;
    std::istringstream lines(journal);
    for (std::string line; std::getline(lines, line);)
        if (line.find("\"event\":\"probes\"") != std::string::npos ||
            line.find("\"id\":\"bz16/1n2g/") != std::string::npos)
            break;
        else
            kept += line + "\n";
    std::ofstream(out + "/journal.jsonl", std::ios::trunc) << kept;
    std::filesystem::remove(out + "/logs/local/pytorch-cpu/resnet50/bz16/1n2g/r50_b16_fp32_1.log");
    const auto again = runProcess({kCli, "resume", out});
    ASSERT_EQ(again.exitCode, 0) << again.out << again.err;
    EXPECT_NE(again.out.find("probes already in probes.json; not run again"), std::string::npos)
        << again.out;
    const auto after = nlohmann::json::parse(sv::test::readWhole(out + "/probes.json"));
    EXPECT_EQ(after["probes"].size(), 2u);
    ASSERT_EQ(journalEvents(out, "probes").size(), 1u);
    EXPECT_EQ(journalEvents(out, "probes")[0]["state"], "recorded");
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
}

// A probe that cannot run (no such python): said in the journal and the output; the campaign
// runs its runs all the same.
TEST(ProbeCampaign, AFailedProbeIsSaidAndTheCampaignGoesOn) {
    const std::string out = sv::test::tempDir("probefail") + "/out";
    auto args = campaignArgs(out);
    // The probes' python alone is wrong: a profile file whose program names python3 itself.
    const std::string dir = std::filesystem::path(out).parent_path().string();
    const auto source =
        std::filesystem::path(sv::test::kFake).parent_path().parent_path().parent_path();
    std::string profile =
        sv::test::readWhole((source / "resources/workloads/local-cpu-rn50.json").string());
    auto replace = [&profile](const std::string& from, const std::string& to) {
        const auto at = profile.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        profile.replace(at, from.size(), to);
    };
    replace("\"python\": \"/usr/bin/python3\"", "\"python\": \"/nonexistent/python3\"");
    replace("\"program\": [\"{python}\"", "\"program\": [\"/usr/bin/python3\"");
    std::ofstream(dir + "/profile.json") << profile;
    args[3] = dir + "/profile.json";
    const auto r = runProcess(args);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 of 2 runs ok"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("the campaign goes on"), std::string::npos) << r.err;
    const auto probes = journalEvents(out, "probes");
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0]["state"], "failed");
    EXPECT_NE(probes[0]["summary"].get<std::string>().find("/nonexistent/python3"),
              std::string::npos)
        << probes[0].dump();
    EXPECT_FALSE(std::filesystem::exists(out + "/probes.json"));
}

// SIGTERM while the probes run: they stop (their ranks killed, none left tagged), the journal
// says the probes were cancelled, and the campaign ends cancelled without starting a run.
// The SCALEVIEW_RUN_TAG values starting "svprobe" of the processes whose parent is `parent`.
static std::set<std::string> probeTagsOfChildren(pid_t parent) {
    std::set<std::string> tags;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string stat = sv::test::readWhole((e.path() / "stat").string());
        const auto paren = stat.rfind(')');
        if (paren == std::string::npos) continue;
        char state = 0;
        int ppid = 0;
        if (std::sscanf(stat.c_str() + paren + 2, "%c %d", &state, &ppid) != 2 || ppid != parent)
            continue;
        const std::string env = sv::test::readWhole((e.path() / "environ").string());
        const std::string needle = "SCALEVIEW_RUN_TAG=svprobe";
        const auto at = env.find(needle);
        if (at == std::string::npos || (at != 0 && env[at - 1] != '\0')) continue;
        const auto begin = at + needle.size() - 7;
        tags.insert(env.substr(begin, env.find('\0', begin) - begin));
    }
    return tags;
}

TEST(ProbeCampaign, CancelDuringTheProbesStopsThem) {
    const std::string dir = sv::test::tempDir("probecancel");
    const std::string out = dir + "/out";
    auto args = campaignArgs(out);
    args[5] = "1n2g";
    const pid_t pid = sv::test::spawn(args, dir + "/cli.log");
    ASSERT_GT(pid, 0);
    const auto t0 = std::chrono::steady_clock::now();
    while (sv::test::readWhole(dir + "/cli.log").find("probing before") == std::string::npos &&
           sv::test::since(t0) < 120)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // the probe's ranks are up
    // This campaign's probe tag, from its own ranks (children of the CLI): other tests' probes
    // may run at the same time, with tags of their own.
    const std::set<std::string> tags = probeTagsOfChildren(pid);
    ASSERT_FALSE(tags.empty()) << sv::test::readWhole(dir + "/cli.log");
    const auto cancelAt = std::chrono::steady_clock::now();
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const double took = sv::test::since(cancelAt);
    std::printf("cancelled during the probes: ended in %.1f s\n", took);
    EXPECT_LT(took, 30.0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130) << sv::test::readWhole(dir + "/cli.log");
    const auto probes = journalEvents(out, "probes");
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0]["state"], "cancelled");
    EXPECT_TRUE(journalEvents(out, "start").empty());
    for (const auto& tag : tags)
        EXPECT_TRUE(sv::test::taggedProcesses(tag).empty()) << tag;
}
