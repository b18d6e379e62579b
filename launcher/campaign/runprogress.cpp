#include "launcher/campaign/runprogress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sv::launcher {

void estimateEtas(RunProgress& p, double sinceFirstSample, double sinceStart, int remaining,
                  int remainingMax, double typicalRun, int cooldownSeconds) {
    p.runEtaSeconds = p.campaignEtaSeconds = p.campaignEtaMaxSeconds = -1;
    if (p.iteration <= 0 || sinceFirstSample < 0) return;
    const double perIteration = sinceFirstSample / static_cast<double>(p.iteration);
    p.runEtaSeconds = std::max(0.0, perIteration * static_cast<double>(p.iterations - p.iteration));
    const double typical = typicalRun >= 0 ? typicalRun : sinceStart + p.runEtaSeconds;
    p.campaignEtaSeconds = p.runEtaSeconds + remaining * (typical + cooldownSeconds);
    p.campaignEtaMaxSeconds =
        p.runEtaSeconds + std::max(remaining, remainingMax) * (typical + cooldownSeconds);
}

void estimateEtas(RunProgress& p, double sinceFirstSample, double sinceStart, int remaining,
                  double typicalRun, int cooldownSeconds) {
    estimateEtas(p, sinceFirstSample, sinceStart, remaining, remaining, typicalRun,
                 cooldownSeconds);
}

namespace {
// Minutes, rounded up from 1 (an ETA of 20 s reads "1 min", not "0 min").
long minutesOf(double seconds) {
    return std::max(1L, static_cast<long>(std::ceil(seconds / 60.0)));
}
std::string minutesText(long m, bool unit) {
    char buf[48];
    if (m >= 60)
        std::snprintf(buf, sizeof buf, "%ld h %02ld min", m / 60, m % 60);
    else
        std::snprintf(buf, sizeof buf, unit ? "%ld min" : "%ld", m);
    return buf;
}
} // namespace

std::string etaRangeText(double least, double most) {
    if (least < 0) return "?";
    const long lo = minutesOf(least);
    const long hi = minutesOf(std::max(least, most));
    if (hi == lo) return minutesText(lo, true);
    // "12–40 min"; across the hour both carry their unit: "45 min–1 h 30 min".
    const bool shared = hi < 60;
    return minutesText(lo, !shared) + "\u2013" + minutesText(hi, true);
}

} // namespace sv::launcher
