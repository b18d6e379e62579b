#include "core/stats/confidence.h"

#include "core/model/numerics.h"

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

namespace {
// percentileSorted's value for q, over values[from..] whose sorted order from `from` on is not
// yet known (values before `from` are all at most those after it). Puts the element below q's
// position in place; returns it and the position.
double selectPercentile(std::vector<double>& values, std::size_t from, double q,
                        std::size_t& below) {
    const std::size_t n = values.size();
    const double pos = q / 100.0 * static_cast<double>(n - 1);
    below = static_cast<std::size_t>(std::floor(pos));
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(below);
    std::nth_element(values.begin() + static_cast<std::ptrdiff_t>(std::min(from, below)), at,
                     values.end());
    const double frac = pos - static_cast<double>(below);
    // The next element in sorted order is the smallest of those after it.
    const double next = below + 1 < n ? *std::min_element(at + 1, values.end()) : *at;
    return *at + (next - *at) * frac;
}
} // namespace

Interval middle95(std::vector<double>& values) {
    std::size_t lowBelow = 0, highBelow = 0;
    const double lo = selectPercentile(values, 0, 2.5, lowBelow);
    const double hi = selectPercentile(values, lowBelow + 1, 97.5, highBelow);
    return {lo, hi};
}

std::vector<double> bootstrapMedians(const std::vector<double>& values, std::uint64_t seed,
                                     int resamples) {
    const std::size_t n = values.size();
    if (n == 0 || resamples < 1) return {};
    std::mt19937_64 rng(seed);
    // Largest multiple of n the generator covers: draws at or above it are redrawn, so every
    // index is equally likely.
    const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % n;
    // r % n without a division on every draw: a quotient from the reciprocal, at most a little
    // short, then corrected.
    __extension__ typedef unsigned __int128 Wide; // GCC's and Clang's, on 64-bit targets
    const std::uint64_t reciprocal = n > 1 ? ~std::uint64_t{0} / n : 0;
    auto draw = [&] {
        std::uint64_t r;
        do
            r = rng();
        while (r >= limit);
        if (n == 1) return std::size_t{0};
        const auto q = static_cast<std::uint64_t>((static_cast<Wide>(r) * reciprocal) >> 64);
        std::uint64_t rem = r - q * n;
        while (rem >= n)
            rem -= n;
        return static_cast<std::size_t>(rem);
    };
    // A resample's median is found from how often each value was drawn, walking the values in
    // ascending order: O(n) a resample, no sort, and the same median the sort would give.
    std::vector<double> ascending(values);
    std::sort(ascending.begin(), ascending.end());
    std::vector<std::size_t> rank(n); // values[i] is ascending[rank[i]]
    for (std::size_t i = 0; i < n; ++i)
        rank[i] = static_cast<std::size_t>(
            std::lower_bound(ascending.begin(), ascending.end(), values[i]) - ascending.begin());
    // The k-th smallest drawn value (k from 0).
    std::vector<std::uint32_t> drawn(n);
    auto kth = [&](std::size_t k) {
        std::size_t seen = 0;
        for (std::size_t r = 0;; ++r) {
            seen += drawn[r];
            if (seen > k) return ascending[r];
        }
    };
    std::vector<double> medians(static_cast<std::size_t>(resamples));
    for (double& m : medians) {
        std::fill(drawn.begin(), drawn.end(), 0u);
        for (std::size_t i = 0; i < n; ++i)
            ++drawn[rank[draw()]];
        if (n % 2 == 1) {
            m = kth(n / 2);
        } else {
            const double pair[2] = {kth(n / 2 - 1), kth(n / 2)};
            m = numpyMean(pair);
        }
    }
    return medians;
}

std::optional<Interval> bootstrapMedianCi(const std::vector<double>& values, std::uint64_t seed,
                                          int resamples) {
    if (values.size() < 2 || resamples < 2) return std::nullopt;
    std::vector<double> medians = bootstrapMedians(values, seed, resamples);
    return middle95(medians);
}

} // namespace sv
