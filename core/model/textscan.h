#pragma once
// Character classes and a number reader shared by the line parsers: the hot path of every format.

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <system_error>

namespace sv {

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Python's \s and str.strip() on ASCII.
inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Whether what occurs anywhere in s.
inline bool contains(std::string_view s, std::string_view what) {
    return s.find(what) != std::string_view::npos;
}

// s without the blanks (space, tab, carriage return) at either end.
inline std::string_view trimBlanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// What a terminal shows of a line: its last '\r' segment (tqdm redraws its bar with '\r', so a
// log written to a file holds a whole epoch's bars on one line), without a trailing '\r'.
inline std::string_view terminalLine(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (const auto cr = s.rfind('\r'); cr != std::string_view::npos) s.remove_prefix(cr + 1);
    return s;
}

// The powers of ten that doubles hold exactly (std::pow(10.0, d)'s values, without its cost).
inline constexpr double kPow10Exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                         1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// How many of the eight bytes at p are digits before the first that is not (0 to 8), and the
// value of those digits: a run of up to eight digits read in a word, whatever follows it. The
// caller makes sure that eight bytes are there.
inline int leadingDigits(const char* p, std::uint64_t& value) {
    if constexpr (std::endian::native != std::endian::little) {
        int n = 0;
        std::uint64_t m = 0;
        while (n < 8 && isDigit(p[n]))
            m = m * 10 + static_cast<std::uint64_t>(p[n++] - '0');
        value = m;
        return n;
    }
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    constexpr std::uint64_t high = 0xF0F0F0F0F0F0F0F0;
    // A high nibble other than 3 marks a byte that is not a digit: in the byte itself, or in it
    // plus 6 (0x3A..0x3F). Bytes after the first such one may be marked wrongly (a carry): only
    // the first mark is used.
    const std::uint64_t marks = ((v & high) ^ 0x3030303030303030) |
                                (((v + 0x0606060606060606) & high) ^ 0x3030303030303030);
    const int n = marks == 0 ? 8 : std::countr_zero(marks) / 8;
    if (n == 0) {
        value = 0;
        return 0;
    }
    // The n digits moved to the top of the word, zeros below them: "12" becomes "00000012".
    // The bytes after them are shifted out, and no borrow reaches the digits from below.
    v = (v - 0x3030303030303030) << (8 * (8 - n));
    v = v * 10 + (v >> 8);
    constexpr std::uint64_t mask = 0x000000FF000000FF;
    v = ((v & mask) * (100 + (1000000ULL << 32)) + ((v >> 16) & mask) * (1 + (10000ULL << 32))) >>
        32;
    value = static_cast<std::uint32_t>(v);
    return n;
}

// n bytes at a and b equal: a word at a time (for n of 8 and more the last word overlaps the
// one before), so that a short compare of a length known only at run time costs no call.
inline bool sameBytes(const char* a, const char* b, std::size_t n) {
    if (n < 8) {
        for (std::size_t i = 0; i < n; ++i)
            if (a[i] != b[i]) return false;
        return true;
    }
    std::uint64_t x, y;
    for (std::size_t i = 0; i + 8 < n; i += 8) {
        std::memcpy(&x, a + i, 8);
        std::memcpy(&y, b + i, 8);
        if (x != y) return false;
    }
    std::memcpy(&x, a + n - 8, 8);
    std::memcpy(&y, b + n - 8, 8);
    return x == y;
}

// The bytes at p equal the string literal's (without its '\\0'): a word or two at a time,
// overlapping, with no call (a compiler calls memcmp for sizes such as 5 or 6).
template <std::size_t N> inline bool equalsLiteral(const char* p, const char (&t)[N]) {
    constexpr std::size_t n = N - 1;
    if constexpr (n >= 8) {
        return sameBytes(p, t, n);
    } else if constexpr (n >= 4) {
        std::uint32_t a, b, c, d;
        std::memcpy(&a, p, 4);
        std::memcpy(&b, t, 4);
        std::memcpy(&c, p + n - 4, 4);
        std::memcpy(&d, t + n - 4, 4);
        return a == b && c == d;
    } else {
        for (std::size_t i = 0; i < n; ++i)
            if (p[i] != t[i]) return false;
        return true;
    }
}

// std::from_chars(first, last, out) for a double, with the same result and end: the common
// "[-]ddd[.ddd]" of at most 19 digits whose digits fit 53 bits is one division of two exact
// doubles (correctly rounded, so equal to from_chars'); anything else (an exponent, inf, nan,
// ".5", "5.", long digit strings) goes to from_chars itself.
inline std::from_chars_result readDouble(const char* first, const char* last, double& out) {
    const char* p = first;
    const bool negative = p < last && *p == '-';
    if (negative) ++p;
    std::uint64_t m = 0;
    int digits = 0, fraction = 0;
    const char* intStart = p;
    while (p < last && isDigit(*p) && digits < 20) {
        m = m * 10 + static_cast<std::uint64_t>(*p++ - '0');
        ++digits;
    }
    bool plain = p > intStart;
    if (plain && p < last && *p == '.') {
        const char* fracStart = ++p;
        while (p < last && isDigit(*p) && digits < 20) {
            m = m * 10 + static_cast<std::uint64_t>(*p++ - '0');
            ++digits;
        }
        fraction = static_cast<int>(p - fracStart);
        plain = fraction > 0;
    }
    plain = plain && digits <= 19 && m < (std::uint64_t{1} << 53) &&
            !(p < last && (isDigit(*p) || *p == 'e' || *p == 'E'));
    if (!plain) return std::from_chars(first, last, out);
    const double v = static_cast<double>(m) / kPow10Exact[fraction];
    out = negative ? -v : v;
    return {p, std::errc()};
}

// A cursor over one line for the parsers' fast paths: each step consumes what it matches and
// says whether it did (a failed step may leave the cursor anywhere: the caller then falls back to
// its general reading of the whole line). Literals are compared inline: these run on every line.
struct LineCursor {
    const char* p;
    const char* end;

    explicit LineCursor(std::string_view s) : p(s.data()), end(s.data() + s.size()) {}

    bool atEnd() const { return p == end; }
    std::size_t left() const { return static_cast<std::size_t>(end - p); }
    // A string literal: a compare of known size, which the compiler does a word at a time.
    template <std::size_t N> bool literal(const char (&t)[N]) {
        if (left() < N - 1 || !equalsLiteral(p, t)) return false;
        p += N - 1;
        return true;
    }
    bool next(char c) {
        if (p == end || *p != c) return false;
        ++p;
        return true;
    }
    // 1 to maxDigits digits, and no digit after them: their value.
    bool count(std::int64_t& out, int maxDigits = 18) {
        const char* first = p;
        std::int64_t v = 0;
        while (p < end && isDigit(*p)) {
            if (p - first == maxDigits) return false;
            v = v * 10 + (*p++ - '0');
        }
        out = v;
        return p > first;
    }
    // count() for a number that is usually several digits long (a batch number): read a word
    // at a time where eight bytes are left. Shorter numbers are quicker with count().
    bool longCount(std::int64_t& out) {
        if (left() >= 8) {
            std::uint64_t v = 0;
            const int n = leadingDigits(p, v);
            if (n < 8) {
                out = static_cast<std::int64_t>(v);
                p += n;
                return n > 0;
            }
        }
        return count(out);
    }
    // Digits, a point and digits ("\d+\.\d+", greedy): where the number and its point are,
    // and its value when readDouble's exact fast path gives it (fast: false where it does not,
    // and readDouble of [first, p) is to be asked).
    bool pointDecimal(const char*& first, const char*& point, double& value, bool& fast) {
        first = p;
        std::uint64_t m = 0;
        while (p < end && isDigit(*p))
            m = m * 10 + static_cast<std::uint64_t>(*p++ - '0');
        if (p == first || p == end || *p != '.') return false;
        point = p++;
        while (p < end && isDigit(*p))
            m = m * 10 + static_cast<std::uint64_t>(*p++ - '0');
        const auto fraction = p - point - 1;
        // readDouble's fast path: at most 19 digits (m did not wrap) whose value fits 53 bits.
        fast = (p - first) - 1 <= 19 && fraction <= 19 && m < (std::uint64_t{1} << 53);
        if (fast) value = static_cast<double>(m) / kPow10Exact[fraction];
        return fraction > 0;
    }
    void skipDigitsAndPoints() {
        while (p < end && (isDigit(*p) || *p == '.'))
            ++p;
    }
};

} // namespace sv
