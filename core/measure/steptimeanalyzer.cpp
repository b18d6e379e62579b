#include "core/measure/steptimeanalyzer.h"

#include "core/measure/dlperfgap.h"
#include "core/model/numerics.h"

#include <cmath>
#include <cstdio>

namespace sv {
StepTimeAnalyzer::StepTimeAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                                   MeasureOptions options)
    : m_format(format), m_topology(topology), m_batch(batchPerDevice), m_opt(options) {}

void StepTimeAnalyzer::count(Counter& c, const SpeedSample& s) const {
    ++c.count;
    if (c.count == m_opt.warmup) c.start = {s.line, s.hasTime, s.timeUs};
    if (c.count == m_opt.iterations) c.end = {s.line, s.hasTime, s.timeUs};
}

void StepTimeAnalyzer::add(const SpeedSample& s) {
    ++m_lines;
    // DLPerf reads every marker line, whichever rank wrote it, and dies on one it cannot parse.
    if (!m_dlperfStopped && m_dlperf.count < m_opt.iterations) {
        if (!s.hasIteration) {
            m_dlperfStopped = true;
        } else if (s.batchFirst > m_format.skipIterationsThrough) {
            count(m_dlperf, s);
        }
    }
    if (!s.hasIteration) {
        if (m_noIterationLine == 0) m_noIterationLine = s.line;
        return;
    }
    // Only rank 0 logs these lines; another rank's (a tagging launcher, a misconfigured logger)
    // would count its iterations twice.
    if (s.rank > 0) {
        ++m_otherRankLines;
        return;
    }
    if (s.batchFirst <= m_lastIteration && m_backwardsLine == 0) m_backwardsLine = s.line;
    m_lastIteration = s.batchFirst;
    if (m_ours.count < m_opt.iterations) count(m_ours, s);
}

std::optional<double> StepTimeAnalyzer::rate(const Counter& c) const {
    if (c.count < m_opt.iterations || !c.start.hasTime || !c.end.hasTime ||
        c.end.timeUs == c.start.timeUs)
        return std::nullopt;
    const double totalBatch =
        static_cast<double>(static_cast<std::int64_t>(m_batch) * m_topology.ranks());
    const double steps = static_cast<double>(m_opt.iterations - m_opt.warmup);
    const double seconds = static_cast<double>(c.end.timeUs - c.start.timeUs) / 1e6;
    return roundPython2(totalBatch / (seconds / steps));
}

void StepTimeAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                              bool unterminatedTail) const {
    out.counters = counters;
    out.expectedLines = m_opt.iterations;
    out.unterminatedTail = unterminatedTail;
    const std::string marker(m_format.message.marker);
    const std::string script = scriptName(m_format.timeScript);

    // DLPerf's figure, whatever ScaleView makes of the run: a file it reads to the end without
    // reaching line I records 0, and that 0 enters its median.
    if (m_dlperfStopped)
        out.dlperfNote =
            dlperfStops(script, scriptStopAt(m_noIterationLine, "no iteration number"));
    else
        out.dlperfThroughput = rate(m_dlperf).value_or(0.0);

    if (m_lines == 0)
        return settleRun(out, RunStatus::Empty, noLinesAmong("iteration", marker, counters.lines),
                         unterminatedTail);
    if (m_ours.count < m_opt.iterations) {
        std::string why = "found " + std::to_string(m_ours.count) + " of " +
                          std::to_string(m_opt.iterations) + " iteration lines (\"" + marker +
                          "\")";
        if (m_noIterationLine)
            why += "; line " + std::to_string(m_noIterationLine) + " has no iteration number";
        return settleRun(out, RunStatus::Incomplete, std::move(why), unterminatedTail);
    }
    if (auto why = clockProblem(m_ours.start, m_ours.end))
        return settleRun(out, RunStatus::Unusable, std::move(*why), unterminatedTail);

    // Both methods are this one figure: the format has one DLPerf script.
    completeWithOneFigure(out, *rate(m_ours));
    addNotes(out, script);
}

void StepTimeAnalyzer::addNotes(RunResult& out, const std::string& script) const {
    if (out.dlperfThroughput && *out.dlperfThroughput > 0.0) {
        if (dlperfApart(*out.dlperfThroughput, *out.timeThroughput))
            out.notes.push_back(dlperfApartNote(
                script, *out.dlperfThroughput, *out.timeThroughput,
                "it skips the lines of iterations up to " +
                    std::to_string(m_format.skipIterationsThrough) + ", measuring lines " +
                    std::to_string(m_dlperf.start.line) + " to " +
                    std::to_string(m_dlperf.end.line) + " instead of " +
                    std::to_string(m_ours.start.line) + " to " + std::to_string(m_ours.end.line)));
    } else if (out.dlperfThroughput) {
        out.notes.push_back("DLPerf's " + script + " records 0 for this run: after skipping " +
                            "iterations up to " + std::to_string(m_format.skipIterationsThrough) +
                            " it finds " + std::to_string(m_dlperf.count) + " of " +
                            std::to_string(m_opt.iterations) + " lines");
    } else {
        out.notes.push_back(out.dlperfNote);
    }
    if (m_otherRankLines) out.notes.push_back(otherRanksIgnored(m_otherRankLines, "iteration"));
    if (m_backwardsLine) out.notes.push_back(numbersGoBackAt("iteration", m_backwardsLine));
}

} // namespace sv
