#pragma once
// Reduces a MindSpore log (every rank's step and "epoch time" lines, one pair per sink of steps,
// all ranks in one file) to a throughput: ScaleView assigns the k-th epoch time line to sink
// k / R; DLPerf's script to whichever step line any rank printed last (a shared cur_step).

#include "core/measure/closing.h"
#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"

#include <optional>
#include <string>

namespace sv {

// What a MindSpore sample is (its batchLast): the format's line parser
// (core/formats/mindspore.cpp) marks each line it hands on.
enum MindsporeLine : std::int64_t { kMindsporeOther = 0, kMindsporeStep = 1, kMindsporeTime = 2 };

class MindsporeAnalyzer : public FormatAnalyzer {
  public:
    // cumulativeStep: BERT's "step:" counts from the start; ResNet-50's is steps per epoch,
    // which the script multiplies by the epoch.
    MindsporeAnalyzer(const LogFormat& format, bool cumulativeStep, Topology topology,
                      int batchPerDevice, MeasureOptions options);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    void replayDlperf(RunResult& out, const std::string& script) const;
    std::optional<Shortfall> sinksShortfall(RunResult& out, std::int64_t lines) const;

    const LogFormat& m_format;
    bool m_cumulative;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;

    // DLPerf: the last step line's step, the milliseconds it summed, where it stopped.
    double m_dlperfStep = 0.0;
    double m_dlperfMs = 0.0;
    std::int64_t m_dlperfLines = 0;
    bool m_dlperfDone = false;      // a step beyond train_batches: the loop breaks
    std::int64_t m_dlperfError = 0; // a line its regexes cannot read: the script raises

    // ScaleView: the steps of a sink (from the first step line), the epoch time lines.
    std::int64_t m_sinkSteps = 0;
    std::int64_t m_stepLines = 0, m_timeLines = 0;
    double m_windowMs = 0.0;
    std::int64_t m_windowLines = 0;
    std::int64_t m_badLine = 0; // a window time line without a value
};

} // namespace sv
