#include "core/parse/logparser.h"
#include "core/model/textscan.h"

#include <algorithm>
#include <cstring>
#include <ctime>

namespace sv {
namespace {

// The monotonic clock at its tick (a few ms): what timing a line reader needs.
std::int64_t coarseNs() {
    timespec t{};
    ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// The marker's second byte ('E' of " Epoch[0] Batch ") is rarer than its leading space: find it
// with memchr (vectorized) and compare the rest. Several times faster than memmem here, where
// nearly every line holds the marker. No marker (a user format whose pattern proves no text):
// every line is one to read.
const char* findMarker(const char* hay, std::size_t n, std::string_view needle) {
    const std::size_t m = needle.size();
    if (m == 0) return hay;
    if (n < m) return nullptr;
    if (m == 1) return static_cast<const char*>(std::memchr(hay, needle[0], n));
    const char* p = hay + 1;
    const char* last = hay + (n - m) + 1; // the last place the anchor byte can be
    while (p <= last) {
        p = static_cast<const char*>(
            std::memchr(p, needle[1], static_cast<std::size_t>(last - p) + 1));
        if (!p) return nullptr;
        if (p[-1] == needle[0] && sameBytes(p + 1, needle.data() + 2, m - 2)) return p - 1;
        ++p;
    }
    return nullptr;
}

// Drops leading ANSI CSI sequences ("\x1b[0m", "\x1b[1;31m") that colouring loggers add.
std::string_view stripAnsi(std::string_view s) {
    while (s.size() >= 2 && s[0] == '\x1b' && s[1] == '[') {
        std::size_t i = 2;
        while (i < s.size() && !(s[i] >= 0x40 && s[i] <= 0x7e))
            ++i;
        s.remove_prefix(i < s.size() ? i + 1 : s.size());
    }
    return s;
}

// How a line ends: where it ends in a number, the count of its digits after the point (or of
// its trailing digits, negated, without a point); otherwise its last byte, as a code above them.
int endingOf(std::string_view s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' '))
        s.remove_suffix(1);
    if (s.empty()) return 1 << 20;
    if (!isDigit(s.back())) return (1 << 16) + static_cast<unsigned char>(s.back());
    int digits = 0;
    while (!s.empty() && isDigit(s.back())) {
        s.remove_suffix(1);
        ++digits;
    }
    return !s.empty() && s.back() == '.' ? digits : -digits;
}

} // namespace

TailRead LogParser::finishTail() {
    if (m_skipping || m_pending.empty()) return TailRead::None;
    const std::string_view line = m_pending;
    if (!findMarker(line.data(), line.size(), m_options.format.marker)) {
        ++m_counters.lines;
        m_pending.clear();
        return TailRead::None;
    }
    m_counters.tailLine = m_counters.lines + 1;
    if (m_lastEndSize == 0 ||
        endingOf(line) != endingOf(std::string_view(m_lastEnd, m_lastEndSize)))
        return TailRead::Cut;
    ++m_counters.lines;
    m_counters.tailRead = true;
    std::string whole;
    whole.swap(m_pending);
    processLine(whole, std::string_view::npos);
    return TailRead::Read;
}

LogParser::LogParser(ParseOptions options, SampleHandler handler)
    : m_options(std::move(options)), m_handler(std::move(handler)) {}

void LogParser::feed(std::string_view chunk) {
    const char* p = chunk.data();
    const char* end = p + chunk.size();
    m_counters.bytes += static_cast<std::int64_t>(chunk.size());

    // Finish the line that the previous chunk left open.
    if (m_skipping || !m_pending.empty()) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', chunk.size()));
        const std::size_t take = static_cast<std::size_t>((nl ? nl : end) - p);
        if (m_skipping) {
            m_skippedBytes += take;
        } else if (m_pending.size() + take > m_options.maxLineBytes) {
            m_skipping = true;
            m_skippedBytes = m_pending.size() + take;
            m_pending.clear();
            m_pending.shrink_to_fit();
        } else {
            m_pending.append(p, take);
        }
        if (!nl) return;
        if (m_skipping) {
            endLine(m_skippedBytes, nullptr);
        } else {
            endLine(m_pending.size(), m_pending.data());
            m_pending.clear();
        }
        p = nl + 1;
    }

    // Whole lines are parsed in place; only the unterminated tail is copied.
    const char* lastNl =
        static_cast<const char*>(memrchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* tail = lastNl ? lastNl + 1 : p;
    if (lastNl) scanCompleteLines(p, tail);
    const std::size_t tailLen = static_cast<std::size_t>(end - tail);
    if (tailLen > m_options.maxLineBytes) {
        m_skipping = true;
        m_skippedBytes = tailLen;
    } else if (tailLen > 0) {
        m_pending.assign(tail, tailLen);
    }
}

// [begin, end) holds whole lines, each ending in '\n'. Most lines of most logs carry no marker,
// so the marker is searched across many lines at once (as grep does) and only the lines around a
// hit are cut. Where the marker is on line after line (one speed line per iteration and rank),
// each line is cut first and the marker searched in it alone: one search fewer per line.
void LogParser::scanCompleteLines(const char* begin, const char* end) {
    const std::string_view marker = m_options.format.marker;
    const char* p = begin;
    auto countPlainLine = [&](std::size_t len) {
        ++m_counters.lines;
        if (len > m_options.maxLineBytes) {
            ++m_counters.overlongLines;
            if (m_counters.firstOverlongLine == 0) m_counters.firstOverlongLine = m_counters.lines;
        }
    };
    while (p < end) {
        if (m_dense) {
            const char* nl =
                static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            const auto len = static_cast<std::size_t>(nl - p);
            if (readUsualLine(p, len)) {
                p = nl + 1;
                continue;
            }
            if (const char* hit = findMarker(p, len, marker)) {
                endLine(len, p, static_cast<std::size_t>(hit - p));
            } else {
                countPlainLine(len);
                m_dense = false;
            }
            p = nl + 1;
            continue;
        }
        const char* hit = findMarker(p, static_cast<std::size_t>(end - p), marker);
        const char* stop = hit ? hit : end;
        // Lines that end before the hit hold no marker: count them, and catch over-long ones.
        for (;;) {
            const char* nl =
                static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(stop - p)));
            if (!nl) break;
            countPlainLine(static_cast<std::size_t>(nl - p));
            p = nl + 1;
        }
        if (!hit) break;
        const char* nl =
            static_cast<const char*>(std::memchr(hit, '\n', static_cast<std::size_t>(end - hit)));
        endLine(static_cast<std::size_t>(nl - p), p, static_cast<std::size_t>(hit - p));
        p = nl + 1;
        m_dense = true;
    }
}

// A whole line in the format's usual shape behind Open MPI's tag, read without searching it: its
// reader checks every byte up to the marker, so processLine's searches (the marker, a '\r' before
// it, an escape, the other tags) would find what this assumes, and the sample is the same. False,
// nothing counted, for any other line.
bool LogParser::readUsualLine(const char* data, std::size_t length) {
    const auto parseUsual = m_options.format.parseUsual;
    if (!parseUsual || length == 0 || length > m_options.maxLineBytes || data[0] != '[')
        return false;
    std::string_view line(data, length);
    if (line.back() == '\r') line.remove_suffix(1);
    SpeedSample sample;
    std::size_t tagLength = 0;
    if (!matchOpenMpiTag(line, sample.rank, tagLength) ||
        !parseUsual(line.substr(tagLength), sample))
        return false;
    ++m_counters.lines;
    ++m_counters.markerLines;
    sample.line = m_counters.lines;
    if (m_handler) m_handler(sample);
    return true;
}

// One line is complete: data is null when it was skipped while still arriving.
void LogParser::endLine(std::size_t length, const char* data, std::size_t markerPos) {
    ++m_counters.lines;
    if (data == nullptr || length > m_options.maxLineBytes) {
        ++m_counters.overlongLines;
        if (m_counters.firstOverlongLine == 0) m_counters.firstOverlongLine = m_counters.lines;
        m_skipping = false;
        m_skippedBytes = 0;
        return;
    }
    processLine(std::string_view(data, length), markerPos);
}

void LogParser::processLine(std::string_view line, std::size_t markerPos) {
    if (markerPos == std::string_view::npos) {
        const char* hit = findMarker(line.data(), line.size(), m_options.format.marker);
        if (!hit) return;
        markerPos = static_cast<std::size_t>(hit - line.data());
    }
    ++m_counters.markerLines;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // A '\r' before the marker is a progress bar overwritten by this line: keep what a
    // terminal would show.
    if (const void* cr = memrchr(line.data(), '\r', markerPos)) {
        const auto cut = static_cast<std::size_t>(static_cast<const char*>(cr) - line.data()) + 1;
        line.remove_prefix(cut);
        markerPos -= cut;
    }
    // Prefixes removed below shift the marker; if one ran into it, the format searches again.
    auto dropPrefix = [&](std::size_t n) {
        line.remove_prefix(n);
        markerPos = markerPos >= n ? markerPos - n : std::string_view::npos;
    };
    dropPrefix(line.size() - stripAnsi(line).size());

    SpeedSample sample;
    sample.line = m_counters.lines;
    if (mayHaveTag(line)) {
        for (const TagFormat& tag : tagFormats()) {
            int rank = -1;
            std::size_t len = 0;
            if (tag.match(line, rank, len)) {
                sample.rank = rank;
                dropPrefix(len);
                break;
            }
        }
    }
    if (m_options.format.parseWith) {
        if (m_counters.budgetLine > 0) return; // the file's time for the reader is spent
        // Timed: a pattern that is slow on every line (RE2 is linear, but its program may be
        // large) must not hold a read for minutes. The coarse clock costs some 10 ns a call
        // where steady_clock costs 70 on this project's machines (a fast pattern reads a line
        // in 100-200 ns); summed over many lines its ticks still add up to the time taken.
        const std::int64_t start = coarseNs();
        m_options.format.parseWith(m_options.format.context, line, markerPos, sample);
        m_readerNs += coarseNs() - start;
        if (m_options.lineReaderSeconds > 0 && m_readerNs > m_options.lineReaderSeconds * 1e9) {
            m_counters.budgetLine = m_counters.lines;
            m_counters.budgetSeconds = m_options.lineReaderSeconds;
        }
    } else
        m_options.format.parse(line, markerPos, sample);
    if (sample.hasSpeed) {
        m_lastEndSize = std::min(line.size(), sizeof m_lastEnd);
        std::memcpy(m_lastEnd, line.data() + line.size() - m_lastEndSize, m_lastEndSize);
    }
    if (m_handler) m_handler(sample);
}

} // namespace sv
