#include "core/measure/ratelineanalyzer.h"

#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>

namespace sv {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

} // namespace

RateLineAnalyzer::RateLineAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                                   MeasureOptions options)
    : m_format(format), m_topology(topology), m_batch(batchPerDevice), m_opt(options) {
    // Steps up to unloggedSteps print nothing: a window starting earlier starts at the first
    // line (DLPerf's "0 if warmup < 20 else warmup - 20").
    const int skip = format.unloggedSteps;
    m_from = std::max(0, options.warmup - skip);
    m_to = std::max<std::int64_t>(0, options.iterations - skip);
}

void RateLineAnalyzer::add(const SpeedSample& s) {
    if (s.rank > 0) return; // rank 0 alone prints these
    ++m_count;
    const std::int64_t index = m_count - 1;
    if (index >= m_from && index < m_to) {
        if (!s.hasSpeed || !std::isfinite(s.speed)) {
            if (m_badLine == 0) m_badLine = s.line;
        } else {
            m_window.push_back(roundPython2(s.speed));
        }
    }
    if (m_count == m_from + 1) m_start = {s.line, s.hasTime, s.timeUs};
    if (m_count == m_to) m_end = {s.line, s.hasTime, s.timeUs};
}

void RateLineAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                              bool unterminatedTail) const {
    out.counters = counters;
    out.expectedLines = m_to;
    out.unterminatedTail = unterminatedTail;
    const std::string marker(trim(m_format.message.marker));
    if (m_count == 0)
        return settleRun(out, RunStatus::Empty, noLinesAmong("rate", marker, counters.lines),
                         unterminatedTail);
    if (m_count < m_to || m_to <= m_from + 1)
        return settleRun(out, RunStatus::Incomplete,
                         "found " + std::to_string(m_count) + " of " + std::to_string(m_to) +
                             " rate lines (\"" + marker + "\"; steps " +
                             std::to_string(m_format.unloggedSteps + 1) + " to " +
                             std::to_string(m_opt.iterations) + ")",
                         unterminatedTail);
    if (m_badLine)
        return settleRun(out, RunStatus::Unusable,
                         "no " + marker + " value at line " + std::to_string(m_badLine),
                         unterminatedTail);
    if (auto why = clockProblem(m_start, m_end))
        return settleRun(out, RunStatus::Unusable, std::move(*why), unterminatedTail);

    out.status = RunStatus::Complete;
    // extract_tensorflow_logs_time.py: global batch / (seconds / (to - from)), a Python float.
    const double seconds = static_cast<double>(m_end.timeUs - m_start.timeUs) / 1e6;
    const double totalBatch =
        static_cast<double>(static_cast<std::int64_t>(m_batch) * m_topology.ranks());
    out.timeThroughput =
        roundPython2(totalBatch / (seconds / static_cast<double>(m_to - (m_from + 1))));
    // extract_tensorflow_logs.py: round(np.mean(rates[from:to]), 2), a numpy.float64.
    out.speedThroughput = roundNumpy2(numpyMean(m_window));
    out.methodDifferencePct =
        std::fabs(*out.speedThroughput - *out.timeThroughput) / *out.timeThroughput * 100.0;
    out.methodsDisagree = *out.methodDifferencePct > 2.0;
    if (m_count > m_to)
        out.notes.push_back(std::to_string(m_count) + " rate lines in the log; those up to " +
                            std::to_string(m_to) + " are measured (the window ends there)");
}

} // namespace sv
