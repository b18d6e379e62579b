#pragma once
// Character classes and a number reader shared by the line parsers: the hot path of every format.

#include <charconv>
#include <cstdint>
#include <system_error>

namespace sv {

inline bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Python's \s and str.strip() on ASCII.
inline bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// std::from_chars(first, last, out) for a double, with the same result and end: the common
// "[-]ddd[.ddd]" of at most 19 digits whose digits fit 53 bits is one division of two exact
// doubles (correctly rounded, so equal to from_chars'); anything else (an exponent, inf, nan,
// ".5", "5.", long digit strings) goes to from_chars itself.
inline std::from_chars_result readDouble(const char* first, const char* last, double& out) {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
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
    const double v = static_cast<double>(m) / kPow10[fraction];
    out = negative ? -v : v;
    return {p, std::errc()};
}

} // namespace sv
