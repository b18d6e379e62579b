#pragma once
// What the throughput and speedup charts draw for one case group: per topology the measured
// median and the spread of repeats, and each selected reference's figures. The GUI and
// `scaleview-cli plot` build their charts from this, so both draw the same thing.

#include "ui/analysis/analysisoptions.h"
#include "core/stats/casestats.h"
#include "core/compare/comparison.h"
#include "core/reference/referencecatalog.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv::ui {

struct ScalingPoint {
    Topology topology;
    int gpus = 0;
    std::optional<double> median, min, max; // images/s, over the repeats used
    std::optional<double> ciLow, ciHigh;    // 95 % interval of the median (two or more repeats)
    int repeats = 0;
    std::optional<double> speedup, efficiency;
    // The Results table's Δ: against the first overlay (or the matching table), or why none.
    std::optional<double> deltaPct;
    std::string deltaAgainst, deltaNote;
    // Percent of the devices' dense peak (core/stats/peakshare.h), or why none ("peak unknown:
    // CPU ranks; ...").
    std::optional<double> peakPct;
    std::string peakUnknown;
};

struct ReferenceCurve {
    std::string id;       // "TABLE_ID" or "TABLE_ID:SERIES"
    std::string label;    // for legends: short, with precision and batch ("… (FP32, bs 128)")
    std::string fullName; // the table's whole title (and series): the legend's hover text
    std::string source, hardware;
    std::optional<std::string> precision; // the series' (or its table's)
    std::optional<int> batchPerDevice;
    // Why no Δ against it is meaningful (another precision or batch size); empty when it matches.
    std::string mismatch;
    std::map<std::string, double> throughput; // by topology name, only the measured topologies
    // The min–max of the source's own repeats by topology, where it printed them (the seed's
    // FP32 table): drawn as a measured series' spread is.
    std::map<std::string, std::pair<double, double>> spread;
    std::optional<double> baseline; // the 1n1g figure, for speedup
    // Its percent of peak by topology (the device read from its hardware text), or why none.
    std::map<std::string, double> peakPct;
    std::string peakUnknown;
    std::optional<double> speedupAt(const Topology& t) const;
};

// Another measured series drawn beside the first (a directory of a comparison, a framework),
// its points aligned with ScalingData::points (the same topology at the same index).
struct SeriesCurve {
    std::string label;
    std::vector<ScalingPoint> points;
};

// A topology not measured, predicted (core/stats/topologyprediction.h), with its 95 % interval.
struct PredictedPoint {
    Topology topology;
    int gpus = 0;
    double throughput = 0.0, low = 0.0, high = 0.0; // samples/s
    std::string model;                              // the terms, in words and figures
};

struct ScalingData {
    CaseGroup group;
    Method method = Method::Time;
    std::string unit = "images/s"; // the throughput's, from the cases' log format
    // What one of the cases' devices is called: "GPU", or "rank" for the local workload's CPU
    // ranks (ui/analysis/devicewords.h); the axes name it.
    std::string device = "GPU", devices = "GPUs";
    // Every case's figure is its log's own reports (a steady-state format), not a time or speed
    // method over a window: the legends say so.
    bool ownReports = false;
    std::string label;                // the first series' name when there are others
    std::vector<ScalingPoint> points; // ordered by GPUs, then nodes
    std::vector<SeriesCurve> others;  // with several series: the second on
    std::vector<ReferenceCurve> references;
    // The percent-of-peak axis's title, "% of V100-SXM2-16GB FP32 peak (dense)"; empty when no
    // point has a peak.
    std::string peakAxis;
    // The next topologies predicted for the first series (Analysis::prediction): the legend's
    // label ("predicted (…, backtest median |error| 3.4 %)") and what the chart notes under its
    // title: the link speed it used, or why there is no prediction.
    std::vector<PredictedPoint> predicted;
    std::string predictedLabel, predictionNote;
    int maxGpus() const;
    bool hasSpeedup() const;
};

// "FP32, bs 128": how a reference's precision and batch read in legends ("" when unknown).
std::string precisionBatchLabel(const std::optional<std::string>& precision,
                                std::optional<int> batch);

ScalingData scalingData(const std::vector<const CaseStats*>& cases, const CaseGroup& group,
                        Method method, const std::vector<std::string>& references,
                        const ReferenceCatalog& catalog = ReferenceCatalog::builtin());

// Several series overlaid (directories compared, or frameworks): the first is points, the others
// others, all on the union of their topologies (a series lacking one has no median there).
ScalingData scalingData(const std::vector<ComparisonSeries>& series, const CaseGroup& group,
                        Method method, const std::vector<std::string>& references,
                        const ReferenceCatalog& catalog = ReferenceCatalog::builtin());

} // namespace sv::ui
