#pragma once
// Where a campaign stands, for a progress line or a progress bar.

#include <cstdint>
#include <string>

namespace sv::launcher {

struct RunProgress {
    int index = 0; // of the run in the campaign's plan
    int total = 0; // runs in the plan (adaptive repeats add to it)
    std::string id;
    std::int64_t iteration = 0; // iterations every rank has logged
    int iterations = 0;
    double speed = 0.0;        // the last speed line's samples/s
    double runEtaSeconds = -1; // -1: not known yet
    double campaignEtaSeconds = -1;
    // The most the campaign can still take (adaptive repeats: every case to its maximum, reruns
    // included); equal to campaignEtaSeconds when the repeats are fixed.
    double campaignEtaMaxSeconds = -1;
    // Under Slurm: the run's job, and while it waits, its queue state in words
    // ("PENDING (Resources), expected start 2026-11-30T22:10:00"); empty once it runs.
    std::string jobId;
    std::string queue;
};

// Fills the ETAs of p (its iteration and iterations set): the run's from the pace since its first
// speed line (sinceFirstSample seconds ago; negative: none yet), the campaign's from the run's
// plus `remaining` runs after it (at most `remainingMax`), each as long as `typicalRun` seconds
// (negative: as long as this one is going to take in all, sinceStart + its ETA) plus the cooldown.
void estimateEtas(RunProgress& p, double sinceFirstSample, double sinceStart, int remaining,
                  int remainingMax, double typicalRun, int cooldownSeconds);
// Fixed repeats: remainingMax = remaining.
void estimateEtas(RunProgress& p, double sinceFirstSample, double sinceStart, int remaining,
                  double typicalRun, int cooldownSeconds);

// "12–40 min", "3 min", "1 h 05 min–2 h": the campaign's ETA as a person reads it (a range when
// the most differs from the least); "?" when not known.
std::string etaRangeText(double leastSeconds, double mostSeconds);

} // namespace sv::launcher
