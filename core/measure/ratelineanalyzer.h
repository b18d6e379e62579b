#pragma once
// Consumes the samples of a log whose rank 0 prints one rate line per step, from a first logged
// step on (NGC TensorFlow 1's dllogger "imgs_per_sec" lines, which start after the 20 warmup
// steps), and computes both DLPerf methods: the mean of the printed rates over the window, and
// the global batch over the timestamps of the window's first and last lines.

#include "core/measure/closing.h"
#include "core/parse/logformat.h"
#include "core/model/runresult.h"
#include "core/model/sample.h"

#include <vector>

namespace sv {

class RateLineAnalyzer {
  public:
    RateLineAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                     MeasureOptions options);

    void add(const SpeedSample& sample);
    void finish(RunResult& result, const ParseCounters& counters, bool unterminatedTail) const;

  private:
    const LogFormat& m_format;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;
    // Lines [m_from, m_to) (0-based) are the window; the time method reads lines m_from + 1
    // and m_to (1-based), as DLPerf's scripts do.
    std::int64_t m_from = 0, m_to = 0;

    std::int64_t m_count = 0;
    std::vector<double> m_window; // rates of the window's lines, rounded to 2 as DLPerf does
    std::int64_t m_badLine = 0;   // first window line without a rate
    ClockedLine m_start, m_end;   // the window's first and last lines
};

} // namespace sv
