#pragma once
// A summary's next topologies: each group of cases (model, precision, batch, format) predicted
// at the topologies asked, its interval calibrated on the published tables' backtest.

#include "core/stats/summary.h"
#include "core/stats/topologyprediction.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

struct CasePredictions {
    CaseKey group; // the group's first case's key (its topology: the smallest)
    PredictionResult result;
};

struct PredictOptions {
    std::vector<Topology> targets; // a target's devices per node 0: the measured ones
    std::optional<double> linkBytesPerSecond;
    std::string linkSource;
    const DeviceCatalog* catalog = nullptr; // the models' parameter counts; null: built-in
};

std::vector<CasePredictions> predictCases(const std::vector<CaseStats>& cases,
                                          const PredictOptions& options);

} // namespace sv
