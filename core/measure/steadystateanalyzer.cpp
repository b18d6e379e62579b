#include "core/measure/steadystateanalyzer.h"

#include "core/measure/closing.h"
#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sv {

std::string ownReportsText(const MeasureOptions& window) {
    if (isSteadyStateWindow(window))
        return "the log's own reports, first tenth left out, median of the rest";
    if (window.warmup < 0 || window.iterations <= window.warmup)
        return "the log's own reports, by its format's window";
    return "the log's own reports " + std::to_string(window.warmup) + "-" +
           std::to_string(window.iterations - 1);
}

SteadyStateAnalyzer::SteadyStateAnalyzer(const LogFormat& format, Topology topology,
                                         int batchPerDevice, MeasureOptions options, Value value)
    : m_format(format), m_topology(topology), m_batch(batchPerDevice), m_opt(options),
      m_value(value) {}

void SteadyStateAnalyzer::add(const SpeedSample& s) {
    // A line with a value but no step is a summary (an epoch's, the run's): not a report.
    if (!s.hasIteration) {
        if (s.hasSpeed && std::isfinite(s.speed)) {
            ++m_summaryLines;
            m_lastSummary = s.speed;
        }
        return;
    }
    if (!s.hasSpeed || !std::isfinite(s.speed) || s.speed <= 0.0) {
        if (!m_firstBadLine) m_firstBadLine = s.line;
        ++m_badLines;
        return;
    }
    m_reports.push_back({s.line, s.speed, s.rank});
}

// The reports of the lowest rank that reports (untagged lines are -1: one process's own
// output); *others counts the rest.
std::vector<const SteadyStateAnalyzer::Report*>
SteadyStateAnalyzer::lowestRankReports(int& rank, std::int64_t& others) const {
    rank = std::numeric_limits<int>::max();
    for (const auto& r : m_reports)
        rank = std::min(rank, r.rank);
    std::vector<const Report*> mine;
    others = 0;
    for (const auto& r : m_reports)
        if (r.rank == rank)
            mine.push_back(&r);
        else
            ++others;
    return mine;
}

// Which of n reports the figure is of, [from, to), and in words why; or why none is.
std::optional<Shortfall> SteadyStateAnalyzer::window(std::int64_t n, std::int64_t& from,
                                                     std::int64_t& to, std::string& why) const {
    from = 0;
    to = n;
    if (isSteadyStateWindow(m_opt)) {
        from = n >= 2 ? std::max<std::int64_t>(1, n / 10) : 0;
        why = from == 0
                  ? "a single report"
                  : "the first tenth of its " + std::to_string(n) + " reports left out as warmup";
        return std::nullopt;
    }
    from = m_opt.warmup;
    to = std::min<std::int64_t>(n, m_opt.iterations);
    if (from >= n)
        return Shortfall{RunStatus::Incomplete, "found " + std::to_string(n) +
                                                    " throughput reports; the window " +
                                                    std::to_string(m_opt.warmup) + ".." +
                                                    std::to_string(m_opt.iterations) +
                                                    " counts reports, and starts after them"};
    why = "reports " + std::to_string(from) + " to " + std::to_string(to - 1) +
          " of the window given";
    return std::nullopt;
}

void SteadyStateAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                                 bool unterminatedTail) const {
    out.counters = counters;
    out.unterminatedTail = unterminatedTail;
    if (m_reports.empty()) {
        out.status = m_badLines ? RunStatus::Unusable : RunStatus::Empty;
        out.reason =
            m_badLines
                ? "no usable value on its " + std::to_string(m_badLines) +
                      " report lines (the first at line " + std::to_string(m_firstBadLine) + ")"
                : noLinesAmong("throughput report", m_format.message.marker, counters.lines);
        return;
    }
    int rank = 0;
    std::int64_t others = 0;
    const std::vector<const Report*> mine = lowestRankReports(rank, others);
    std::int64_t from = 0, to = 0;
    std::string why;
    if (auto shortfall = window(static_cast<std::int64_t>(mine.size()), from, to, why)) {
        out.status = shortfall->status; // a window of reports, not of a log's lines: no tail
        out.reason = std::move(shortfall->reason);
        return;
    }
    if (m_value == Value::StepSeconds) {
        // tqdm's "it/s" is steps per second (read as its inverse): said as the log says it.
        const std::string_view marker = m_format.message.marker;
        const std::string lines = marker.ends_with("it/s")
                                      ? "steps per second (" + std::string(marker) + ")"
                                      : std::string("seconds per step");
        if (auto unknown = unknownBatchOrGpus(lines, m_batch, m_topology.ranks())) {
            out.status = unknown->status;
            out.reason = std::move(unknown->reason);
            return;
        }
    }
    // One GPU's rates: the run's is that times its GPUs, never one GPU's taken for the job's (as
    // a format file's per_gpu values, userformatanalyzer.cpp).
    if (m_value == Value::RatePerDevice && m_topology.ranks() <= 0) {
        out.status = RunStatus::Unusable;
        out.reason = "its reports are one GPU's rate (\"per GPU\", line " +
                     std::to_string(mine.front()->line) +
                     "): the run's is that times its GPUs, and neither the log, its path nor a "
                     "scaleview.json states how many (Set batch, GPUs, precision… sets them)";
        return;
    }
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(to - from));
    const double globalBatch = static_cast<double>(m_batch) * std::max(1, m_topology.ranks());
    for (std::int64_t i = from; i < to; ++i) {
        const double v = mine[static_cast<std::size_t>(i)]->value;
        values.push_back(m_value == Value::StepSeconds     ? globalBatch / v
                         : m_value == Value::RatePerDevice ? v * m_topology.ranks()
                                                           : v);
    }
    completeWithOneFigure(out, numpyMedian(values));
    if (m_value == Value::RatePerDevice)
        out.notes.push_back("each report is one GPU's rate: the figure is it times the " +
                            std::to_string(m_topology.ranks()) + " GPUs");
    addNotes(out, to - from, mine[static_cast<std::size_t>(from)]->line,
             mine[static_cast<std::size_t>(to - 1)]->line, why);
    if (rank >= 0)
        out.notes.push_back(
            "only rank " + std::to_string(rank) + "'s reports are counted" +
            (others ? " (" + std::to_string(others) +
                          " reports of other ranks left out: each rank reports the same steps)"
                    : std::string()));
    addLeftOutNotes(out);
}

// Which reports the figure is of, and how a step time became a throughput.
void SteadyStateAnalyzer::addNotes(RunResult& out, std::int64_t count, std::int64_t firstLine,
                                   std::int64_t lastLine, const std::string& why) const {
    const std::string unit(m_format.unit);
    out.notes.push_back("the log's own figures: median of " + std::to_string(count) + " " +
                        (m_value == Value::StepSeconds
                             ? "step times (" + unit + " = batch " + std::to_string(m_batch) +
                                   " x " + std::to_string(m_topology.ranks()) + " GPUs / seconds)"
                             : "reports in " + unit) +
                        ", lines " + std::to_string(firstLine) + "-" + std::to_string(lastLine) +
                        " (" + why + ")");
}

void SteadyStateAnalyzer::addLeftOutNotes(RunResult& out) const {
    const std::string unit(m_format.unit);
    if (m_summaryLines)
        out.notes.push_back(std::to_string(m_summaryLines) +
                            " summary lines (per epoch or per run; the last says " +
                            formatFixed(m_lastSummary, 2) + " " + unit +
                            ") are not counted as reports");
    if (m_badLines)
        out.notes.push_back(std::to_string(m_badLines) +
                            " report lines without a usable value left out (the first at line " +
                            std::to_string(m_firstBadLine) + ")");
}

std::unique_ptr<FormatAnalyzer> makeSteadyStateAnalyzer(const LogFormat& format, Topology topology,
                                                        int batchPerDevice,
                                                        MeasureOptions options) {
    return std::make_unique<SteadyStateAnalyzer>(format, topology, batchPerDevice, options);
}

std::unique_ptr<FormatAnalyzer> makePerDeviceRateAnalyzer(const LogFormat& format,
                                                          Topology topology, int batchPerDevice,
                                                          MeasureOptions options) {
    return std::make_unique<SteadyStateAnalyzer>(format, topology, batchPerDevice, options,
                                                 SteadyStateAnalyzer::Value::RatePerDevice);
}

std::unique_ptr<FormatAnalyzer> makeStepSecondsAnalyzer(const LogFormat& format, Topology topology,
                                                        int batchPerDevice,
                                                        MeasureOptions options) {
    return std::make_unique<SteadyStateAnalyzer>(format, topology, batchPerDevice, options,
                                                 SteadyStateAnalyzer::Value::StepSeconds);
}

} // namespace sv
