#include "core/model/numerics.h"
#include "core/model/textscan.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace sv {

double roundPython2(double x) {
    if (!std::isfinite(x)) return x;
    const double scaled = x * 100.0;
    const double frac = scaled - std::floor(scaled);
    // Far from a tie, rounding the (inexactly) scaled value gives the correctly rounded result,
    // and n / 100.0 is then the double nearest to the decimal, as Python's float(str) is.
    if (std::fabs(frac - 0.5) > 1e-6 && std::fabs(scaled) < 1e15)
        return std::nearbyint(scaled) / 100.0;
    // Near a tie: glibc's printf rounds the exact binary value, ties to even, as Python does.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return std::strtod(buf, nullptr);
}

double roundNumpy2(double x) {
    if (!std::isfinite(x)) return x;
    return std::nearbyint(x * 100.0) / 100.0;
}

double roundPython(double x, int digits) {
    if (digits == 2) return roundPython2(x);
    if (!std::isfinite(x)) return x;
    const bool exactScale = digits >= 0 && digits <= 22;
    const double scale = exactScale ? kPow10Exact[digits] : std::pow(10.0, digits);
    const double scaled = x * scale;
    const double floor = std::floor(scaled);
    const double frac = scaled - floor;
    if (std::fabs(frac - 0.5) > 1e-6 && std::fabs(scaled) < 1e15)
        return std::nearbyint(scaled) / scale;
    if (exactScale && std::fabs(scaled) >= 1.0 && std::fabs(scaled) < 1e15) {
        // Near a tie, decided on the exact product x * scale = scaled + error (fma gives the
        // error exactly). frac - 0.5 is exact and a multiple of scaled's ulp, error at most half
        // of one: their sum has the sign of the exact product's distance to floor + 0.5, and is
        // 0 on an exact tie, which goes to the even neighbour. printf rounds so too; the quotient
        // n / scale is then the double nearest the decimal, as strtod of printf's text is, with
        // the sign of x ("-0.0" for a negative x that rounds to 0).
        const double above = (frac - 0.5) + std::fma(x, scale, -scaled);
        double n = floor;
        if (above > 0.0 || (above == 0.0 && std::fmod(floor, 2.0) != 0.0)) n = floor + 1.0;
        return std::copysign(n, x) / scale;
    }
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return std::strtod(buf, nullptr);
}

double roundNumpy(double x, int digits) {
    if (!std::isfinite(x)) return x;
    const double scale = std::pow(10.0, digits);
    return std::nearbyint(x * scale) / scale;
}

namespace {
// numpy's pairwise_sum (numpy/core/src/umath/loops_utils.h.src), unrolled by 8, block 128.
double pairwiseSum(const double* a, std::size_t n) {
    if (n < 8) {
        double res = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; ++j)
            r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; ++j)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSum(a, n2) + pairwiseSum(a + n2, n - n2);
}
} // namespace

double numpyMean(std::span<const double> values) {
    if (values.empty()) return std::nan("");
    return pairwiseSum(values.data(), values.size()) / static_cast<double>(values.size());
}

double numpyMedianInPlace(std::span<double> values) {
    if (values.empty()) return std::nan("");
    // The middle value, or the two middle ones, put in place without sorting the rest.
    const std::size_t n = values.size();
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (n % 2 == 1) return *middle;
    const double pair[2] = {*std::max_element(values.begin(), middle), *middle};
    return numpyMean(pair);
}

namespace {
// Batcher's odd-even merge sort for n values: visit(a, b) for each compare-exchange, in order.
template <class Visit> constexpr void batcherNetwork(std::size_t n, Visit visit) {
    for (std::size_t p = 1; p < n; p <<= 1)
        for (std::size_t k = p; k >= 1; k >>= 1)
            for (std::size_t j = k % p; j + k < n; j += 2 * k)
                for (std::size_t i = 0; i < std::min(k, n - j - k); ++i)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) visit(i + j, i + j + k);
}
template <std::size_t N> constexpr std::size_t batcherCount() {
    std::size_t c = 0;
    batcherNetwork(N, [&](std::size_t, std::size_t) { ++c; });
    return c;
}
template <std::size_t N> constexpr auto batcherPairs() {
    std::array<std::pair<std::size_t, std::size_t>, batcherCount<N>()> out{};
    std::size_t c = 0;
    batcherNetwork(N, [&](std::size_t a, std::size_t b) { out[c++] = {a, b}; });
    return out;
}
// The network unrolled: every compare-exchange a min and a max, no branch.
template <std::size_t N, std::size_t... I>
void sortingNetwork(double* v, std::index_sequence<I...>) {
    static constexpr auto pairs = batcherPairs<N>();
    auto exchange = [v](std::size_t a, std::size_t b) {
        const double x = v[a], y = v[b];
        v[a] = std::min(x, y);
        v[b] = std::max(x, y);
    };
    (exchange(pairs[I].first, pairs[I].second), ...);
}
template <std::size_t N> double networkMedian(double* v) {
    sortingNetwork<N>(v, std::make_index_sequence<batcherCount<N>()>{});
    const double pair[2] = {v[N / 2 - 1], v[N / 2]};
    return numpyMean(pair);
}
} // namespace

double finiteMedianInPlace(std::span<double> values) {
    switch (values.size()) {
    case 4:
        return networkMedian<4>(values.data());
    case 8:
        return networkMedian<8>(values.data());
    case 16:
        return networkMedian<16>(values.data());
    case 32:
        return networkMedian<32>(values.data());
    default:
        return numpyMedianInPlace(values);
    }
}

std::string pythonFloatRepr(double x) {
    if (std::isnan(x)) return "NaN"; // what json.dump writes
    if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
    char buf[64];
    const double ax = std::fabs(x);
    const bool fixed = ax == 0.0 || (ax >= 1e-4 && ax < 1e16);
    auto res = std::to_chars(buf, buf + sizeof buf, x,
                             fixed ? std::chars_format::fixed : std::chars_format::scientific);
    std::string s(buf, res.ptr);
    // Python writes 100000.0 and 1e+16: '.0' only in fixed form; to_chars's exponent form
    // (at least two exponent digits) already matches Python's.
    if (fixed && s.find('.') == std::string::npos) s += ".0";
    return s;
}

std::string formatFixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string formatShown(double v, int decimals) {
    std::string s = formatFixed(v, decimals);
    if (!s.empty() && s[0] == '-' && s.find_first_not_of("0.", 1) == std::string::npos)
        s.erase(0, 1);
    return s;
}

} // namespace sv
