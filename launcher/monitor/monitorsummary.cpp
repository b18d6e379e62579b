#include "launcher/monitor/monitorsummary.h"

#include "core/model/wording.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace sv::launcher {
namespace {
std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}
} // namespace

void MonitorSummary::addEnergy(const EnergyReading& e) {
    energyRead = true;
    if (!e.error.empty() && energyError.empty()) energyError = e.error;
    for (const auto& g : e.gpus) {
        const std::string id = g.uuid.empty() ? "index " + std::to_string(g.index) : g.uuid;
        if (!g.millijoules) {
            if (energyError.empty()) energyError = "GPU " + id + ": " + g.error;
            continue;
        }
        auto [it, fresh] = energy.try_emplace(id, Counter{g.name, *g.millijoules, *g.millijoules});
        if (fresh) continue;
        // The counter counts from the driver's load: going back, it restarted, and the window's
        // energy is lost, never negative.
        if (*g.millijoules < it->second.endMj && energyError.empty())
            energyError = "the energy counter of GPU " + id +
                          " went back (the driver reloaded): the run's energy is lost";
        it->second.endMj = std::max(it->second.endMj, *g.millijoules);
    }
}

void MonitorSummary::add(const HostSample& s) {
    if (s.energy) addEnergy(*s.energy); // the baseline's too: the run's start
    if (s.seconds <= 0) return;         // the baseline: no interval yet
    ++samples;
    seconds += s.seconds;
    cpus = s.cpus;
    maxLoad1 = std::max(maxLoad1, s.load1);
    maxStealPct = std::max(maxStealPct, s.stealPct);
    maxIowaitPct = std::max(maxIowaitPct, s.iowaitPct);
    stealCpuSeconds += s.stealPct / 100.0 * s.seconds;
    for (const auto& f : s.foreign) {
        auto it = std::find_if(foreign.begin(), foreign.end(), [&](const Foreign& o) {
            return o.pid == f.pid && o.command == f.command;
        });
        if (it == foreign.end()) it = foreign.insert(foreign.end(), Foreign{f.pid, f.command});
        it->cpuSeconds += f.cpuPct / 100.0 * s.seconds;
        it->maxPct = std::max(it->maxPct, f.cpuPct);
    }
    if (s.gpu) {
        gpuSampled = true;
        if (!s.gpu->error.empty() && problem.empty()) problem = s.gpu->error;
        constexpr std::uint64_t kSlowing = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
        double watts = 0;
        for (const auto& g : s.gpu->gpus)
            watts += g.powerW;
        if (s.gpu->error.empty()) {
            powerJoules += watts * s.seconds;
            powerSeconds += s.seconds;
        }
        for (const auto& g : s.gpu->gpus) {
            maxTemperatureC = std::max(maxTemperatureC, g.temperatureC);
            if (g.throttle & kSlowing) {
                throttleSeen[g.index] |= g.throttle & kSlowing;
                ++throttledSamples[g.index];
            }
        }
        for (const auto& a : s.gpu->foreign)
            if (std::none_of(foreignGpu.begin(), foreignGpu.end(),
                             [&](const GpuProcess& o) { return o.pid == a.pid; }))
                foreignGpu.push_back(a);
    }
    std::stable_sort(foreign.begin(), foreign.end(), [](const Foreign& a, const Foreign& b) {
        return a.cpuSeconds > b.cpuSeconds;
    });
}

std::vector<std::string> MonitorSummary::evidence(const DisturbanceLimits& limits) const {
    std::vector<std::string> out;
    for (const auto& h : hosts)
        for (auto& e : h.evidence(limits))
            out.push_back(std::move(e));
    if (samples == 0 || seconds <= 0) return out;
    for (const auto& f : foreign) {
        const double avg = f.averagePct(seconds);
        if (avg < limits.foreignCorePct) continue;
        out.push_back("pid " + std::to_string(f.pid) + " (" + f.command + ") used " +
                      fixed(avg, 0) + " % of a core on " + host + " over the run (up to " +
                      fixed(f.maxPct, 0) + " %)");
    }
    const double margin = std::max(limits.loadMargin, limits.loadMarginPerCpu * cpus);
    if (maxLoad1 > ownProcesses + margin)
        out.push_back("load average " + fixed(maxLoad1, 2) + " on " + host + " (" +
                      countOf(cpus, "CPU") + "), above the run's " +
                      countOf(ownProcesses, "process", "processes"));
    for (const auto& [gpu, reasons] : throttleSeen)
        out.push_back("GPU " + std::to_string(gpu) + " on " + host + " throttled (" +
                      throttleWords(reasons) + ") in " + std::to_string(throttledSamples.at(gpu)) +
                      " of " + std::to_string(samples) + " samples");
    for (const auto& p : foreignGpu)
        out.push_back("another compute process on the GPUs of " + host + ": pid " +
                      std::to_string(p.pid) + " (" + p.name + ")");
    const double steal = 100.0 * stealCpuSeconds / seconds;
    if (steal > limits.stealPct)
        out.push_back("CPU steal " + fixed(steal, 0) + " % on " + host +
                      ": the hypervisor gave the CPUs to other guests");
    return out;
}

std::vector<std::string> MonitorSummary::notSampled() const {
    std::vector<std::string> out;
    for (const auto& h : hosts)
        for (auto& n : h.notSampled())
            out.push_back(std::move(n));
    // RemoteSampler's words for a host it could not watch (a write problem is not one).
    if (problem.rfind("not sampled", 0) == 0 || problem.rfind("sampling stopped", 0) == 0)
        out.push_back(host + ": " + problem);
    return out;
}

nlohmann::json MonitorSummary::energyJson() const {
    if (!energyError.empty() || energy.empty())
        return {{"not_measured", energyError.empty() ? "no GPU answered" : energyError}};
    nlohmann::json gpus = nlohmann::json::array();
    std::uint64_t total = 0;
    for (const auto& [uuid, c] : energy) {
        gpus.push_back(
            {{"uuid", uuid}, {"name", c.name}, {"start_mj", c.startMj}, {"end_mj", c.endMj}});
        total += c.endMj - c.startMj;
    }
    return {{"source", "nvml"}, {"gpus", gpus}, {"joules", total / 1000.0}};
}

RunEnd::Monitored MonitorSummary::record(const DisturbanceLimits& limits) const {
    return {evidence(limits),
            toJson().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

nlohmann::json MonitorSummary::toJson() const {
    if (!hosts.empty()) {
        nlohmann::json each = nlohmann::json::array();
        int total = 0;
        for (const auto& h : hosts) {
            each.push_back(h.toJson());
            total += h.samples;
        }
        nlohmann::json j{{"hosts", each}, {"samples", total}};
        if (const auto unknown = notSampled(); !unknown.empty()) j["not_sampled"] = unknown;
        return j;
    }
    nlohmann::json top = nlohmann::json::array();
    for (std::size_t i = 0; i < std::min<std::size_t>(foreign.size(), 5); ++i)
        top.push_back({{"pid", foreign[i].pid},
                       {"command", foreign[i].command},
                       {"avg_cpu_pct", foreign[i].averagePct(seconds)},
                       {"max_cpu_pct", foreign[i].maxPct}});
    double maxForeign = 0;
    for (const auto& f : foreign)
        maxForeign = std::max(maxForeign, f.maxPct);
    nlohmann::json j{{"host", host},
                     {"samples", samples},
                     {"seconds", seconds},
                     {"own_processes", ownProcesses},
                     {"cpus", cpus},
                     {"max_load1", maxLoad1},
                     {"max_foreign_cpu_pct", maxForeign},
                     {"steal_pct", seconds > 0 ? 100.0 * stealCpuSeconds / seconds : 0.0},
                     {"max_steal_pct", maxStealPct},
                     {"max_iowait_pct", maxIowaitPct},
                     {"foreign", top}};
    if (gpuSampled) {
        nlohmann::json throttled = nlohmann::json::array(), apps = nlohmann::json::array();
        for (const auto& [gpu, reasons] : throttleSeen)
            throttled.push_back({{"gpu", gpu},
                                 {"reasons", throttleWords(reasons)},
                                 {"samples", throttledSamples.at(gpu)}});
        for (const auto& p : foreignGpu)
            apps.push_back({{"pid", p.pid}, {"name", p.name}});
        j["throttle_seen"] = throttled;
        j["foreign_gpu_processes"] = apps;
        j["max_temperature_c"] = maxTemperatureC;
        j["power_samples"] = {{"joules", powerJoules}, {"seconds", powerSeconds}};
    }
    if (energyRead) j["energy"] = energyJson();
    if (!problem.empty()) j["problem"] = problem;
    return j;
}

} // namespace sv::launcher
