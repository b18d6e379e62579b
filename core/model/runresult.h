#pragma once
// One log reduced to what the statistics need: its identity, its status with a reason, and its
// throughput by both DLPerf methods.

#include "core/model/parsecounters.h"
#include "core/model/runkey.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

enum class Method { Time, Speed };
std::string_view methodName(Method m);
std::optional<Method> parseMethod(std::string_view name);

struct MeasureOptions {
    int warmup = 20;      // iterations left out at the start (W)
    int iterations = 120; // end of the measured window (I); throughput is over W..I-1
    // Nobody chose a window: each log is measured over its format's DLPerf defaults (what
    // DLPerf's script for it uses: TF2 ResNet-50's 100/600...), and warmup and iterations
    // above stand only for NGC MXNet's. windowFor(format, ...) says which applies to a log.
    bool formatDefaults = false;
};

enum class RunStatus {
    Complete,   // both methods computed
    Incomplete, // fewer lines than the window needs, or a rank missing
    Unusable,   // lines there, but a value the methods need is broken (nan, no timestamp...)
    Empty,      // no speed line at all
    Unreadable, // the file could not be read
};
std::string_view statusName(RunStatus s);

struct RunResult {
    std::string path; // as shown to the user: relative to the scanned directory
    RunKey key;
    MeasureOptions window; // the window it was measured over (formatDefaults resolved)
    RunStatus status = RunStatus::Empty;
    std::string reason;             // why the run is not complete, naming lines and counts
    std::vector<std::string> notes; // worth knowing about a run that counts

    ParseCounters counters;
    std::int64_t expectedLines = 0; // iterations x ranks
    bool unterminatedTail = false;

    std::optional<double> timeThroughput;  // DLPerf extract_mxnet_logs_time.py, rounded as it does
    std::optional<double> speedThroughput; // DLPerf extract_mxnet_logs.py
    std::optional<double> methodDifferencePct; // |speed - time| / time
    bool methodsDisagree = false;              // difference above 2 %
    // The figure DLPerf's own script computes for this file where it differs in kind from
    // ScaleView's (a quirk of the script; 0 where the script records 0); unset for formats whose
    // figures are DLPerf's exactly, or where the script fails (dlperfNote says why).
    std::optional<double> dlperfThroughput;
    std::string dlperfNote;
    // The same for the format's --method speed script, where it has both (dlperfThroughput is
    // then the *_time.py script's).
    std::optional<double> dlperfSpeedThroughput;
    std::string dlperfSpeedNote;

    bool ranksTagged = false;
    std::optional<double>
        rankSpreadPct; // (slowest - fastest rank mean speed) / mean, measured window
    int slowestRank = -1;
    std::optional<double> clockOffsetMs; // largest node clock offset against node 0 (estimate)
    // How much slower the measured window's last third ran than its first (positive: slower).
    std::optional<double> driftPct;

    // The launcher's monitor saw the host busy during the run (campaign journal), in words.
    bool disturbed = false;
    std::string disturbance;
    // What the monitor sampled during the run (DIR/monitor/<run>.jsonl), when it was read.
    struct MonitorPoint {
        double iteration = 0;     // iterations done when sampled
        double load1 = 0;         // load average
        double foreignCpuPct = 0; // the busiest foreign process's share of one core
    };
    std::vector<MonitorPoint> monitor;

    // The GPUs' energy per image over the smallest span of monitor samples that covers the
    // measured window (DIR/monitor/<run>.jsonl): from each GPU's own counter (NVML), else from
    // nvidia-smi's power integrated over the samples. The GPUs' only: a lower bound on the
    // nodes' energy. Unset: not measured, energyNote says why.
    struct Energy {
        std::string source;                        // "nvml" or "power samples"
        double joulesPerImage = 0;                 // by source
        std::optional<double> powerJoulesPerImage; // the power samples', beside the counter's
        int gpus = 0;                              // boards counted, each once on its node
        double seconds = 0;                        // the span's length (every host's longest)
        double images = 0;                         // images processed in it, all ranks
    };
    std::optional<Energy> energy;
    std::string energyNote;

    // A campaign is writing this log now: short of lines because it is not done, not because
    // anything went wrong. Neither counted nor excluded, and no warning.
    bool inProgress = false;

    bool usable() const { return status == RunStatus::Complete; }
    std::optional<double> throughput(Method m) const {
        return m == Method::Time ? timeThroughput : speedThroughput;
    }
};

} // namespace sv
