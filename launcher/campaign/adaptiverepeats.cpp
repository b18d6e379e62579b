#include "launcher/campaign/adaptiverepeats.h"

#include "launcher/campaign/campaign.h"
#include "core/stats/confidence.h"

#include <algorithm>
#include <cstdio>

namespace sv::launcher {

RepeatsPolicy RepeatsPolicy::of(const Campaign& c) {
    return RepeatsPolicy{c.repeats, c.maxRepeats(), c.targetCiPct, c.rerunLimit};
}

std::string formatPct(double pct) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", pct);
    return buf;
}

std::optional<double> relativeHalfWidthPct(const std::vector<double>& values, std::uint64_t seed) {
    const auto ci = bootstrapMedianCi(values, seed);
    if (!ci) return std::nullopt;
    std::vector<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const double median = percentileSorted(sorted, 50.0);
    if (median == 0.0) return std::nullopt;
    return (ci->hi - ci->lo) / 2.0 / median * 100.0;
}

CaseVerdict judgeCase(const CaseTally& t, const RepeatsPolicy& p, std::uint64_t seed) {
    CaseVerdict v;
    // A case is judged on whole information: a decision made while one of its runs is still
    // running would be made again as soon as it ends.
    if (t.unfinished > 0) return v;
    const int n = static_cast<int>(t.counted.size());
    v.ciPct = relativeHalfWidthPct(t.counted, seed);
    const std::string interval =
        v.ciPct ? "interval ±" + formatPct(*v.ciPct) + " %" : std::string("no interval");
    const std::string repeats = std::to_string(n) + (n == 1 ? " repeat" : " repeats");
    if (n >= p.max) {
        v.next = CaseVerdict::Next::Stop;
        v.reason = "maximum of " + std::to_string(p.max) + " repeats reached, " + interval;
        return v;
    }
    if (n >= p.min && v.ciPct && *v.ciPct <= p.targetCiPct) {
        v.next = CaseVerdict::Next::Stop;
        v.reason = interval + " within " + formatPct(p.targetCiPct) + " % after " + repeats;
        return v;
    }
    if (t.notCounted > p.rerunLimit) {
        v.next = CaseVerdict::Next::Stop;
        v.reason = std::to_string(t.notCounted) +
                   " runs did not count (disturbed or not ok), more than the rerun limit of " +
                   std::to_string(p.rerunLimit) + "; " + repeats + " counted, " + interval;
        return v;
    }
    v.next = CaseVerdict::Next::Run;
    return v;
}

RunRange remainingRuns(const CaseTally& t, const RepeatsPolicy& p, bool stopped, bool current) {
    const int n = static_cast<int>(t.counted.size());
    const int others = std::max(0, t.unfinished - (current ? 1 : 0)); // planned, after current
    if (stopped) return {others, others};
    RunRange r;
    // At least: the planned runs, and up to the minimum if every one of them counts (the
    // current one too); a case that is waiting its turn for a top-up needs one more.
    const int toMin = std::max(0, p.min - n - t.unfinished);
    r.least = others + toMin;
    if (r.least == 0 && t.unfinished == 0) r.least = 1;
    // At most: every run but the last one that stops it misses, as far as the limits allow: the
    // case ends when max runs have counted or more than rerunLimit have not.
    const int most = (p.max - n) + std::max(0, p.rerunLimit + 1 - t.notCounted) - 1;
    r.most = std::max(r.least, most - (current ? 1 : 0));
    return r;
}

} // namespace sv::launcher
