#include "history/historytrend.h"

#include "core/compare/comparison.h"
#include "core/model/wording.h"
#include "core/model/numerics.h"

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

// A throughput as the verdict says it: one decimal, two below 100 (a CPU's 4.42 images/s is not
// "4.4").
std::string level(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, std::abs(v) < 100.0 ? "%.2f" : "%.1f", v);
    return buf;
}

std::string ratioText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// What the contrast rests on, in words: the ratio and its interval, else why there is none.
std::string evidence(const CaseContrast& k) {
    if (k.ratio && k.ratioCi95)
        return "ratio " + ratioText(*k.ratio) + ", 95 % interval " + ratioText(k.ratioCi95->lo) +
               "-" + ratioText(k.ratioCi95->hi);
    return k.note.empty() ? std::string("no interval, so no change is called") : k.note;
}

// How many of the runs each side were disturbed, said with the verdict ("" when none was).
std::string disturbedText(const CaseTrend& t, std::size_t from) {
    const TrendPoint& latest = t.points.back();
    int base = 0, baseRuns = 0;
    for (std::size_t i = from; i + 1 < t.points.size(); ++i) {
        base += t.points[i].disturbed;
        baseRuns += t.points[i].runs;
    }
    if (latest.disturbed == 0 && base == 0) return {};
    std::string out = "; runs disturbed by a busy host, and counted: ";
    if (latest.disturbed > 0)
        out += std::to_string(latest.disturbed) + " of the latest campaign's " +
               countOf(latest.runs, "run");
    if (base > 0)
        out += std::string(latest.disturbed > 0 ? ", " : "") + std::to_string(base) + " of " +
               (from > 0 ? "the baseline's " : "the earlier campaigns' ") +
               countOf(baseRuns, "run");
    return out;
}

// Where the baseline starts, when not at the first campaign.
enum class BaselineStart { First, Expected, Step };

// The latest campaign against the baseline (the campaigns from `from` to the one before it) by
// Compare's rule, contrastCase: the ratio of the latest median to the baseline's, its 95 %
// bootstrap interval, a change only when the interval excludes 1 and the change is beyond the
// threshold. With one campaign before it, the baseline is that campaign's median and repeats,
// as Compare reads the two: the same two campaigns get the same verdict on both pages.
void judge(CaseTrend& t, double thresholdPct, std::size_t from, BaselineStart start) {
    if (t.points.size() < 2) {
        t.note = "one campaign: nothing to compare with yet";
        return;
    }
    const TrendPoint& latest = t.points.back();
    t.judgedFrom = from;
    double lo = t.points[from].min, hi = t.points[from].max;
    std::vector<double> baseline, medians;
    for (std::size_t i = from; i + 1 < t.points.size(); ++i) {
        lo = std::min(lo, t.points[i].min);
        hi = std::max(hi, t.points[i].max);
        baseline.insert(baseline.end(), t.points[i].values.begin(), t.points[i].values.end());
        medians.push_back(t.points[i].median);
    }
    // One campaign: its median as recorded (Compare's); several: their pooled repeats' median.
    const double baseMedian =
        medians.size() == 1 || baseline.empty() ? numpyMedian(medians) : numpyMedian(baseline);
    ComparisonOptions options;
    options.thresholdPct = thresholdPct;
    t.baselineMedian = baseMedian;
    t.contrast = contrastCase(t.key, baseline, baseMedian, latest.values, latest.median,
                              "the latest campaign", options);
    // The one-sided Welch test in the direction the latest moved, for the check's false
    // discovery rate over the cases (applyFalseDiscoveryRate): the verdict is the contrast's.
    t.pValue = latest.median > baseMedian ? welchLowerPValue(latest.values, baseline)
                                          : welchLowerPValue(baseline, latest.values);
    t.previousLow = lo;
    t.previousHigh = hi;
    t.regression = t.contrast->verdict == Verdict::Slower;
    t.improvement = t.contrast->verdict == Verdict::Faster;
    if (latest.median < lo)
        t.changePct = (latest.median - lo) / lo * 100.0;
    else if (latest.median > hi)
        t.changePct = (latest.median - hi) / hi * 100.0;
    else
        t.changePct = 0.0;
    const std::string since =
        start == BaselineStart::Expected ? "since the expected change at " + t.points[from].label
        : start == BaselineStart::Step   ? "since the step at " + t.points[from].label
                                         : std::string();
    const std::string range = (since.empty() ? std::string("the earlier campaigns' range ")
                                             : "the campaigns' range " + since + " ") +
                              level(lo) + "-" + level(hi);
    const std::string median = (since.empty() ? std::string("the earlier campaigns' median ")
                                              : "the median of the campaigns " + since + ", ") +
                               level(baseMedian);
    const CaseContrast& k = *t.contrast;
    if (t.regression || t.improvement) {
        const double change = std::abs(*k.ratio - 1.0) * 100.0;
        t.note = std::string(t.regression ? "regression" : "faster") + ": latest median " +
                 level(latest.median) + " is " + pct(change) + " % " +
                 (t.regression ? "below " : "above ") + median + " (" + evidence(k) + ")";
    } else {
        const bool within = k.ratioCi95 && k.ratioCi95->lo <= 1.0 && k.ratioCi95->hi >= 1.0;
        const std::string why =
            "no measurable difference from " + median + " (" + evidence(k) +
            (k.ratioCi95 && !within ? ", within the " + pct(thresholdPct) + " % threshold"
                                    : std::string()) +
            ")";
        if (*t.changePct != 0.0)
            t.note = "within noise: latest median " + level(latest.median) + " is " +
                     pct(std::abs(*t.changePct)) + " % " +
                     (*t.changePct < 0 ? "below " : "above ") + range + ", but " + why;
        else
            t.note = "no change: latest median " + level(latest.median) + " is within " + range +
                     "; " + why;
    }
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
                                  k.parameters, c.origin, k.disturbed});
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

// Benjamini-Hochberg over every case that could be tested. The verdict is the contrast's
// (Compare's rule); a nightly check over many cases also fails only on a regression whose
// repeats are a discovery at the false discovery rate, so that forty cases at once do not fail
// a night on the chance of one of them.
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
        if (!t.regression && !t.improvement) continue;
        const std::string test = "Welch p = " + pValueText(*t.pValue) + ", " +
                                 (t.discovery ? "a discovery" : "not a discovery") +
                                 " at a false discovery rate of " + pct(fdr * 100.0) + " % over " +
                                 countOf(static_cast<int>(tested.size()), "case");
        // A regression says whether it fails the check; an improvement fails nothing, and its
        // test is said only where it adds to the verdict.
        if (t.regression && !t.discovery)
            t.note += "; it does not fail the check: " + test;
        else if (t.discovery)
            t.note += " (" + test + ")";
    }
}

} // namespace

std::vector<CaseTrend> computeTrends(const std::vector<StoredCampaign>& campaigns,
                                     const TrendOptions& options) {
    std::vector<CaseTrend> out = groupByCase(campaigns, options.topology);
    for (auto& t : out) {
        findSteps(t, options);
        // The latest is judged against the level the case runs at: from the campaign an
        // expectation accepted, or from a later step (itself said as a change of its own), so a
        // slower night after a step is a regression of its own against the new level.
        const std::size_t expectedFrom = applyExpectations(t, options.expectations);
        std::size_t from = expectedFrom;
        for (const auto& step : t.steps)
            if (step.point.index > from && step.point.index + 1 < t.points.size())
                from = step.point.index;
        judge(t, options.thresholdPct, from,
              from == 0              ? BaselineStart::First
              : from == expectedFrom ? BaselineStart::Expected
                                     : BaselineStart::Step);
        if (t.points.size() >= 2)
            t.changed = changesBetween(t.points[t.points.size() - 2], t.points.back());
    }
    applyFalseDiscoveryRate(out, options.fdr);
    for (auto& t : out) {
        if (t.points.size() >= 2) t.note += disturbedText(t, t.judgedFrom);
        if (t.regression && t.expected)
            t.note += "; marked expected by " + t.expectedWho + ": " + t.expectedWhy;
    }
    std::sort(out.begin(), out.end(), caseLess);
    return out;
}

} // namespace sv::history
