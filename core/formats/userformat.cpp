#include "core/formats/userformat.h"
#include "core/model/textscan.h"

#include "core/parse/fastpattern.h"
#include "core/parse/lineformat.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cmath>

// Reading a log's lines with a user's format: the value and the captures of a line, and the
// metadata of a log's first lines. (Reading the format file itself: userformatfile.cpp.)

namespace sv {
namespace {

constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

std::optional<double> readNumber(std::string_view text) {
    std::string digits;
    digits.reserve(text.size());
    for (char c : text)
        if (c != ',' && c != '_' && c != ' ') digits += c;
    if (digits.empty()) return std::nullopt;
    const char* b = digits.data();
    if (*b == '+') ++b;
    double v = 0;
    auto [p, ec] = std::from_chars(b, digits.data() + digits.size(), v);
    if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
    return v;
}

std::optional<std::int64_t> readWhole(std::string_view text) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
    return v;
}

} // namespace

bool UserFormat::read(std::string_view line, SpeedSample& s) const {
    // A line of tqdm bars joined by '\r' is read at its last bar, as a terminal shows it (and as
    // the Teach dialog shows it).
    line = terminalLine(line);
    if (line.size() > kMaxLineBytes) return false;
    const std::string& marker = m_rule.marker;
    if (!marker.empty() && line.find(marker) == std::string_view::npos) return false;
    constexpr int kMaxGroups = 16;
    const int n = std::min(m_groups, kMaxGroups) + 1;
    // The usual patterns without RE2's capture engine, RE2 for the rest (fastpattern.h).
    FastPattern::Span spans[kMaxGroups + 1];
    const auto fast = m_fast ? m_fast->match(line, spans) : FastPattern::Outcome::Undecided;
    if (fast == FastPattern::Outcome::NoMatch) return false;
    re2::StringPiece groups[kMaxGroups + 1];
    if (fast == FastPattern::Outcome::Undecided) {
        const re2::StringPiece text(line.data(), line.size());
        if (!m_line->Match(text, 0, text.size(), re2::RE2::UNANCHORED, groups, n)) return false;
    }
    auto group = [&](int i) -> std::string_view {
        if (i < 1 || i >= n) return {};
        if (fast == FastPattern::Outcome::Match)
            return spans[i].data ? std::string_view(spans[i].data, spans[i].size)
                                 : std::string_view{};
        if (groups[i].data() == nullptr) return {};
        return {groups[i].data(), groups[i].size()};
    };
    auto v = readNumber(group(m_valueGroup));
    if (!v) return false;
    double value = *v * m_scale;
    if (m_scaleGroup >= 0) {
        auto it = m_scales.find(group(m_scaleGroup));
        if (it == m_scales.end()) {
            value = std::nan("");
        } else {
            value *= it->second;
        }
    }
    s.hasSpeed = true;
    s.speed = value;
    if (auto step = readWhole(group(m_stepGroup))) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = *step;
    }
    if (auto epoch = readWhole(group(m_epochGroup))) s.epoch = static_cast<int>(*epoch);
    if (auto rank = readWhole(group(m_rankGroup))) s.rank = static_cast<int>(*rank);
    if (const std::string_view t = group(m_timeGroup); !t.empty()) {
        std::int64_t us = 0;
        std::size_t len = 0;
        if ((readLogTimestamp(t, us, &len, ',') || readLogTimestamp(t, us, &len, '.')) &&
            len == t.size()) {
            s.hasTime = true;
            s.timeUs = us;
        } else if (auto secs = readNumber(t); secs && *secs > 0 && *secs < 1e11) {
            s.hasTime = true;
            s.timeUs = static_cast<std::int64_t>(std::llround(*secs * 1e6));
        }
    }
    return true;
}

bool UserFormat::matches(std::string_view line) const {
    SpeedSample s;
    return read(line, s) && std::isfinite(s.speed);
}

UserFormatFacts UserFormat::facts(std::string_view text) const {
    UserFormatFacts out;
    for (const Meta& m : m_meta) {
        re2::StringPiece capture;
        // One line at a time: a pattern's ".*" never runs over a line break.
        std::string_view rest = text;
        std::optional<std::string> found;
        while (!rest.empty() && !found) {
            const auto nl = rest.find('\n');
            std::string_view line = rest.substr(0, nl);
            if (line.size() <= kMaxLineBytes &&
                re2::RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *m.re, &capture))
                found = std::string(capture.data(), capture.size());
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
        }
        if (!found) continue;
        auto whole = [&]() -> std::optional<int> {
            auto v = readWhole(*found);
            if (!v || *v < 1 || *v > (1 << 24)) return std::nullopt;
            return static_cast<int>(*v);
        };
        if (m.key == "batch")
            out.batch = whole();
        else if (m.key == "gpus")
            out.gpus = whole();
        else if (m.key == "precision")
            out.precision = *found;
        else if (m.key == "model")
            out.model = *found;
    }
    return out;
}

std::vector<std::pair<std::string, const re2::RE2*>> UserFormat::metadata() const {
    std::vector<std::pair<std::string, const re2::RE2*>> out;
    for (const Meta& m : m_meta)
        out.emplace_back(m.key, m.re.get());
    return out;
}

} // namespace sv
