#pragma once
// What a chart says about the bar or point under the mouse: topology, value and Δ against the
// reference, in words. Built from the ScalingData the chart was drawn from, so it is testable
// without a view and says exactly what the chart shows.

#include "ui/analysis/scalingdata.h"
#include "ui/charts/throughputchart.h"

#include <QString>

namespace sv::ui {

class ChartHover {
  public:
    // Bar set 0 is the measured median, sets 1…k the other series of a comparison, set k + 1 + r
    // reference r; index is the topology's.
    static QString barText(const ScalingData& data, int set, int index, Whisker whisker);
    // A point of the speedup or efficiency chart: curve is SpeedupChart's kCurveProperty.
    static QString pointText(const ScalingData& data, int curve, int gpus, bool efficiency);
    // A reference's legend entry: the short label's full name, hardware and source.
    static QString legendText(const ScalingData& data, int reference);
};

} // namespace sv::ui
