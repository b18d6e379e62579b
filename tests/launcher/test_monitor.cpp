// The run monitor: a real CPU hog beside a run (a real process, killed at the end) is named
// with its pid, command and CPU share, the run is marked disturbed in the journal, the samples
// are appended to DIR/monitor/<run>.jsonl, and preflight warns about it; a run's own (tagged)
// processes are never foreign.

#include "launcher/campaign/workloadprofile.h"
#include "launcher/monitor/hostsampler.h"
#include "launcher/monitor/runmonitor.h"
#include "launcher/runner/runner.h"
#include "launcher/session/preflight.h"
#include "tests/launcher/cpuhog.h"
#include "tests/launcher/launchertest.h"
#include "tests/launcher/qtloop.h"

#include <QThread>
#include <csignal>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <sys/wait.h>

using namespace sv::launcher;
using sv::test::CpuHog;
using sv::test::waitFor;

namespace {

const ForeignProcess* named(const std::vector<ForeignProcess>& foreign, pid_t pid) {
    for (const auto& f : foreign)
        if (f.pid == pid) return &f;
    return nullptr;
}

std::vector<nlohmann::json> jsonLines(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::istringstream in(sv::test::readWhole(path));
    std::string line;
    while (std::getline(in, line))
        out.push_back(nlohmann::json::parse(line, nullptr, false));
    return out;
}

// One fake-workload run (1n1g, 5 iterations 0.3 s apart) through the Runner; its end record.
nlohmann::json runOnce(const std::string& dir, const std::string& seedMonitorLine = {}) {
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {"--interval", "0.3"}), &error);
    EXPECT_TRUE(profile) << error;
    if (!profile) return {};
    Runner runner(sv::test::fakeCampaign(dir + "/fake-profile.json", dir + "/out", 1), *profile);
    EXPECT_TRUE(runner.prepare(false, &error)) << error;
    if (!seedMonitorLine.empty()) {
        std::filesystem::create_directories(dir + "/out/monitor/bz2/1n1g");
        std::ofstream(dir + "/out/monitor/bz2/1n1g/r50_b2_fp32_1.jsonl") << seedMonitorLine << "\n";
    }
    std::optional<CampaignEnd> end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) { end = e; });
    runner.start();
    EXPECT_TRUE(waitFor([&] { return end.has_value(); }, 60000));
    const auto ends = sv::test::journalEnds(dir + "/out");
    EXPECT_EQ(ends.size(), 1u);
    return ends.empty() ? nlohmann::json{} : ends.back();
}

} // namespace

// Issue 37's walk: every disturbed one-rank run read "above the run's 1 processes".
TEST(Monitor, TheLoadEvidenceCountsInWords) {
    MonitorSummary m;
    m.samples = 3;
    m.seconds = 10;
    m.ownProcesses = 1;
    m.cpus = 2;
    m.maxLoad1 = 6.21;
    std::vector<std::string> evidence = m.evidence();
    ASSERT_EQ(evidence.size(), 1u);
    EXPECT_EQ(evidence[0], "load average 6.21 on local (2 CPUs), above the run's 1 process");
    m.ownProcesses = 2;
    m.cpus = 1;
    m.maxLoad1 = 12.85;
    evidence = m.evidence();
    ASSERT_EQ(evidence.size(), 1u);
    EXPECT_EQ(evidence[0], "load average 12.85 on local (1 CPU), above the run's 2 processes");
}

TEST(Monitor, SamplerNamesAnUntaggedHogAndNeverTheRunsTaggedProcesses) {
    const std::string dir = sv::test::tempDir("sampler");
    const std::string tag = "svmonitortest1";
    CpuHog hog(dir + "/hog.log");
    // The run's own busy process, carrying the tag: among the busiest if it were taken for
    // foreign.
    CpuHog own(dir + "/own.log", sv::test::taggedBusyLoop(tag));
    HostSampler sampler(tag);
    EXPECT_EQ(sampler.sample().seconds, 0.0); // the baseline
    // Samples half a second apart until the hog shows (both loops compete with whatever else
    // runs here), at most 20 s.
    HostSample s;
    const auto t0 = std::chrono::steady_clock::now();
    bool seen = false;
    while (!seen && sv::test::since(t0) < 20) {
        QThread::msleep(500); // the interval measured, not a wait for something to happen
        s = sampler.sample();
        EXPECT_EQ(named(s.foreign, own.pid), nullptr) << "a tagged process counted as foreign";
        const ForeignProcess* f = named(s.foreign, hog.pid);
        seen = f && f->cpuPct >= 25.0;
    }
    ASSERT_TRUE(seen) << "the hog never showed above 25 % of a core";
    EXPECT_EQ(named(s.foreign, hog.pid)->command, "sh");
    EXPECT_GT(s.seconds, 0.3);
    EXPECT_GE(s.cpus, 1);
    const auto line = nlohmann::json::parse(HostSampler::toJson(s, "local", tag));
    EXPECT_EQ(line["tag"], tag);
    EXPECT_TRUE(line["foreign"].is_array());
    std::filesystem::remove_all(dir);
}

TEST(Monitor, RunBesideAHogIsDisturbedNamingItAndAQuietRunDoesNotNameIt) {
    sv::test::EventLoop loop;
    pid_t hogPid = 0;
    {
        const std::string dir = sv::test::tempDir("hogrun");
        CpuHog hog(dir + "/hog.log");
        hogPid = hog.pid;
        // A line already there (an earlier attempt's) stays: the monitor file is only appended to.
        const auto end = runOnce(dir, R"({"earlier":"attempt"})");
        ASSERT_EQ(end["state"], "ok") << end.dump();
        ASSERT_TRUE(end.contains("monitor")) << end.dump();
        EXPECT_TRUE(end["disturbed"].get<bool>()) << end.dump();
        const std::string needle = "pid " + std::to_string(hog.pid) + " (sh) used ";
        bool evidence = false;
        for (const auto& e : end["evidence"])
            evidence = evidence || e.get<std::string>().find(needle) != std::string::npos;
        EXPECT_TRUE(evidence) << end.dump();
        const auto& m = end["monitor"];
        EXPECT_GE(m["samples"].get<int>(), 1);
        EXPECT_EQ(m["own_processes"], 1);
        EXPECT_GE(m["max_foreign_cpu_pct"].get<double>(), 25.0);
        bool listed = false; // among the busiest (other work here may be busier still)
        for (const auto& f : m["foreign"])
            listed = listed || (f["pid"] == hog.pid && f["command"] == "sh" &&
                                f["avg_cpu_pct"].get<double>() >= 25.0);
        EXPECT_TRUE(listed) << m.dump();

        const auto lines = jsonLines(dir + "/out/monitor/bz2/1n1g/r50_b2_fp32_1.jsonl");
        ASSERT_GE(lines.size(), 2u);
        EXPECT_EQ(lines.front()["earlier"], "attempt");
        for (std::size_t i = 1; i < lines.size(); ++i) {
            EXPECT_EQ(lines[i]["tag"], end["tag"]) << lines[i].dump();
            EXPECT_GT(lines[i]["seconds"].get<double>(), 0.0);
        }
        std::filesystem::remove_all(dir);
    }
    // The hog is gone (KILLed and reaped): the same run does not name it. Other work on this
    // machine (tests in parallel) may still disturb it, so only the hog's absence is asserted.
    const std::string dir = sv::test::tempDir("quietrun");
    const auto end = runOnce(dir);
    ASSERT_EQ(end["state"], "ok") << end.dump();
    ASSERT_TRUE(end.contains("disturbed")) << end.dump();
    EXPECT_EQ(end.dump().find("pid " + std::to_string(hogPid) + " (sh)"), std::string::npos)
        << end.dump();
    for (const auto& f : end["monitor"]["foreign"])
        EXPECT_NE(f["pid"], hogPid);
    std::filesystem::remove_all(dir);
}

TEST(Monitor, PreflightWarnsThatThisMachineIsBusyNamingTheHog) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("busypre");
    CpuHog hog(dir + "/hog.log");
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {}), &error);
    ASSERT_TRUE(profile) << error;
    const Campaign c = sv::test::fakeCampaign(dir + "/fake-profile.json", dir + "/out", 1);
    std::optional<std::vector<PreflightFinding>> findings;
    QObject context;
    Preflight::run(c, *profile, &context, [&](std::vector<PreflightFinding> f) { findings = f; });
    ASSERT_TRUE(waitFor([&] { return findings.has_value(); }, 60000));
    const PreflightFinding* busy = nullptr;
    for (const auto& f : *findings)
        if (f.check == "busy") busy = &f;
    ASSERT_NE(busy, nullptr);
    EXPECT_TRUE(busy->ok) << "busy is a warning, not a failure";
    EXPECT_TRUE(busy->warning) << busy->message;
    EXPECT_EQ(busy->host, "this machine");
    EXPECT_NE(busy->message.find("pid " + std::to_string(hog.pid) + " (sh)"), std::string::npos)
        << busy->message;
    std::filesystem::remove_all(dir);
}

// No GPU here: a stand-in nvidia-smi (a script answering as the driver's tool does) reports GPU 0
// thermally throttled and two compute processes, one of them the run's own (tagged).
TEST(Monitor, GpuThrottlingAndAForeignComputeProcessMarkTheRunDisturbed) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("gpumon");
    const std::string tag = "svgpumontest";
    CpuHog other(dir + "/other.log", {"/bin/sleep", "600"});
    CpuHog own(dir + "/own.log", {"/usr/bin/env", "SCALEVIEW_RUN_TAG=" + tag, "/bin/sleep", "600"});
    const std::string smi = dir + "/nvidia-smi";
    std::ofstream(smi) << "#!/bin/sh\n"
                       << "case \"$1\" in\n"
                       << "  --query-gpu=*) echo '0, 1410, 0x0000000000000020, 87, 350.12'; "
                       << "echo '1, 1980, 0x0000000000000001, 40, 70.00' ;;\n"
                       << "  --query-compute-apps=*) echo '" << other.pid << ", python3'; echo '"
                       << own.pid << ", python3' ;;\n"
                       << "esac\n";
    ::chmod(smi.c_str(), 0755);
    const std::string file = dir + "/monitor/bz128/1n8g/r50_b128_fp32_1.jsonl";
    RunMonitor monitor(file, tag, 8, std::chrono::milliseconds(200), nullptr, true, smi);
    monitor.start();
    ASSERT_TRUE(waitFor([&] { return monitor.summary().samples >= 2; }, 20000));
    std::optional<MonitorSummary> summary;
    monitor.finish([&](MonitorSummary s) { summary = s; });
    ASSERT_TRUE(waitFor([&] { return summary.has_value(); }, 20000));
    std::string words;
    for (const auto& e : summary->evidence())
        words += e + "\n";
    EXPECT_NE(words.find("GPU 0 on local throttled (thermal (software)) in "), std::string::npos)
        << words;
    EXPECT_EQ(words.find("GPU 1"), std::string::npos) << "idle is no throttling: " << words;
    EXPECT_NE(words.find("pid " + std::to_string(other.pid) + " (python3)"), std::string::npos)
        << words;
    EXPECT_EQ(words.find("pid " + std::to_string(own.pid)), std::string::npos) << words;
    const auto j = summary->toJson();
    EXPECT_EQ(j["throttle_seen"][0]["gpu"], 0);
    EXPECT_EQ(j["foreign_gpu_processes"].size(), 1u);
    EXPECT_EQ(j["max_temperature_c"], 87.0);
    const auto lines = jsonLines(file);
    ASSERT_GE(lines.size(), 2u);
    EXPECT_EQ(lines.back()["gpus"][0]["sm_mhz"], 1410.0);
    EXPECT_EQ(lines.back()["gpus"][0]["throttle"], 0x20);
    std::filesystem::remove_all(dir);
}

// The real CPU workload (RUN_SERIAL with the other real-workload tests): one tiny run with a hog
// beside it, then the CLI's summary warns and, asked to, leaves the run out.
TEST(LocalCampaign, CpuHogBesideTheRealWorkloadMarksTheRunDisturbed) {
    const std::string dir = sv::test::tempDir("hogreal");
    const std::string out = dir + "/out";
    CpuHog hog(dir + "/hog.log");
    const auto r = sv::test::runProcess({sv::test::kCli, "run",  "--profile",    "local-cpu-rn50",
                                         "--topologies", "1n1g", "--batch-size", "2",
                                         "--precision",  "fp32", "--repeats",    "1",
                                         "--iterations", "8",    "--warmup",     "2",
                                         "--image-size", "32",   "--cooldown",   "0",
                                         "--out",        out});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const std::string needle = "pid " + std::to_string(hog.pid) + " (sh) used ";
    EXPECT_NE((r.out + r.err).find("disturbed: " + needle), std::string::npos) << r.out << r.err;
    // The end line says it too (issue 37 item 10: it read "1 of 1 runs ok").
    EXPECT_NE(r.out.find("1 of 1 runs ok (every one disturbed: their figures are not reliable)"),
              std::string::npos)
        << r.out;

    const auto s = sv::test::runProcess({sv::test::kCli, "summarize", out, "--format", "json"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_TRUE(j["runs"][0]["disturbed"].get<bool>());
    EXPECT_NE(j["runs"][0]["disturbance"].get<std::string>().find(needle), std::string::npos);
    bool warned = false;
    for (const auto& w : j["cases"][0]["warnings"])
        warned = warned || (w["kind"] == "disturbed" &&
                            w["message"].get<std::string>().find(needle) != std::string::npos);
    EXPECT_TRUE(warned) << j["cases"][0].dump();
    EXPECT_EQ(j["cases"][0]["values"].size(), 1u);

    const auto x = sv::test::runProcess(
        {sv::test::kCli, "summarize", out, "--format", "json", "--exclude-disturbed"});
    const auto jx = nlohmann::json::parse(x.out, nullptr, false);
    ASSERT_FALSE(jx.is_discarded()) << x.out << x.err;
    EXPECT_TRUE(jx["cases"][0]["values"].empty()) << jx["cases"][0].dump();
    EXPECT_FALSE(sv::test::readWhole(out + "/monitor/bz2/1n1g/r50_b2_fp32_1.jsonl").empty());
    std::filesystem::remove_all(dir);
}
