#pragma once
// A summary's predicted topologies written out: a readable table, or JSON
// {"predictions": [{"topology", "throughput", "ci95": [lo, hi], "model", "backtest", "case"}],
//  "refused": [{"case", "why"}]}.

#include "core/stats/casepredictions.h"
#include "core/stats/predictionbacktest.h"

#include <string>

namespace sv {

std::string formatPredictionTable(const std::vector<CasePredictions>& predictions);
std::string formatPredictionJson(const std::vector<CasePredictions>& predictions);
// The backtest as a Markdown table (docs/prediction.md carries it): a row per series.
std::string formatBacktestTable(const Backtest& backtest);

} // namespace sv
