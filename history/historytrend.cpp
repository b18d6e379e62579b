#include "history/historytrend.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <tuple>

namespace sv::history {

std::string caseKeyText(const CaseKey& k, const std::string& method) {
    return k.model + "|" + k.precision + "|" + std::to_string(k.batchPerDevice) + "|" +
           k.topology.name() + "|" + k.format + "|" + method;
}

CheckSummary summarizeCheck(const std::vector<CaseTrend>& trends, double fdr) {
    CheckSummary s;
    s.fdr = fdr;
    for (const auto& t : trends) {
        ++s.cases;
        s.judged += t.points.size() >= 2 ? 1 : 0;
        s.tested += t.pValue ? 1 : 0;
        s.regressions += t.failsCheck() ? 1 : 0;
        s.expected += t.regression && t.expected ? 1 : 0;
    }
    return s;
}

std::string describeCheck(const CheckSummary& s) {
    char buf[640];
    std::snprintf(buf, sizeof buf,
                  "checked %d case%s (%d with two campaigns or more; %d tested on their repeats, "
                  "one-sided Welch t-tests with Benjamini-Hochberg at a false discovery rate of "
                  "%.1f %%): %d regression%s, %d marked expected",
                  s.cases, s.cases == 1 ? "" : "s", s.judged, s.tested, s.fdr * 100.0,
                  s.regressions, s.regressions == 1 ? "" : "s", s.expected);
    return buf;
}

std::string caseName(const CaseKey& k) {
    std::string s = k.model + " " + k.precision + " bs" + std::to_string(k.batchPerDevice) + " " +
                    k.topology.name();
    if (!k.format.empty() && k.format != "ngc-mxnet") s += " (" + k.format + ")";
    return s;
}

namespace {

bool caseLess(const CaseTrend& a, const CaseTrend& b) {
    const auto& x = a.key;
    const auto& y = b.key;
    if (std::tie(x.model, x.precision, x.batchPerDevice, x.format, a.method) !=
        std::tie(y.model, y.precision, y.batchPerDevice, y.format, b.method))
        return std::tie(x.model, x.precision, x.batchPerDevice, x.format, a.method) <
               std::tie(y.model, y.precision, y.batchPerDevice, y.format, b.method);
    return topologyLess(x.topology, y.topology);
}

std::string pct(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The latest campaign against the baseline: the campaigns from `from` to the one before it.
void judge(CaseTrend& t, double thresholdPct, std::size_t from) {
    if (t.points.size() < 2) {
        t.note = "one campaign: nothing to compare with yet";
        return;
    }
    const TrendPoint& latest = t.points.back();
    double lo = t.points[from].min, hi = t.points[from].max;
    std::vector<double> baseline;
    for (std::size_t i = from; i + 1 < t.points.size(); ++i) {
        lo = std::min(lo, t.points[i].min);
        hi = std::max(hi, t.points[i].max);
        baseline.insert(baseline.end(), t.points[i].values.begin(), t.points[i].values.end());
    }
    // The test in the direction the latest moved: slower for a regression, faster for an
    // improvement (welchLowerPValue with the sides swapped: the baseline lower than the latest).
    t.pValue = latest.median > hi ? welchLowerPValue(latest.values, baseline)
                                  : welchLowerPValue(baseline, latest.values);
    t.previousLow = lo;
    t.previousHigh = hi;
    const double factor = thresholdPct / 100.0;
    if (latest.median < lo) {
        t.changePct = (latest.median - lo) / lo * 100.0;
        t.regression = latest.median < lo * (1.0 - factor);
    } else if (latest.median > hi) {
        t.changePct = (latest.median - hi) / hi * 100.0;
        t.improvement = latest.median > hi * (1.0 + factor);
    } else {
        t.changePct = 0.0;
    }
    const std::string range = (from > 0 ? "the campaigns' range since the expected change at " +
                                              t.points[from].label + " "
                                        : std::string("the earlier campaigns' range ")) +
                              pct(lo) + "-" + pct(hi);
    if (t.regression)
        t.note = "regression: latest median " + pct(latest.median) + " is " + pct(-*t.changePct) +
                 " % below " + range;
    else if (t.improvement)
        t.note = "faster: latest median " + pct(latest.median) + " is " + pct(*t.changePct) +
                 " % above " + range;
    else if (*t.changePct != 0.0)
        t.note = "within noise: latest median " + pct(latest.median) + " is outside " + range +
                 " by " + pct(std::abs(*t.changePct)) + " %, not beyond the " + pct(thresholdPct) +
                 " % threshold";
    else
        t.note = "no change: latest median " + pct(latest.median) + " is within " + range;
}

std::vector<EnvironmentChange> changesBetween(const TrendPoint& a, const TrendPoint& b) {
    std::vector<EnvironmentChange> out = diffEnvironments(a.environment, b.environment);
    if (a.warmup != b.warmup)
        out.push_back({"warmup", std::to_string(a.warmup), std::to_string(b.warmup)});
    if (a.iterations != b.iterations)
        out.push_back({"iterations", std::to_string(a.iterations), std::to_string(b.iterations)});
    for (auto& change : diffFacts(a.parameters, b.parameters))
        out.push_back(std::move(change));
    return out;
}

std::string pValueText(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, p < 1e-4 ? "%.1e" : "%.4f", p);
    return buf;
}

} // namespace

namespace {

// One trend per case and method, its points in the order the campaigns ran.
std::vector<CaseTrend> groupByCase(const std::vector<StoredCampaign>& campaigns,
                                   const std::string& topology) {
    std::vector<CaseTrend> out;
    for (const auto& s : campaigns) {
        const CampaignRecord& c = s.record;
        for (const auto& k : c.cases) {
            if (!topology.empty() && k.key.topology.name() != topology) continue;
            auto it = std::find_if(out.begin(), out.end(), [&](const CaseTrend& t) {
                return t.key == k.key && t.method == c.method;
            });
            if (it == out.end()) {
                out.push_back({});
                it = out.end() - 1;
                it->key = k.key;
                it->method = c.method;
            }
            it->points.push_back({c.time, c.label, c.path, c.identity, k.median, k.min, k.max,
                                  k.runs, c.environment, c.warmup, c.iterations, k.values,
                                  k.parameters, c.origin});
        }
    }
    // The database gives campaigns by time; keep it explicit for callers that do not.
    for (auto& t : out)
        std::stable_sort(t.points.begin(), t.points.end(),
                         [](const TrendPoint& a, const TrendPoint& b) { return a.time < b.time; });
    return out;
}

// An expected verdict: on the latest campaign it no longer fails; on an earlier one the
// campaigns from it on are the baseline (the new level was accepted there). Returns where the
// baseline starts.
std::size_t applyExpectations(CaseTrend& t,
                              const std::vector<HistoryDatabase::Expectation>& expectations) {
    const std::string key = caseKeyText(t.key, t.method);
    std::size_t from = 0;
    for (std::size_t i = 1; i < t.points.size(); ++i)
        for (const auto& e : expectations)
            if (e.caseKey == key && e.campaignIdentity == t.points[i].identity) {
                if (i + 1 == t.points.size()) {
                    t.expected = true;
                    t.expectedWho = e.who;
                    t.expectedWhy = e.why;
                } else {
                    from = i;
                }
            }
    if (from > 0) t.baselineFrom = t.points[from].label;
    return from;
}

// The campaigns at which the case's median stepped, each with what changed there. A step keeps
// the size it had when it was first found (the campaigns up to the one that made it certain): a
// later slower night is judged as a new regression, never folded into the old step's size.
void findSteps(CaseTrend& t, const TrendOptions& options) {
    std::vector<double> medians;
    for (const auto& p : t.points)
        medians.push_back(p.median);
    ChangePointOptions stepOptions = options.steps;
    stepOptions.minStepPct = std::max(stepOptions.minStepPct, options.thresholdPct);
    const std::vector<ChangePoint> now = findChangePoints(medians, stepOptions);
    if (now.empty()) return;
    // Each step as the first history that showed it found it (the same campaign stepping).
    std::vector<std::optional<ChangePoint>> first(now.size());
    const std::size_t shortest = 2 * std::max<std::size_t>(stepOptions.minSegment, 1);
    for (std::size_t n = shortest; n < medians.size(); ++n) {
        const std::vector<double> prefix(medians.begin(),
                                         medians.begin() + static_cast<std::ptrdiff_t>(n));
        for (const ChangePoint& cp : findChangePoints(prefix, stepOptions))
            for (std::size_t i = 0; i < now.size(); ++i)
                if (!first[i] && now[i].index == cp.index &&
                    (now[i].stepPct < 0) == (cp.stepPct < 0))
                    first[i] = cp;
    }
    for (std::size_t i = 0; i < now.size(); ++i) {
        const ChangePoint& cp = first[i] ? *first[i] : now[i];
        t.steps.push_back({cp, changesBetween(t.points[cp.index - 1], t.points[cp.index])});
    }
}

// Benjamini-Hochberg over every case that could be tested: a regression or an improvement its
// repeats do not tell from noise at the false discovery rate is within noise. One rule of
// evidence for both directions, as Compare's interval on the ratio is one rule for both: a
// campaign is never "faster" on evidence that would not make it "slower".
void applyFalseDiscoveryRate(std::vector<CaseTrend>& trends, double fdr) {
    std::vector<double> p;
    std::vector<CaseTrend*> tested;
    for (auto& t : trends)
        if (t.pValue) {
            p.push_back(*t.pValue);
            tested.push_back(&t);
        }
    const std::vector<bool> rejected = benjaminiHochberg(p, fdr);
    for (std::size_t i = 0; i < tested.size(); ++i) {
        CaseTrend& t = *tested[i];
        t.discovery = rejected[i];
        if (t.regression && !t.discovery) {
            t.regression = false;
            t.note = "within noise: latest median " + pct(t.points.back().median) + " is " +
                     pct(-*t.changePct) + " % below the earlier campaigns' range, but its " +
                     "repeats do not tell it from the earlier ones' (Welch p = " +
                     pValueText(*t.pValue) + ", not a discovery at a false discovery rate of " +
                     pct(fdr * 100.0) + " % over " + std::to_string(tested.size()) + " cases)";
        } else if (t.improvement && !t.discovery) {
            t.improvement = false;
            t.note = "within noise: latest median " + pct(t.points.back().median) + " is " +
                     pct(*t.changePct) + " % above the earlier campaigns' range, but its " +
                     "repeats do not tell it from the earlier ones' (Welch p = " +
                     pValueText(*t.pValue) + ", not a discovery at a false discovery rate of " +
                     pct(fdr * 100.0) + " % over " + std::to_string(tested.size()) + " cases)";
        } else if (t.regression || t.improvement) {
            t.note += " (Welch p = " + pValueText(*t.pValue) + ", a discovery at a false " +
                      "discovery rate of " + pct(fdr * 100.0) + " % over " +
                      std::to_string(tested.size()) + " cases)";
        }
    }
}

} // namespace

std::vector<CaseTrend> computeTrends(const std::vector<StoredCampaign>& campaigns,
                                     const TrendOptions& options) {
    std::vector<CaseTrend> out = groupByCase(campaigns, options.topology);
    for (auto& t : out) {
        judge(t, options.thresholdPct, applyExpectations(t, options.expectations));
        if (t.points.size() >= 2)
            t.changed = changesBetween(t.points[t.points.size() - 2], t.points.back());
        findSteps(t, options);
    }
    applyFalseDiscoveryRate(out, options.fdr);
    for (auto& t : out)
        if (t.regression && t.expected)
            t.note += "; marked expected by " + t.expectedWho + ": " + t.expectedWhy;
    std::sort(out.begin(), out.end(), caseLess);
    return out;
}

} // namespace sv::history
