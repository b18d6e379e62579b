#pragma once
// One CSV field as RFC 4180 writes it, for every CSV ScaleView writes (results, comparisons,
// the history): quoted when it holds a comma, a quote or a line break, its quotes doubled.

#include <string>

namespace sv {

inline std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace sv
