#include "core/parse/lineformat.h"
#include "core/parse/decimal.h"
#include "core/model/textscan.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

namespace sv {
namespace {

// Reads up to maxDigits digits at pos; false when there is none.
bool readInt(std::string_view s, std::size_t& pos, std::int64_t& out, int maxDigits = 18) {
    std::int64_t v = 0;
    int n = 0;
    while (pos < s.size() && isDigit(s[pos]) && n < maxDigits) {
        v = v * 10 + (s[pos] - '0');
        ++pos;
        ++n;
    }
    out = v;
    return n > 0;
}

[[gnu::always_inline]] inline bool expect(std::string_view s, std::size_t& pos,
                                          std::string_view token) {
    if (pos > s.size() || s.size() - pos < token.size()) return false;
    for (std::size_t i = 0; i < token.size(); ++i)
        if (s[pos + i] != token[i]) return false;
    pos += token.size();
    return true;
}

// "<stdout>:" or "<stderr>:" after a rank tag.
bool readStream(std::string_view s, std::size_t& pos) {
    return expect(s, pos, "<stdout>:") || expect(s, pos, "<stderr>:");
}

} // namespace

// Open MPI's --tag-output: "[jobid,rank]<stderr>:". On every line of an mpirun log: read in one
// pass with inline compares.
bool matchOpenMpiTag(std::string_view s, int& rank, std::size_t& length) {
    LineCursor c(s);
    std::int64_t job = 0, r = 0;
    if (!c.next('[') || !c.count(job) || !c.next(',') || !c.count(r, 9) || !c.next(']') ||
        !(c.literal("<stdout>:") || c.literal("<stderr>:")))
        return false;
    rank = static_cast<int>(r);
    length = static_cast<std::size_t>(c.p - s.data());
    return true;
}

namespace {

// Horovod's Gloo mode: time.asctime() then "[rank]<stderr>:", e.g.
// "Tue Sep  1 10:00:00 2020[3]<stderr>:". asctime is always 24 characters.
bool matchGloo(std::string_view s, int& rank, std::size_t& length) {
    if (s.size() < 24 + 4) return false;
    const std::string_view t = s.substr(0, 24);
    if (t[3] != ' ' || t[7] != ' ' || t[10] != ' ' || t[13] != ':' || t[16] != ':' || t[19] != ' ')
        return false;
    for (std::size_t i : {20u, 21u, 22u, 23u})
        if (!isDigit(t[i])) return false;
    std::size_t pos = 24;
    std::int64_t r = 0;
    if (!expect(s, pos, "[") || !readInt(s, pos, r, 9) || !expect(s, pos, "]") ||
        !readStream(s, pos))
        return false;
    rank = static_cast<int>(r);
    length = pos;
    return true;
}

// Ranks that label their own lines with the global rank, as PyTorch's distributed warnings do
// and as ScaleView's CPU workload does under torchrun (which tags nothing itself): "[rank3]:".
bool matchTorchRank(std::string_view s, int& rank, std::size_t& length) {
    std::size_t pos = 0;
    std::int64_t r = 0;
    if (!expect(s, pos, "[rank") || !readInt(s, pos, r, 9) || !expect(s, pos, "]:")) return false;
    rank = static_cast<int>(r);
    length = pos;
    return true;
}

// srun --label: the task's rank, right-aligned to the widest rank, then ": " (" 3: " among 12
// tasks). Up to 6 digits, so that a line that merely starts with a number and a colon ("12:30")
// is not taken for one: the space after the colon is required.
bool matchSrunLabel(std::string_view s, int& rank, std::size_t& length) {
    std::size_t pos = 0;
    while (pos < s.size() && pos < 6 && s[pos] == ' ')
        ++pos;
    const std::size_t digits = pos;
    std::int64_t r = 0;
    if (!readInt(s, pos, r, 6) || pos == digits || !expect(s, pos, ": ")) return false;
    rank = static_cast<int>(r);
    length = pos;
    return true;
}

// A float in any form Python prints or a human writes: 3007.1, 1e+04, nan, inf, -inf.
bool readDouble(std::string_view s, std::size_t& pos, double& out) {
    const char* first = s.data() + pos;
    const char* last = s.data() + s.size();
    if (first < last && *first == '+') ++first; // from_chars takes no '+'
    auto res = std::from_chars(first, last, out);
    if (res.ec == std::errc::result_out_of_range) {
        // 1e999 and friends: std::from_chars leaves out unset; Python's float() says inf.
        out = (*first == '-') ? -HUGE_VAL : HUGE_VAL;
    } else if (res.ec != std::errc()) {
        return false;
    }
    pos = static_cast<std::size_t>(res.ptr - s.data());
    return true;
}

constexpr char kMxnetMarkerText[] = " Epoch[0] Batch ";
constexpr std::string_view kMxnetMarker = kMxnetMarkerText;

constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

constexpr std::uint64_t kPow10u[] = {1,
                                     10,
                                     100,
                                     1000,
                                     10000,
                                     100000,
                                     1000000,
                                     10000000,
                                     100000000,
                                     1000000000,
                                     10000000000,
                                     100000000000,
                                     1000000000000,
                                     10000000000000,
                                     100000000000000,
                                     1000000000000000,
                                     10000000000000000,
                                     100000000000000000,
                                     1000000000000000000};

// The digits of Python's usual float repr, "ddd.ddddddddddddd" (1 to 7 digits before the point,
// 2 or more after it, 19 at most), eight bytes at a time: as readPlainDecimal below splits them.
// False, p unmoved, for any other form or where eight bytes cannot be read at each step.
bool usualDecimalDigits(const char*& p, const char* end, std::uint64_t& hundredths,
                        std::uint64_t& tail, int& fraction, int& tailDigits) {
    const char* q = p;
    if (end - q < 8) return false;
    std::uint64_t integer = 0;
    const int n = leadingDigits(q, integer);
    if (n == 0 || n == 8 || q[n] != '.') return false;
    q += n + 1;
    if (end - q < 2 || !isDigit(q[0]) || !isDigit(q[1])) return false;
    hundredths = integer * 100 + static_cast<std::uint64_t>((q[0] - '0') * 10 + (q[1] - '0'));
    q += 2;
    int digits = n + 2;
    tail = 0;
    tailDigits = 0;
    for (;;) {
        if (end - q < 8) return false;
        std::uint64_t chunk = 0;
        const int k = leadingDigits(q, chunk);
        if (digits + k > 19) return false;
        tail = tail * kPow10u[k] + chunk;
        tailDigits += k;
        digits += k;
        q += k;
        if (k < 8) break;
    }
    fraction = 2 + tailDigits;
    p = q;
    return true;
}

// A speed read from its digits: the value and, when decided on the digits, Python's round(value,
// 2). Small on purpose: it is filled on every line.
struct PlainDecimal {
    double value = 0.0;
    double rounded2 = 0.0;
    bool hasRounded2 = false;
};

// The common "ddd.ddd" form, read from its digits: the value, and Python's round(value, 2)
// decided on the decimal digits, which is exact unless the digits sit within an ulp of a tie
// (then the caller rounds the double, as Python does). False for any other form (exponent, nan,
// inf, more than 19 digits), and for an integer beyond 53 bits: the caller falls back to
// from_chars.
[[gnu::always_inline]] inline bool readPlainDecimal(std::string_view s, std::size_t& pos,
                                                    PlainDecimal& out) {
    const char* p = s.data() + pos;
    const char* const end = s.data() + s.size();
    const bool negative = p < end && *p == '-';
    if (negative) ++p;
    // hundredths: the digits down to the second decimal; tail: the ones after (tailDigits of
    // them); m, below: every digit. At most 19 digits, so none of them wraps.
    std::uint64_t hundredths = 0, tail = 0;
    int fraction = 0, tailDigits = 0;
    if (!usualDecimalDigits(p, end, hundredths, tail, fraction, tailDigits)) {
        // Any other form, or too near the end of the line to read a word at a time: a digit at
        // a time.
        hundredths = tail = 0;
        fraction = tailDigits = 0;
        int digits = 0;
        const char* const intStart = p;
        while (p < end && isDigit(*p)) {
            if (++digits > 19) return false;
            hundredths = hundredths * 10 + static_cast<std::uint64_t>(*p++ - '0');
        }
        if (p == intStart) return false;
        if (p < end && *p == '.') {
            ++p;
            while (fraction < 2 && p < end && isDigit(*p)) {
                if (++digits > 19) return false;
                hundredths = hundredths * 10 + static_cast<std::uint64_t>(*p++ - '0');
                ++fraction;
            }
            while (p < end && isDigit(*p)) {
                if (++digits > 19) return false;
                tail = tail * 10 + static_cast<std::uint64_t>(*p++ - '0');
                ++tailDigits;
            }
            fraction += tailDigits;
        }
    }
    if (p < end && (*p == 'e' || *p == 'E' || *p == '.')) return false;
    const std::uint64_t m = hundredths * kPow10u[tailDigits] + tail;
    // float(text), to the bit, without a division.
    double value = 0.0;
    if (m == 0 || fraction == 0) {
        if (m >= (std::uint64_t{1} << 53)) return false; // from_chars reads it
        value = static_cast<double>(m);
    } else {
        value = decimalQuotient(m, fraction);
    }
    if (negative) value = -value;
    out.value = value;
    out.hasRounded2 = false;
    // Rounding to 2 decimals on the digits.
    bool exact = true;
    if (fraction < 2) {
        if (m >= (std::uint64_t{1} << 53))
            return false; // x 100 could overflow; from_chars reads it
        for (int k = fraction; k < 2; ++k)
            hundredths *= 10;
    } else if (fraction > 2) {
        const double half = 5.0 * kPow10[fraction - 3];
        // The double's error, in units of the last printed digit: a tail this close to half
        // could round either way in binary.
        const double margin = 4.0 * std::fabs(value) * 0x1p-52 * kPow10[fraction];
        const double t = static_cast<double>(tail);
        if (std::fabs(t - half) <= margin + 1.0)
            exact = false;
        else if (t > half)
            ++hundredths;
    }
    // Near a tie the caller rounds the double, which is float(text) to the bit.
    if (exact && hundredths < (std::uint64_t{1} << 53)) {
        out.hasRounded2 = true;
        out.rounded2 = (negative ? -1.0 : 1.0) * static_cast<double>(hundredths) / 100.0;
    }
    pos = static_cast<std::size_t>(p - s.data());
    return true;
}

// The usual line from its marker on: "... Epoch[0] Batch [19-19]\tSpeed: 3007.1 samples/sec...",
// the line's time already read. False (and sample untouched) for anything else.
bool readMxnetFromMarker(std::string_view text, std::size_t markerPos, std::int64_t timeUs,
                         SpeedSample& sample) {
    LineCursor c(text.substr(markerPos + kMxnetMarker.size()));
    std::int64_t first = 0, last = 0;
    if (!c.next('[') || !c.longCount(first) || !c.next('-') || !c.longCount(last) ||
        !c.literal("]\tSpeed: "))
        return false;
    std::size_t pos = static_cast<std::size_t>(c.p - text.data());
    PlainDecimal fast;
    if (!readPlainDecimal(text, pos, fast)) return false;
    c.p = text.data() + pos;
    if (!c.literal(" samples/sec")) return false;
    sample.hasTime = true;
    sample.timeUs = timeUs;
    sample.epoch = 0;
    sample.batchFirst = first;
    sample.batchLast = last;
    sample.hasSpeed = true;
    sample.speed = fast.value;
    sample.hasRounded2 = fast.hasRounded2;
    sample.speedRounded2 = fast.rounded2;
    return true;
}

// The usual line, found by its marker: "<asctime>:INFO: Epoch[0] Batch [19-19]\tSpeed: 3007.1
// samples/sec...". Read in one pass; false (and sample untouched) for anything else, which the
// general reading below then reads as before.
bool parseMxnetUsual(std::string_view text, std::size_t markerPos, SpeedSample& sample) {
    std::int64_t t = 0;
    return readLogTimestamp(text, t) && readMxnetFromMarker(text, markerPos, t, sample);
}

// The line as NGC MXNet writes it, from its first byte: asctime, ":INFO:", the marker and the
// rest as above. Each byte before the marker is a timestamp's digit or separator or the level.
bool parseMxnetFromStart(std::string_view text, SpeedSample& sample) {
    std::size_t tsLen = 0;
    std::int64_t t = 0;
    if (!readLogTimestamp(text, t, &tsLen)) return false;
    LineCursor c(text.substr(tsLen));
    if (!c.literal(":INFO:") || !c.literal(kMxnetMarkerText)) return false;
    return readMxnetFromMarker(text, tsLen + 6, t, sample);
}

void parseMxnet(std::string_view text, std::size_t markerPos, SpeedSample& sample) {
    if (markerPos != std::string_view::npos && parseMxnetUsual(text, markerPos, sample)) return;
    // Python logging's "{asctime}:{levelname}: " comes first; DLPerf searches the whole line for
    // the first timestamp, so a line with an unusual prefix still has its time read.
    std::size_t tsLen = 0;
    if (auto t = parseLogTimestamp(text, &tsLen)) {
        sample.hasTime = true;
        sample.timeUs = *t;
    } else {
        for (std::size_t i = 0; i + 19 <= text.size(); ++i) {
            if (!isDigit(text[i]) || (i > 0 && isDigit(text[i - 1]))) continue;
            if (auto t2 = parseLogTimestamp(text.substr(i), &tsLen)) {
                sample.hasTime = true;
                sample.timeUs = *t2;
                break;
            }
        }
    }
    // The marker is " Epoch[0] Batch ": "Epoch[" starts one byte in.
    std::size_t pos = markerPos != std::string_view::npos ? markerPos + 1 : text.find("Epoch[");
    if (pos != std::string_view::npos) {
        pos += 6;
        std::int64_t epoch = 0, first = 0, last = 0;
        if (readInt(text, pos, epoch, 9) && expect(text, pos, "] Batch [") &&
            readInt(text, pos, first) && expect(text, pos, "-") && readInt(text, pos, last)) {
            sample.epoch = static_cast<int>(epoch);
            sample.batchFirst = first;
            sample.batchLast = last;
        }
    }
    // Usually right after the batch: "]\tSpeed: ".
    if (pos != std::string_view::npos && text.substr(pos, 9) == "]\tSpeed: ")
        pos += 2;
    else
        pos = text.find("Speed: ");
    if (pos != std::string_view::npos) {
        pos += 7;
        PlainDecimal fast;
        double v = 0.0;
        if (readPlainDecimal(text, pos, fast)) {
            if (text.substr(pos, 12) == " samples/sec") {
                sample.hasSpeed = true;
                sample.speed = fast.value;
                sample.hasRounded2 = fast.hasRounded2;
                sample.speedRounded2 = fast.rounded2;
            }
        } else if (readDouble(text, pos, v) && text.substr(pos, 12) == " samples/sec") {
            sample.hasSpeed = true;
            sample.speed = v;
        }
    }
}

constexpr std::array<TagFormat, 4> kTags = {{
    {"openmpi", &matchOpenMpiTag},
    {"horovod-gloo", &matchGloo},
    {"torch-rank", &matchTorchRank},
    {"srun-label", &matchSrunLabel},
}};

constexpr std::array<MessageFormat, 1> kMessages = {{
    {"mxnet", kMxnetMarker, &parseMxnet, &parseMxnetFromStart},
}};

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

} // namespace

std::span<const TagFormat> tagFormats() {
    return kTags;
}
std::span<const MessageFormat> messageFormats() {
    return kMessages;
}
const MessageFormat& mxnetSpeedometer() {
    return kMessages[0];
}

std::optional<MessageFormat> findMessageFormat(std::string_view name) {
    for (const auto& f : kMessages)
        if (f.name == name) return f;
    return std::nullopt;
}

bool readLogTimestamp(std::string_view s, std::int64_t& us, std::size_t* length, char separator) {
    // Consecutive lines of a log usually fall in the same second: remember the last second read
    // by the fast path below, as text and as its value.
    thread_local char cachedSecond[19] = {};
    thread_local std::int64_t cachedSecondUs = -1;
    auto fraction = [&](std::size_t& pos) {
        std::int64_t frac = 0;
        pos = 20;
        while (pos < s.size() && pos < 26 && isDigit(s[pos]))
            frac = frac * 10 + (s[pos++] - '0');
        for (std::size_t n = pos - 20; n < 6; ++n)
            frac *= 10;
        return frac;
    };
    if (s.size() >= 21 && s[19] == separator && isDigit(s[20]) && cachedSecondUs >= 0 &&
        sameBytes(cachedSecond, s.data(), 19)) {
        std::size_t pos = 0;
        const std::int64_t frac = fraction(pos);
        if (length) *length = pos;
        us = cachedSecondUs + frac;
        return true;
    }
    // Fast path: logging's fixed "YYYY-MM-DD HH:MM:SS,fff".
    if (s.size() >= 21 && s[4] == '-' && s[7] == '-' && s[10] == ' ' && s[13] == ':' &&
        s[16] == ':' && s[19] == separator) {
        bool digits = true;
        for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u, 11u, 12u, 14u, 15u, 17u, 18u, 20u})
            digits = digits && isDigit(s[i]);
        if (digits) {
            auto two = [&](std::size_t i) { return (s[i] - '0') * 10 + (s[i + 1] - '0'); };
            // Consecutive lines share their date: remember the last one's day number.
            thread_local char cachedDate[10] = {};
            thread_local std::int64_t cachedDays = -1;
            std::int64_t days = cachedDays;
            if (days < 0 || std::memcmp(cachedDate, s.data(), 10) != 0) {
                const int y = two(0) * 100 + two(2), mo = two(5), d = two(8);
                if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
                days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
                std::memcpy(cachedDate, s.data(), 10);
                cachedDays = days;
            }
            const int h = two(11), mi = two(14), sec = two(17);
            if (h > 23 || mi > 59 || sec > 61) return false;
            std::size_t pos = 0;
            const std::int64_t frac = fraction(pos);
            if (length) *length = pos;
            const std::int64_t second =
                ((days * 24 + h) * 60 + mi) * 60 * 1000000 + std::int64_t{sec} * 1000000;
            std::memcpy(cachedSecond, s.data(), 19);
            cachedSecondUs = second;
            us = second + frac;
            return true;
        }
    }
    std::size_t pos = 0;
    std::int64_t y, mo, d, h, mi, sec;
    // DLPerf's pattern: \d{4}-\d{1,2}-\d{1,2}\s\d{1,2}:\d{1,2}:\d{1,2},\d{1,6}
    if (!readInt(s, pos, y, 4) || pos != 4 || !expect(s, pos, "-") || !readInt(s, pos, mo, 2) ||
        !expect(s, pos, "-") || !readInt(s, pos, d, 2) || pos >= s.size() ||
        !(s[pos] == ' ' || s[pos] == '\t'))
        return false;
    ++pos;
    if (!readInt(s, pos, h, 2) || !expect(s, pos, ":") || !readInt(s, pos, mi, 2) ||
        !expect(s, pos, ":") || !readInt(s, pos, sec, 2) ||
        !expect(s, pos, std::string_view(&separator, 1)))
        return false;
    const std::size_t fracStart = pos;
    std::int64_t frac = 0;
    if (!readInt(s, pos, frac, 6)) return false;
    for (std::size_t n = pos - fracStart; n < 6; ++n)
        frac *= 10; // ",123" is 123000 us
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 61) return false;
    if (length) *length = pos;
    const std::int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    us = ((days * 24 + h) * 60 + mi) * 60 * 1000000 + sec * 1000000 + frac;
    return true;
}

} // namespace sv
