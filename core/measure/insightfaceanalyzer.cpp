#include "core/measure/insightfaceanalyzer.h"

#include <algorithm>

namespace sv {
namespace {

StepWindowRules printedRates() {
    StepWindowRules rules;
    rules.rate = StepWindowRules::Rate::Printed; // the line's rate is the job's (or the node's)
    rules.timeMethod = false;                    // the lines carry no clock
    return rules;
}

} // namespace

InsightfaceAnalyzer::InsightfaceAnalyzer(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions o, bool perNodeRate,
                                         std::unique_ptr<DlperfReplica> timeScript,
                                         std::unique_ptr<DlperfReplica> speedScript)
    : m_opt(o), m_factor(perNodeRate ? std::max(1, topology.nodes) : 1),
      m_inner(format, topology, batch, o, printedRates(), std::move(timeScript),
              std::move(speedScript)) {}

void InsightfaceAnalyzer::add(const SpeedSample& s) {
    if (m_factor == 1) {
        m_inner.add(s); // the line's rate is the job's: no copy
    } else {
        SpeedSample job = s;
        job.speed *= m_factor;
        m_inner.add(job);
    }
    if (s.rank > 0 || !s.hasIteration) return;
    const std::int64_t step = s.batchLast;
    if (m_hasStep && step > m_lastStep && m_lastStep >= m_opt.warmup && step <= m_opt.iterations) {
        const std::int64_t gap = step - m_lastStep;
        if (m_windowLines == 0 || gap < m_minGap) m_minGap = gap;
        if (gap > m_maxGap) {
            m_maxGap = gap;
            m_gapFrom = m_lastStep;
        }
        ++m_windowLines;
    }
    m_hasStep = true;
    m_lastStep = step;
}

void InsightfaceAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                                 bool unterminatedTail) const {
    m_inner.finish(out, counters, unterminatedTail);
    if (!out.usable()) return;
    if (m_maxGap > m_minGap) {
        // Lines every m_minGap steps, and none between m_gapFrom and m_gapFrom + m_maxGap.
        const std::int64_t first = m_gapFrom + m_minGap, last = m_gapFrom + m_maxGap - m_minGap;
        out.notes.push_back("no line for step " + std::to_string(first) +
                            (last > first ? " to " + std::to_string(last) : std::string()) +
                            " (lost lines?): the window's mean is of the " +
                            std::to_string(m_windowLines) + " lines there are");
    }
    if (m_factor > 1)
        out.notes.push_back("the Speed lines are one node's samples/s: the run's figure is " +
                            std::to_string(m_factor) +
                            " times it, as DLPerf's speed * node_num (DLPerf's ArcFace runner "
                            "itself runs one node only)");
}

} // namespace sv
