#pragma once
// How sure a median over a handful of repeats is: a percentile-bootstrap interval, seeded so the
// same repeats give the same interval on every machine and every run.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sv {

struct Interval {
    double lo = 0.0, hi = 0.0;
    bool contains(double x) const { return lo <= x && x <= hi; }
    bool operator==(const Interval&) const = default;
};

// The 95 % percentile-bootstrap interval of numpy's median of `values`: `resamples` resamples
// with replacement, each one's median, then the 2.5th and 97.5th percentiles of those medians
// (numpy's linear interpolation). Needs at least two values. Draws come from mt19937_64 with
// unbiased rejection, which the C++ standard fixes bit for bit (std::uniform_int_distribution
// is not, so it is not used).
std::optional<Interval> bootstrapMedianCi(const std::vector<double>& values, std::uint64_t seed,
                                          int resamples = 10000);

// The bootstrap medians themselves, in draw order (the resamples behind bootstrapMedianCi), so
// that statistics of two series' medians, like their ratio, resample each series the same way.
// Needs at least one value.
std::vector<double> bootstrapMedians(const std::vector<double>& values, std::uint64_t seed,
                                     int resamples = 10000);

// A seed that depends only on the text it is given (FNV-1a), so each case has its own.
std::uint64_t seedFor(std::string_view text);

// numpy.percentile(sorted, q) with its default linear interpolation; sorted ascending, q 0..100.
double percentileSorted(const std::vector<double>& sorted, double q);

// The 2.5th and 97.5th percentiles of values, as percentileSorted gives them on the sorted
// values, found by selection rather than a whole sort. Reorders values; needs at least one.
Interval middle95(std::vector<double>& values);

} // namespace sv
