#pragma once
// A case's GPU energy per image across its repeats: the median of its runs' joules per image,
// with a 95 % interval, from one source for every run (the GPUs' energy counters where every
// run has them, else nvidia-smi's power samples), and the other source beside it where both
// exist. The GPUs' only: a lower bound on what the nodes drew.

#include "core/model/runresult.h"
#include "core/stats/confidence.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct CaseEnergy {
    std::string source;                        // "nvml" or "power samples"
    double joulesPerImage = 0;                 // median over the runs, by source
    std::optional<Interval> ci95;              // of that median (two or more runs)
    std::optional<double> powerJoulesPerImage; // the power samples' median, beside the counters'
    int runs = 0;
    int gpus = 0; // boards counted per run (the counters'), each once on its node

    // Images per second per watt is images per joule.
    double imagesPerJoule() const { return joulesPerImage > 0 ? 1.0 / joulesPerImage : 0.0; }
    std::optional<Interval> imagesPerJouleCi95() const;
};

// From the runs a case counts; unset with why in *note ("energy not measured: …").
std::optional<CaseEnergy> caseEnergy(const std::vector<const RunResult*>& used, std::uint64_t seed,
                                     std::string* note);

} // namespace sv
