#pragma once
// One way to spread independent jobs over the cores, for the log readers and the case statistics.

#include <cstddef>
#include <functional>

namespace sv {

// Runs job(i) for every i in [0, count) on `threads` threads (0: one per core, at least 2), the
// calling thread one of them, handing the indexes out in order; job returns false to stop
// handing out more. Returns when every started job has returned.
void forEachIndex(std::size_t count, int threads, const std::function<bool(std::size_t)>& job);

} // namespace sv
