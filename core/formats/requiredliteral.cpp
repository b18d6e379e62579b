// The longest text a line pattern requires (the marker a user format is found by when its file
// names none): the literal runs of the pattern outside optional, repeated or alternative parts.
#include "core/formats/userformat.h"

#include <string>
#include <string_view>

namespace sv {

std::string requiredLiteral(std::string_view p) {
    std::string best, run;
    auto endRun = [&] {
        if (run.size() > best.size()) best = run;
        run.clear();
    };
    // Case-insensitive somewhere ("(?i)", "(?i:..."): no literal is certain.
    if (p.find("(?i") != std::string_view::npos) return {};
    int depth = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (depth == 0 && c == '|') return {};
        // One atom: its text (if a literal) and where it ends.
        std::string lit;
        bool literal = false;
        std::size_t next = i + 1;
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            next = i + 2;
            if (!std::isalnum(static_cast<unsigned char>(e))) {
                lit = std::string(1, e);
                literal = depth == 0;
            } else if (e == 't') {
                lit = "\t";
                literal = depth == 0;
            }
        } else if (c == '[') {
            std::size_t j = i + 1;
            if (j < p.size() && p[j] == '^') ++j;
            if (j < p.size() && p[j] == ']') ++j;
            while (j < p.size() && p[j] != ']')
                j += p[j] == '\\' ? 2 : 1;
            next = j + 1;
        } else if (c == '(') {
            ++depth;
            endRun();
            continue;
        } else if (c == ')') {
            --depth;
            endRun();
            continue;
        } else if (c == '.' || c == '^' || c == '$' || c == '*' || c == '+' || c == '?' ||
                   c == '{' || c == '}') {
            // '*', '+', '?' after a group: the group's text was not in the run anyway.
            if (c == '{') {
                const auto close = p.find('}', i);
                next = close == std::string_view::npos ? p.size() : close + 1;
            }
        } else {
            lit = std::string(1, c);
            literal = depth == 0;
        }
        // A quantifier after the atom: "?", "*", "{0" make it optional; "+" and "{n" keep one.
        bool optional = false, repeats = false;
        if (next < p.size()) {
            const char q = p[next];
            if (q == '?' || q == '*') optional = true;
            if (q == '+') repeats = true;
            if (q == '{') {
                optional = next + 1 < p.size() && p[next + 1] == '0';
                repeats = true;
            }
        }
        if (literal && !optional) {
            run += lit;
            if (repeats) endRun();
        } else {
            endRun();
        }
        i = next - 1;
    }
    endRun();
    return best;
}

} // namespace sv
