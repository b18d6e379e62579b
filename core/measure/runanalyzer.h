#pragma once
// Consumes one run's samples in file order and computes its status and throughput by both
// DLPerf methods, keeping O(iterations x nodes) state, not the samples.

#include "core/measure/closing.h"
#include "core/model/runresult.h"
#include "core/model/sample.h"

#include <string>
#include <vector>

namespace sv {

class RunAnalyzer {
  public:
    RunAnalyzer(Topology topology, int batchPerDevice, MeasureOptions options);

    void add(const SpeedSample& sample);
    // Lines so far, and the iteration they amount to: for live progress.
    std::int64_t speedLines() const { return m_count; }
    std::int64_t iterationsDone() const { return m_count / m_ranks; }
    double lastSpeed() const { return m_lastSpeed; }

    // Fills status, reason, notes and the figures of result; counters as the parser left them.
    void finish(RunResult& result, const ParseCounters& counters, bool unterminatedTail) const;

  private:
    void addRow();
    // finish's steps: what makes the run incomplete (too few lines, a silent rank), why its
    // lines cannot be measured (empty when they can), its figures by both methods with the
    // notes on them, and how its ranks and its nodes' clocks differ.
    std::vector<std::string> missingLines(bool unterminatedTail) const;
    std::string unusableReason() const;
    void measure(RunResult& out) const;
    void noteRanks(RunResult& out) const;
    void noteClockOffset(RunResult& out) const;

    Topology m_topology;
    int m_ranks;
    int m_batch;
    MeasureOptions m_opt;
    std::int64_t m_expected;

    std::int64_t m_count = 0;
    double m_lastSpeed = 0.0;
    std::vector<double> m_row;        // the current row of R rounded speeds (speed method)
    std::vector<double> m_rowMedians; // one per completed row, up to I
    std::int64_t m_badSpeedLine =
        0; // first line in the window whose speed is missing or not finite
    bool m_badSpeedMissing = false;
    double m_badSpeedValue = 0.0;

    ClockedLine m_t1, m_t2; // lines W x R and I x R (time method)

    bool m_tagged = false;
    bool m_untaggedToo = false;
    int m_strayRank = -1;                  // a rank beyond the topology
    std::vector<std::int64_t> m_rankLines; // per rank
    std::vector<double> m_rankWindowSum;   // raw speeds of the rank's iterations W..I-1
    std::vector<std::int64_t> m_rankWindowCount;
    std::int64_t m_timeBaseUs = -1;    // first timestamp seen, keeps sums precise
    std::vector<double> m_nodeTimeSum; // [iteration][node]: sum of timestamps (s after base)
    std::vector<int> m_nodeTimeCount;
};

} // namespace sv
