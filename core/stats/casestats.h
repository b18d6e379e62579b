#pragma once
// Per case (model, precision, batch size per device, topology): the repeats' statistics as DLPerf
// computes them, and more: spread, outliers, speedup against 1n1g, scaling efficiency, and the
// published reference.

#include "core/stats/casecontrast.h"
#include "core/stats/caseenergy.h"
#include "core/stats/confidence.h"
#include "core/stats/peakshare.h"
#include "core/reference/referencecatalog.h"
#include "core/model/runresult.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

struct CaseKey {
    std::string model;
    std::string precision;
    int batchPerDevice = 0;
    Topology topology;
    // The log format (RunKey::format): a tree of several frameworks keeps their cases apart.
    std::string format = {};
    // RunKey::ownCase: the log (less its repeat's number) of a case whose GPUs are unknown.
    std::string ownCase = {};
    // The whole key: a comparison matches cases by it, whatever fields it gains.
    bool operator==(const CaseKey&) const = default;
    bool sameGroup(const CaseKey& o) const {
        return model == o.model && precision == o.precision && batchPerDevice == o.batchPerDevice &&
               format == o.format && ownCase == o.ownCase;
    }
};

// Something about a case's figure a reader must know before trusting it, in words. kind is one
// of high-cv, superlinear, methods-disagree, slow-rank, drift, few-repeats, disturbed.
struct CaseWarning {
    std::string kind;
    std::string message;
    bool operator==(const CaseWarning&) const = default;
};

// The thresholds beyond which a case is warned about (percentages).
struct TrustOptions {
    double cvPct = 5.0;          // coefficient of variation of the repeats
    double superlinearPct = 2.0; // speedup above the GPU count by more than this
    double methodsPct = 2.0;     // time and speed methods apart (RunResult::methodsDisagree)
    double slowRankPct = 5.0;    // slowest rank's mean speed below the fastest's
    double driftPct = 5.0;       // the window's last third slower than its first
    int minRepeats = 3;
};

struct ExcludedRun {
    std::string path;
    int repeat = 0;
    std::string reason;
};

struct CaseStats {
    CaseKey key;
    std::vector<int> repeats;   // of the runs used, ascending
    std::vector<double> values; // their throughput by the chosen method, same order
    std::vector<std::string> paths;
    std::vector<ExcludedRun> excluded;
    // Where the case's keys came from, for runs outside DLPerf's layout (RunKey::origins): one
    // line per run and field ("result_0.txt: batch 208: log, line 85: batch_size 208"); empty
    // when every key is DLPerf's path.
    std::vector<std::string> keySources;

    // DLPerf's average_speed and median_speed, rounded as its scripts round them.
    std::optional<double> mean, median;
    std::optional<double> min, max;
    std::optional<double> stdev;     // sample standard deviation (n - 1)
    std::optional<double> cvPct;     // stdev / mean
    std::vector<int> outlierRepeats; // modified z-score above 3.5 (median absolute deviation)

    std::optional<double> speedup;    // round(median / median of 1n1g, 2), as DLPerf
    std::optional<double> efficiency; // speedup / GPUs, from the unrounded ratio
    std::string speedupNote;          // why speedup is absent

    // 95 % bootstrap interval of the median (two or more repeats); the speedup's and the
    // efficiency's from the two cases' intervals (the ratio's extremes).
    std::optional<Interval> medianCi95, speedupCi95, efficiencyCi95;
    std::vector<CaseWarning> warnings;

    std::optional<ReferenceValue> reference;
    // (referenceMedian - reference) / reference, matching references only
    std::optional<double> deltaPct;
    std::string deltaNote; // why there is a reference but no delta
    // The reference is compared by its own table's method, whatever method the rest uses:
    // referenceMethod is it ("time" or "speed"; the chosen method where the table does not say)
    // and referenceMedian this case's median by it.
    std::string referenceMethod;
    std::optional<double> referenceMedian;
    // Where the reference has each run's figure: a real A/B, the reference as A, this case's
    // repeats by the reference's method as B (ratio above 1: faster than the reference).
    std::optional<CaseContrast> referenceContrast;
    // Percent of the devices' peak, or why none (SummaryOptions::peak says what ran).
    PeakShare peak;

    // The GPUs' energy per image (core/stats/caseenergy.h); unset: energyNote says why
    // ("energy not measured: …").
    std::optional<CaseEnergy> energy;
    std::string energyNote;

    int gpus() const { return key.topology.ranks(); }
    // Whether the median's interval is just the repeats' min–max (three repeats or fewer: the
    // bootstrap cannot say more); every output then says so rather than "95 % CI".
    bool medianCiIsMinMax() const;
};

struct SummaryOptions {
    Method method = Method::Time;
    // "TABLE_ID" or "TABLE_ID:SERIES" to compare against; empty: the table matching each case.
    std::string reference;
    TrustOptions trust;
    // Runs the launcher's monitor marked disturbed: counted and warned about (default), or left
    // out of the statistics (and still named in the case's `disturbed` warning).
    bool excludeDisturbed = false;
    ContrastOptions contrast; // for a reference with repeats
    // The tables to compare with (the caller's, with a user's own); null: the built-in ones.
    const ReferenceCatalog* references = nullptr;
    PeakOptions peak; // the device the runs ran on, for each case's percent of peak
};

// Cases ordered by model, precision, batch, then topology (GPUs, nodes).
std::vector<CaseStats>
computeCases(const std::vector<RunResult>& runs, const SummaryOptions& options,
             const ReferenceCatalog& references = ReferenceCatalog::builtin());

} // namespace sv
