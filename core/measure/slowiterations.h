#pragma once
// Where a run lost its time: the iterations of the measured window whose throughput fell well
// below the window's own median (a neighbour, a throttle, a stall). The trace marks them.

#include "core/model/runresult.h"

#include <vector>

namespace sv {

// perIteration: throughput per iteration (the median across ranks; NaN where unknown).
// The window's iterations more than pct percent below the median of the window's values.
std::vector<int> slowIterations(const std::vector<double>& perIteration,
                                const MeasureOptions& window, double pct = 10.0);

} // namespace sv
