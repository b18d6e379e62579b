#pragma once
// What the monitor saw during one run, reduced for the journal's end record, and the verdict:
// disturbed or not, with the evidence in words.

#include "launcher/campaign/journal.h"
#include "launcher/monitor/hostsampler.h"

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace sv::launcher {

// Beyond these a run counts as disturbed.
struct DisturbanceLimits {
    double foreignCorePct = 25.0;   // a foreign process's average use of one core over the run
    double loadMargin = 1.0;        // load above the run's own processes by more than this...
    double loadMarginPerCpu = 0.25; // ...or this share of the CPUs, whichever is larger
    double stealPct = 10.0;         // average CPU steal (a busy hypervisor)
};

struct MonitorSummary {
    struct Foreign {
        int pid = 0;
        std::string command;
        double cpuSeconds = 0, maxPct = 0;
        double averagePct(double seconds) const {
            return seconds > 0 ? 100.0 * cpuSeconds / seconds : 0.0;
        }
    };
    std::string host = "local";
    int samples = 0;
    double seconds = 0; // monitored
    int ownProcesses = 0;
    int cpus = 1;
    double maxLoad1 = 0, maxStealPct = 0, maxIowaitPct = 0, stealCpuSeconds = 0;
    std::vector<Foreign> foreign; // every foreign process seen, busiest (CPU seconds) first
    std::string problem;          // the monitor could not sample (or write) all it should have
    // GPUs (a GPU run only): per GPU, the slowing throttle reasons seen and in how many samples;
    // compute processes of others on them.
    bool gpuSampled = false;
    std::map<int, std::uint64_t> throttleSeen;
    std::map<int, int> throttledSamples;
    double maxTemperatureC = 0;
    std::vector<GpuProcess> foreignGpu;
    // Each GPU's energy counter (NVML) at the run's first and last sample, once per board (by
    // UUID: every rank on a node shares the node's reading); energyError: why it was not read,
    // or why the window was lost (a counter that went back: the driver reloaded).
    struct Counter {
        std::string name;
        std::uint64_t startMj = 0, endMj = 0;
    };
    bool energyRead = false;
    std::map<std::string, Counter> energy;
    std::string energyError;
    // nvidia-smi's power summed over the GPUs and integrated over the samples, for the
    // side-by-side with the counters.
    double powerJoules = 0, powerSeconds = 0;

    // A run on remote hosts: one summary per host (each naming its host), in the run's host
    // order; this summary's own figures then stay empty, and evidence(), notSampled() and
    // toJson() speak for all of them.
    std::vector<MonitorSummary> hosts;

    void add(const HostSample& s);
    void addEnergy(const EnergyReading& e);
    // The evidence that a host was busy, in words, each naming the host; empty: not disturbed.
    std::vector<std::string> evidence(const DisturbanceLimits& limits = {}) const;
    // The hosts that could not be watched (all or part of the run), "host: not sampled: why":
    // unknown, never quiet.
    std::vector<std::string> notSampled() const;
    nlohmann::json toJson() const;
    // The counters over the run: {"source": "nvml", "gpus": [...], "joules"} or
    // {"not_measured": why}.
    nlohmann::json energyJson() const;
    // What the run's end record carries of it: the evidence and this summary.
    RunEnd::Monitored record(const DisturbanceLimits& limits = {}) const;
};

} // namespace sv::launcher
