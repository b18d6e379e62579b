#pragma once
// The figure of a log into which every rank writes its lines (PyTorch's torchvision example: each
// GPU process prints its ProgressMeter lines into one file, in blocks of about 8 KiB), and beside
// it DLPerf's extract_pytorch_logs_time.py's own.
//
// ScaleView's figure: the global batch over the mean of the Time values of the lines W+1 .. I,
// counting every rank's lines past its iteration 5 (DLPerf's README: each card's first 5
// iterations dropped), with Time read whole and lines cut by another rank's block left out.
// DLPerf's: the same count over every line its regexes accept, Time read by its regex.

#include "core/measure/formatanalyzer.h"

#include <cstdint>
#include <string>

namespace sv {

class PooledRankAnalyzer : public FormatAnalyzer {
  public:
    PooledRankAnalyzer(Topology topology, int batchPerDevice, MeasureOptions options);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    void addDlperf(const SpeedSample& sample);
    void compareWithDlperf(RunResult& out) const;

    double m_global;
    MeasureOptions m_opt;
    std::int64_t m_lines = 0, m_cutLines = 0, m_count = 0, m_misreadLine = 0;
    double m_seconds = 0.0;
    std::int64_t m_dlperfCount = 0;
    double m_dlperfSeconds = 0.0, m_dlperfFigure = 0.0;
    bool m_dlperfDone = false;
    std::string m_dlperfFailure;
};

} // namespace sv
