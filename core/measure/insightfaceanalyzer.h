#pragma once
// The InsightFace formats' analyzer: StepWindowAnalyzer on the printed rates (no clock), with
// what these logs add: ArcFace's Speedometer rate is one node's (the job's is that times the
// nodes), and a line lost inside the window is said, not silently averaged over.

#include "core/measure/stepwindowanalyzer.h"

namespace sv {

class InsightfaceAnalyzer : public FormatAnalyzer {
  public:
    // perNodeRate: the lines' rate is one node's (ArcFace); the format's DLPerf script (one of
    // the two is null).
    InsightfaceAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                        MeasureOptions options, bool perNodeRate,
                        std::unique_ptr<DlperfReplica> timeScript,
                        std::unique_ptr<DlperfReplica> speedScript);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    MeasureOptions m_opt;
    int m_factor; // the job's rate over the line's
    StepWindowAnalyzer m_inner;
    // Steps between consecutive lines of rank 0 inside the window: the usual one, and the
    // largest with where it is (a lost line).
    bool m_hasStep = false;
    std::int64_t m_lastStep = 0;
    std::int64_t m_windowLines = 0;
    std::int64_t m_minGap = 0, m_maxGap = 0, m_gapFrom = 0;
};

} // namespace sv
