#pragma once
// A problem with the input that did not stop the work: which file, which line, and why.

#include <cstdint>
#include <string>

namespace sv {

struct Warning {
    std::string file;      // as shown to the user; empty when not about one file
    std::int64_t line = 0; // 0 when not about one line
    std::string message;

    std::string text() const {
        std::string s = file;
        if (line > 0) s += ":" + std::to_string(line);
        return s.empty() ? message : s + ": " + message;
    }
};

} // namespace sv
