#pragma once
// Counts as a person reads them: "1 rank", "2 ranks", never "1 ranks".

#include <string>
#include <string_view>

namespace sv {

// n and the noun, singular for exactly one; `many` when the plural is not noun + "s".
inline std::string countOf(long long n, std::string_view one, std::string_view many = {}) {
    std::string s = std::to_string(n) + " ";
    if (n == 1) return s.append(one);
    if (!many.empty()) return s.append(many);
    return s.append(one).append("s");
}

} // namespace sv
