#include "history/historytrend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace sv::history {

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

void judge(CaseTrend& t, double thresholdPct) {
    if (t.points.size() < 2) {
        t.note = "one campaign: nothing to compare with yet";
        return;
    }
    const TrendPoint& latest = t.points.back();
    double lo = t.points.front().min, hi = t.points.front().max;
    for (std::size_t i = 0; i + 1 < t.points.size(); ++i) {
        lo = std::min(lo, t.points[i].min);
        hi = std::max(hi, t.points[i].max);
    }
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
    const std::string range = "the earlier campaigns' range " + pct(lo) + "-" + pct(hi);
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

} // namespace

std::vector<CaseTrend> computeTrends(const std::vector<StoredCampaign>& campaigns,
                                     const TrendOptions& options) {
    std::vector<CaseTrend> out;
    for (const auto& s : campaigns) {
        const CampaignRecord& c = s.record;
        for (const auto& k : c.cases) {
            if (!options.topology.empty() && k.key.topology.name() != options.topology) continue;
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
                                  k.runs, c.environment});
        }
    }
    for (auto& t : out) {
        // The database gives campaigns by time; keep it explicit for callers that do not.
        std::stable_sort(t.points.begin(), t.points.end(),
                         [](const TrendPoint& a, const TrendPoint& b) { return a.time < b.time; });
        judge(t, options.thresholdPct);
    }
    std::sort(out.begin(), out.end(), caseLess);
    return out;
}

} // namespace sv::history
