#include "core/measure/iterationtrace.h"

#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace sv {
namespace {

void summarise(std::vector<double>& values, IterationTrace& into, std::size_t k) {
    if (values.empty()) return; // stays nan
    into.min[k] = *std::min_element(values.begin(), values.end());
    into.max[k] = *std::max_element(values.begin(), values.end());
    into.median[k] = finiteMedianInPlace(values); // add() keeps only finite speeds
}

} // namespace

IterationTraceBuilder::IterationTraceBuilder(int ranks, bool stepSpans)
    : m_ranks(std::max(1, ranks)), m_stepSpans(stepSpans),
      m_seen(static_cast<std::size_t>(m_ranks), 0) {
    m_trace.ranks = m_ranks;
}

void IterationTraceBuilder::add(const SpeedSample& s) {
    if (!s.hasSpeed || !std::isfinite(s.speed)) return;
    // Steps named by the line (bounded: a trace is O(iterations), not O(a number in a log)).
    constexpr std::int64_t kMaxStep = 10'000'000;
    if (m_stepSpans && s.hasIteration && s.batchFirst >= 0 && s.batchLast > s.batchFirst &&
        s.batchLast <= kMaxStep && (s.rank < 0 || s.rank < m_ranks)) {
        for (std::int64_t k = s.batchFirst; k < s.batchLast; ++k)
            place(static_cast<std::size_t>(k), s.speed);
        return;
    }
    std::int64_t k;
    if (s.rank >= 0 && s.rank < m_ranks)
        k = m_seen[static_cast<std::size_t>(s.rank)]++;
    else if (s.rank < 0)
        k = m_untagged++ / m_ranks;
    else
        return;
    place(static_cast<std::size_t>(k), s.speed);
}

void IterationTraceBuilder::place(std::size_t i, double value) {
    if (i >= m_values.size()) {
        m_values.resize(i + 1);
        m_closed.resize(i + 1, false);
        const double nan = std::nan("");
        m_trace.median.resize(i + 1, nan);
        m_trace.min.resize(i + 1, nan);
        m_trace.max.resize(i + 1, nan);
    }
    if (m_closed[i]) return;
    std::vector<double>& values = m_values[i];
    if (values.capacity() == 0) {
        if (!m_spare.empty()) {
            values.swap(m_spare.back());
            m_spare.pop_back();
        } else {
            values.reserve(static_cast<std::size_t>(m_ranks));
        }
    }
    values.push_back(value);
    ++m_openValues;
    if (m_values[i].size() == static_cast<std::size_t>(m_ranks)) close(i);
}

void IterationTraceBuilder::close(std::size_t k) {
    summarise(m_values[k], m_trace, k);
    m_openValues -= m_values[k].size();
    m_values[k].clear();
    m_spare.push_back(std::exchange(m_values[k], {}));
    m_closed[k] = true;
}

IterationTrace IterationTraceBuilder::trace() const {
    IterationTrace out = m_trace;
    for (std::size_t k = 0; k < m_values.size(); ++k) {
        if (m_closed[k] || m_values[k].empty()) continue;
        std::vector<double> values = m_values[k];
        summarise(values, out, k);
    }
    return out;
}

} // namespace sv
