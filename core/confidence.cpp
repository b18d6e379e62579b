#include "confidence.h"

#include "numerics.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace sv {

std::uint64_t seedFor(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

double percentileSorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return std::nan("");
    const double pos = q / 100.0 * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(pos));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double frac = pos - static_cast<double>(below);
    return sorted[below] + (sorted[above] - sorted[below]) * frac;
}

std::vector<double> bootstrapMedians(const std::vector<double>& values, std::uint64_t seed,
                                     int resamples) {
    const std::size_t n = values.size();
    if (n == 0 || resamples < 1) return {};
    std::mt19937_64 rng(seed);
    // Largest multiple of n the generator covers: draws at or above it are redrawn, so every
    // index is equally likely.
    const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % n;
    auto draw = [&] {
        std::uint64_t r;
        do
            r = rng();
        while (r >= limit);
        return static_cast<std::size_t>(r % n);
    };
    std::vector<double> medians(static_cast<std::size_t>(resamples));
    std::vector<double> sample(n);
    for (double& m : medians) {
        for (double& x : sample)
            x = values[draw()];
        m = numpyMedianInPlace(sample);
    }
    return medians;
}

std::optional<Interval> bootstrapMedianCi(const std::vector<double>& values, std::uint64_t seed,
                                          int resamples) {
    if (values.size() < 2 || resamples < 2) return std::nullopt;
    std::vector<double> medians = bootstrapMedians(values, seed, resamples);
    std::sort(medians.begin(), medians.end());
    return Interval{percentileSorted(medians, 2.5), percentileSorted(medians, 97.5)};
}

} // namespace sv
