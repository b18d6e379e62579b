#include "core/measure/steptimeanalyzer.h"

#include "core/measure/dlperfgap.h"
#include "core/stats/numerics.h"

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
    const std::string script(m_format.timeScript.substr(m_format.timeScript.rfind('/') + 1));

    // DLPerf's figure, whatever ScaleView makes of the run: a file it reads to the end without
    // reaching line I records 0, and that 0 enters its median.
    if (m_dlperfStopped)
        out.dlperfNote = "DLPerf's " + script + " stops with an error at line " +
                         std::to_string(m_noIterationLine) + " (no iteration number)";
    else
        out.dlperfThroughput = rate(m_dlperf).value_or(0.0);

    if (m_lines == 0) {
        out.status = RunStatus::Empty;
        out.reason = "no iteration lines (\"" + marker + "\") among " +
                     std::to_string(counters.lines) + " lines";
        return;
    }
    if (m_ours.count < m_opt.iterations) {
        out.status = RunStatus::Incomplete;
        out.reason = "found " + std::to_string(m_ours.count) + " of " +
                     std::to_string(m_opt.iterations) + " iteration lines (\"" + marker + "\")";
        if (m_noIterationLine)
            out.reason +=
                "; line " + std::to_string(m_noIterationLine) + " has no iteration number";
        if (unterminatedTail)
            out.reason += ", and an unterminated last line (still being written?)";
        return;
    }
    auto unusable = [&](std::string why) {
        out.status = RunStatus::Unusable;
        out.reason = std::move(why);
    };
    if (!m_ours.start.hasTime)
        return unusable("no timestamp at line " + std::to_string(m_ours.start.line));
    if (!m_ours.end.hasTime)
        return unusable("no timestamp at line " + std::to_string(m_ours.end.line));
    if (m_ours.end.timeUs <= m_ours.start.timeUs)
        return unusable("time does not advance from line " + std::to_string(m_ours.start.line) +
                        " to line " + std::to_string(m_ours.end.line));

    out.status = RunStatus::Complete;
    // Both methods are this one figure: the format has one DLPerf script.
    out.timeThroughput = out.speedThroughput = rate(m_ours);
    out.methodDifferencePct = 0.0;

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
    if (m_otherRankLines)
        out.notes.push_back(std::to_string(m_otherRankLines) +
                            " iteration lines of ranks other than 0 ignored (DLPerf counts them)");
    if (m_backwardsLine)
        out.notes.push_back("iteration numbers go back at line " + std::to_string(m_backwardsLine) +
                            " (a restarted run appended to the log?)");
}

} // namespace sv
