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
    // Per series, the case's runs the launcher's monitor marked disturbed, in words (its
    // `disturbed` warning); empty where none was: a verdict over them says so.
    std::vector<std::string> disturbed;
};

struct Comparison {
    std::vector<std::string> labels, sources;
    std::vector<Method> methods;
    ComparisonOptions options;
    std::vector<CaseComparison> cases; // ordered like computeCases' cases
};

// The one rule of evidence for B's repeats against A's, Compare's and the History's alike (the
// History's latest campaign against its baseline's repeats): the ratio of the medians, its 95 %
// bootstrap interval seeded from the case (model, precision, batch, topology: the same
// resamples wherever the same case is compared) and a change called only when the interval
// excludes 1 and the change is beyond the threshold. bName names B in a note.
CaseContrast contrastCase(const CaseKey& key, const std::vector<double>& a, double medianA,
                          const std::vector<double>& b, double medianB, std::string_view bName,
                          const ComparisonOptions& options = {});

// A verdict as a reader is told it ("no measurable difference", "faster", "slower", "only in
// A", "only in B", "in neither"): the screen's and the HTML report's words; JSON and CSV keep
// verdictName's codes.
std::string_view verdictWords(Verdict v);

// Matches cases by their whole key. Needs at least one series.
Comparison compareSeries(const std::vector<ComparisonSeries>& series,
                         const ComparisonOptions& options = {});

// A reference table (or one of its series) as a series: each topology's figure as the median,
// its repeats where the table has them (else the one figure: a ratio, no interval), and the
// table's method. nullopt when the catalog has no such "TABLE_ID[:SERIES]".
std::optional<ComparisonSeries> seriesFromReference(const ReferenceCatalog& catalog,
                                                    std::string_view reference);

} // namespace sv
