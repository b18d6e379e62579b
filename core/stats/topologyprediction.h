#pragma once
// The next topology's throughput predicted from the measured ones: each iteration is the single
// node's time at the same devices per node (per-device compute, the node's own all-reduce), plus
// a ring all-reduce of the gradient across the nodes at the link speed, plus a residual fitted
// on the measured multi-node cases (what neither explains). docs/prediction.md derives it and
// carries its backtest over the published tables.

#include "core/model/runkey.h"
#include "core/stats/confidence.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

struct ScalingPoint {
    Topology topology;
    double throughput = 0.0;      // samples/s, the case's median
    std::optional<Interval> ci95; // of the median
};

struct PredictionInput {
    std::vector<ScalingPoint> points; // one group's cases (same model, precision, batch)
    int batchPerDevice = 0;
    double gradientBytes = 0.0; // parameters x bytes per gradient element
    // The inter-node link in bytes/s: the user's or the probes'; none: implied by two or more
    // multi-node cases, else no prediction.
    std::optional<double> linkBytesPerSecond;
    std::string linkSource;
    // The relative half-width the backtest calibrates (its 90th percentile |error|), and what
    // it rests on, said with each prediction.
    double calibratedHalfWidth = 0.0;
    std::string backtest;
};

struct Prediction {
    Topology topology;
    double throughput = 0.0;
    Interval ci95;
    std::string model;    // the terms, in words and figures
    std::string backtest; // the backtest it rests on
};

struct PredictionResult {
    std::vector<Prediction> predictions;
    std::string refused; // why there is none ("only one multi-device case: ...")
    int gpusPerNode = 0;
    double nodeSeconds = 0.0;     // t_node(G)
    double residualSeconds = 0.0; // r
    double linkBytesPerSecond = 0.0;
    std::string linkSource;
};

// The ring all-reduce's time for `ranks` ranks: 2 (N - 1) / N x bytes / link (0 for one rank).
double ringAllReduceSeconds(int ranks, double gradientBytes, double linkBytesPerSecond);

// Each target (more nodes at the measured devices per node) predicted, or why none: refused
// from fewer than two multi-device cases, without a single-node case at the multi-node cases'
// devices per node, without a multi-node case to fit the residual, or with no link speed.
PredictionResult predictTopologies(const PredictionInput& input,
                                   const std::vector<Topology>& targets);

} // namespace sv
