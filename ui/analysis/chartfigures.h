#pragma once
// The figures the Throughput and Speedup charts add to the measured ones, worked out with the
// analysis off the GUI thread: what the runs ran on (each case's percent of peak) and the group's
// next two node counts predicted, with the link speed the campaign's probes measured.

#include "core/reference/devicecatalog.h"
#include "core/stats/peakshare.h"
#include "core/stats/scalingloss.h"
#include "core/stats/summary.h"
#include "core/stats/topologyprediction.h"

#include <vector>

namespace sv::ui {

// The built-in catalogue and the user's $XDG_DATA_HOME/scaleview/peak-catalogue.json (as
// `scaleview-cli summarize` reads it), loaded once; a file that does not read is left out.
const DeviceCatalog& userDeviceCatalog();

// The device the summary's runs ran on (core/compare/rundevice.h), against userDeviceCatalog().
PeakOptions runPeak(const Summary& summary);

// The topologies predicted for a group: the next two doublings of its largest node count at the
// measured devices per node (0: predictTopologies takes the multi-node cases' own).
std::vector<Topology> nextTopologies(const std::vector<const CaseStats*>& cases);

// The group's cases predicted at nextTopologies, the link from the probes' all-reduce where they
// measured one; refused says why not.
PredictionResult predictGroup(const std::vector<const CaseStats*>& cases, const ProbeFile& probes);

struct ScalingData;
// The prediction drawn: its points, the legend's label (the backtest's median |error|) and the
// note under the chart's title (the link speed and where it came from, or why none).
void addPrediction(ScalingData& data, const PredictionResult& prediction);

} // namespace sv::ui
