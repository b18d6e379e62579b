#pragma once
// Grouped bars per topology: the measured median of the repeats (with a whisker: the repeats'
// min–max, or the 95 % interval of the median) and each selected reference beside it.

#include "ui/analysis/scalingdata.h"

#include <QString>

class QChart;

namespace sv::ui {

enum class Whisker { MinMax, Ci95 };
// What the bars measure: samples/s, or percent of the hardware's dense peak.
enum class ThroughputScale { Throughput, PeakPercent };

class ThroughputChart {
  public:
    // A new chart; the caller owns it (a QChartView or an export scene takes it over).
    static QChart* build(const ScalingData& data, Whisker whisker = Whisker::MinMax,
                         ThroughputScale scale = ThroughputScale::Throughput);
    // What a point's figure is multiplied by on the scale: 1, or its percent of peak per sample/s
    // (0: no peak known, the point is left out).
    static double scaleFactor(const ScalingPoint& p, ThroughputScale scale);
    // Percent of peak: which points and references have no peak, and why ("peak unknown at 1n1g,
    // 1n2g: CPU ranks; …"), one line each; empty when every one has a peak.
    static QString peakNote(const ScalingData& data);
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
