#include "core/measure/runanalyzer.h"

#include "core/model/numerics.h"
#include "core/model/wording.h"
#include "core/parse/lineformat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sv {
namespace {

// Garbage may claim any rank; tracking is bounded to what a real job can have.
constexpr int kMaxTrackedRank = 1 << 16;

std::string formatDouble(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string joinRanks(const std::vector<int>& ranks) {
    std::string s;
    const std::size_t shown = std::min<std::size_t>(ranks.size(), 5);
    for (std::size_t i = 0; i < shown; ++i)
        s += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > shown) s += " and " + std::to_string(ranks.size() - shown) + " more";
    return s;
}

} // namespace

RunAnalyzer::RunAnalyzer(Topology topology, int batchPerDevice, MeasureOptions options)
    : m_topology(topology), m_ranks(std::max(1, topology.ranks())), m_batch(batchPerDevice),
      m_opt(options), m_expected(static_cast<std::int64_t>(options.iterations) * m_ranks) {
    // Per-iteration state (row medians, node timestamps) grows with the iterations seen, never
    // with the iterations asked for: a mistyped --iterations costs nothing on a short log.
    m_row.reserve(static_cast<std::size_t>(m_ranks));
    const auto r = static_cast<std::size_t>(std::min(m_ranks, kMaxTrackedRank));
    m_rankLines.assign(r, 0);
    m_rankWindowSum.assign(r, 0.0);
    m_rankWindowCount.assign(r, 0);
}

void RunAnalyzer::add(const SpeedSample& s) {
    ++m_count;
    if (s.hasSpeed) m_lastSpeed = s.speed;

    // Speed method: the first I x R lines, in file order, cut into rows of R.
    if (m_count <= m_expected) {
        const bool bad = !s.hasSpeed || !std::isfinite(s.speed);
        if (bad && m_badSpeedLine == 0) {
            m_badSpeedLine = s.line;
            m_badSpeedMissing = !s.hasSpeed;
            m_badSpeedValue = s.speed;
        }
        m_row.push_back(bad ? 0.0 : s.hasRounded2 ? s.speedRounded2 : roundPython2(s.speed));
        if (static_cast<int>(m_row.size()) == m_ranks) addRow();
    }
    // Time method: the timestamps of lines W x R and I x R.
    if (m_count == static_cast<std::int64_t>(m_opt.warmup) * m_ranks)
        m_t1 = {s.line, s.hasTime, s.timeUs};
    if (m_count == m_expected) m_t2 = {s.line, s.hasTime, s.timeUs};

    if (s.rank < 0) {
        m_untaggedToo = true;
        return;
    }
    m_tagged = true;
    if (s.rank >= m_ranks) {
        if (m_strayRank < 0) m_strayRank = s.rank;
        return;
    }
    const auto r = static_cast<std::size_t>(s.rank);
    const std::int64_t iteration = m_rankLines[r]++; // the k-th line of a rank is its iteration k
    if (iteration >= m_opt.warmup && iteration < m_opt.iterations && s.hasSpeed &&
        std::isfinite(s.speed)) {
        m_rankWindowSum[r] += s.speed;
        ++m_rankWindowCount[r];
    }
    if (m_topology.nodes > 1 && s.hasTime && iteration < m_opt.iterations) {
        const auto nodes = static_cast<std::size_t>(m_topology.nodes);
        const auto cell = static_cast<std::size_t>(iteration) * nodes +
                          r / static_cast<std::size_t>(m_topology.gpusPerNode);
        if (cell >= m_nodeTimeSum.size()) {
            // One iteration's row at a time; the vector's own doubling keeps this amortised.
            m_nodeTimeSum.resize((static_cast<std::size_t>(iteration) + 1) * nodes, 0.0);
            m_nodeTimeCount.resize(m_nodeTimeSum.size(), 0);
        }
        if (m_timeBaseUs < 0) m_timeBaseUs = s.timeUs;
        m_nodeTimeSum[cell] += static_cast<double>(s.timeUs - m_timeBaseUs) / 1e6;
        ++m_nodeTimeCount[cell];
    }
}

void RunAnalyzer::addRow() {
    // Every value is finite: a bad speed line's is 0.
    m_rowMedians.push_back(finiteMedianInPlace(m_row));
    m_row.clear();
}

void RunAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                         bool unterminatedTail) const {
    out.counters = counters;
    out.expectedLines = m_expected;
    out.unterminatedTail = unterminatedTail;
    out.ranksTagged = m_tagged;
    const std::string skipped = counters.overlongLines
                                    ? "; " + std::to_string(counters.overlongLines) +
                                          " over-long lines skipped (first at line " +
                                          std::to_string(counters.firstOverlongLine) + ")"
                                    : std::string();

    if (m_count == 0) {
        out.status = RunStatus::Empty;
        out.reason = "no speed lines (\"" + std::string(mxnetSpeedometer().marker.substr(1)) +
                     "\") among " + std::to_string(counters.lines) + " lines" + skipped;
        return;
    }
    if (const std::vector<std::string> missing = missingLines(unterminatedTail); !missing.empty()) {
        out.status = RunStatus::Incomplete;
        for (std::size_t i = 0; i < missing.size(); ++i)
            out.reason += (i ? "; " : "") + missing[i];
        out.reason += skipped;
        return;
    }
    if (std::string why = unusableReason(); !why.empty()) {
        out.status = RunStatus::Unusable;
        out.reason = std::move(why) + skipped;
        return;
    }

    out.status = RunStatus::Complete;
    if (counters.overlongLines) out.notes.push_back(skipped.substr(2));
    measure(out);
    noteRanks(out);
    noteClockOffset(out);
}

// Incomplete: too few lines, or a rank that never logged.
std::vector<std::string> RunAnalyzer::missingLines(bool unterminatedTail) const {
    std::vector<std::string> missing;
    if (m_tagged) {
        std::vector<int> silent;
        for (std::size_t r = 0; r < m_rankLines.size(); ++r)
            if (m_rankLines[r] == 0) silent.push_back(static_cast<int>(r));
        if (silent.size() == 1)
            missing.push_back("rank " + std::to_string(silent[0]) + " has no lines");
        else if (!silent.empty())
            missing.push_back("ranks " + joinRanks(silent) + " have no lines");
    }
    if (m_count < m_expected) {
        missing.push_back("found " + std::to_string(m_count) + " of " + std::to_string(m_expected) +
                          " speed lines (" + countOf(m_opt.iterations, "iteration") + " x " +
                          countOf(m_ranks, "rank") + ")");
        if (unterminatedTail) missing.back() += kUnterminatedTail;
    }
    return missing;
}

std::string RunAnalyzer::unusableReason() const {
    if (m_strayRank >= 0)
        return "rank " + std::to_string(m_strayRank) + " logged, but " + m_topology.name() +
               " has ranks 0-" + std::to_string(m_ranks - 1);
    if (m_badSpeedLine != 0)
        return m_badSpeedMissing ? "no speed value at line " + std::to_string(m_badSpeedLine)
                                 : "speed is " + formatDouble(m_badSpeedValue) + " at line " +
                                       std::to_string(m_badSpeedLine);
    return clockProblem(m_t1, m_t2).value_or(std::string());
}

void RunAnalyzer::measure(RunResult& out) const {
    // extract_mxnet_logs_time.py: round(float(B x R) / (seconds / (I - W)), 2), a Python float.
    const double seconds = static_cast<double>(m_t2.timeUs - m_t1.timeUs) / 1e6;
    const double totalBatch = static_cast<double>(static_cast<std::int64_t>(m_batch) * m_ranks);
    out.timeThroughput =
        roundPython2(totalBatch / (seconds / static_cast<double>(m_opt.iterations - m_opt.warmup)));
    // extract_mxnet_logs.py: round(np.mean(row_medians[W:I]), 2), a numpy.float64.
    const std::span<const double> window(m_rowMedians.data() + m_opt.warmup,
                                         m_rowMedians.size() -
                                             static_cast<std::size_t>(m_opt.warmup));
    out.speedThroughput = roundNumpy2(numpyMean(window));
    // Drift: the window's last third against its first, by the rows' median speeds. A run that
    // throttles or gains a neighbour half way slows down inside the window.
    if (window.size() >= 6) {
        const std::size_t third = window.size() / 3;
        const double first = numpyMean(window.first(third));
        const double last = numpyMean(window.last(third));
        if (first > 0.0) out.driftPct = (first - last) / first * 100.0;
    }

    out.methodDifferencePct =
        std::fabs(*out.speedThroughput - *out.timeThroughput) / *out.timeThroughput * 100.0;
    out.methodsDisagree = *out.methodDifferencePct > 2.0;
    if (out.methodsDisagree)
        out.notes.push_back("the time and speed methods differ by " +
                            formatDouble(std::round(*out.methodDifferencePct * 10) / 10) +
                            " %: the pace changed inside the measured window (see its trace)");
    if (m_count > m_expected)
        out.notes.push_back(std::to_string(m_count) + " speed lines in the log; the first " +
                            std::to_string(m_expected) + " are measured (the window ends there)");
    if (m_tagged && m_untaggedToo)
        out.notes.push_back("some speed lines have no rank tag, so their rank is not known");
}

// Unequal line counts, and the spread of the ranks' mean speeds over the window (the slowest
// rank named).
void RunAnalyzer::noteRanks(RunResult& out) const {
    if (!m_tagged || m_ranks <= 1) return;
    const auto [lo, hi] = std::minmax_element(m_rankLines.begin(), m_rankLines.end());
    if (*lo != *hi)
        out.notes.push_back("the ranks logged different numbers of lines (" + std::to_string(*lo) +
                            " to " + std::to_string(*hi) +
                            "): a rank stopped early or lost output");
    double sum = 0, minMean = HUGE_VAL, maxMean = -HUGE_VAL;
    int counted = 0;
    for (std::size_t r = 0; r < m_rankWindowSum.size(); ++r) {
        if (m_rankWindowCount[r] == 0) continue;
        const double mean = m_rankWindowSum[r] / static_cast<double>(m_rankWindowCount[r]);
        sum += mean;
        ++counted;
        maxMean = std::max(maxMean, mean);
        if (mean < minMean) {
            minMean = mean;
            out.slowestRank = static_cast<int>(r);
        }
    }
    if (counted > 1 && sum > 0) out.rankSpreadPct = (maxMean - minMean) / (sum / counted) * 100.0;
}

// Clock offset: ranks leave an iteration together (the allreduce), so the median gap between
// a node's and node 0's timestamps for the same iteration is mostly their clocks' offset.
void RunAnalyzer::noteClockOffset(RunResult& out) const {
    if (!m_tagged || m_nodeTimeSum.empty()) return;
    const auto nodes = static_cast<std::size_t>(m_topology.nodes);
    double worst = 0.0;
    bool any = false;
    for (std::size_t n = 1; n < nodes; ++n) {
        std::vector<double> gaps;
        for (std::size_t k = 0; k < m_nodeTimeSum.size() / nodes; ++k) {
            const std::size_t a = k * nodes, b = k * nodes + n;
            if (m_nodeTimeCount[a] == 0 || m_nodeTimeCount[b] == 0) continue;
            gaps.push_back(m_nodeTimeSum[b] / m_nodeTimeCount[b] -
                           m_nodeTimeSum[a] / m_nodeTimeCount[a]);
        }
        if (gaps.empty()) continue;
        const double offset = numpyMedian(std::move(gaps)) * 1000.0;
        any = true;
        if (std::fabs(offset) > std::fabs(worst)) worst = offset;
    }
    if (any) out.clockOffsetMs = worst;
}
} // namespace sv
