#include "core/stats/caseenergy.h"

#include <algorithm>

namespace sv {

namespace {

constexpr const char* kNoMonitor =
    "no monitor samples (a log not from a ScaleView campaign, or a Slurm run: the "
    "monitor does not watch Slurm's nodes)";

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return percentileSorted(v, 50.0);
}

} // namespace

std::optional<Interval> CaseEnergy::imagesPerJouleCi95() const {
    if (!ci95 || ci95->lo <= 0) return std::nullopt;
    return Interval{1.0 / ci95->hi, 1.0 / ci95->lo};
}

std::optional<CaseEnergy> caseEnergy(const std::vector<const RunResult*>& used, std::uint64_t seed,
                                     std::string* note) {
    auto fail = [&](std::string why) {
        if (note) *note = "energy not measured: " + std::move(why);
        return std::nullopt;
    };
    if (used.empty()) return fail("no usable run");
    std::vector<double> counters, power;
    int gpus = 0;
    std::vector<const RunResult*> unmeasured;
    for (const RunResult* r : used) {
        if (!r->energy) {
            unmeasured.push_back(r);
            continue;
        }
        if (r->energy->source == "nvml") {
            counters.push_back(r->energy->joulesPerImage);
            gpus = std::max(gpus, r->energy->gpus);
        }
        if (r->energy->powerJoulesPerImage) power.push_back(*r->energy->powerJoulesPerImage);
    }
    // One run unmeasured leaves the case unmeasured: a median of the others would stand for runs
    // it never saw. One reason for all is said once; else the first run's, named.
    if (!unmeasured.empty()) {
        auto why = [](const RunResult* r) {
            return r->energyNote.empty() ? std::string(kNoMonitor) : r->energyNote;
        };
        const bool same = std::all_of(unmeasured.begin(), unmeasured.end(), [&](const auto* r) {
            return why(r) == why(unmeasured.front());
        });
        return fail(same && unmeasured.size() == used.size()
                        ? why(unmeasured.front())
                        : unmeasured.front()->path + ": " + why(unmeasured.front()));
    }
    CaseEnergy e;
    e.runs = static_cast<int>(used.size());
    std::vector<double> values;
    if (counters.size() == used.size()) {
        e.source = "nvml";
        e.gpus = gpus;
        values = counters;
    } else if (power.size() == used.size()) {
        e.source = "power samples";
        values = power;
    } else {
        return fail("the runs' GPU energy came from neither the counters nor the power samples "
                    "throughout");
    }
    e.joulesPerImage = medianOf(values);
    e.ci95 = bootstrapMedianCi(values, seed);
    if (e.source == "nvml" && power.size() == used.size()) e.powerJoulesPerImage = medianOf(power);
    return e;
}

} // namespace sv
