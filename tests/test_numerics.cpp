#include "numerics.h"
#include "textscan.h"

#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
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
