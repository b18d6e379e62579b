#include "core/parse/decimal.h"
#include "core/model/numerics.h"
#include "core/model/textscan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace sv;

TEST(Numerics, PythonRoundIsCorrectlyRoundedOnTheBinaryValue) {
    EXPECT_EQ(roundPython2(2.675), 2.67); // 2.675 is 2.67499999... in binary
    EXPECT_EQ(roundPython2(1.115), 1.11);
    EXPECT_EQ(roundPython2(392.245), 392.25);
    EXPECT_EQ(roundPython2(0.125), 0.12); // an exact tie goes to even
    EXPECT_EQ(roundPython2(0.375), 0.38);
    EXPECT_EQ(roundPython2(11365.605), 11365.6);
    EXPECT_EQ(roundPython2(-2.675), -2.67);
}

TEST(Numerics, NumpyScalarRoundScalesAndRints) {
    // Values printed by numpy 1.24: round(np.float64(v), 2).
    EXPECT_EQ(roundNumpy2(2.675), 2.68);
    EXPECT_EQ(roundNumpy2(1.115), 1.12);
    EXPECT_EQ(roundNumpy2(392.245), 392.24);
    EXPECT_EQ(roundNumpy2(1.005), 1.0);
    EXPECT_EQ(roundNumpy2(0.125), 0.12);
}

TEST(Numerics, NumpyMeanUsesPairwiseSummation) {
    std::vector<double> v;
    for (int i = 0; i < 300; ++i)
        v.push_back(300.0 + (i * 7919 % 1000) / 7.0);
    // np.mean gives 0x1.738p+8 where a plain left-to-right sum gives 0x1.7380000000003p+8.
    EXPECT_EQ(numpyMean(v), 0x1.7380000000000p+8);
    v.resize(37);
    EXPECT_EQ(numpyMean(v), 0x1.71b4e15bec3b5p+8);
    std::vector<double> a;
    for (int i = 1; i <= 20; ++i)
        a.push_back(0.1 * i + 0.7);
    EXPECT_EQ(numpyMean(a), 0x1.c000000000002p+0);
}

TEST(Numerics, NumpyMedianOddAndEven) {
    EXPECT_EQ(numpyMedian({3.0, 1.0, 2.0}), 2.0);
    EXPECT_EQ(numpyMedian({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_TRUE(std::isnan(numpyMedian({})));
}

TEST(Numerics, NumpyMedianIsTheSortedMiddle) {
    // Put in place by selection, not a sort: the same value as the sorted array's middle (or
    // numpy's mean of the two middles), for every size and with ties.
    std::mt19937_64 gen(11);
    for (std::size_t n = 1; n <= 70; ++n)
        for (int round = 0; round < 20; ++round) {
            std::vector<double> v(n);
            for (double& x : v)
                x = static_cast<double>(gen() % 9) * 1.1 +
                    (round % 2 ? 0.0 : 1e-3 * static_cast<double>(gen() % 7));
            std::vector<double> sorted = v;
            std::sort(sorted.begin(), sorted.end());
            const double pair[2] = {sorted[(n - 1) / 2], sorted[n / 2]};
            const double want = n % 2 ? sorted[n / 2] : numpyMean(pair);
            ASSERT_EQ(numpyMedianInPlace(v), want) << n;
        }
}

TEST(Numerics, FiniteMedianEqualsNumpyMedian) {
    // The sorting networks (4, 8, 16 and 32 values) and the selection agree on every count,
    // with ties, zeros and infinities.
    std::mt19937_64 gen(23);
    for (std::size_t n = 1; n <= 40; ++n)
        for (int round = 0; round < 300; ++round) {
            std::vector<double> v(n);
            for (double& x : v) {
                const auto pick = gen() % 20;
                x = pick == 0   ? HUGE_VAL
                    : pick == 1 ? -HUGE_VAL
                    : pick < 8  ? static_cast<double>(gen() % 4)
                                : 1000.0 + static_cast<double>(gen() % 100000) / 100.0;
            }
            std::vector<double> w = v;
            const double got = finiteMedianInPlace(v), want = numpyMedianInPlace(w);
            // inf and -inf in the middle average to nan either way.
            ASSERT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
                << "n " << n << ": " << got << " against " << want;
        }
}

TEST(Numerics, PythonFloatReprMatchesJsonDump) {
    EXPECT_EQ(pythonFloatRepr(392.1), "392.1");
    EXPECT_EQ(pythonFloatRepr(1.0), "1.0");
    EXPECT_EQ(pythonFloatRepr(28.89), "28.89");
    EXPECT_EQ(pythonFloatRepr(100000.0), "100000.0");
    EXPECT_EQ(pythonFloatRepr(1e16), "1e+16");
    EXPECT_EQ(pythonFloatRepr(1e-5), "1e-05");
    EXPECT_EQ(pythonFloatRepr(0.0001), "0.0001");
    EXPECT_EQ(pythonFloatRepr(1.5e300), "1.5e+300");
    EXPECT_EQ(pythonFloatRepr(std::nan("")), "NaN");
}

// The line parsers' readDouble is std::from_chars with a fast path: same value (to the bit),
// same end and same error on numbers as logs print them and on near-misses.
TEST(TextScan, ReadDoubleIsFromChars) {
    std::mt19937_64 rng(7);
    const std::string alphabet = "0123456789012345678901234567890123456789..-e+ x";
    std::vector<std::string> inputs = {"0.403",
                                       "12.054 ",
                                       "-0.0",
                                       "5.",
                                       ".5",
                                       "1e+01",
                                       "nan",
                                       "inf",
                                       "00012.50",
                                       "",
                                       "-",
                                       "1.2.3",
                                       "9007199254740993.5",
                                       "123456789012345678901234",
                                       "0.1234567890123456789012"};
    for (int i = 0; i < 200000; ++i) {
        std::string s;
        const int n = 1 + static_cast<int>(rng() % 24);
        for (int k = 0; k < n; ++k)
            s += alphabet[rng() % alphabet.size()];
        inputs.push_back(s);
    }
    for (const std::string& s : inputs) {
        double fast = -1.0, ref = -1.0;
        const char* end = s.data() + s.size();
        const auto a = readDouble(s.data(), end, fast);
        const auto b = std::from_chars(s.data(), end, ref);
        ASSERT_EQ(a.ec, b.ec) << s;
        ASSERT_EQ(a.ptr, b.ptr) << s;
        if (a.ec == std::errc()) {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(fast), std::bit_cast<std::uint64_t>(ref)) << s;
        }
    }
}

namespace {
// round(x, d) as Python computes it, and as roundPython's last resort does: printf rounds the
// exact binary value (ties to even), strtod reads the decimal back.
double roundByPrintf(double x, int digits) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", digits, x);
    return std::strtod(buf, nullptr);
}
} // namespace

// roundPython takes its scale from a table and decides near-ties on the exact product (fma),
// where it asked printf before: the same double, to the bit, for every value.
TEST(Numerics, RoundPythonEqualsPrintfsRoundingOnTiesAndNearTies) {
    for (int d = 0; d <= 22; ++d)
        EXPECT_EQ(std::pow(10.0, d), std::stod("1e" + std::to_string(d))) << d;
    std::mt19937_64 rng(11);
    std::vector<double> values = {
        0.05,  0.15,   0.25,  0.35,   761.05,  761.15, 761.25,
        2.675, 1.115,  -0.05, -0.25,  -2.5,    0.5,    1.5,
        2.5,   1e14,   1e15,  1e16,   -761.05, 5e-324, 0.0,
        -0.0,  123.45, 0.045, 1.0005, 99.95,   -99.95, 4503599627370495.5};
    // Rates as logs print them ("%.2f", "%.3f"), half of them on a decimal tie of the next
    // rounding, and random doubles across magnitudes.
    for (int i = 0; i < 200000; ++i) {
        const double hundredths = static_cast<double>(rng() % 100000000);
        values.push_back((hundredths + (i % 2 ? 0.5 : 0.0)) / 100.0);
        values.push_back(-static_cast<double>(rng() % 10000000) / 1000.0);
        values.push_back(
            std::ldexp(static_cast<double>(rng() >> 11), -static_cast<int>(rng() % 70)));
        values.push_back(static_cast<double>(rng() % 2000001) / 20.0); // k + 0.05 multiples
    }
    for (const double x : values)
        for (int d : {0, 1, 3, 4, 6}) {
            const double got = roundPython(x, d), want = roundByPrintf(x, d);
            ASSERT_EQ(std::bit_cast<std::uint64_t>(got), std::bit_cast<std::uint64_t>(want))
                << x << " to " << d;
        }
}

// The parsers' LineCursor: literals, counts bounded in digits, "\d+\.\d+" with readDouble's value.
TEST(TextScan, LineCursorStepsAndDecimals) {
    LineCursor c("Iter:123 Rank:95.12 x");
    std::int64_t n = 0;
    EXPECT_FALSE(c.literal("Iter:1234"));
    ASSERT_TRUE(c.literal("Iter:"));
    ASSERT_TRUE(c.count(n, 3));
    EXPECT_EQ(n, 123);
    EXPECT_TRUE(c.next(' '));
    EXPECT_TRUE(c.literal("Rank:"));
    c.skipDigitsAndPoints();
    EXPECT_TRUE(c.literal(" x"));
    EXPECT_TRUE(c.atEnd());
    EXPECT_FALSE(c.next('x'));
    LineCursor four("1234]");
    EXPECT_FALSE(four.count(n, 3)); // a fourth digit
    LineCursor none("]");
    EXPECT_FALSE(none.count(n, 3));

    std::mt19937_64 rng(5);
    const std::string alphabet = "0123456789012345678901234567890123456789.. x";
    for (int i = 0; i < 200000; ++i) {
        std::string s;
        const int len = 1 + static_cast<int>(rng() % 26);
        for (int k = 0; k < len; ++k)
            s += alphabet[rng() % alphabet.size()];
        LineCursor cur(s);
        const char *first = nullptr, *point = nullptr;
        double v = -1.0;
        bool fast = false;
        const bool ok = cur.pointDecimal(first, point, v, fast);
        // As the regex "\d+\.\d+" at the start, greedy.
        std::size_t i1 = 0;
        while (i1 < s.size() && isDigit(s[i1]))
            ++i1;
        std::size_t i2 = i1 + 1;
        while (i2 < s.size() && isDigit(s[i2]))
            ++i2;
        const bool want = i1 > 0 && i1 < s.size() && s[i1] == '.' && i2 > i1 + 1;
        ASSERT_EQ(ok, want) << s;
        if (!ok) continue;
        ASSERT_EQ(point, s.data() + i1) << s;
        ASSERT_EQ(cur.p, s.data() + i2) << s;
        if (fast) {
            double ref = 0.0;
            std::from_chars(s.data(), s.data() + i2, ref);
            ASSERT_EQ(std::bit_cast<std::uint64_t>(v), std::bit_cast<std::uint64_t>(ref)) << s;
        }
    }
}

// leadingDigits reads the run of digits at the start of eight bytes in a word: every byte value
// at every place (0x2F and 0x3A..0x3F sit beside the digits; 0xFA..0xFF carry when 6 is added).
TEST(TextScan, LeadingDigitsEqualsADigitAtATime) {
    std::mt19937_64 rng(8);
    const std::string digits = "0123456789";
    auto check = [](const char* p) {
        std::uint64_t want = 0;
        int n = 0;
        while (n < 8 && isDigit(p[n]))
            want = want * 10 + static_cast<std::uint64_t>(p[n++] - '0');
        std::uint64_t got = 12345;
        ASSERT_EQ(leadingDigits(p, got), n) << std::string(p, 8);
        ASSERT_EQ(got, want) << std::string(p, 8);
    };
    char b[8];
    for (int i = 0; i < 400000; ++i) {
        // Digits up to a random place, then any bytes.
        const int run = static_cast<int>(rng() % 9);
        for (int k = 0; k < 8; ++k)
            b[k] = k < run ? digits[rng() % 10] : static_cast<char>(rng() & 0xFF);
        check(b);
    }
    for (int place = 0; place < 8; ++place)
        for (int v = 0; v < 256; ++v) {
            std::memcpy(b, "98765432", 8);
            b[place] = static_cast<char>(v);
            check(b);
        }
}

TEST(TextScan, LongCountEqualsCount) {
    std::mt19937_64 rng(9);
    const std::string alphabet = "0123456789012345678901234567890123456789-] x";
    for (int i = 0; i < 200000; ++i) {
        std::string s;
        const int len = static_cast<int>(rng() % 30);
        for (int k = 0; k < len; ++k)
            s += alphabet[rng() % alphabet.size()];
        LineCursor a(s), b(s);
        std::int64_t x = -1, y = -2;
        const bool okA = a.count(x), okB = b.longCount(y);
        ASSERT_EQ(okA, okB) << s;
        if (!okA) continue;
        ASSERT_EQ(x, y) << s;
        ASSERT_EQ(a.p, b.p) << s;
    }
}

TEST(TextScan, SameBytesEqualsMemcmp) {
    std::mt19937_64 rng(10);
    char a[48], b[48];
    for (int i = 0; i < 200000; ++i) {
        const std::size_t n = rng() % 41;
        for (std::size_t k = 0; k < n; ++k)
            a[k] = b[k] = static_cast<char>('a' + rng() % 3);
        if (n > 0 && rng() % 2) b[rng() % n] ^= static_cast<char>(1 + rng() % 255);
        ASSERT_EQ(sameBytes(a, b, n), std::memcmp(a, b, n) == 0) << n;
    }
}

// equalsLiteral compares a literal's bytes a word or two at a time: every size class, a difference
// at every place.
TEST(TextScan, EqualsLiteralEqualsMemcmp) {
    auto check = [](const auto& literal) {
        constexpr std::size_t n = sizeof literal - 1;
        char buf[n + 1];
        std::memcpy(buf, literal, n + 1);
        ASSERT_TRUE(equalsLiteral(buf, literal)) << literal;
        for (std::size_t at = 0; at < n; ++at)
            for (int flip : {1, 0x20, 0x80}) {
                buf[at] = static_cast<char>(buf[at] ^ flip);
                ASSERT_FALSE(equalsLiteral(buf, literal)) << literal << " at " << at;
                buf[at] = literal[at];
            }
    };
    check("E");
    check("Dat");
    check("Time");
    check("Loss ");
    check("Acc@5 ");
    check("Epoch: ");
    check("Epoch: [");
    check("<stdout>:");
    check(" samples/sec");
    check(" Epoch[0] Batch [");
}

// decimalQuotient(m, k) is m / 10^k as from_chars (float()) reads the digits: correctly rounded,
// ties to even. Every length of m from 1 to 64 bits with every k from 1 to 19, the decimals that
// sit exactly halfway between two doubles, and the shortest repr of random doubles.
TEST(Numerics, DecimalQuotientIsTheCorrectlyRoundedDecimal) {
    auto expected = [](std::uint64_t m, int k) {
        std::string text = std::to_string(m);
        if (static_cast<int>(text.size()) <= k) text.insert(0, k + 1 - text.size(), '0');
        text.insert(text.size() - static_cast<std::size_t>(k), ".");
        double v = 0.0;
        std::from_chars(text.data(), text.data() + text.size(), v);
        return std::pair{v, text};
    };
    std::mt19937_64 rng(1919);
    int checked = 0;
    for (int bits = 1; bits <= 64; ++bits) {
        for (int k = 1; k <= 19; ++k) {
            for (int i = 0; i < 200; ++i) {
                std::uint64_t m = rng() >> (64 - bits) | std::uint64_t{1} << (bits - 1);
                const auto [want, text] = expected(m, k);
                ASSERT_EQ(decimalQuotient(m, k), want) << text;
                ++checked;
            }
        }
    }
    // Exactly halfway between two doubles, written with 1 to 4 decimals (base x 10^n / 10^k with
    // n = k): 2^53 + 1 and 2^53 + 3 (ties go to the even neighbour, down and up), 2^54 + 6, and
    // 2^52 + 0.5 and 2^52 + 1.5 (base / 10).
    for (std::uint64_t base : {std::uint64_t{9007199254740993}, std::uint64_t{9007199254740995},
                               std::uint64_t{18014398509481990}, std::uint64_t{45035996273704965},
                               std::uint64_t{45035996273704975}}) {
        for (int k = 1; k <= 4; ++k) {
            for (std::uint64_t scale = 1, n = 0; n <= 3; ++n, scale *= 10) {
                if (base > ~std::uint64_t{0} / scale) break;
                const auto [want, text] = expected(base * scale, k);
                ASSERT_EQ(decimalQuotient(base * scale, k), want) << text;
                ++checked;
            }
        }
    }
    char buf[64];
    std::uniform_real_distribution<double> speeds(0.001, 60000.0);
    for (int i = 0; i < 200000; ++i) {
        const double x = speeds(rng);
        const auto end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed).ptr;
        std::string digits(buf, end);
        const auto point = digits.find('.');
        if (point == std::string::npos || digits.size() > 20) continue;
        const int k = static_cast<int>(digits.size() - point - 1);
        digits.erase(point, 1);
        ASSERT_EQ(decimalQuotient(std::stoull(digits), k), x) << buf;
        ++checked;
    }
    EXPECT_GT(checked, 400000);
}
