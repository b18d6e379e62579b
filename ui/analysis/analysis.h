#pragma once
// One complete view of the data: the core Summary for the chosen options, the RunLogs behind its
// runs (same order), and the case group and references actually shown. Built off the GUI thread.

#include "ui/analysis/analysisoptions.h"
#include "core/compare/comparison.h"
#include "ui/analysis/logsnapshot.h"
#include "ui/analysis/scalingdata.h"
#include "core/stats/scalingloss.h"
#include "core/stats/summary.h"
#include "core/stats/topologyprediction.h"

#include <QMetaType>

#include <memory>
#include <vector>

namespace sv::ui {

// Another directory of a comparison as loaded so far, with its name as a series and its own
// window (core's seriesWindow: its campaign's, else DLPerf's), as `scaleview-cli compare` reads it.
struct SeriesInput {
    std::string label;
    LogSnapshot snapshot;
    MeasureOptions measure;
    std::string windowSource = "dlperf"; // "campaign" or "dlperf"
    std::string campaignFile;
};

// Another directory of a comparison, measured by the open one's method over its own window
// (summary.load.measure, summary.windowSource).
struct SeriesAnalysis {
    std::string label;
    Summary summary;
    std::vector<RunLogPtr> logs; // logs[i] is the log of summary.runs[i]
    std::size_t expected = 0;
    bool complete = false;
};

struct Analysis {
    Summary summary;
    std::vector<RunLogPtr> logs;         // logs[i] is the log of summary.runs[i]
    AnalysisOptions options;             // as asked
    std::vector<CaseGroup> groups;       // every group in the data, in case order
    std::optional<CaseGroup> group;      // the one shown; none when nothing usable was read
    std::vector<std::string> references; // the overlays in effect (auto resolved)
    std::vector<std::string> frameworks; // the group's, as its log formats name them
    std::size_t expected = 0;            // logs the scan found
    bool complete = false;               // false while the directory is still loading
    // Comparison: the open directory's name as a series, and the directories added to it.
    std::string label;
    std::vector<SeriesAnalysis> others;
    // What the views compare for the group shown: the directories (the open one first) when
    // several are open, else the group's frameworks when it holds several (Compare frameworks),
    // else the open directory alone. Each series holds only the group's cases.
    std::vector<ComparisonSeries> series;
    bool comparesFrameworks = false;
    // Each series against the first (two or more series), by core's compareSeries.
    std::optional<Comparison> comparison;
    // The campaign's probes.json (issue 28), read on the worker, and each case's scaling loss
    // (core's scalingLossFor), groupLosses[i] for groupCases()[i]: null without an efficiency.
    ProbeFile probes;
    std::vector<std::optional<ScalingLoss>> groupLosses;
    // The group shown's next two node counts predicted (ui/analysis/chartfigures.h), or why not:
    // worked out here, the backtest behind its interval is not cheap the first time.
    PredictionResult prediction;

    std::vector<const CaseStats*> groupCases() const;
    // What the throughput and speedup charts draw: the group shown with the overlays in effect.
    ScalingData scaling(const ReferenceCatalog& catalog = ReferenceCatalog::builtin()) const;
    // The summary restricted to the group shown (what the Results table and its exports hold).
    Summary groupSummary() const;
    // The windows the group's runs were measured over (each format's DLPerf default may differ
    // by framework); empty with no group or no run in it.
    std::vector<WindowUse> groupWindows() const;
};

using AnalysisPtr = std::shared_ptr<const Analysis>;

// The logs measured for measure: each as it is when it was read for that window, else read
// again (in parallel, on the calling thread and its helpers: never the GUI thread).
std::vector<RunLogPtr> remeasured(const std::vector<RunLogPtr>& logs,
                                  const MeasureOptions& measure);

// Every log measured for options.measure (read again where it was read for another window:
// Analysis::logs holds those), then cases and references as the core does; the other
// directories of a comparison the same way, then the comparison of the group shown.
Analysis analyze(const LogSnapshot& snapshot, const AnalysisOptions& options,
                 const ReferenceCatalog& catalog = ReferenceCatalog::builtin(),
                 const std::string& label = {}, const std::vector<SeriesInput>& others = {});

// The group's cases split by framework (log format), in the cases' order, each a series named
// after its framework with the format left out of its keys, so that frameworks meet case by case.
std::vector<ComparisonSeries> frameworkSeries(const std::vector<const CaseStats*>& cases,
                                              Method method);

// "TABLE_ID" for a one-series table, "TABLE_ID:SERIES" otherwise: how references are named.
std::string referenceId(const ReferenceTable& table, const ReferenceSeries& series);
// The published figures matching a group's model, precision and batch size and the framework
// of the log format `format` (ReferenceCatalog::match, as each case's reference), if any.
std::optional<std::string>
matchingReference(const CaseGroup& group, std::string_view format,
                  const ReferenceCatalog& catalog = ReferenceCatalog::builtin());
// The group's own format's, or with none (frameworks compared) each of `formats`' in turn, once.
std::vector<std::string>
matchingReferences(const CaseGroup& group, const std::vector<std::string>& formats,
                   const ReferenceCatalog& catalog = ReferenceCatalog::builtin());

} // namespace sv::ui

Q_DECLARE_METATYPE(sv::ui::AnalysisPtr)
