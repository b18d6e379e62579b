#pragma once
// Several series of the same cases (log directories, campaigns, a reference table with repeats)
// side by side: per case each series' median and, against the first series, the ratio of
// medians with a 95 % bootstrap interval and a verdict that never calls noise a change.

#include "core/stats/casestats.h"
#include "core/stats/casecontrast.h"
#include "core/compare/recordedfacts.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

// One named series: its cases as computed for it (the method says how).
struct ComparisonSeries {
    std::string label;
    std::string source; // the directory or reference it was read from
    Method method = Method::Time;
    std::vector<CaseStats> cases;
    // What the series recorded about how it ran (recordedFacts: the captured environment and
    // the campaign's settings); nullopt where nothing can be (a reference table): its pairs
    // then carry no change.
    std::optional<RecordedFacts> recorded = {};
    // The window its runs were measured over (Summary::load.measure), for each case's facts.
    std::optional<MeasureOptions> window = {};
    // What each case's logs state about how they ran (their parameter dumps, as "log.KEY"
    // facts: recordedfacts.h), caseRecorded[i] for cases[i]; empty where not read.
    std::vector<RecordedFacts> caseRecorded = {};
};

// The options of each contrast (threshold, resamples).
using ComparisonOptions = ContrastOptions;

struct CaseComparison {
    CaseKey key;
    std::vector<std::optional<double>> medians; // one per series; nullopt: not in that series
    std::vector<std::size_t> repeats;           // usable repeats per series
    std::vector<CaseContrast> contrasts;        // one per series after the first
    // What the series' records say differs from the first series' (its recorded facts and the
    // case's format and window), one per series after the first: empty when nothing recorded
    // differs.
    std::vector<std::vector<EnvironmentChange>> changed;
};

struct Comparison {
    std::vector<std::string> labels, sources;
    std::vector<Method> methods;
    ComparisonOptions options;
    std::vector<CaseComparison> cases; // ordered like computeCases' cases
};

// Matches cases by their whole key. Needs at least one series.
Comparison compareSeries(const std::vector<ComparisonSeries>& series,
                         const ComparisonOptions& options = {});

// A reference table (or one of its series) as a series: each topology's figure as the median,
// its repeats where the table has them (else the one figure: a ratio, no interval), and the
// table's method. nullopt when the catalog has no such "TABLE_ID[:SERIES]".
std::optional<ComparisonSeries> seriesFromReference(const ReferenceCatalog& catalog,
                                                    std::string_view reference);

} // namespace sv
