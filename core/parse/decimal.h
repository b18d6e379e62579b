#pragma once
// A decimal's digits as the double that float(text) gives: m / 10^k correctly rounded, by
// multiplication instead of division. This is Eisel and Lemire's method ("Number Parsing at a
// Gigabyte per Second", 2021; the one product shown to suffice by Mushtak and Lemire, 2023),
// for the exponents a printed speed has: 10^-1 to 10^-19.

#include <bit>
#include <cstdint>

namespace sv {
namespace decimal_detail {

__extension__ typedef unsigned __int128 Wide; // GCC's and Clang's, on 64-bit targets

// 5^-k as 128 bits rounded up, scaled so that the top bit is set: ceil(2^(z+127) / 5^k), z the
// bits of 5^k. Computed here by long division (5^k < 2^45, so the remainder fits a word).
struct PowerOfFive {
    std::uint64_t high, low;
};

constexpr PowerOfFive inverseOfFivePower(int k) {
    std::uint64_t five = 1;
    for (int i = 0; i < k; ++i)
        five *= 5;
    int z = 0;
    while ((std::uint64_t{1} << z) < five)
        ++z;
    const int top = z + 127; // 2^top / 5^k lies in [2^127, 2^128)
    Wide quotient = 0;
    std::uint64_t rest = 0;
    for (int bit = top; bit >= 0; --bit) {
        rest = rest * 2 + (bit == top ? 1 : 0);
        if (rest >= five) {
            rest -= five;
            quotient |= Wide{1} << bit;
        }
    }
    if (k > 0) ++quotient; // 5^k divides no power of two: rounded up
    return {static_cast<std::uint64_t>(quotient >> 64), static_cast<std::uint64_t>(quotient)};
}

struct InverseFivePowers {
    PowerOfFive of[20];
};

constexpr InverseFivePowers makeInverseFivePowers() {
    InverseFivePowers t{};
    for (int k = 0; k < 20; ++k)
        t.of[k] = inverseOfFivePower(k);
    return t;
}

inline constexpr InverseFivePowers kInverseFivePowers = makeInverseFivePowers();
static_assert(kInverseFivePowers.of[1].high == 0xccccccccccccccccu &&
              kInverseFivePowers.of[1].low == 0xcccccccccccccccdu); // 1/5 = 0.0011 0011...
static_assert(kInverseFivePowers.of[19].high >> 63 == 1);

} // namespace decimal_detail

// m / 10^k, exactly as float() rounds the decimal: m >= 1, 1 <= k <= 19.
inline double decimalQuotient(std::uint64_t m, int k) {
    using decimal_detail::Wide;
    const int zeros = std::countl_zero(m);
    const std::uint64_t w = m << zeros; // top bit set
    const auto& five = decimal_detail::kInverseFivePowers.of[k];
    const Wide first = static_cast<Wide>(w) * five.high;
    std::uint64_t high = static_cast<std::uint64_t>(first >> 64);
    std::uint64_t low = static_cast<std::uint64_t>(first);
    // The 55 bits kept could still change with the low word's product: add its top half.
    if ((high & 0x1FF) == 0x1FF) {
        const auto second = static_cast<std::uint64_t>((static_cast<Wide>(w) * five.low) >> 64);
        low += second;
        if (low < second) ++high;
    }
    const int upper = static_cast<int>(high >> 63);
    const int shift = upper + 9; // 54 bits: the mantissa and one to round with
    std::uint64_t mantissa = high >> shift;
    // floor(log2(5^-k)) + 63 as a shift of a fixed-point log2(10), then the double's bias.
    int exponent = (((152170 + 65536) * -k) >> 16) + 63 + upper - zeros + 1023;
    // Exactly halfway (possible only while 5^k fits a word with room, k <= 4): round to even.
    if (low <= 1 && k <= 4 && (mantissa & 3) == 1 && (mantissa << shift) == high)
        mantissa &= ~std::uint64_t{1};
    mantissa = (mantissa + (mantissa & 1)) >> 1;
    if (mantissa >= (std::uint64_t{2} << 52)) { // rounded up into the next binade
        mantissa = std::uint64_t{1} << 52;
        ++exponent;
    }
    mantissa &= ~(std::uint64_t{1} << 52);
    return std::bit_cast<double>(mantissa | (static_cast<std::uint64_t>(exponent) << 52));
}

} // namespace sv
