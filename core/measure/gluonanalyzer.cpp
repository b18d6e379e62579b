#include "core/measure/gluonanalyzer.h"

#include "core/measure/dlperfgap.h"
#include "core/model/numerics.h"
#include "core/model/wording.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sv {
namespace {

// Python's round(x, 1): glibc's printf rounds the exact binary value, ties to even, as Python.
double roundPython1(double x) {
    if (!std::isfinite(x)) return x;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", x);
    return std::strtod(buf, nullptr);
}

} // namespace

GluonAnalyzer::GluonAnalyzer(const LogFormat& format, Kind kind, Topology topology,
                             int batchPerDevice, MeasureOptions options)
    : m_format(format), m_kind(kind), m_topology(topology), m_batch(batchPerDevice),
      m_opt(options) {
    m_rowWidth = kind == Kind::RatePerStep ? 1 : std::max(1, topology.ranks());
    // from_iter = base if warmup_batches <= base else warmup_batches - base, with base the
    // script's default warmup (20 for gluon-cv, 100 for gluon-nlp).
    const int base = kind == Kind::RatePerStep ? 20 : 100;
    m_dlperfFrom = options.warmup <= base ? base : options.warmup - base;
    m_valueName = kind == Kind::RatePerStep ? "Speed" : "latency";
}

double GluonAnalyzer::dlperfRate(double value) const {
    if (m_kind == Kind::RatePerStep) return roundPython2(value);
    // 1000.0 / speed * batch_size * node_num * card_num, left to right, on round(latency, 1).
    double r = 1000.0 / roundPython1(value);
    r = r * m_batch;
    r = r * m_topology.nodes;
    return r * m_topology.gpusPerNode;
}

double GluonAnalyzer::rate(double value) const {
    if (m_kind == Kind::RatePerStep) return roundPython2(value);
    return 1000.0 / value * (static_cast<double>(m_batch) * m_topology.ranks());
}

void GluonAnalyzer::add(const SpeedSample& s) {
    // DLPerf: every line holding the marker, whichever rank wrote it, in rows of m_rowWidth.
    ++m_lines;
    if (m_dlperfStop == 0) {
        if (!s.hasSpeed || (m_kind == Kind::LatencyPerRank && roundPython1(s.speed) == 0.0)) {
            m_dlperfStop = s.line; // IndexError, ValueError or ZeroDivisionError
        } else {
            const std::int64_t row = (m_lines - 1) / m_rowWidth;
            if (row >= m_dlperfFrom && row < m_opt.iterations) {
                m_row.push_back(dlperfRate(s.speed));
                if (static_cast<int>(m_row.size()) == m_rowWidth) {
                    m_dlperfRows.push_back(numpyMedianInPlace(m_row));
                    m_row.clear();
                }
            }
        }
    }

    // ScaleView: gluon-cv's step is rank 0's line count; gluon-nlp's is the line's "[step N]",
    // so that interleaved ranks' lines meet in their own step whatever their order.
    std::int64_t row = 0;
    if (m_kind == Kind::RatePerStep) {
        if (s.rank > 0) {
            ++m_otherRankLines;
            return;
        }
        row = m_rows;
    } else {
        if (!s.hasIteration) {
            ++m_noStepLines;
            return;
        }
        if (m_firstStep < 0) m_firstStep = s.batchFirst;
        row = s.batchFirst - m_firstStep;
        if (row < 0) {
            ++m_noStepLines;
            return;
        }
    }
    m_rows = std::max(m_rows, row + 1);
    if (row < m_opt.warmup || row >= m_opt.iterations) return;
    if (!s.hasSpeed || !std::isfinite(s.speed) || s.speed <= 0.0) {
        if (m_badLine == 0) m_badLine = s.line;
        return;
    }
    m_steps[row].push_back(rate(s.speed));
}

// DLPerf's figure, or why its script stops for the whole directory.
void GluonAnalyzer::replayDlperf(RunResult& out, const std::string& script) const {
    const std::int64_t expected = m_opt.iterations * m_rowWidth;
    if (m_dlperfStop)
        out.dlperfNote =
            dlperfStops(script, scriptStopAt(m_dlperfStop, "no usable " + m_valueName + " value"));
    else if (m_lines != expected)
        out.dlperfNote = "DLPerf's " + script + " stops with an error: it reshapes the " +
                         std::to_string(m_lines) + " lines into " +
                         std::to_string(m_opt.iterations) + " rows of " +
                         std::to_string(m_rowWidth) + " and needs exactly " +
                         std::to_string(expected);
    else if (m_dlperfFrom >= m_opt.iterations)
        out.dlperfNote = "DLPerf's " + script + " averages an empty slice (rows " +
                         std::to_string(m_dlperfFrom) + " on of " +
                         std::to_string(m_opt.iterations) + ") and records nan";
    else
        out.dlperfThroughput = roundNumpy2(numpyMean(m_dlperfRows));
}

// The median of each window step's rates, or why a step has too few or too many lines.
std::optional<Shortfall> GluonAnalyzer::stepMedians(std::vector<double>& medians) const {
    if (m_badLine)
        return Shortfall{RunStatus::Unusable,
                         "no " + m_valueName + " value at line " + std::to_string(m_badLine)};
    for (std::int64_t row = m_opt.warmup; row < m_opt.iterations; ++row) {
        const auto it = m_steps.find(row);
        const std::size_t n = it == m_steps.end() ? 0 : it->second.size();
        if (n != static_cast<std::size_t>(m_rowWidth)) {
            const std::int64_t step = m_kind == Kind::RatePerStep ? row + 1 : row + m_firstStep;
            return Shortfall{n < static_cast<std::size_t>(m_rowWidth) ? RunStatus::Incomplete
                                                                      : RunStatus::Unusable,
                             std::string(m_kind == Kind::RatePerStep ? "batch" : "step") + " " +
                                 std::to_string(step) + " has " +
                                 countOf(static_cast<long long>(n), "line") + " for " +
                                 countOf(m_rowWidth, "rank")};
        }
        std::vector<double> values = it->second;
        medians.push_back(numpyMedianInPlace(values));
    }
    return std::nullopt;
}

void GluonAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                           bool unterminatedTail) const {
    out.counters = counters;
    out.expectedLines = m_opt.iterations * m_rowWidth;
    out.unterminatedTail = unterminatedTail;
    const std::string marker(m_format.message.marker);
    const std::string script = scriptName(m_format.speedScript);
    replayDlperf(out, script);

    if (m_lines == 0)
        return settleRun(out, RunStatus::Empty, noLinesAmong("throughput", marker, counters.lines),
                         unterminatedTail);
    if (m_rows < m_opt.iterations)
        return settleRun(out, RunStatus::Incomplete,
                         "found " + std::to_string(m_rows) + " of " +
                             std::to_string(m_opt.iterations) + " " + units() + " (\"" + marker +
                             "\")",
                         unterminatedTail);
    std::vector<double> medians;
    // A window step short of lines is no cut last line: its reason says no tail.
    if (auto shortfall = stepMedians(medians)) return settleRun(out, std::move(*shortfall), false);

    // One figure for both methods: DLPerf has one script for these logs, and they carry no time.
    completeWithOneFigure(out, roundNumpy2(numpyMean(medians)));
    addNotes(out, script);
}

const char* GluonAnalyzer::units() const {
    return m_kind == Kind::RatePerStep ? "batches" : "steps";
}

void GluonAnalyzer::addNotes(RunResult& out, const std::string& script) const {
    if (!out.dlperfThroughput) {
        out.notes.push_back(out.dlperfNote);
    } else if (dlperfApart(*out.dlperfThroughput, *out.timeThroughput)) {
        std::string why;
        if (m_dlperfFrom != m_opt.warmup)
            why = "its window starts at row " + std::to_string(m_dlperfFrom) + " (warmup " +
                  std::to_string(m_opt.warmup) + " minus " +
                  (m_kind == Kind::RatePerStep ? "20" : "100") + "), not " +
                  std::to_string(m_opt.warmup);
        else if (m_kind == Kind::LatencyPerRank)
            why = "it takes the median of each block of " + std::to_string(m_rowWidth) +
                  " consecutive lines, not of each step's lines (the ranks' lines interleave)";
        else
            why = "it counts the lines of every rank, not only rank 0's";
        out.notes.push_back(
            dlperfApartNote(script, *out.dlperfThroughput, *out.timeThroughput, why));
    }
    if (m_rows > m_opt.iterations)
        out.notes.push_back(std::to_string(m_rows) + " " + units() + " in the log; those up to " +
                            std::to_string(m_opt.iterations) +
                            " are measured (the window ends there)");
    if (m_otherRankLines) out.notes.push_back(otherRanksIgnored(m_otherRankLines, "Speed"));
    if (m_noStepLines)
        out.notes.push_back(std::to_string(m_noStepLines) +
                            " lines without a \"[step N]\" not counted (DLPerf's script counts "
                            "them, so its figure differs)");
}

} // namespace sv
