#pragma once
// A run analyzer that a format brings itself, for DLPerf scripts whose reduction the shared
// analyzers do not cover (rates printed every N steps, date-less clocks, ranks pooled in one
// file): the format's table entry (LogFormat::makeAnalyzer) makes one per run.

#include "core/model/runresult.h"
#include "core/model/sample.h"

#include <memory>

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
