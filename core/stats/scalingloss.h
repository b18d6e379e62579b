#pragma once
// Where a case's lost throughput goes: the loss against ideal scaling (1 - efficiency, exact from
// the logs) split into parts the launcher's probes measured in the same allocation:
//   device-slowdown  each node alone at its own device count, against the 1-device case's pace;
//   slowest-node     the slowest node's solo pace against the median node's (everyone waits; of an
//                    even count the high median, the upper middle node);
//   communication    an all-reduce of the gradient's size across the case's ranks, timed, as the
//                    cost per iteration if the workload did not overlap it;
//   remainder        the loss less the measured parts, never forced to zero (negative: the
//                    workload hides that much of the communication, or the probes overstate).
// A part with nothing to measure it is "not measured", never guessed. All figures are
// percentage points of the ideal throughput (devices x the 1-device pace).

#include "core/stats/casestats.h"
#include "core/stats/confidence.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

// One node run alone at its own device count: its throughput per device (samples/s), and the
// per-iteration paces it was measured from, when the probe kept them (for an interval).
struct SoloProbe {
    std::string node;
    int devices = 0;
    double pacePerDevice = 0.0;
    std::vector<double> paceSamples;
};

// An all-reduce of `bytes` across `ranks` ranks, each timed iteration's seconds.
struct AllReduceProbe {
    std::string backend;
    double bytes = 0.0;
    int ranks = 0;
    std::vector<double> seconds;
};

// What the probes measured for one case (model, precision, batch, topology).
struct CaseProbes {
    std::vector<SoloProbe> solo;
    std::optional<AllReduceProbe> allReduce;
    bool empty() const { return solo.empty() && !allReduce; }
};

struct ScalingLossInput {
    int devices = 0;         // the case's GPUs (ranks)
    int batchPerDevice = 0;  // samples per device per iteration
    double efficiency = 0.0; // the case's, from the logs (CaseStats::efficiency)
    std::optional<Interval> efficiencyCi95;
    double baselinePace = 0.0; // the 1-device case's median throughput
    std::optional<Interval> baselineCi95;
    const CaseProbes* probes = nullptr; // null or empty: nothing measured
    double slowNodeThresholdPct = 3.0;  // slower than the median node by more: a slow node
};

struct LossPart {
    std::string kind; // device-slowdown, slowest-node, communication, remainder
    double pct = 0.0;
    std::optional<Interval> ci95;
    std::string evidence;
};

struct SlowNode {
    std::string node;
    double slowerPct = 0.0; // below the median node's solo pace per device
    std::string evidence;
};

struct ScalingLoss {
    double totalPct = 0.0; // 100 x (1 - efficiency)
    std::optional<Interval> totalCi95;
    std::vector<LossPart> parts;          // the measured ones, in the order of the kinds above
    std::vector<std::string> notMeasured; // the kinds with no part
    std::vector<SlowNode> slowNodes;
    // Why this breakdown is not to be trusted, in words; empty when nothing says so. Set when the
    // measured parts exceed the whole loss by more than overlapping the communication could hide
    // (the probes ran slower than the case), and when the case's runs were disturbed. Every page
    // and output that shows the parts shows it beside them.
    std::string unreliable;
    bool partsExceedLoss = false; // the first reason above
    bool runsDisturbed = false;   // the second
};

// The four kinds in order.
const std::vector<std::string>& scalingLossKinds();

ScalingLoss scalingLoss(const ScalingLossInput& input);

// probes.json, as the launcher writes it into a campaign's directory:
//   {"probes": [{"kind": "solo", "topology": "2n1g", "model": "...", "precision": "...",
//                "batch_size_per_device": 32, "node": "n1", "devices": 1,
//                "pace_per_device": 95.2, "pace_samples": [...]},
//               {"kind": "allreduce", "topology": "2n1g", ..., "backend": "gloo",
//                "bytes": 102400000, "ranks": 2, "seconds": [...]}]}
// model, precision and batch_size_per_device may be left out (then they match any case).
struct ProbeRecord {
    std::string topology, model, precision;
    std::optional<int> batchPerDevice;
    std::optional<SoloProbe> solo;
    std::optional<AllReduceProbe> allReduce;
};
struct ProbeFile {
    std::string path;
    std::vector<ProbeRecord> records;
    std::string error; // "probes.json: probes[2]: no \"seconds\""; empty when read
};

// Reads the probes.json in `root` (a directory) or beside it (a file). No file: no records and
// no error.
ProbeFile readProbeFile(const std::filesystem::path& root);
// The probes of the campaign a folder opened belongs to: the probes.json of
// campaignRecordsFolder(opened) (core/load/campaignrecords.h), the rule that finds its journal
// and environment, so a campaign opened at its root or at a leaf of its logs shows the same probes.
ProbeFile readCampaignProbes(const std::filesystem::path& opened);
// Parses probes.json text; `path` names it in errors.
ProbeFile parseProbeFile(const std::string& text, const std::string& path);

// The probes matching one case.
CaseProbes probesFor(const ProbeFile& file, const std::string& topology, const std::string& model,
                     const std::string& precision, int batchPerDevice);

// A summarized case's breakdown: its efficiency, the same group's 1-device case as the baseline,
// and the probes matching it. Null where the case has no efficiency (no 1-device case).
std::optional<ScalingLoss> scalingLossFor(const std::vector<CaseStats>& cases, const CaseStats& c,
                                          const ProbeFile& probes);

} // namespace sv
