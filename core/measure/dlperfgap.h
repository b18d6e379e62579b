#pragma once
// DLPerf's own figure for a run beside ScaleView's: how far apart they are, and the note a run
// carries when they differ beyond rounding. Every analyzer that replays a DLPerf script says it
// the same way; only the reason (which quirk of the script) is its own.

#include "core/model/numerics.h"

#include <cmath>
#include <string>

namespace sv {

// |theirs - ours| in percent of ours.
inline double dlperfGapPct(double theirs, double ours) {
    return std::fabs(theirs - ours) / ours * 100.0;
}

// More than half a percent apart: beyond rounding, so the run says why.
inline bool dlperfApart(double theirs, double ours) {
    return dlperfGapPct(theirs, ours) > 0.5;
}

// "DLPerf's SCRIPT gives THEIRS, GAP % apart from OURS: WHY".
inline std::string dlperfApartNote(const std::string& script, double theirs, double ours,
                                   const std::string& why) {
    return "DLPerf's " + script + " gives " + formatFixed(theirs, 2) + ", " +
           formatFixed(dlperfGapPct(theirs, ours), 2) + " % apart from " + formatFixed(ours, 2) +
           ": " + why;
}

} // namespace sv
