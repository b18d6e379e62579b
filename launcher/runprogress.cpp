#include "runprogress.h"

#include <algorithm>

namespace sv::launcher {

void estimateEtas(RunProgress& p, double sinceFirstSample, double sinceStart, int remaining,
                  double typicalRun, int cooldownSeconds) {
    p.runEtaSeconds = p.campaignEtaSeconds = -1;
    if (p.iteration <= 0 || sinceFirstSample < 0) return;
    const double perIteration = sinceFirstSample / static_cast<double>(p.iteration);
    p.runEtaSeconds = std::max(0.0, perIteration * static_cast<double>(p.iterations - p.iteration));
    const double typical = typicalRun >= 0 ? typicalRun : sinceStart + p.runEtaSeconds;
    p.campaignEtaSeconds = p.runEtaSeconds + remaining * (typical + cooldownSeconds);
}

} // namespace sv::launcher
