#pragma once
// Where each topology's lost throughput goes (issue 28), as one horizontal stacked bar per
// multi-device case of the group shown: the measured throughput's share of ideal scaling, then
// the loss's parts the probes measured (device slowdown, slowest node, communication, the
// remainder), or one hatched "not measured" part where no probe measured them. The axis is the
// percentage of ideal throughput (devices x the 1-device case's pace), so a bar ends at 100.
// A negative part (the workload hides communication behind compute, a node faster alone than
// the 1-device case) is never drawn as a bar: the bar then runs past 100 by that much, and the
// note under the chart says which part and why.

#include "core/stats/casestats.h"
#include "core/stats/scalingloss.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

class QChart;

namespace sv::ui {

struct Analysis;

struct LossBar {
    QString topology; // "2n4g", with the framework when the group holds several
    int devices = 0;
    double efficiencyPct = 0.0; // the measured throughput's share of ideal
    std::optional<Interval> efficiencyCi95;
    ScalingLoss loss;
};

struct LossBreakdown {
    QString group; // the cases' group, "r50 fp32, batch 8": the title names it
    std::vector<LossBar> bars;
    QString probeFile;  // the probes.json read, if any
    QString probeError; // why it could not be read
};

class LossBreakdownChart {
  public:
    // The bar sets, in stacking order.
    enum Set { Measured, DeviceSlowdown, SlowestNode, Communication, Remainder, NotMeasured };
    static constexpr int kSets = NotMeasured + 1;

    // The group's cases with more than one device and an efficiency, in case order.
    static LossBreakdown breakdown(const Analysis& analysis);
    // The same from cases and their breakdowns (losses[i] for cases[i]; plot has no Analysis).
    static LossBreakdown breakdown(const std::vector<const CaseStats*>& cases,
                                   const std::vector<std::optional<ScalingLoss>>& losses,
                                   const ProbeFile& probes);
    static QChart* build(const LossBreakdown& data);
    // The value the bar set draws for a bar: the part's points, 0 for a negative one or a part
    // not measured (the remainder then holds it), the whole loss for NotMeasured without probes.
    static double drawn(const LossBar& bar, Set set);
    // The part of the loss a set draws (none for Measured and NotMeasured).
    static const LossPart* part(const LossBar& bar, Set set);
    static QString setName(Set set);
    // What hovering a bar's segment says: the part's points, its 95 % interval and evidence.
    static QString hoverText(const LossBar& bar, Set set);
    // The lines under the chart: negative parts (not drawn) and why, an unread probes.json,
    // and what "not measured" means when no case was probed.
    static QStringList notes(const LossBreakdown& data);
    // The category label of a bar: its topology and total loss ("4n4g · loss 22.83 %").
    static QString label(const LossBar& bar);
    // The chart's title: the cases' group, and which bars are not to trust, and why in a word
    // (an exported image carries it; the notes say it in full).
    static QString title(const LossBreakdown& data);
};

} // namespace sv::ui
