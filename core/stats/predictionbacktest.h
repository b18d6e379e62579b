#pragma once
// The prediction backtested before it is shown: on every published table with three or more node
// counts, the largest predicted from the smaller ones and set against the figure measured. Its
// errors calibrate every prediction's interval (their 90th percentile, each table's own left out
// when it is itself tested).

#include "core/reference/devicecatalog.h"
#include "core/reference/referencecatalog.h"
#include "core/stats/confidence.h"

#include <string>
#include <vector>

namespace sv {

// DLPerf's cluster, where every published multi-node table was measured: InfiniBand 100 Gb/s EDR
// (its report's Test Environment).
inline constexpr double kDlperfLinkBytesPerSecond = 100e9 / 8;

struct BacktestRow {
    std::string table, series; // series empty for a one-series table
    std::string model, precision;
    std::string target, fittedOn; // "4n8g"; "1n8g 2n8g"
    double measured = 0.0, predicted = 0.0;
    double errorPct = 0.0; // predicted / measured - 1
    Interval ci95;         // calibrated on the other rows (leave-one-out)
    bool inside = false;
};

struct Backtest {
    std::vector<BacktestRow> rows;
    double medianAbsPct = 0.0, p90AbsPct = 0.0, maxAbsPct = 0.0;
    int inside = 0;
    // "85 published series (target 4n8g): median |error| 3.4 %, 90th percentile 11.9 %, max
    // 24.1 %; the calibrated interval held 77 of 85"
    std::string summary() const;
};

// Bytes all-reduced per iteration: the model's parameters x 4 (FP32 gradients, AMP's too: it
// keeps FP32 master weights), x 2 for pure FP16 ("fp16-noamp"); 0 when the count is unknown.
double gradientBytes(const ModelFlops& model, const std::string& precision);

Backtest backtestPublished(const ReferenceCatalog& tables, const DeviceCatalog& catalog);
// The built-in tables' backtest, computed once.
const Backtest& builtinBacktest();

} // namespace sv
