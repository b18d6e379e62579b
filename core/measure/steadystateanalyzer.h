#pragma once
// Reduces a log that reports its own throughput every N iterations from one rank (MLPerf's and
// gluon-cv's MXNet Speedometer, DLLogger's total_ips, gluon-nlp's throughput=, tf_cnn_benchmarks,
// Keras' TimeHistory) to one figure: the log's own values over a steady-state window.
//
// The rule (docs/formats.md, "Logs that report their own throughput"):
//  - the values are the reports of the lowest rank that reports (rank 0, or the untagged lines);
//    other ranks' reports and per-epoch summaries are counted and left out;
//  - by default (the format's window, kSteadyStateWindow) the first tenth of the reports is left
//    out as warmup (at least the first report, which holds the start-up), and the figure is the
//    median of the rest;
//  - with a window given (--warmup W --iterations I, the app's window), W and I count the
//    reports: the figure is the median of reports W..I-1.
// The figure stands for both methods (these logs carry no per-iteration times to recompute it).

#include "core/measure/closing.h"
#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

// The window a steady-state format measures over unless one is given: warmup 0, iterations 0
// stand for "drop the first tenth, median of the rest" (windowText says so in words).
inline constexpr MeasureOptions kSteadyStateWindow{0, 0, false};
inline bool isSteadyStateWindow(const MeasureOptions& m) {
    return m.warmup == 0 && m.iterations == 0;
}
// Whether a format's figure is its log's own reports (its default window is the steady state's,
// or it is a user's format file, read at run time: detectWith), not the time or speed method
// over a window of iterations: what the pages must call it.
inline bool readsOwnReports(const LogFormat& format) {
    return format.detectWith != nullptr ||
           (format.defaultWarmup == 0 && format.defaultIterations == 0);
}
// What the figure of such a log is of, in words, for a window it was measured over: "the log's
// own reports, first tenth left out, median of the rest" (the steady state's), "the log's own
// reports, by its format's window" (a format file's rule, no window given), or "the log's own
// reports 1-9" (reports W..I-1): never a window of iterations that cannot be ("-1--2").
std::string ownReportsText(const MeasureOptions& window);

class SteadyStateAnalyzer : public FormatAnalyzer {
  public:
    // Rate: each report is a throughput in the format's unit. StepSeconds: each report is the
    // seconds one step took, turned into a throughput with the global batch (batch x ranks).
    // RatePerDevice: each report is one device's throughput; the run's is it times the GPUs
    // (where nobody states them, the run is unusable and says what it needs).
    enum class Value { Rate, StepSeconds, RatePerDevice };
    SteadyStateAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                        MeasureOptions options, Value value = Value::Rate);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    struct Report {
        std::int64_t line = 0;
        double value = 0.0;
        int rank = -1;
    };
    std::vector<const Report*> lowestRankReports(int& rank, std::int64_t& others) const;
    std::optional<Shortfall> window(std::int64_t n, std::int64_t& from, std::int64_t& to,
                                    std::string& why) const;
    void addNotes(RunResult& out, std::int64_t count, std::int64_t firstLine, std::int64_t lastLine,
                  const std::string& why) const;
    void addLeftOutNotes(RunResult& out) const;
    const LogFormat& m_format;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;
    Value m_value;
    std::vector<Report> m_reports;   // every rank's, in file order
    std::int64_t m_summaryLines = 0; // per-epoch or final summaries (no step): left out
    double m_lastSummary = 0.0;
    std::int64_t m_badLines = 0; // a report without a usable value
    std::int64_t m_firstBadLine = 0;
};

std::unique_ptr<FormatAnalyzer> makeSteadyStateAnalyzer(const LogFormat& format, Topology topology,
                                                        int batchPerDevice, MeasureOptions options);
std::unique_ptr<FormatAnalyzer> makeStepSecondsAnalyzer(const LogFormat& format, Topology topology,
                                                        int batchPerDevice, MeasureOptions options);
std::unique_ptr<FormatAnalyzer> makePerDeviceRateAnalyzer(const LogFormat& format,
                                                          Topology topology, int batchPerDevice,
                                                          MeasureOptions options);

} // namespace sv
