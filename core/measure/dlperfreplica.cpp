#include "core/measure/dlperfreplica.h"

#include "core/measure/closing.h"
#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>

namespace sv {

std::optional<double> DlperfReplica::figure(std::string* failure) const {
    if (failed()) {
        *failure = m_failure;
        return std::nullopt;
    }
    return figureRead();
}

void DlperfReplica::fail(std::int64_t line, std::string_view why) {
    if (!failed()) m_failure = scriptStopAt(line, why);
}

void DlperfReplica::refuse(std::string why) {
    if (!failed()) m_failure = std::move(why);
}

TwoLineTimeScript::TwoLineTimeScript(std::int64_t globalBatch, MeasureOptions options,
                                     std::string clock)
    : m_batch(globalBatch), m_opt(options), m_clock(std::move(clock)) {}

void TwoLineTimeScript::start(const SpeedSample& s, std::int64_t timeUs) {
    m_startLine = s.line;
    m_startTime = timeUs;
    if (!s.hasTime) fail(s.line, "no " + m_clock);
}

void TwoLineTimeScript::end(const SpeedSample& s, std::int64_t timeUs) {
    m_endLine = s.line;
    if (!s.hasTime) return fail(s.line, "no " + m_clock);
    m_ended = true;
    const std::int64_t us = timeUs - m_startTime;
    if (us == 0) return fail(s.line, "no time between its lines");
    m_figure = roundPython2(
        static_cast<double>(m_batch) /
        (static_cast<double>(us) / 1e6 / static_cast<double>(m_opt.iterations - m_opt.warmup)));
}

double dlperfSliceMean(std::span<const double> list, std::int64_t from, std::int64_t to) {
    const auto n = static_cast<std::int64_t>(list.size());
    from = std::clamp<std::int64_t>(from, 0, n);
    to = std::clamp<std::int64_t>(to, 0, n);
    if (from >= to) return std::nan("");
    return roundNumpy2(numpyMean(
        list.subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from))));
}

} // namespace sv
