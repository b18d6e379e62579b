#include "core/measure/iterationtrace.h"

#include "core/stats/numerics.h"

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

IterationTraceBuilder::IterationTraceBuilder(int ranks)
    : m_ranks(std::max(1, ranks)), m_seen(static_cast<std::size_t>(m_ranks), 0) {
    m_trace.ranks = m_ranks;
}

void IterationTraceBuilder::add(const SpeedSample& s) {
    if (!s.hasSpeed || !std::isfinite(s.speed)) return;
    std::int64_t k;
    if (s.rank >= 0 && s.rank < m_ranks)
        k = m_seen[static_cast<std::size_t>(s.rank)]++;
    else if (s.rank < 0)
        k = m_untagged++ / m_ranks;
    else
        return;
    const auto i = static_cast<std::size_t>(k);
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
    values.push_back(s.speed);
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
