#pragma once
// What could disturb a run on this machine, read from /proc between two calls: load average,
// CPU steal and iowait, and the processes not carrying the run's tag that used CPU meanwhile.
// Cheap: /proc/*/stat for everyone, a process's environment only when it used CPU (once).

#include "launcher/monitor/gpusampler.h"
#include "launcher/monitor/nvmlenergy.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct ForeignProcess {
    int pid = 0;
    std::string command; // its name (comm), as ps shows it
    double cpuPct = 0;   // of one core, over the interval
};

struct HostSample {
    std::string time;            // UTC, ISO 8601
    double seconds = 0;          // the interval this sample covers
    std::int64_t iteration = -1; // the run's iterations done when it was taken (-1: unknown)
    double load1 = 0, load5 = 0;
    int cpus = 1;
    double stealPct = 0, iowaitPct = 0;  // of all CPUs' time over the interval
    std::vector<ForeignProcess> foreign; // above 1 % of a core, busiest first, at most 8
    std::optional<GpuSample> gpu;        // on a GPU run: nvidia-smi's view
    std::optional<EnergyReading> energy; // on a GPU run: each GPU's energy counter (NVML)
};

class HostSampler {
  public:
    // tag: the run's SCALEVIEW_RUN_TAG; its processes (and this one) are the run's, not foreign.
    explicit HostSampler(std::string tag, std::string procRoot = "/proc");
    // The first call sets the baseline and returns a sample with seconds = 0 (no deltas yet).
    HostSample sample();
    // One JSON line (no newline) for DIR/monitor/<run>.jsonl; tag: the run's, since a resumed
    // run's samples follow its earlier attempt's in the same file.
    static std::string toJson(const HostSample& s, const std::string& host, const std::string& tag);
    // The counters' readings as a sample line carries them ("energy", "energy_error"); the
    // remote sampler writes the same fields.
    static void energyJson(const EnergyReading& e, nlohmann::json& into);

  private:
    bool tagged(int pid);

    struct Ticks {
        std::uint64_t start = 0; // the process's start time: a reused pid is another process
        std::uint64_t used = 0;  // utime + stime
    };
    std::string m_tag, m_proc;
    bool m_first = true;
    double m_lastUptime = 0;
    std::vector<std::uint64_t> m_lastCpu; // /proc/stat's cpu line
    std::map<int, Ticks> m_last;
    std::map<std::pair<int, std::uint64_t>, bool> m_taggedCache;
};

} // namespace sv::launcher
