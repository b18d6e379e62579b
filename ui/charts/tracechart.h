#pragma once
// One run, iteration by iteration: the median of the ranks' reported throughput, the per-rank
// min–max band, and the warmup and measured window shaded — where a slow or odd run shows why;
// under it, on a right-hand axis, what the launcher's monitor saw other processes use. A log
// whose figure is its own reports is drawn report by report, with the reports its figure is of.

#include "core/load/runlog.h"
#include "core/model/runresult.h"

#include <QString>

class QChart;

namespace sv::ui {

// What the run's figure is: its unit (the y axis says it), and whether it is the log's own
// reports (the x axis is then the reports in the log's order, and the window a window of them).
struct TraceFigure {
    QString unit = QStringLiteral("images/s");
    bool ownReports = false;
};

class TraceChart {
  public:
    // monitor: the run's monitor samples (none: no second axis).
    static QChart* build(const IterationTrace& trace, const MeasureOptions& window,
                         const QString& title,
                         const std::vector<RunResult::MonitorPoint>& monitor = {},
                         const TraceFigure& figure = {});
};

} // namespace sv::ui
