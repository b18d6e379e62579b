#pragma once
// Consumes the samples of a log that holds one line per iteration with a wall-clock time (NGC
// PyTorch's dllogger lines, printed by rank 0 only) and computes the run's throughput from the
// timestamps of iteration lines W and I, as ScaleView measures it and as DLPerf's script does.

#include "core/measure/closing.h"
#include "core/parse/logformat.h"
#include "core/model/runresult.h"
#include "core/model/sample.h"

#include <optional>

namespace sv {

class StepTimeAnalyzer {
  public:
    StepTimeAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                     MeasureOptions options);

    void add(const SpeedSample& sample);
    void finish(RunResult& result, const ParseCounters& counters, bool unterminatedTail) const;

  private:
    // Lines counted, and the lines W and I among them: ScaleView counts every iteration line of
    // rank 0; DLPerf every line with the marker whose iteration is above the format's skip.
    struct Counter {
        std::int64_t count = 0;
        ClockedLine start, end;
    };
    void count(Counter& c, const SpeedSample& s) const;
    // Throughput between the counter's lines W and I, rounded as DLPerf's script rounds it.
    std::optional<double> rate(const Counter& c) const;
    void addNotes(RunResult& out, const std::string& script) const;

    const LogFormat& m_format;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;

    Counter m_ours, m_dlperf;
    std::int64_t m_lines = 0;
    std::int64_t m_noIterationLine = 0; // first marker line without an iteration (DLPerf dies)
    bool m_dlperfStopped = false;       // DLPerf's script raised at m_noIterationLine
    std::int64_t m_otherRankLines = 0;  // tagged lines of ranks other than 0
    std::int64_t m_lastIteration = -1;
    std::int64_t m_backwardsLine = 0; // first line whose iteration is not above the previous one
};

} // namespace sv
