#include "core/report/casenotes.h"

#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/model/wording.h"

#include <algorithm>

namespace sv {
namespace {

std::string unitOf(const CaseStats& c) {
    return std::string(logFormatOf(c.key.format).unit);
}

std::string interval(const Interval& v, int decimals) {
    return "95 % interval " + formatFixed(v.lo, decimals) + " to " + formatFixed(v.hi, decimals);
}

} // namespace

// Whether no log of the case states its nodes (RunKey::origins): its runs are filed under 1
// node, which nobody wrote. Its runs are those it counts or leaves out, by path: the case's own
// record of them, not its key matched again field by field.
bool nodesUnstated(const CaseStats& c, const std::vector<RunResult>& runs) {
    auto inCase = [&](const std::string& path) {
        return std::find(c.paths.begin(), c.paths.end(), path) != c.paths.end() ||
               std::any_of(c.excluded.begin(), c.excluded.end(),
                           [&](const ExcludedRun& e) { return e.path == path; });
    };
    bool any = false;
    for (const RunResult& r : runs) {
        if (!inCase(r.path)) continue;
        if (!r.key.origins.nodesUnknown) return false;
        any = true;
    }
    return any;
}

std::string caseWhere(const CaseStats& c, const std::vector<RunResult>& runs) {
    return c.key.model + " " + c.key.precision + " b" +
           (c.key.batchPerDevice > 0 ? std::to_string(c.key.batchPerDevice) : "?") + " " +
           // As every page names it: "8 GPUs" where no log states the nodes, never "1n8g".
           (c.gpus() <= 0            ? std::string("GPUs ?")
            : nodesUnstated(c, runs) ? countOf(c.gpus(), "GPU")
                                     : c.key.topology.name()) +
           (c.key.ownCase.empty() ? "" : " (" + c.key.ownCase + ")");
}

std::string outlierNote(const CaseStats& c) {
    if (c.outlierRepeats.empty()) return {};
    std::string reps;
    for (int r : c.outlierRepeats)
        reps += (reps.empty() ? "" : ", ") + std::to_string(r);
    const bool one = c.outlierRepeats.size() == 1;
    return (one ? "repeat " : "repeats ") + reps + (one ? " is" : " are") +
           " far from the other repeats (an outlier: modified z-score above 3.5) but still " +
           (one ? "counts" : "count") + " in the median and the other statistics";
}

std::string excludedNote(const ExcludedRun& e) {
    return "repeat " + std::to_string(e.repeat) + " (" + e.path +
           ") is left out of the statistics: " + e.reason;
}

std::string referenceMethodNote(const CaseStats& c, std::string_view shownMethod) {
    if (!c.referenceMedian || c.referenceMethod == shownMethod) return {};
    return "delta % is by the " + c.referenceMethod +
           " method, the one the reference table used; by it this case's median is " +
           formatFixed(*c.referenceMedian, 2) + " " + unitOf(c) + " (the median above is by the " +
           std::string(shownMethod) + " method)";
}

std::string referenceVerdictWords(Verdict v) {
    switch (v) {
    case Verdict::Faster:
        return "faster than the reference";
    case Verdict::Slower:
        return "slower than the reference";
    case Verdict::NoDifference:
        return "no measurable difference";
    case Verdict::OnlyInA:
        return "only the reference has this case";
    case Verdict::OnlyInB:
        return "the reference has no such case";
    case Verdict::Absent:
        break;
    }
    return "neither has this case";
}

std::string referenceContrastNote(const CaseStats& c) {
    const auto& k = c.referenceContrast;
    if (!k || !k->ratio) return {};
    std::string out = "against the reference's ";
    if (c.reference && c.reference->series) {
        const auto& repeats = c.reference->series->repeats;
        if (const auto it = repeats.find(c.key.topology.name()); it != repeats.end())
            out += std::to_string(it->second.size()) + " ";
    }
    out += "repeats: this case's median is " + formatFixed(*k->ratio, 4) + " times the reference's";
    if (k->ratioCi95)
        return out + " (" + interval(*k->ratioCi95, 4) + "): " + referenceVerdictWords(k->verdict);
    return out + " (no interval: " + k->note + ")";
}

std::string lossPartWords(const std::string& kind) {
    if (kind == "device-slowdown") return "device slowdown";
    if (kind == "slowest-node") return "waiting for the slowest node";
    return kind; // communication, remainder
}

std::string scalingLossNote(const ScalingLoss& l, std::string_view devices) {
    std::string out = "scaling loses " + formatFixed(l.totalPct, 2) +
                      " % of the ideal throughput (" + std::string(devices) + "s × the 1-" +
                      std::string(devices) + " pace)";
    for (std::size_t i = 0; i < l.parts.size(); ++i) {
        const auto& p = l.parts[i];
        out += std::string(i ? ", " : ": ") + lossPartWords(p.kind) + " " + formatFixed(p.pct, 2) +
               " points";
        if (p.ci95) out += " (" + interval(*p.ci95, 2) + ")";
    }
    if (!l.notMeasured.empty()) {
        out += "; not measured:";
        for (std::size_t i = 0; i < l.notMeasured.size(); ++i)
            out += std::string(i ? ", " : " ") + lossPartWords(l.notMeasured[i]);
    }
    for (const auto& n : l.slowNodes)
        out += "; node " + n.node + " is " + formatFixed(n.slowerPct, 1) +
               " % slower than the median node";
    return out;
}

} // namespace sv
