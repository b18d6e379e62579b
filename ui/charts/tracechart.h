#pragma once
// One run, iteration by iteration: the median of the ranks' reported throughput, the per-rank
// min–max band, and the warmup and measured window shaded — where a slow or odd run shows why;
// under it, on a right-hand axis, what the launcher's monitor saw other processes use.

#include "core/load/runlog.h"
#include "core/model/runresult.h"

#include <QString>

class QChart;

namespace sv::ui {

class TraceChart {
  public:
    // monitor: the run's monitor samples (none: no second axis).
    static QChart* build(const IterationTrace& trace, const MeasureOptions& window,
                         const QString& title,
                         const std::vector<RunResult::MonitorPoint>& monitor = {});
};

} // namespace sv::ui
