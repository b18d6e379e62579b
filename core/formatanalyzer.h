#pragma once
// A format's own run analyzer, for a format whose lines or statistic fit none of the shared
// families: its LogFormat entry makes one, and the engine feeds it the log's samples in order.

#include "runresult.h"
#include "sample.h"

namespace sv {

class FormatAnalyzer {
  public:
    virtual ~FormatAnalyzer() = default;
    virtual void add(const SpeedSample& sample) = 0;
    // Fills status, reason, notes and figures (and may correct result.key from the log itself).
    virtual void finish(RunResult& result, const ParseCounters& counters,
                        bool unterminatedTail) const = 0;
};

} // namespace sv
