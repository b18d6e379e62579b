#pragma once
// One run, iteration by iteration: the median of the ranks' reported throughput, the per-rank
// min–max band, and the warmup and measured window shaded — where a slow or odd run shows why.

#include "runlog.h"

#include <QString>

class QChart;

namespace sv::ui {

class TraceChart {
  public:
    static QChart* build(const IterationTrace& trace, const MeasureOptions& window,
                         const QString& title);
};

} // namespace sv::ui
