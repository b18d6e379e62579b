#pragma once
// Reduces an MXNet gluon log (gluon-cv's rank-0 Speed lines, gluon-nlp's per-rank latencies) to
// a throughput, as ScaleView measures it (the window's steps, W to I) and as DLPerf's
// extract_mxnet_logs.py does (rows of consecutive lines, its own window start, exact line count).

#include "core/measure/closing.h"
#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv {

class GluonAnalyzer : public FormatAnalyzer {
  public:
    enum class Kind {
        RatePerStep,    // gluon-cv: rank 0's samples/s per batch; DLPerf's rows hold 1 line
        LatencyPerRank, // gluon-nlp: every rank's ms per batch; DLPerf's rows hold R lines
    };
    GluonAnalyzer(const LogFormat& format, Kind kind, Topology topology, int batchPerDevice,
                  MeasureOptions options);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    // The line's throughput (total samples/s) as DLPerf computes it, or as ScaleView does.
    double dlperfRate(double value) const;
    double rate(double value) const;
    const char* units() const; // what a row is: "batches" or "steps"
    void replayDlperf(RunResult& out, const std::string& script) const;
    std::optional<Shortfall> stepMedians(std::vector<double>& medians) const;
    void addNotes(RunResult& out, const std::string& script) const;

    const LogFormat& m_format;
    Kind m_kind;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;
    int m_rowWidth;            // DLPerf's reshape: lines per row
    std::int64_t m_dlperfFrom; // its first row: base if W <= base else W - base
    std::string m_valueName;   // "Speed" or "latency"

    // DLPerf: every marker line, any rank, in file order.
    std::int64_t m_lines = 0;
    std::int64_t m_dlperfStop = 0; // line where the script raises (no value, zero latency)
    std::vector<double> m_row;
    std::vector<double> m_dlperfRows; // medians of its rows from..I-1

    // ScaleView: rank 0's lines (gluon-cv) or each step's lines of all ranks (gluon-nlp).
    std::int64_t m_firstStep = -1;
    std::map<std::int64_t, std::vector<double>> m_steps; // window steps' rates, by row index
    std::int64_t m_rows = 0;                             // rows seen (last row index + 1)
    std::int64_t m_badLine = 0;                          // a window line without a value
    std::int64_t m_noStepLines = 0;                      // gluon-nlp lines without "[step N]"
    std::int64_t m_otherRankLines = 0;                   // gluon-cv lines of ranks other than 0
};

} // namespace sv
