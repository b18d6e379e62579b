#pragma once
// Grouped bars per topology: the measured median of the repeats (with its min–max whisker) and
// each selected reference beside it.

#include "scalingdata.h"

#include <QString>

class QChart;

namespace sv::ui {

class ThroughputChart {
  public:
    // A new chart; the caller owns it (a QChartView or an export scene takes it over).
    static QChart* build(const ScalingData& data);
    // "8 (1n8g)": the category label of a topology.
    static QString categoryLabel(const Topology& t);
};

} // namespace sv::ui
