#pragma once
// One series of a case's repeats against another (B against A): the ratio of their medians, its
// 95 % bootstrap interval, and a verdict that calls a change only when the interval excludes 1
// and the change is beyond a practical threshold. Shared by comparisons and references.

#include "core/stats/confidence.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

enum class Verdict { Faster, Slower, NoDifference, OnlyInA, OnlyInB, Absent };
// "faster", "slower", "no-difference", "only-in-A", "only-in-B", "absent" (in neither series).
std::string_view verdictName(Verdict v);

struct ContrastOptions {
    // A change is called only beyond this (percent of A's median), like criterion's noise
    // threshold: an interval that excludes 1 by a hair is real but rarely worth acting on.
    double thresholdPct = 2.0;
    int resamples = 10000;
};

struct CaseContrast {
    std::optional<double> ratio; // median of B / median of A (above 1: B is faster)
    std::optional<Interval> ratioCi95;
    Verdict verdict = Verdict::NoDifference;
    std::string note; // why there is no interval or no verdict
};

// The 95 % percentile-bootstrap interval of median(b) / median(a): each series resampled on
// its own (seeded), the ratio of each pair of resampled medians, then its 2.5th and 97.5th
// percentiles. Needs two or more values in each.
std::optional<Interval> bootstrapRatioCi(const std::vector<double>& a, const std::vector<double>& b,
                                         std::uint64_t seedA, std::uint64_t seedB,
                                         int resamples = 10000);

// A change only when the interval excludes 1 and the ratio is beyond the threshold.
Verdict verdictFor(double ratio, const Interval& ci95, double thresholdPct);

// B's repeats against A's, with their medians as reported (DLPerf's rounding). seedText names
// the case (caseSeedText): A and B draw from seeds made of it, so the same samples give the same
// result on every run and in every output. bName names B in a note.
CaseContrast contrastRepeats(const std::vector<double>& a, double medianA,
                             const std::vector<double>& b, double medianB,
                             std::string_view seedText, std::string_view bName,
                             const ContrastOptions& options);

} // namespace sv
