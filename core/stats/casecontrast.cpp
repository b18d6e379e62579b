#include "core/stats/casecontrast.h"

#include <algorithm>

namespace sv {

std::string_view verdictName(Verdict v) {
    switch (v) {
    case Verdict::Faster:
        return "faster";
    case Verdict::Slower:
        return "slower";
    case Verdict::NoDifference:
        return "no-difference";
    case Verdict::OnlyInA:
        return "only-in-A";
    case Verdict::OnlyInB:
        return "only-in-B";
    case Verdict::Absent:
        return "absent";
    }
    return "?";
}

std::optional<Interval> bootstrapRatioCi(const std::vector<double>& a, const std::vector<double>& b,
                                         std::uint64_t seedA, std::uint64_t seedB, int resamples) {
    if (a.size() < 2 || b.size() < 2 || resamples < 2) return std::nullopt;
    const std::vector<double> ma = bootstrapMedians(a, seedA, resamples);
    const std::vector<double> mb = bootstrapMedians(b, seedB, resamples);
    std::vector<double> ratios;
    ratios.reserve(ma.size());
    for (std::size_t i = 0; i < ma.size(); ++i) {
        if (ma[i] == 0.0) return std::nullopt; // a resampled median of 0: no ratio to speak of
        ratios.push_back(mb[i] / ma[i]);
    }
    return middle95(ratios);
}

Verdict verdictFor(double ratio, const Interval& ci, double thresholdPct) {
    const double beyond = thresholdPct / 100.0;
    if (ci.lo > 1.0 && ratio - 1.0 > beyond) return Verdict::Faster;
    if (ci.hi < 1.0 && 1.0 - ratio > beyond) return Verdict::Slower;
    return Verdict::NoDifference;
}

CaseContrast contrastRepeats(const std::vector<double>& a, double medianA,
                             const std::vector<double>& b, double medianB,
                             std::string_view seedText, std::string_view bName,
                             const ContrastOptions& options) {
    CaseContrast out;
    if (medianA == 0.0) {
        out.note = "the first series' median is 0: no ratio";
        return out;
    }
    out.ratio = medianB / medianA;
    if (a.size() < 2 || b.size() < 2) {
        out.note = "fewer than 2 repeats in " +
                   (a.size() < 2 ? std::string("the first series") : std::string(bName)) +
                   ": no interval, so no change is called";
        return out;
    }
    // A and B are resampled independently, also when they are the same repeats, as two
    // measurements would be; the seeds depend on the case only, so the same two samples give the
    // same interval in compare, summarize and the GUI.
    const std::string text(seedText);
    out.ratioCi95 =
        bootstrapRatioCi(a, b, seedFor(text + "/A"), seedFor(text + "/B"), options.resamples);
    if (out.ratioCi95) out.verdict = verdictFor(*out.ratio, *out.ratioCi95, options.thresholdPct);
    return out;
}

} // namespace sv
