#pragma once
// The statistics behind the history's verdicts (docs/history.md says why these):
// - welchLowerPValue: a one-sided Welch t-test that the latest campaign's repeats are slower
//   than the baseline's (unequal variances and sizes, as repeats of two campaigns are);
// - benjaminiHochberg: which of many cases' p-values are discoveries at a false discovery rate;
// - findChangePoints: binary segmentation of a case's campaign medians for a change in mean,
//   the noise taken from the medians' successive differences (robust to the steps themselves).

#include <cstddef>
#include <optional>
#include <vector>

namespace sv::history {

// P(T >= t) for Student's t with df degrees of freedom (df > 0, not necessarily whole).
double studentUpperTail(double t, double df);

// The one-sided p-value of "latest's mean is lower than baseline's" by Welch's t-test; nullopt
// when a side has fewer than two values. Two sides without any spread give 0 when the latest is
// lower and 1 otherwise.
std::optional<double> welchLowerPValue(const std::vector<double>& baseline,
                                       const std::vector<double>& latest);

// Benjamini-Hochberg at level q: rejected[i] for pValues[i] (the step-up procedure: the largest
// k with p_(k) <= k q / m, and every p at or below p_(k)).
std::vector<bool> benjaminiHochberg(const std::vector<double>& pValues, double q);

struct ChangePointOptions {
    // A split is kept when its drop in the sum of squares, over sigma^2, passes this times ln n
    // (a modified BIC: 2 ln n would be BIC's, the extra ln n pays for searching every position).
    double penaltyPerLogN = 3.0;
    // ... and when the step is at least this much of the mean before it, in percent.
    double minStepPct = 2.0;
    // A step must hold for three campaigns, and the two sides' medians must step as their means
    // do: one slow campaign (or two) is an outlier, not a new level.
    std::size_t minSegment = 3;
};

struct ChangePoint {
    std::size_t index = 0; // the first campaign of the new level
    // The levels either side: the means from the change point before it (or the start) and
    // up to the one after it (or the end).
    double before = 0.0, after = 0.0;
    double stepPct = 0.0; // (after - before) / before, in percent
    double score = 0.0;   // the drop in the sum of squares over sigma^2
};

// The change points of series, in order; sigma estimated as 1.4826 * median |x_i - x_(i-1)| /
// sqrt(2), floored at 1e-9 of the mean's magnitude.
std::vector<ChangePoint> findChangePoints(const std::vector<double>& series,
                                          const ChangePointOptions& options = {});

} // namespace sv::history
