#include "core/measure/mindsporeanalyzer.h"

#include "core/measure/dlperfgap.h"
#include "core/model/numerics.h"
#include "core/model/wording.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sv {
MindsporeAnalyzer::MindsporeAnalyzer(const LogFormat& format, bool cumulativeStep,
                                     Topology topology, int batchPerDevice, MeasureOptions options)
    : m_format(format), m_cumulative(cumulativeStep), m_topology(topology), m_batch(batchPerDevice),
      m_opt(options) {}

void MindsporeAnalyzer::add(const SpeedSample& s) {
    const bool stepLine = s.batchLast == kMindsporeStep;
    const bool timeLine = s.batchLast == kMindsporeTime;
    if (!stepLine && !timeLine) return;

    // DLPerf's loop: a step line sets cur_step (and breaks past train_batches); an epoch time
    // line counts while cur_step > warmup_batches, whichever rank printed either.
    if (!m_dlperfDone && m_dlperfError == 0) {
        if (stepLine) {
            if (!s.hasIteration) {
                m_dlperfError = s.line;
            } else {
                m_dlperfStep = m_cumulative ? static_cast<double>(s.batchFirst)
                                            : static_cast<double>(s.batchFirst) * s.epoch;
                if (m_dlperfStep > m_opt.iterations) m_dlperfDone = true;
            }
        } else if (m_dlperfStep > m_opt.warmup) {
            if (!s.hasSpeed) {
                m_dlperfError = s.line;
            } else {
                m_dlperfMs += s.speed;
                ++m_dlperfLines;
            }
        }
    }

    // ScaleView: the k-th epoch time line (0-based) ends sink k / R, at step (k / R + 1) x the
    // sink's steps; the window holds the sinks that end in (W, I].
    if (stepLine) {
        ++m_stepLines;
        if (m_sinkSteps == 0 && s.hasIteration && s.batchFirst > 0) m_sinkSteps = s.batchFirst;
        return;
    }
    const std::int64_t k = m_timeLines++;
    if (m_sinkSteps == 0) return;
    const std::int64_t end = (k / std::max(1, m_topology.ranks()) + 1) * m_sinkSteps;
    if (end <= m_opt.warmup || end > m_opt.iterations) return;
    if (!s.hasSpeed || !std::isfinite(s.speed) || s.speed <= 0.0) {
        if (m_badLine == 0) m_badLine = s.line;
        return;
    }
    m_windowMs += s.speed;
    ++m_windowLines;
}

// DLPerf: total_bs / ((ms / 1000) / ((train - warmup) * N * G)), or no entry at all.
void MindsporeAnalyzer::replayDlperf(RunResult& out, const std::string& script) const {
    const int ranks = std::max(1, m_topology.ranks());
    const double totalBatch = static_cast<double>(static_cast<std::int64_t>(m_batch) * ranks);
    if (m_dlperfError) {
        out.dlperfNote =
            dlperfStops(script, scriptStopAt(m_dlperfError, "its regex finds no number"));
    } else if (m_dlperfMs / 1000 <= 1e-5) {
        out.dlperfNote = "DLPerf's " + script +
                         " records no entry for this run (\"cost time is 0\": no epoch time "
                         "line after a step above " +
                         std::to_string(m_opt.warmup) + ")";
    } else {
        const double iterNum =
            static_cast<double>(static_cast<std::int64_t>(m_opt.iterations - m_opt.warmup) * ranks);
        out.dlperfThroughput = roundPython2(totalBatch / ((m_dlperfMs / 1000) / iterNum));
    }
}

// Why the epoch time lines do not give the window's sinks; out.expectedLines set on the way.
std::optional<Shortfall> MindsporeAnalyzer::sinksShortfall(RunResult& out,
                                                           std::int64_t lines) const {
    if (m_stepLines == 0 && m_timeLines == 0)
        return Shortfall{RunStatus::Empty,
                         "no step or epoch time lines (\"epoch: E step: S\", \"epoch time: X "
                         "ms\") among " +
                             std::to_string(lines) + " lines"};
    if (m_sinkSteps == 0)
        return Shortfall{RunStatus::Unusable, "no step line with a step number (\"epoch: E ... "
                                              "step: S\"): the steps of a sink are not known"};
    // Whole sinks up to I, for every rank.
    const int ranks = std::max(1, m_topology.ranks());
    const std::int64_t sinks = m_opt.iterations / m_sinkSteps;
    out.expectedLines = sinks * ranks;
    if (m_timeLines < out.expectedLines)
        return Shortfall{RunStatus::Incomplete, "found " + std::to_string(m_timeLines) + " of " +
                                                    std::to_string(out.expectedLines) +
                                                    " epoch time lines (" + countOf(sinks, "sink") +
                                                    " of " + countOf(m_sinkSteps, "step") + ", " +
                                                    countOf(ranks, "rank") + ")"};
    if (m_badLine)
        return Shortfall{RunStatus::Unusable,
                         "no epoch time value at line " + std::to_string(m_badLine)};
    if (m_windowLines == 0)
        return Shortfall{RunStatus::Unusable, "no sink of " + std::to_string(m_sinkSteps) +
                                                  " steps ends between steps " +
                                                  std::to_string(m_opt.warmup) + " and " +
                                                  std::to_string(m_opt.iterations)};
    return std::nullopt;
}

void MindsporeAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                               bool unterminatedTail) const {
    out.counters = counters;
    out.unterminatedTail = unterminatedTail;
    const std::string script = scriptName(m_format.timeScript);
    replayDlperf(out, script);
    if (auto shortfall = sinksShortfall(out, counters.lines))
        return settleRun(out, std::move(*shortfall), unterminatedTail);

    // The same expression as DLPerf's, over the window's own lines: R lines per sink.
    const int ranks = std::max(1, m_topology.ranks());
    const double totalBatch = static_cast<double>(static_cast<std::int64_t>(m_batch) * ranks);
    const double steps = static_cast<double>(m_windowLines * m_sinkSteps);
    completeWithOneFigure(out, roundPython2(totalBatch / ((m_windowMs / 1000) / steps)));

    if (out.dlperfThroughput) {
        if (dlperfApart(*out.dlperfThroughput, *out.timeThroughput))
            out.notes.push_back(dlperfApartNote(
                script, *out.dlperfThroughput, *out.timeThroughput,
                "it counts an epoch time line by the last step line any rank printed (one "
                "cur_step for all ranks), summing " +
                    std::to_string(m_dlperfLines) + " lines where the window holds " +
                    std::to_string(m_windowLines) + ", and divides by " +
                    std::to_string(m_opt.iterations - m_opt.warmup) + " x " +
                    std::to_string(ranks) + " steps"));
    } else {
        out.notes.push_back(out.dlperfNote);
    }
    if (m_opt.warmup % m_sinkSteps != 0 || m_opt.iterations % m_sinkSteps != 0)
        out.notes.push_back("the window " + std::to_string(m_opt.warmup) + "-" +
                            std::to_string(m_opt.iterations) + " is not whole sinks of " +
                            std::to_string(m_sinkSteps) + " steps: measured the sinks inside it");
}

} // namespace sv
