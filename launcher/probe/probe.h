#pragma once
// The probes that measure a case's scaling loss (issue 28), run for real through the executors
// the campaign's runs use (this machine, or a host over SSH):
//   the all-reduce probe  every rank all-reduces the model's gradient size (gloo on CPU, nccl on
//                         GPUs), timed after a warmup; rank 0 prints one JSON line;
//   the solo probe        the workload on one node alone at its own rank count for a few
//                         iterations: its pace per device.
// Their results go into the campaign directory's probes.json, which core reads
// (core/stats/scalingloss.h). Each run blocks until its processes end or the timeout: call them
// off the GUI thread.

#include "core/stats/scalingloss.h"
#include "launcher/exec/executor.h"

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

// The gradient's bytes: parameters x 4 (fp32) or 2 (fp16, fp16-noamp).
long long gradientBytes(double parameters, const std::string& precision);
// ResNet-50 v1.5's parameter count.
inline constexpr double kResNet50Parameters = 25.6e6;

// One rank of a probe: where it runs, and its rank on that node.
struct ProbeRank {
    const Executor* executor = nullptr;
    int localRank = 0;
};

struct AllReduceProbeSpec {
    std::string python = "/usr/bin/python3";
    long long bytes = 0;
    std::string precision = "fp32";
    std::string device = "cpu"; // cpu: gloo; cuda: nccl
    int iterations = 10;
    int warmup = 3;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    std::string tag; // set: every rank carries SCALEVIEW_RUN_TAG=tag (a sweep finds them)
};

// One rank's argument vector on its host, before its executor wraps it: env RANK=... python -c
// <the embedded probe> --bytes ...
std::vector<std::string> allReduceProbeArgv(const AllReduceProbeSpec& spec, int rank, int world,
                                            int localRank);

struct AllReduceProbeResult {
    std::optional<AllReduceProbe> probe;
    std::string error; // why there is no probe: a rank failed (its output's tail), a timeout
};

// Starts every rank at once, each through its executor, waits up to timeoutMs for all of them,
// and reads rank 0's JSON line. cancel (when given) set: every rank is killed and the error is
// "cancelled".
AllReduceProbeResult runAllReduceProbe(const AllReduceProbeSpec& spec,
                                       const std::vector<ProbeRank>& ranks, int timeoutMs,
                                       const std::atomic<bool>* cancel = nullptr);

struct SoloProbeSpec {
    std::string python = "/usr/bin/python3";
    std::string node;  // named in the record
    int batch = 16;    // per rank
    int iterations = 8;
    int warmup = 3;    // leading iterations left out of the pace
    int imageSize = 64;
    int threadsPerRank = 1;
    std::string precision = "fp32";
    std::string device = "cpu";
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29501;
    std::string tag;
    // LOCAL_WORLD_SIZE: ranks per node when the ranks span several nodes; 0: all of them.
    int localWorld = 0;
};

struct SoloProbeResult {
    std::optional<SoloProbe> probe;
    std::string error;
};

// The embedded CPU workload (rn50_cpu.py) on one node alone, one process per rank (ranks.size()
// devices); the pace per device of each timed iteration from rank 0's speed lines.
SoloProbeResult runSoloProbe(const SoloProbeSpec& spec, const std::vector<ProbeRank>& ranks,
                             int timeoutMs, const std::atomic<bool>* cancel = nullptr);

// What a probe was run for: the case it belongs to.
struct ProbeCase {
    std::string topology, model, precision;
    int batchPerDevice = 0;
};

// Adds the records to directory/probes.json (created if absent), written whole to a temporary
// file and renamed over it. Returns an error message, empty on success.
std::string appendProbeRecords(const std::filesystem::path& directory, const ProbeCase& forCase,
                               const std::vector<SoloProbe>& solo,
                               const std::vector<AllReduceProbe>& allReduce);

} // namespace sv::launcher
