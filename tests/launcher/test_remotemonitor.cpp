// The run monitor on remote hosts, for real over the two loopback sshd "nodes": a 2-host run of
// the fake workload with a real CPU hog beside it is disturbed, the evidence naming the host and
// the hog, and each host's samples go to the monitor file with a "host" field; without the hog
// it is not named; a host the sampler cannot reach is "not sampled", never quiet; and cancel,
// timeout and kill -9 + resume leave no sampler behind on any host; the run's own tagged
// processes are never foreign.

#include "launcher/exec/commandbuilder.h"
#include "launcher/monitor/remotesampler.h"
#include "launcher/monitor/runmonitor.h"
#include "tests/launcher/cpuhog.h"
#include "tests/launcher/qtloop.h"
#include "tests/launcher/sshnodes.h"

#include <chrono>
#include <fstream>
#include <optional>
#include <sys/stat.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

using namespace sv::launcher;
using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;

namespace {

constexpr const char* kSamplerVariable = "SCALEVIEW_MONITOR_TAG";

class RemoteMonitor : public sv::test::SshNodesTest {
  protected:
    RemoteMonitor() : SshNodesTest("remotemonitor") {}
    void TearDown() override {
        // Whatever the test did, no sampler of its runs may be left on any host.
        if (!m_dir.empty()) {
            EXPECT_TRUE(samplersLeft().empty());
        }
        SshNodesTest::TearDown();
    }
    // A 2n1g campaign of the fake workload on node1 and node2 (one rank each).
    json campaign(const std::vector<std::string>& fakeArgs, int iterations) {
        json c;
        c["profile"] = sv::test::writeFakeProfile(m_dir, fakeArgs);
        c["hosts"] = {{{"name", "node1"}, {"gpus", 1}, {"address", "127.0.0.1"}},
                      {{"name", "node2"}, {"gpus", 1}, {"address", "127.0.0.2"}}};
        c["topologies"] = {"2n1g"};
        c["batchSizes"] = {2};
        c["repeats"] = 1;
        c["iterations"] = iterations;
        c["warmup"] = 1;
        c["cooldownSeconds"] = 0;
        c["connectTimeoutSeconds"] = 3;
        c["aliveIntervalSeconds"] = 1;
        c["aliveCountMax"] = 3;
        c["graceSeconds"] = 1;
        c["sshConfig"] = m_nodes->config();
        c["outputDir"] = m_dir + "/out";
        return c;
    }
    std::string write(const json& c) {
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }
    std::vector<std::string> samplersLeft() const {
        return sv::test::leftoverOf(m_dir + "/out", kSamplerVariable);
    }
    // No sampler left within a few seconds (ssh carries the end of its input to it).
    bool samplersGone() const {
        const auto t0 = std::chrono::steady_clock::now();
        while (!samplersLeft().empty()) {
            if (sv::test::since(t0) > 15) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return true;
    }
    std::vector<json> monitorLines(const json& end) const {
        std::vector<json> out;
        std::istringstream in(
            sv::test::readWhole(m_dir + "/out/monitor/" + end["id"].get<std::string>() + ".jsonl"));
        std::string line;
        while (std::getline(in, line))
            out.push_back(json::parse(line, nullptr, false));
        return out;
    }
    // The hosts whose samples in the monitor file name the hog (ran at least 25 % of a core).
    std::set<std::string> hostsNaming(const json& end, pid_t hog) const {
        std::set<std::string> out;
        for (const auto& l : monitorLines(end))
            for (const auto& f : l.value("foreign", json::array()))
                if (f["pid"] == hog && f["cpu_pct"].get<double>() >= 25.0)
                    out.insert(l["host"].get<std::string>());
        return out;
    }
};

// The evidence sentences of an end record, one text.
std::string evidenceOf(const json& end) {
    std::string out;
    for (const auto& e : end.value("evidence", json::array()))
        out += e.get<std::string>() + "\n";
    return out;
}

} // namespace

TEST_F(RemoteMonitor, TwoHostRunBesideAHogIsDisturbedNamingTheHostAndTheHogAndNotWithout) {
    // About 6 s of run: three samples per host at least.
    const std::string path = write(campaign({"--interval", "0.4"}, 15));
    pid_t hogPid = 0;
    {
        sv::test::CpuHog hog(m_dir + "/hog.log");
        hogPid = hog.pid;
        const auto r = runProcess({kCli, "run", path});
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
        const auto ends = sv::test::journalEnds(m_dir + "/out");
        ASSERT_EQ(ends.size(), 1u);
        const json& end = ends[0];
        ASSERT_TRUE(end.contains("monitor")) << end.dump();
        EXPECT_TRUE(end["disturbed"].get<bool>()) << end.dump();
        // Both nodes are this machine: the hog is beside the run on each.
        const std::string words = evidenceOf(end);
        const std::string hogIs = "pid " + std::to_string(hog.pid) + " (sh) used ";
        EXPECT_NE(words.find(hogIs), std::string::npos) << words;
        const bool namesHost = words.find(" of a core on node1 ") != std::string::npos ||
                               words.find(" of a core on node2 ") != std::string::npos;
        EXPECT_TRUE(namesHost) << words;
        const json& hosts = end["monitor"]["hosts"];
        ASSERT_EQ(hosts.size(), 2u) << end.dump();
        EXPECT_EQ(hosts[0]["host"], "node1");
        EXPECT_EQ(hosts[1]["host"], "node2");
        for (const auto& h : hosts) {
            EXPECT_GE(h["samples"].get<int>(), 2) << h.dump();
            EXPECT_EQ(h["own_processes"], 1) << h.dump();
            EXPECT_FALSE(h.contains("problem")) << h.dump();
        }
        EXPECT_FALSE(end["monitor"].contains("not_sampled")) << end.dump();
        // Every sample names its host and carries the run's tag.
        std::set<std::string> sampled;
        for (const auto& l : monitorLines(end)) {
            sampled.insert(l["host"].get<std::string>());
            EXPECT_EQ(l["tag"], end["tag"]);
            EXPECT_GT(l["seconds"].get<double>(), 0.0);
        }
        EXPECT_EQ(sampled, (std::set<std::string>{"node1", "node2"}));
        EXPECT_FALSE(hostsNaming(end, hog.pid).empty());
        EXPECT_TRUE(samplersGone()) << samplersLeft().front();
    }
    // The hog is gone: the same run on the same hosts does not name it. (Other work on this
    // machine may still disturb it, so only the hog's absence is asserted.)
    std::filesystem::remove_all(m_dir + "/out");
    const auto r = runProcess({kCli, "run", path});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = sv::test::journalEnds(m_dir + "/out");
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(evidenceOf(ends[0]).find("pid " + std::to_string(hogPid) + " (sh)"),
              std::string::npos)
        << ends[0].dump();
    EXPECT_TRUE(hostsNaming(ends[0], hogPid).empty());
    EXPECT_EQ(ends[0]["monitor"]["hosts"].size(), 2u);
    EXPECT_FALSE(ends[0]["monitor"].contains("not_sampled")) << ends[0].dump();
}

// The monitor on its own, watching two hosts: "refused" (its sshd's port is closed) and node1,
// beside two real CPU hogs on node1, one of them carrying the run's tag (env SCALEVIEW_RUN_TAG,
// as the launcher gives the run's processes). The refused host is recorded as not sampled with
// ssh's words, never quiet; node1's samples name the untagged hog and never the tagged one.
TEST_F(RemoteMonitor, UnreachableHostIsNotSampledAndTheRunsTaggedProcessesAreNeverForeign) {
    sv::test::EventLoop loop;
    const std::string tag = "svremotetagged";
    sv::test::CpuHog hog(m_dir + "/hog.log");
    sv::test::CpuHog own(m_dir + "/own.log", sv::test::taggedBusyLoop(tag));
    Campaign c;
    for (const char* name : {"refused", "node1"}) {
        Host h;
        h.name = name;
        c.hosts.push_back(h);
    }
    c.sshConfig = m_nodes->config();
    // Generous for node1 on a loaded machine; "refused" answers at once whatever it is.
    c.connectTimeoutSeconds = 10;
    c.outputDir = m_dir + "/out";
    const CommandBuilder builder(c, WorkloadProfile{}, m_dir);
    const std::string file = m_dir + "/out/monitor/bz2/2n1g/r50_b2_fp32_1.jsonl";
    RunMonitor monitor(file, tag, 2);
    monitor.watchHost("refused", RemoteSampler::command(builder, 0, tag, 1, 60), 1);
    monitor.watchHost("node1", RemoteSampler::command(builder, 1, tag, 1, 60), 1);
    monitor.start();
    // Until node1 has named the hog (both loops compete with whatever else runs here).
    const std::string hogIs = "\"pid\":" + std::to_string(hog.pid) + "}";
    ASSERT_TRUE(sv::test::waitFor(
        [&] { return sv::test::readWhole(file).find(hogIs) != std::string::npos; }, 30000))
        << sv::test::readWhole(file);
    std::optional<MonitorSummary> summary;
    monitor.finish([&](MonitorSummary s) { summary = s; });
    ASSERT_TRUE(sv::test::waitFor([&] { return summary.has_value(); }, 20000));

    ASSERT_EQ(summary->hosts.size(), 2u);
    EXPECT_EQ(summary->hosts[0].host, "refused");
    EXPECT_EQ(summary->hosts[0].samples, 0);
    const auto unknown = summary->notSampled();
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_EQ(unknown[0].rfind("refused: not sampled: ", 0), 0u) << unknown[0];
    EXPECT_NE(unknown[0].find("Connection refused"), std::string::npos) << unknown[0];
    const json j = summary->toJson();
    EXPECT_EQ(j["not_sampled"], json(unknown));
    EXPECT_EQ(j["hosts"][0]["problem"].get<std::string>().rfind("not sampled: ", 0), 0u);

    EXPECT_EQ(summary->hosts[1].host, "node1");
    EXPECT_GE(summary->hosts[1].samples, 1);
    EXPECT_TRUE(summary->hosts[1].problem.empty()) << summary->hosts[1].problem;
    bool named = false;
    for (const auto& f : summary->hosts[1].foreign) {
        EXPECT_NE(f.pid, own.pid) << "a process carrying the run's tag counted as foreign";
        named = named || (f.pid == hog.pid && f.command == "sh");
    }
    EXPECT_TRUE(named);
    const std::string text = sv::test::readWhole(file);
    EXPECT_EQ(text.find("\"pid\":" + std::to_string(own.pid) + "}"), std::string::npos) << text;
    EXPECT_EQ(text.find("\"host\":\"refused\""), std::string::npos);
    EXPECT_NE(text.find("\"host\":\"node1\""), std::string::npos);
}

// Cancel (SIGTERM to the CLI), a wall-clock timeout, and kill -9 of the CLI then resume: no
// sampler outlives its run on either host.
TEST_F(RemoteMonitor, CancelTimeoutAndKillThenResumeLeaveNoSamplerBehind) {
    auto c = campaign({"--interval", "0.2"}, 600);
    c["wallTimeoutSeconds"] = 8;
    const std::string path = write(c);
    const std::string monitorFile = m_dir + "/out/monitor/bz2/2n1g/r50_b2_fp32_1.jsonl";
    // Until both hosts have been sampled at least once.
    auto bothSampled = [&] {
        const std::string text = sv::test::readWhole(monitorFile);
        return text.find("\"host\":\"node1\"") != std::string::npos &&
               text.find("\"host\":\"node2\"") != std::string::npos;
    };
    auto waitUntil = [](const std::function<bool()>& done, double seconds) {
        const auto t0 = std::chrono::steady_clock::now();
        while (!done() && sv::test::since(t0) < seconds)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return done();
    };
    auto waitExit = [](pid_t pid) {
        int status = 0;
        const auto t0 = std::chrono::steady_clock::now();
        while (::waitpid(pid, &status, WNOHANG) == 0) {
            if (sv::test::since(t0) > 60) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, &status, 0);
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return true;
    };

    // kill -9 mid-run: the app cannot stop anything; the samplers stop by themselves.
    pid_t cli = sv::test::spawn({kCli, "run", path}, m_dir + "/cli.log");
    ASSERT_TRUE(waitUntil(bothSampled, 30)) << sv::test::readWhole(m_dir + "/cli.log");
    ASSERT_FALSE(samplersLeft().empty()) << "the samplers should be running now";
    ::kill(cli, SIGKILL);
    ::waitpid(cli, nullptr, 0);
    EXPECT_TRUE(samplersGone()) << samplersLeft().front();

    // Resume reruns the interrupted run, which runs into its 8 s wall-clock limit.
    const auto resumed = runProcess({kCli, "resume", m_dir + "/out"});
    auto ends = sv::test::journalEnds(m_dir + "/out");
    // The killed attempt's end (written by resume), then the rerun's.
    ASSERT_EQ(ends.size(), 2u) << resumed.out << resumed.err;
    EXPECT_EQ(ends[0]["state"], "interrupted") << ends[0].dump();
    EXPECT_EQ(ends[1]["state"], "timeout") << ends[1].dump();
    EXPECT_EQ(ends[1]["monitor"]["hosts"].size(), 2u) << ends[1].dump();
    EXPECT_TRUE(samplersGone()) << samplersLeft().front();
    EXPECT_TRUE(sv::test::leftoverOf(m_dir + "/out").empty());

    // Cancel: SIGTERM to the CLI cancels the run, in order.
    std::filesystem::remove_all(m_dir + "/out");
    cli = sv::test::spawn({kCli, "run", path}, m_dir + "/cli2.log");
    ASSERT_TRUE(waitUntil(bothSampled, 30)) << sv::test::readWhole(m_dir + "/cli2.log");
    ::kill(cli, SIGTERM);
    ASSERT_TRUE(waitExit(cli)) << "the CLI did not end after SIGTERM";
    ends = sv::test::journalEnds(m_dir + "/out");
    ASSERT_EQ(ends.size(), 1u) << sv::test::readWhole(m_dir + "/cli2.log");
    EXPECT_EQ(ends[0]["state"], "cancelled") << ends[0].dump();
    EXPECT_TRUE(samplersGone()) << samplersLeft().front();
}

// A GPU run's remote sampler reads the host's GPUs too (here the script runs on this machine
// without the ssh hop, which the tests above cover; no GPU here, so a stand-in nvidia-smi answers
// as the driver's tool does): GPU 0 thermally throttled and a foreign compute process mark the run
// disturbed, naming the host; the run's own tagged process is never foreign.
TEST(RemoteSamplerGpu, AThrottledGpuAndAForeignComputeProcessOnAHostMarkTheRunDisturbed) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("remotegpu");
    const std::string tag = "svremotegputest";
    sv::test::CpuHog other(dir + "/other.log", {"/bin/sleep", "600"});
    sv::test::CpuHog own(dir + "/own.log",
                         {"/usr/bin/env", "SCALEVIEW_RUN_TAG=" + tag, "/bin/sleep", "600"});
    const std::string smi = dir + "/nvidia-smi";
    std::ofstream(smi) << "#!/bin/sh\n"
                       << "case \"$1\" in\n"
                       << "  --query-gpu=*) echo '0, 1410, 0x0000000000000020, 87, 350.12'; "
                       << "echo '1, 1980, 0x0000000000000001, 40, [N/A]' ;;\n"
                       << "  --query-compute-apps=*) echo '" << other.pid << ", python3'; echo '"
                       << own.pid << ", python3' ;;\n"
                       << "esac\n";
    ::chmod(smi.c_str(), 0755);
    const std::string file = dir + "/monitor/r50_b2_fp32_1.jsonl";
    RunMonitor monitor(file, tag, 1, std::chrono::milliseconds(1000), nullptr, true, smi);
    monitor.watchHost(
        "node7",
        {"/usr/bin/python3", "-c", std::string(RemoteSampler::script()), tag, "1", "60", smi}, 1);
    monitor.start();
    auto lines = [&] {
        std::vector<json> out;
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) out.push_back(json::parse(line));
        return out;
    };
    ASSERT_TRUE(sv::test::waitFor([&] { return lines().size() >= 2; }, 30000));
    std::optional<MonitorSummary> summary;
    monitor.finish([&](MonitorSummary s) { summary = s; });
    ASSERT_TRUE(sv::test::waitFor([&] { return summary.has_value(); }, 20000));
    // Every sample the summary counts is in the file by then: a reader at the run's end (the
    // window's trace) misses none, and nothing writes there any more.
    ASSERT_EQ(summary->hosts.size(), 1u);
    const auto written = lines();
    EXPECT_EQ(std::count_if(written.begin(), written.end(),
                            [](const json& l) { return l["seconds"].get<double>() > 0; }),
              summary->hosts[0].samples);
    std::string words;
    for (const auto& e : summary->evidence())
        words += e + "\n";
    EXPECT_NE(words.find("GPU 0 on node7 throttled (thermal (software))"), std::string::npos)
        << words;
    EXPECT_EQ(words.find("GPU 1"), std::string::npos) << "idle is no throttling: " << words;
    EXPECT_NE(words.find("pid " + std::to_string(other.pid) + " (python3)"), std::string::npos)
        << words;
    EXPECT_EQ(words.find("pid " + std::to_string(own.pid)), std::string::npos) << words;
    const auto last = lines().back();
    EXPECT_EQ(last["host"], "node7");
    EXPECT_EQ(last["gpus"][0]["sm_mhz"], 1410.0);
    EXPECT_EQ(last["gpus"][0]["throttle"], 0x20);
    EXPECT_EQ(last["gpus"][1]["power_w"], 0.0) << "[N/A] reads as 0";
    EXPECT_EQ(last["foreign_gpu"].size(), 1u);
    std::filesystem::remove_all(dir);
}
