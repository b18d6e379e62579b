#include "core/measure/steadystateanalyzer.h"

#include "core/stats/numerics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sv {

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

void SteadyStateAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                                 bool unterminatedTail) const {
    out.counters = counters;
    out.unterminatedTail = unterminatedTail;
    const std::string unit(m_format.unit);
    if (m_reports.empty()) {
        out.status = m_badLines ? RunStatus::Unusable : RunStatus::Empty;
        out.reason = m_badLines ? "no usable value on its " + std::to_string(m_badLines) +
                                      " report lines (the first at line " +
                                      std::to_string(m_firstBadLine) + ")"
                                : "no throughput report lines (\"" +
                                      std::string(m_format.message.marker) + "\") among " +
                                      std::to_string(counters.lines) + " lines";
        return;
    }
    // The lowest rank that reports (untagged lines are -1: one process's own output).
    int rank = std::numeric_limits<int>::max();
    for (const auto& r : m_reports)
        rank = std::min(rank, r.rank);
    std::vector<const Report*> mine;
    std::int64_t others = 0;
    for (const auto& r : m_reports)
        if (r.rank == rank)
            mine.push_back(&r);
        else
            ++others;
    const auto n = static_cast<std::int64_t>(mine.size());
    std::int64_t from = 0, to = n;
    std::string why;
    if (isSteadyStateWindow(m_opt)) {
        from = n >= 2 ? std::max<std::int64_t>(1, n / 10) : 0;
        why = from == 0 ? "a single report"
                        : "the first tenth of its " + std::to_string(n) +
                              " reports left out as warmup";
    } else {
        from = m_opt.warmup;
        to = std::min<std::int64_t>(n, m_opt.iterations);
        if (from >= n) {
            out.status = RunStatus::Incomplete;
            out.reason = "found " + std::to_string(n) + " throughput reports; the window " +
                         std::to_string(m_opt.warmup) + ".." + std::to_string(m_opt.iterations) +
                         " counts reports, and starts after them";
            return;
        }
        why = "reports " + std::to_string(from) + " to " + std::to_string(to - 1) +
              " of the window given";
    }
    if (m_value == Value::StepSeconds && (m_batch <= 0 || m_topology.ranks() <= 0)) {
        out.status = RunStatus::Unusable;
        out.reason = std::string("its lines give seconds per step, and the throughput needs the ") +
                     (m_batch <= 0 ? "batch size per device" : "GPU count") +
                     ", which neither the log, its path nor a scaleview.json says (?)";
        return;
    }
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(to - from));
    const double globalBatch = static_cast<double>(m_batch) * std::max(1, m_topology.ranks());
    for (std::int64_t i = from; i < to; ++i) {
        const double v = mine[static_cast<std::size_t>(i)]->value;
        values.push_back(m_value == Value::StepSeconds ? globalBatch / v : v);
    }
    const double figure = numpyMedian(values);
    out.status = RunStatus::Complete;
    out.timeThroughput = out.speedThroughput = figure;
    out.methodDifferencePct = 0.0;
    const std::int64_t firstLine = mine[static_cast<std::size_t>(from)]->line;
    const std::int64_t lastLine = mine[static_cast<std::size_t>(to - 1)]->line;
    std::string note = "the log's own figures: median of " + std::to_string(to - from) + " " +
                       (m_value == Value::StepSeconds ? "step times (" + unit + " = batch " +
                                                            std::to_string(m_batch) + " x " +
                                                            std::to_string(m_topology.ranks()) +
                                                            " GPUs / seconds)"
                                                      : "reports in " + unit) +
                       ", lines " + std::to_string(firstLine) + "-" + std::to_string(lastLine) +
                       " (" + why + ")";
    out.notes.push_back(std::move(note));
    if (rank >= 0)
        out.notes.push_back("reports of rank " + std::to_string(rank) + " read" +
                            (others ? "; " + std::to_string(others) + " of other ranks left out"
                                    : std::string()));
    if (m_summaryLines)
        out.notes.push_back(std::to_string(m_summaryLines) +
                            " summary lines (per epoch or per run, the last says " +
                            formatFixed(m_lastSummary, 2) + " " + unit + ") left out");
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

std::unique_ptr<FormatAnalyzer> makeStepSecondsAnalyzer(const LogFormat& format, Topology topology,
                                                        int batchPerDevice,
                                                        MeasureOptions options) {
    return std::make_unique<SteadyStateAnalyzer>(format, topology, batchPerDevice, options,
                                                 SteadyStateAnalyzer::Value::StepSeconds);
}

} // namespace sv
