// Each GPU's energy counter, read through NVML loaded at run time: no GPU here, so a stand-in
// library built with the tests (fakenvml.c: NVML's functions, energy counting up at a set power
// as a real board's does) is loaded through the product's own lookup, its path in
// SCALEVIEW_NVML_LIBRARY. A machine without the library, or a board without a counter, says the
// energy was not measured and why: never zero.

#include "launcher/monitor/monitorsummary.h"
#include "launcher/monitor/nvmlenergy.h"
#include "launcher/monitor/remotesampler.h"
#include "launcher/monitor/runmonitor.h"
#include "tests/launcher/launchertest.h"
#include "tests/launcher/qtloop.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>
#include <thread>

using namespace sv::launcher;
using sv::test::waitFor;

namespace {

// The stand-in, for this test only: its environment set, and unset again after.
struct StandInNvml {
    StandInNvml(const char* gpus, const char* watts, bool noEnergy = false) {
        ::setenv("SCALEVIEW_NVML_LIBRARY", SCALEVIEW_FAKE_NVML, 1);
        ::setenv("FAKE_NVML_GPUS", gpus, 1);
        ::setenv("FAKE_NVML_WATTS", watts, 1);
        if (noEnergy) ::setenv("FAKE_NVML_NO_ENERGY", "1", 1);
    }
    ~StandInNvml() {
        for (const char* v :
             {"SCALEVIEW_NVML_LIBRARY", "FAKE_NVML_GPUS", "FAKE_NVML_WATTS", "FAKE_NVML_NO_ENERGY"})
            ::unsetenv(v);
    }
};

std::uint64_t millijoules(const EnergyReading& r, std::size_t gpu) {
    return r.gpus.at(gpu).millijoules.value_or(0);
}

} // namespace

TEST(Energy, TheCounterOfEachGpuIsReadThroughTheRunTimeLookup) {
    StandInNvml nvml("2", "300");
    NvmlEnergy meter;
    ASSERT_EQ(meter.error(), "");
    const auto start = std::chrono::steady_clock::now();
    const EnergyReading first = meter.read();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    const EnergyReading second = meter.read();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(first.error, "");
    ASSERT_EQ(second.gpus.size(), 2u);
    EXPECT_EQ(second.gpus[0].name, "NVIDIA H100 80GB HBM3");
    EXPECT_NE(second.gpus[0].uuid, second.gpus[1].uuid) << "each board named by its own UUID";
    EXPECT_EQ(second.gpus[1].powerW, 300.0);
    // 300 W for about 1.5 s, in the counter's 100 ms steps: 300 J per step of 0.1 s ± one step.
    for (std::size_t g = 0; g < 2; ++g) {
        const double joules = (millijoules(second, g) - millijoules(first, g)) / 1000.0;
        EXPECT_NEAR(joules, 300.0 * seconds, 300.0 * 0.1 + 300.0 * 0.05) << "GPU " << g;
    }
}

TEST(Energy, WithoutTheLibraryTheEnergyIsNotMeasuredAndSaysWhy) {
    ::unsetenv("SCALEVIEW_NVML_LIBRARY");
    // This machine has no NVIDIA driver: the product's own default says so.
    NvmlEnergy here;
    if (here.error().empty()) GTEST_SKIP() << "this machine has NVML; the missing one is below";
    EXPECT_NE(here.error().find("libnvidia-ml.so.1"), std::string::npos) << here.error();
    NvmlEnergy none("/nonexistent/libnvidia-ml.so.1");
    EXPECT_NE(none.error().find("/nonexistent/libnvidia-ml.so.1"), std::string::npos);
    EXPECT_EQ(none.read().gpus.size(), 0u);
    MonitorSummary s;
    s.addEnergy(none.read());
    const auto j = s.energyJson();
    ASSERT_TRUE(j.contains("not_measured")) << j.dump();
    EXPECT_FALSE(j.contains("joules")) << "not measured is never 0 J: " << j.dump();
}

TEST(Energy, ABoardWithoutACounterIsNotMeasuredNeverZero) {
    StandInNvml nvml("1", "100", true);
    NvmlEnergy meter;
    ASSERT_EQ(meter.error(), "");
    const EnergyReading r = meter.read();
    ASSERT_EQ(r.gpus.size(), 1u);
    EXPECT_FALSE(r.gpus[0].millijoules.has_value());
    EXPECT_EQ(r.gpus[0].error, "nvmlDeviceGetTotalEnergyConsumption: Not Supported");
    MonitorSummary s;
    s.addEnergy(r);
    s.addEnergy(meter.read());
    EXPECT_EQ(s.energyJson().value("not_measured", ""),
              "GPU GPU-fa4e0000-0000-0000-0000-000000000000: "
              "nvmlDeviceGetTotalEnergyConsumption: Not Supported");
}

TEST(Energy, ACounterThatWentBackLosesTheWindowInsteadOfGoingNegative) {
    MonitorSummary s;
    EnergyReading r;
    r.gpus.push_back({0, "GPU-a", "H100", 5'000'000, 300.0, ""});
    s.addEnergy(r);
    r.gpus[0].millijoules = 100; // the driver reloaded: the counter starts again
    s.addEnergy(r);
    EXPECT_NE(s.energyJson().value("not_measured", "").find("went back"), std::string::npos)
        << s.energyJson().dump();
}

// A GPU run's local monitor: the counters read with every sample (the baseline too), each line
// of DIR/monitor/<run>.jsonl carrying them, and the run's energy in the summary the end record
// keeps, beside the stand-in nvidia-smi's power integrated over the samples.
TEST(Energy, TheMonitorJournalsTheCountersWithTheRunAndThePowerBesideThem) {
    sv::test::EventLoop loop;
    StandInNvml nvml("2", "200");
    const std::string dir = sv::test::tempDir("energymon");
    const std::string smi = dir + "/nvidia-smi";
    std::ofstream(smi) << "#!/bin/sh\n"
                       << "case \"$1\" in\n"
                       << "  --query-gpu=*) echo '0, 1410, 0x0000000000000000, 60, 210.00'; "
                       << "echo '1, 1410, 0x0000000000000000, 60, 190.00' ;;\n"
                       << "esac\n";
    ::chmod(smi.c_str(), 0755);
    const std::string file = dir + "/monitor/r50_b2_fp32_1.jsonl";
    RunMonitor monitor(file, "svenergytest", 2, std::chrono::milliseconds(500), nullptr, true, smi);
    monitor.start();
    ASSERT_TRUE(waitFor([&] { return monitor.summary().samples >= 4; }, 30000));
    std::optional<MonitorSummary> summary;
    monitor.finish([&](MonitorSummary s) { summary = s; });
    ASSERT_TRUE(waitFor([&] { return summary.has_value(); }, 20000));
    const auto j = summary->toJson();
    ASSERT_EQ(j["energy"].value("source", ""), "nvml") << j.dump();
    ASSERT_EQ(j["energy"]["gpus"].size(), 2u);
    // Two boards at 200 W over the monitored time (baseline to last sample), ± a step each.
    const double joules = j["energy"]["joules"].get<double>();
    EXPECT_NEAR(joules, 2 * 200.0 * summary->seconds, 2 * 200.0 * 0.15) << j.dump();
    // nvidia-smi's 210 + 190 W over the same samples: 400 W as well.
    EXPECT_NEAR(j["power_samples"]["joules"].get<double>(), 400.0 * summary->seconds, 1e-6);
    std::ifstream in(file);
    int lines = 0;
    for (std::string line; std::getline(in, line); ++lines) {
        const auto l = nlohmann::json::parse(line);
        ASSERT_EQ(l["energy"].size(), 2u) << line;
        EXPECT_GT(l["energy"][1]["mj"].get<std::uint64_t>(), 5'000'000'000u) << line;
    }
    EXPECT_EQ(lines, summary->samples);
    std::filesystem::remove_all(dir);
}

// A remote host's counters are read where its GPUs are: by the remote sampler itself (here run on
// this machine without the ssh hop, which the remote monitor's tests cover), its first line the
// run's start; the host's summary names them, each board once.
TEST(Energy, TheRemoteSamplerReadsTheHostsCountersFromTheRunsStartToItsEnd) {
    sv::test::EventLoop loop;
    StandInNvml nvml("2", "150");
    const std::string dir = sv::test::tempDir("remoteenergy");
    const std::string tag = "svremoteenergytest";
    const std::string smi = dir + "/nvidia-smi";
    std::ofstream(smi) << "#!/bin/sh\n"
                       << "case \"$1\" in\n"
                       << "  --query-gpu=*) echo '0, 1410, 0x0, 60, 150.00'; "
                       << "echo '1, 1410, 0x0, 60, 150.00' ;;\n"
                       << "esac\n";
    ::chmod(smi.c_str(), 0755);
    const std::string file = dir + "/monitor/r50_b2_fp32_1.jsonl";
    RunMonitor monitor(file, tag, 2, std::chrono::milliseconds(1000), nullptr, true, smi);
    monitor.watchHost(
        "node7",
        {"/usr/bin/python3", "-c", std::string(RemoteSampler::script()), tag, "1", "60", smi}, 2);
    const auto start = std::chrono::steady_clock::now();
    monitor.start();
    auto lines = [&] {
        std::ifstream in(file);
        int n = 0;
        for (std::string line; std::getline(in, line);)
            n += !line.empty();
        return n;
    };
    ASSERT_TRUE(waitFor([&] { return lines() >= 2; }, 30000));
    std::optional<MonitorSummary> summary;
    monitor.finish([&](MonitorSummary s) { summary = s; });
    ASSERT_TRUE(waitFor([&] { return summary.has_value(); }, 20000));
    const double upper =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(summary->hosts.size(), 1u);
    const auto j = summary->toJson()["hosts"][0];
    ASSERT_EQ(j["energy"].value("source", ""), "nvml") << j.dump();
    EXPECT_EQ(j["energy"]["gpus"].size(), 2u);
    // Two boards at 150 W from the sampler's first line to its last: more than its samples'
    // seconds (the baseline came first), less than the whole test's time.
    const double joules = j["energy"]["joules"].get<double>();
    EXPECT_GT(joules, 2 * 150.0 * (summary->hosts[0].seconds - 0.2)) << j.dump();
    EXPECT_LT(joules, 2 * 150.0 * upper) << j.dump();
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        const auto l = nlohmann::json::parse(line);
        EXPECT_EQ(l["host"], "node7");
        EXPECT_EQ(l["energy"].size(), 2u) << line;
    }
    std::filesystem::remove_all(dir);
}

// The real CPU workload (RUN_SERIAL with the other real-workload tests) on this machine, which
// has no NVIDIA driver: every output says the energy was not measured, and why; never a figure.
TEST(LocalCampaign, WithoutNvmlEveryOutputSaysEnergyNotMeasured) {
    ::unsetenv("SCALEVIEW_NVML_LIBRARY");
    const std::string dir = sv::test::tempDir("energyreal");
    const std::string out = dir + "/out";
    const auto r = sv::test::runProcess({sv::test::kCli, "run",  "--profile",    "local-cpu-rn50",
                                         "--topologies", "1n1g", "--batch-size", "2",
                                         "--precision",  "fp32", "--repeats",    "1",
                                         "--iterations", "8",    "--warmup",     "2",
                                         "--image-size", "32",   "--cooldown",   "0",
                                         "--out",        out});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto s = sv::test::runProcess({sv::test::kCli, "summarize", out, "--format", "json"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    ASSERT_EQ(j["cases"].size(), 1u);
    const auto& e = j["cases"][0]["energy"];
    EXPECT_EQ(e["measured"], false) << e.dump();
    EXPECT_EQ(e["note"].get<std::string>().rfind("energy not measured: ", 0), 0u) << e.dump();
    EXPECT_FALSE(e.contains("j_per_image")) << e.dump();
    EXPECT_EQ(j["runs"][0]["energy"]["measured"], false);
    const auto t = sv::test::runProcess({sv::test::kCli, "summarize", out});
    EXPECT_NE(t.out.find("note: energy not measured: "), std::string::npos) << t.out;
    const auto c = sv::test::runProcess({sv::test::kCli, "summarize", out, "--format", "csv"});
    EXPECT_NE(c.out.find(",,,,,,\"energy not measured: "), std::string::npos) << c.out;
    std::filesystem::remove_all(dir);
}
