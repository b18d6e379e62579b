#pragma once
// Speedup against GPUs, as DLPerf draws it: the measured curve, each selected reference, and the
// ideal line (dashed). Or the same as scaling efficiency, with 100 % as the ideal.

#include "scalingdata.h"

class QChart;

namespace sv::ui {

class SpeedupChart {
  public:
    static QChart* build(const ScalingData& data, bool efficiency);
};

} // namespace sv::ui
