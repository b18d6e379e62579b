#include "history/historystats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sv::history {
namespace {

// The continued fraction of the regularized incomplete beta function, by the modified Lentz
// method.
double betaFraction(double a, double b, double x) {
    constexpr double kTiny = 1e-300, kEps = 1e-15;
    const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (std::abs(d) < kTiny) d = kTiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (std::abs(d) < kTiny) d = kTiny;
        c = 1.0 + aa / c;
        if (std::abs(c) < kTiny) c = kTiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (std::abs(d) < kTiny) d = kTiny;
        c = 1.0 + aa / c;
        if (std::abs(c) < kTiny) c = kTiny;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::abs(del - 1.0) < kEps) break;
    }
    return h;
}

// I_x(a, b).
double regularizedBeta(double a, double b, double x) {
    if (x <= 0.0) return 0.0;
    if (x >= 1.0) return 1.0;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0)) return front * betaFraction(a, b, x) / a;
    return 1.0 - front * betaFraction(b, a, 1.0 - x) / b;
}

double mean(const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sampleVariance(const std::vector<double>& v, double m) {
    double s = 0.0;
    for (double x : v)
        s += (x - m) * (x - m);
    return s / static_cast<double>(v.size() - 1);
}

} // namespace

double studentUpperTail(double t, double df) {
    if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
    const double tail = 0.5 * regularizedBeta(df / 2.0, 0.5, df / (df + t * t));
    return t >= 0 ? tail : 1.0 - tail;
}

std::optional<double> welchLowerPValue(const std::vector<double>& baseline,
                                       const std::vector<double>& latest) {
    if (baseline.size() < 2 || latest.size() < 2) return std::nullopt;
    const double mb = mean(baseline), ml = mean(latest);
    const double vb = sampleVariance(baseline, mb) / static_cast<double>(baseline.size());
    const double vl = sampleVariance(latest, ml) / static_cast<double>(latest.size());
    const double se2 = vb + vl;
    if (se2 <= 0.0) return ml < mb ? 0.0 : 1.0;
    const double t = (mb - ml) / std::sqrt(se2);
    const double df = se2 * se2 /
                      (vb * vb / static_cast<double>(baseline.size() - 1) +
                       vl * vl / static_cast<double>(latest.size() - 1));
    return studentUpperTail(t, df);
}

std::vector<bool> benjaminiHochberg(const std::vector<double>& p, double q) {
    const std::size_t m = p.size();
    std::vector<std::size_t> order(m);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::size_t k = 0; // how many are rejected
    for (std::size_t i = 0; i < m; ++i)
        if (p[order[i]] <= static_cast<double>(i + 1) * q / static_cast<double>(m)) k = i + 1;
    std::vector<bool> rejected(m, false);
    for (std::size_t i = 0; i < k; ++i)
        rejected[order[i]] = true;
    return rejected;
}

namespace {

double medianOf(const std::vector<double>& x, std::size_t begin, std::size_t end) {
    std::vector<double> v(x.begin() + static_cast<std::ptrdiff_t>(begin),
                          x.begin() + static_cast<std::ptrdiff_t>(end));
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void segment(const std::vector<double>& x, std::size_t begin, std::size_t end, double sigma2,
             double threshold, const ChangePointOptions& o, std::vector<ChangePoint>& out) {
    const std::size_t n = end - begin;
    if (n < 2 * o.minSegment) return;
    // Prefix sums make each candidate split O(1).
    std::vector<double> prefix(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        prefix[i + 1] = prefix[i] + x[begin + i];
    double best = -1.0;
    std::size_t at = 0;
    for (std::size_t k = o.minSegment; k + o.minSegment <= n; ++k) {
        const double n1 = static_cast<double>(k), n2 = static_cast<double>(n - k);
        const double m1 = prefix[k] / n1, m2 = (prefix[n] - prefix[k]) / n2;
        const double drop = n1 * n2 / static_cast<double>(n) * (m1 - m2) * (m1 - m2);
        if (drop > best) {
            best = drop;
            at = k;
        }
    }
    if (best < 0.0) return;
    const double m1 = prefix[at] / static_cast<double>(at);
    const double m2 = (prefix[n] - prefix[at]) / static_cast<double>(n - at);
    const double score = best / sigma2;
    const double stepPct = m1 != 0.0 ? (m2 - m1) / std::abs(m1) * 100.0 : 0.0;
    if (score <= threshold || std::abs(stepPct) < o.minStepPct) return;
    // The means can be dragged by one wild campaign; the segments' medians must step the same
    // way and as far (with three campaigns a side at least, one outlier cannot move a median).
    const double med1 = medianOf(x, begin, begin + at), med2 = medianOf(x, begin + at, end);
    const double medianStepPct = med1 != 0.0 ? (med2 - med1) / std::abs(med1) * 100.0 : 0.0;
    if (std::abs(medianStepPct) < o.minStepPct || (medianStepPct > 0) != (stepPct > 0)) return;
    // And the campaigns either side of the split must sit nearer their own side's level: a split
    // placed beside a few outliers (which minSegment keeps it from isolating) is not a step.
    const double mid = (med1 + med2) / 2.0;
    if ((x[begin + at] - mid) * (med2 - mid) <= 0.0 ||
        (x[begin + at - 1] - mid) * (med1 - mid) <= 0.0)
        return;
    out.push_back({begin + at, m1, m2, stepPct, score});
    segment(x, begin, begin + at, sigma2, threshold, o, out);
    segment(x, begin + at, end, sigma2, threshold, o, out);
}

} // namespace

std::vector<ChangePoint> findChangePoints(const std::vector<double>& x,
                                          const ChangePointOptions& o) {
    std::vector<ChangePoint> out;
    if (x.size() < 2 * std::max<std::size_t>(o.minSegment, 1)) return out;
    std::vector<double> diffs;
    for (std::size_t i = 1; i < x.size(); ++i)
        diffs.push_back(std::abs(x[i] - x[i - 1]));
    std::nth_element(diffs.begin(), diffs.begin() + diffs.size() / 2, diffs.end());
    double mad = diffs[diffs.size() / 2];
    if (diffs.size() % 2 == 0) {
        const double lower = *std::max_element(diffs.begin(), diffs.begin() + diffs.size() / 2);
        mad = (mad + lower) / 2.0;
    }
    double sigma = 1.4826 * mad / std::sqrt(2.0);
    sigma = std::max(sigma, 1e-9 * std::abs(mean(x)) + 1e-300);
    const double threshold = o.penaltyPerLogN * std::log(static_cast<double>(x.size()));
    segment(x, 0, x.size(), sigma * sigma, threshold, o, out);
    std::sort(out.begin(), out.end(),
              [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
    // Each step between the levels either side of it (the segments between its neighbours),
    // not the wider segments the search split.
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::size_t from = i ? out[i - 1].index : 0;
        const std::size_t to = i + 1 < out.size() ? out[i + 1].index : x.size();
        const auto level = [&](std::size_t b, std::size_t e) {
            return std::accumulate(x.begin() + static_cast<std::ptrdiff_t>(b),
                                   x.begin() + static_cast<std::ptrdiff_t>(e), 0.0) /
                   static_cast<double>(e - b);
        };
        out[i].before = level(from, out[i].index);
        out[i].after = level(out[i].index, to);
        out[i].stepPct = out[i].before != 0.0
                             ? (out[i].after - out[i].before) / std::abs(out[i].before) * 100.0
                             : 0.0;
    }
    return out;
}

} // namespace sv::history
