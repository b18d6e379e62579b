#pragma once
// Grouped bars per topology: the measured median of the repeats (with a whisker: the repeats'
// min–max, or the 95 % interval of the median) and each selected reference beside it.

#include "ui/analysis/scalingdata.h"

#include <QString>

class QChart;

namespace sv::ui {

enum class Whisker { MinMax, Ci95 };

class ThroughputChart {
  public:
    // A new chart; the caller owns it (a QChartView or an export scene takes it over).
    static QChart* build(const ScalingData& data, Whisker whisker = Whisker::MinMax);
    // The whisker's span at a point, if it has one (two or more repeats).
    static std::optional<std::pair<double, double>> whiskerSpan(const ScalingPoint& p,
                                                                Whisker whisker);
    static QString whiskerName(Whisker whisker); // "Min–max of repeats", "95 % CI of median"
    static std::optional<Whisker> parseWhisker(const std::string& name); // "minmax", "ci95"
    // "8 (1n8g)": the category label of a topology.
    static QString categoryLabel(const Topology& t);
    // Whether the throughput axis is logarithmic: the figures drawn (lowest above 0, top) span
    // more than a decade.
    static bool logScale(double low, double top);
};

} // namespace sv::ui
