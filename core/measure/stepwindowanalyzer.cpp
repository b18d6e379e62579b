#include "core/measure/stepwindowanalyzer.h"

#include "core/measure/dlperfgap.h"
#include "core/model/numerics.h"

#include <cmath>
#include <cstdio>

namespace sv {
namespace {

constexpr std::int64_t kDayUs = std::int64_t{86400} * 1000000;

} // namespace

StepWindowAnalyzer::StepWindowAnalyzer(const LogFormat& format, Topology topology,
                                       int batchPerDevice, MeasureOptions options,
                                       StepWindowRules rules,
                                       std::unique_ptr<DlperfReplica> timeScript,
                                       std::unique_ptr<DlperfReplica> speedScript)
    : m_format(format), m_topology(topology), m_batch(batchPerDevice), m_opt(options),
      m_rules(rules), m_timeScript(std::move(timeScript)), m_speedScript(std::move(speedScript)) {}

double StepWindowAnalyzer::rateOf(double value) const {
    const double global =
        static_cast<double>(static_cast<std::int64_t>(m_batch) * m_topology.ranks());
    switch (m_rules.rate) {
    case StepWindowRules::Rate::BatchOverValue:
        return global / value;
    case StepWindowRules::Rate::PerStepTimesBatch:
        return value * m_topology.gpusPerNode * m_batch;
    case StepWindowRules::Rate::Printed:
        break;
    }
    return value;
}

void StepWindowAnalyzer::add(const SpeedSample& s) {
    // DLPerf's scripts read every line with the marker, whichever rank wrote it.
    if (m_timeScript) m_timeScript->add(s);
    if (m_speedScript) m_speedScript->add(s);
    if (s.rank > 0) {
        ++m_otherRankLines;
        return;
    }
    ++m_lines;
    if (!s.hasIteration) {
        if (m_noStepLine == 0) m_noStepLine = s.line;
        return;
    }
    const std::int64_t step = s.batchLast;
    // A line that names the steps it covers ("between steps 100 and 200") says where they start;
    // otherwise they start after the previous line's.
    const std::int64_t from = s.batchFirst < s.batchLast ? s.batchFirst : m_lastStep;
    if (m_steps > 0 && step <= m_lastStep && m_backwardsLine == 0) m_backwardsLine = s.line;
    ++m_steps;
    m_lastStep = step;
    m_maxStep = std::max(m_maxStep, step);
    if (step == m_opt.warmup && !m_start.seen) m_start = {true, s.line, s.hasTime, s.timeUs};
    if (step == m_opt.iterations && !m_end.seen) m_end = {true, s.line, s.hasTime, s.timeUs};
    if (m_backwardsLine == 0 && from >= m_opt.warmup && step <= m_opt.iterations && step > from) {
        const double rate = s.hasSpeed ? rateOf(s.speed) : std::nan("");
        if (!std::isfinite(rate) || rate <= 0.0) {
            if (m_badRateLine == 0) m_badRateLine = s.line;
        } else {
            m_rates.push_back(rate);
            m_covered += step - from;
            if (m_firstFrom < 0) {
                m_firstFrom = from;
                m_firstStride = step - from;
            }
            m_lastRated = step;
        }
    }
}

void StepWindowAnalyzer::compareWithScripts(RunResult& out) const {
    struct Script {
        const DlperfReplica* replica;
        std::string_view path;
        std::optional<double>* figure;
        std::string* note;
        std::optional<double> ours;
    };
    const bool both = m_timeScript && m_speedScript;
    // With one script, its figure is the run's dlperfThroughput whichever method it is.
    const Script scripts[] = {
        {m_timeScript.get(), m_format.timeScript, &out.dlperfThroughput, &out.dlperfNote,
         out.timeThroughput},
        {m_speedScript.get(), m_format.speedScript,
         both ? &out.dlperfSpeedThroughput : &out.dlperfThroughput,
         both ? &out.dlperfSpeedNote : &out.dlperfNote, out.speedThroughput},
    };
    for (const Script& sc : scripts) {
        if (!sc.replica) continue;
        const std::string name = scriptName(sc.path);
        std::string failure;
        *sc.figure = sc.replica->figure(&failure);
        if (!*sc.figure) {
            *sc.note = dlperfStops(name, failure);
            if (out.usable()) out.notes.push_back(*sc.note);
            continue;
        }
        if (!out.usable() || !sc.ours) continue;
        const double theirs = **sc.figure, ours = *sc.ours;
        if (!std::isfinite(theirs) || theirs == 0.0) {
            out.notes.push_back("DLPerf's " + name + " records " +
                                (std::isnan(theirs) ? std::string("NaN") : formatFixed(theirs, 2)) +
                                " for this run: " + sc.replica->quirk());
            continue;
        }
        if (dlperfApart(theirs, ours))
            out.notes.push_back(dlperfApartNote(name, theirs, ours, sc.replica->quirk()));
    }
}

std::optional<Shortfall> StepWindowAnalyzer::linesShortfall(std::int64_t lines) const {
    const std::string marker(m_format.message.marker);
    if (m_lines == 0) return Shortfall{RunStatus::Empty, noLinesAmong("step", marker, lines)};
    if (m_steps == 0)
        return Shortfall{RunStatus::Unusable, "no step number in the step lines (first at line " +
                                                  std::to_string(m_noStepLine) + ")"};
    if (m_maxStep < m_opt.iterations)
        return Shortfall{RunStatus::Incomplete, "reaches step " + std::to_string(m_maxStep) +
                                                    " of " + std::to_string(m_opt.iterations) +
                                                    " (\"" + marker + "\" lines)"};
    return std::nullopt;
}

std::optional<Shortfall> StepWindowAnalyzer::timeFigure(std::optional<double>& time) const {
    if (!m_start.seen)
        return Shortfall{RunStatus::Incomplete, "no line for step " + std::to_string(m_opt.warmup) +
                                                    " (the time method's start; lines name "
                                                    "only some steps: choose a --warmup they "
                                                    "name)"};
    if (!m_end.seen)
        return Shortfall{RunStatus::Incomplete,
                         "no line for step " + std::to_string(m_opt.iterations) +
                             " (the time method's end; choose an --iterations the lines name)"};
    if (!m_start.hasTime) return Shortfall{RunStatus::Unusable, noTimestampAt(m_start.line)};
    if (!m_end.hasTime) return Shortfall{RunStatus::Unusable, noTimestampAt(m_end.line)};
    std::int64_t us = m_end.timeUs - m_start.timeUs;
    // A time of day without a date: a later line with an earlier time is on a later day.
    for (int days = 0; m_rules.datelessClock && us <= 0 && days < 366; ++days)
        us += kDayUs;
    if (us <= 0) return Shortfall{RunStatus::Unusable, timeStandsStill(m_start.line, m_end.line)};
    const double totalBatch =
        static_cast<double>(static_cast<std::int64_t>(m_batch) * m_topology.ranks());
    const double seconds = static_cast<double>(us) / 1e6;
    time =
        roundPython2(totalBatch / (seconds / static_cast<double>(m_opt.iterations - m_opt.warmup)));
    return std::nullopt;
}

std::optional<Shortfall> StepWindowAnalyzer::speedFigure(std::optional<double>& speed) const {
    if (m_badRateLine)
        return Shortfall{RunStatus::Unusable,
                         "no usable rate at line " + std::to_string(m_badRateLine)};
    // Lines printed every N steps may start the window a little after W: the first whose
    // steps all come after W.
    if (m_rates.empty() || m_lastRated != m_opt.iterations ||
        m_covered != m_opt.iterations - m_firstFrom || m_firstFrom - m_opt.warmup >= m_firstStride)
        return Shortfall{RunStatus::Incomplete,
                         "the rate lines cover " + std::to_string(m_covered) + " of the " +
                             std::to_string(m_opt.iterations - m_opt.warmup) + " steps after " +
                             std::to_string(m_opt.warmup) + " up to " +
                             std::to_string(m_opt.iterations) +
                             " (lines missing, or printed every N steps: choose a window "
                             "on their steps)"};
    speed = roundNumpy2(numpyMean(m_rates));
    return std::nullopt;
}

void StepWindowAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                                bool unterminatedTail) const {
    out.counters = counters;
    out.expectedLines = m_opt.iterations;
    out.unterminatedTail = unterminatedTail;
    std::optional<double> time, speed;
    std::optional<Shortfall> shortfall = linesShortfall(counters.lines);
    // The time method's figure is the global batch over the window's time: without the batch or
    // the GPU count it would be 0, a figure that says nothing of the log.
    if (!shortfall && m_rules.timeMethod)
        shortfall = unknownBatchOrGpus("step numbers and their times", m_batch, m_topology.ranks());
    if (!shortfall && m_rules.timeMethod) shortfall = timeFigure(time);
    if (!shortfall && m_rules.speedMethod) shortfall = speedFigure(speed);
    if (shortfall) {
        settleRun(out, std::move(*shortfall), unterminatedTail);
        return compareWithScripts(out);
    }
    out.status = RunStatus::Complete;
    out.timeThroughput = time ? time : speed;
    out.speedThroughput = speed ? speed : time;
    out.methodDifferencePct =
        std::fabs(*out.speedThroughput - *out.timeThroughput) / *out.timeThroughput * 100.0;
    out.methodsDisagree = *out.methodDifferencePct > 2.0;
    compareWithScripts(out);
    addNotes(out, speed.has_value());
}

void StepWindowAnalyzer::addNotes(RunResult& out, bool speedMethod) const {
    if (speedMethod && m_firstFrom != m_opt.warmup)
        out.notes.push_back("the rates are printed every " + std::to_string(m_firstStride) +
                            " steps: the speed method averages steps " +
                            std::to_string(m_firstFrom + 1) + " to " +
                            std::to_string(m_opt.iterations));
    if (m_otherRankLines) out.notes.push_back(otherRanksIgnored(m_otherRankLines, "step"));
    if (m_backwardsLine)
        out.notes.push_back(numbersGoBackAt("step", m_backwardsLine) +
                            "; only the steps before it are measured");
}

} // namespace sv
