#pragma once
// The stopping rule of adaptive repeats, for one case (topology x batch x precision): at least
// the minimum, then one more at a time until the median's 95 % interval is within the target
// or the maximum is reached; runs that do not count (disturbed, not ok) are rerun, up to a limit.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct Campaign;

struct RepeatsPolicy {
    int min = 3;
    int max = 3;
    double targetCiPct = 0; // half-width of the interval relative to the median, %
    int rerunLimit = 3;     // runs of a case that may be rerun because they did not count
    static RepeatsPolicy of(const Campaign& campaign);
};

// What a case has so far.
struct CaseTally {
    std::vector<double> counted; // time-method throughputs of the ok, undisturbed runs
    int notCounted = 0;          // finished runs that do not count: not ok, or disturbed
    int unfinished = 0;          // planned runs that have not ended yet
};

struct CaseVerdict {
    enum class Next {
        Wait, // runs of the case are still to end: nothing to judge yet
        Run,  // one more repeat
        Stop, // done; reason says why
    };
    Next next = Next::Wait;
    std::optional<double> ciPct; // the interval's half-width relative to the median, %
    std::string reason;          // "interval ±1.4 % within 2 % after 5 repeats"
};

// The half-width of bootstrapMedianCi(values, seed) relative to the values' median, in %;
// nullopt with fewer than two values or a median of 0.
std::optional<double> relativeHalfWidthPct(const std::vector<double>& values, std::uint64_t seed);

// seed: the case's own (core's seed text for the case), so the launcher's interval is the one
// the Results page shows for the same runs.
CaseVerdict judgeCase(const CaseTally& tally, const RepeatsPolicy& policy, std::uint64_t seed);

// How many more runs a case can take, at least and at most (reruns included), given its tally
// (current: one of its unfinished runs is running now and is not counted in the answer).
struct RunRange {
    int least = 0, most = 0;
};
RunRange remainingRuns(const CaseTally& tally, const RepeatsPolicy& policy, bool stopped,
                       bool current);

// "2" or "1.4": a percentage for the journal's words.
std::string formatPct(double pct);

} // namespace sv::launcher
