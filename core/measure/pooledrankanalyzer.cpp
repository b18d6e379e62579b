#include "core/measure/pooledrankanalyzer.h"

#include "core/measure/closing.h"
#include "core/measure/dlperfgap.h"
#include "core/model/numerics.h"

namespace sv {
namespace {

constexpr const char* kScript = "extract_pytorch_logs_time.py";

} // namespace

PooledRankAnalyzer::PooledRankAnalyzer(Topology topology, int batchPerDevice,
                                       MeasureOptions options)
    : m_global(static_cast<double>(static_cast<std::int64_t>(batchPerDevice) * topology.ranks())),
      m_opt(options) {}

void PooledRankAnalyzer::add(const SpeedSample& s) {
    addDlperf(s);
    ++m_lines;
    if (!s.hasSpeed) {
        ++m_cutLines;
        return;
    }
    if (s.batchFirst <= 5 || m_count >= m_opt.iterations) return;
    ++m_count;
    if (m_count <= m_opt.warmup) return;
    m_seconds += s.speed;
    if (s.speed != s.dlperfValue && m_misreadLine == 0) m_misreadLine = s.line;
}

void PooledRankAnalyzer::addDlperf(const SpeedSample& s) {
    if (m_dlperfDone || !m_dlperfFailure.empty()) return;
    auto fail = [&](const char* why) { m_dlperfFailure = scriptStopAt(s.line, why); };
    if (!s.hasIteration) return fail("its batch regex or int() fails");
    if (s.batchFirst <= 5) return;
    ++m_dlperfCount;
    if (m_dlperfCount > m_opt.warmup) {
        if (!s.hasDlperfValue) return fail("its Time regex or float() fails");
        m_dlperfSeconds += s.dlperfValue;
    }
    if (m_dlperfCount == m_opt.iterations) {
        if (m_dlperfSeconds == 0.0) return fail("division by zero");
        m_dlperfDone = true;
        m_dlperfFigure = roundPython2(
            m_global / (m_dlperfSeconds / static_cast<double>(m_opt.iterations - m_opt.warmup)));
    }
}

void PooledRankAnalyzer::finish(RunResult& out, const ParseCounters& counters, bool tail) const {
    out.counters = counters;
    out.expectedLines = m_opt.iterations;
    out.unterminatedTail = tail;
    if (!m_dlperfFailure.empty())
        out.dlperfNote = dlperfStops(kScript, m_dlperfFailure);
    else
        out.dlperfThroughput = m_dlperfDone ? m_dlperfFigure : 0.0;
    if (m_lines == 0)
        return settleRun(out, RunStatus::Empty,
                         "no \"Epoch: \" lines among " + std::to_string(counters.lines) + " lines",
                         tail);
    if (m_count < m_opt.iterations) {
        std::string why = "found " + std::to_string(m_count) + " of " +
                          std::to_string(m_opt.iterations) +
                          " whole \"Epoch: \" lines past each rank's iteration 5";
        if (m_cutLines)
            why +=
                " (" + std::to_string(m_cutLines) + " lines cut by other ranks' output left out)";
        return settleRun(out, RunStatus::Incomplete, std::move(why), tail);
    }
    if (!(m_seconds > 0.0))
        return settleRun(
            out, RunStatus::Unusable,
            "the Time values of the window add up to " + formatFixed(m_seconds, 2) + " s", tail);
    const double steps = static_cast<double>(m_opt.iterations - m_opt.warmup);
    completeWithOneFigure(out, roundPython2(m_global / (m_seconds / steps)));
    compareWithDlperf(out);
    if (m_cutLines)
        out.notes.push_back(std::to_string(m_cutLines) +
                            " \"Epoch: \" lines cut by other ranks' output (every rank "
                            "writes 8 KiB blocks into the one file) left out");
}

void PooledRankAnalyzer::compareWithDlperf(RunResult& out) const {
    if (!out.dlperfNote.empty()) return out.notes.push_back(out.dlperfNote);
    if (*out.dlperfThroughput == 0.0)
        return out.notes.push_back(
            std::string("DLPerf's ") + kScript + " records 0 for this run: it finds " +
            std::to_string(m_dlperfCount) + " of " + std::to_string(m_opt.iterations) + " lines");
    const double ours = *out.timeThroughput, theirs = *out.dlperfThroughput;
    if (!dlperfApart(theirs, ours)) return;
    std::string why;
    if (m_misreadLine)
        why = "its regex r\"(\\d{1}.\\d{1,3}\\s)\" keeps one digit before the point "
              "(\"Time 12.054\" reads as 2.054; first at line " +
              std::to_string(m_misreadLine) + ")";
    if (m_cutLines)
        why += std::string(why.empty() ? "" : "; ") + "it counts lines cut by other ranks' output";
    out.notes.push_back(dlperfApartNote(kScript, theirs, ours, why));
}

} // namespace sv
