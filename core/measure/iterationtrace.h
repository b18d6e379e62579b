#pragma once
// Throughput per iteration as the ranks reported it (median, min and max across ranks), built
// while a log streams by: what the GUI keeps of a run to draw its trace, O(iterations).

#include "core/model/sample.h"

#include <cstdint>
#include <vector>

namespace sv {

// For the rank-tagged lines, iteration k is each rank's k-th line; untagged lines are cut into
// rows of R in file order (as DLPerf does). Lines without a finite speed are left out.
struct IterationTrace {
    std::vector<double> median; // per iteration, across ranks (images/s); nan: no value
    std::vector<double> min;
    std::vector<double> max;
    int ranks = 0;
};

class IterationTraceBuilder {
  public:
    // With stepSpans, a line that names the steps it spans (TensorFlow 2's TimeHistory "between
    // steps A and B": batchFirst A, batchLast B > A) stands for iterations A..B-1, the steps A+1
    // to B it averages, each at its rate: the trace's iterations are the log's steps, not its
    // lines (600 iterations for 6 lines, the first 100 in the warmup they describe).
    explicit IterationTraceBuilder(int ranks, bool stepSpans = false);

    void add(const SpeedSample& sample);
    // The trace of what was added so far (iterations still short of R values included).
    IterationTrace trace() const;
    // Values held for iterations not yet closed: transient, R per iteration at most in a log
    // whose ranks keep pace.
    std::size_t openValues() const { return m_openValues; }

  private:
    void close(std::size_t k);
    void place(std::size_t k, double value);

    int m_ranks;
    bool m_stepSpans = false;
    std::vector<std::int64_t> m_seen; // lines per tagged rank
    std::int64_t m_untagged = 0;
    // An iteration is closed once it holds R values: its median, min and max go to m_trace and
    // its values are freed. A log mixing tagged and untagged lines may bring a value for an
    // iteration already closed; the trace leaves it out (such a run carries a note anyway).
    IterationTrace m_trace;
    std::vector<std::vector<double>> m_values; // by iteration; empty once closed
    // Closed iterations' buffers, emptied, for the next iterations to open: one allocation per
    // iteration open at a time, not several for every iteration of the run.
    std::vector<std::vector<double>> m_spare;
    std::vector<bool> m_closed;
    std::size_t m_openValues = 0;
};

} // namespace sv
