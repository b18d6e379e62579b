#include "core/stats/casewarnings.h"

#include "core/model/numerics.h" // formatFixed

#include <algorithm>

namespace sv {
namespace {

std::string repeatList(const std::vector<int>& repeats) {
    std::string out;
    for (int r : repeats)
        out += (out.empty() ? "" : ", ") + std::to_string(r);
    return (repeats.size() == 1 ? "repeat " : "repeats ") + out;
}

// The runs for which value(run) is set and above the threshold, with the largest value.
template <class Value>
std::pair<std::vector<int>, double> above(const std::vector<const RunResult*>& used, Value value,
                                          double threshold) {
    std::vector<int> repeats;
    double worst = 0.0;
    for (const RunResult* r : used) {
        const std::optional<double> v = value(*r);
        if (!v || *v <= threshold) continue;
        repeats.push_back(r->key.repeat);
        worst = std::max(worst, *v);
    }
    return {repeats, worst};
}

std::string pct(double v) {
    return formatFixed(v, 1) + " %";
}

} // namespace

std::vector<CaseWarning> caseWarnings(const CaseStats& c, const std::vector<const RunResult*>& used,
                                      const TrustOptions& trust) {
    std::vector<CaseWarning> out;
    if (c.values.empty()) return out;

    if (c.cvPct && *c.cvPct > trust.cvPct)
        out.push_back({"high-cv", "CV " + pct(*c.cvPct) + " is above " + pct(trust.cvPct) +
                                      ": the repeats disagree; rerun on a quiet machine or add "
                                      "repeats"});

    if (c.efficiency && *c.efficiency * 100.0 > 100.0 + trust.superlinearPct)
        out.push_back({"superlinear",
                       "speedup " + formatFixed(*c.speedup, 2) + " on " + std::to_string(c.gpus()) +
                           " GPUs is " + pct(*c.efficiency * 100.0) +
                           " of linear: more than linear, the smaller case was probably "
                           "disturbed"});

    const auto [disagree, worstMethods] = above(
        used,
        [&](const RunResult& r) -> std::optional<double> {
            return r.methodsDisagree ? r.methodDifferencePct : std::nullopt;
        },
        trust.methodsPct);
    if (!disagree.empty())
        out.push_back({"methods-disagree",
                       repeatList(disagree) + ": the time and speed methods differ by more than " +
                           pct(trust.methodsPct) + " (up to " + pct(worstMethods) +
                           "): the iterations' pace changed inside the window"});

    const auto [slow, worstRank] = above(
        used, [](const RunResult& r) { return r.rankSpreadPct; }, trust.slowRankPct);
    if (!slow.empty())
        out.push_back({"slow-rank", repeatList(slow) + ": the ranks' mean speeds spread by up to " +
                                        pct(worstRank) +
                                        " of their mean: a slow device, node or link"});

    const auto [drifting, worstDrift] = above(
        used, [](const RunResult& r) { return r.driftPct; }, trust.driftPct);
    if (!drifting.empty())
        out.push_back({"drift", repeatList(drifting) + ": the measured window's last third ran " +
                                    pct(worstDrift) +
                                    " slower than its first: throttling or a neighbour"});

    if (auto w = disturbedWarning(used, false)) out.push_back(*w);

    if (static_cast<int>(c.values.size()) < trust.minRepeats)
        out.push_back(
            {"few-repeats", "only " + std::to_string(c.values.size()) + " usable " +
                                (c.values.size() == 1 ? "repeat" : "repeats") + ": at least " +
                                std::to_string(trust.minRepeats) +
                                " are needed before the median and its interval mean much"});
    return out;
}

std::optional<CaseWarning> disturbedWarning(const std::vector<const RunResult*>& runs,
                                            bool leftOut) {
    std::vector<int> repeats;
    std::string evidence;
    for (const RunResult* r : runs) {
        if (!r->disturbed) continue;
        repeats.push_back(r->key.repeat);
        evidence += (evidence.empty() ? "" : "; ") +
                    ("repeat " + std::to_string(r->key.repeat) + ": " + r->disturbance);
    }
    if (repeats.empty()) return std::nullopt;
    return CaseWarning{"disturbed",
                       repeatList(repeats) + " ran" + " on a busy host" +
                           (leftOut ? " and " + std::string(repeats.size() == 1 ? "is" : "are") +
                                          " left out of the statistics"
                                    : "; rerun on a quiet machine, or exclude disturbed runs") +
                           " (" + evidence + ")"};
}

} // namespace sv
