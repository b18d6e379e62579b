#pragma once
// Speedup against GPUs, as scaling engineers read it: a log2 GPU axis ticked at the measured
// counts, speedup on log2 too (so the ideal is the diagonal), each selected reference dashed
// with its own marker. Or the same as scaling efficiency, auto-ranged around the data and 100 %.

#include "ui/analysis/scalingdata.h"

class QChart;

namespace sv::ui {

class SpeedupChart {
  public:
    // Series property naming what a series draws: the index of its reference in
    // ScalingData::references, kMeasured, or kIdeal. Hover text is looked up with it.
    static constexpr const char* kCurveProperty = "svCurve";
    static constexpr int kMeasured = -1;
    static constexpr int kIdeal = -2;
    // The other measured series of a comparison: kOtherSeries - j for ScalingData::others[j].
    static constexpr int kOtherSeries = -100;
    // The predicted topologies (ScalingData::predicted): their points, and their intervals.
    static constexpr int kPredicted = -3;
    static constexpr int kPredictedInterval = -4;

    static QChart* build(const ScalingData& data, bool efficiency);
    // Where a GPU count sits on the x axis (its log2), and back.
    static double gpuX(int gpus);
    static int gpusAt(double x);
};

} // namespace sv::ui
