// The longest text a line pattern requires (the marker a user format is found by when its file
// names none): the literal runs of the pattern outside groups, optional or repeated parts and
// alternatives. A wrong marker skips every line without a word, so the pattern is read by a
// whitelist: any syntax not read here in full (a flag that folds case, "\x53", "\123", "\Q...\E",
// an unknown escape) gives no marker at all, never a guess; the parts that are read but hold no
// certain text ("[[:space:]]", "\pL", a non-ASCII character) only end a run.
#include "core/formats/userformat.h"

#include <cctype>
#include <optional>
#include <string>
#include <string_view>

namespace sv {
namespace {

// RE2's counted repetition at p[i] == '{': "{n}", "{n,}" or "{n,m}". Its minimum and the index
// past its '}', or nullopt where the brace is a literal '{' (RE2 reads "{,3}" and "{x" so).
std::optional<std::pair<long, std::size_t>> repetitionAt(std::string_view p, std::size_t i) {
    std::size_t j = i + 1;
    const std::size_t digits = j;
    long min = 0;
    while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j])) && j - digits < 6)
        min = min * 10 + (p[j++] - '0');
    if (j == digits) return std::nullopt;
    if (j < p.size() && p[j] == ',') {
        ++j;
        while (j < p.size() && std::isdigit(static_cast<unsigned char>(p[j])))
            ++j;
    }
    if (j >= p.size() || p[j] != '}') return std::nullopt;
    return std::pair(min, j + 1);
}

// A character class at p[i] == '[': the index past its ']', or nullopt where it is not read in
// full. POSIX classes ("[[:space:]]") and escapes inside are stepped over whole.
std::optional<std::size_t> classEnd(std::string_view p, std::size_t i) {
    std::size_t j = i + 1;
    if (j < p.size() && p[j] == '^') ++j;
    if (j < p.size() && p[j] == ']') ++j; // a ']' first is a member
    while (j < p.size() && p[j] != ']') {
        if (p[j] == '\\') {
            if (j + 2 < p.size() &&
                std::string_view("xpP").find(p[j + 1]) != std::string_view::npos &&
                p[j + 2] == '{') {
                const auto close = p.find('}', j);
                if (close == std::string_view::npos) return std::nullopt;
                j = close + 1;
            } else {
                j += 2;
            }
        } else if (p.substr(j, 2) == "[:") {
            const auto close = p.find(":]", j + 2);
            if (close == std::string_view::npos) return std::nullopt;
            j = close + 2;
        } else {
            ++j;
        }
    }
    if (j >= p.size()) return std::nullopt;
    return j + 1;
}

// What one atom at p[i] is: its literal byte (where it is one), where it ends, and whether the
// pattern is read no further (a syntax not read here in full).
struct Atom {
    std::optional<char> literal;
    std::size_t next = 0;
    bool unreadable = false;
};

Atom escapeAt(std::string_view p, std::size_t i) {
    if (i + 1 >= p.size()) return {std::nullopt, p.size(), true};
    const unsigned char e = static_cast<unsigned char>(p[i + 1]);
    if (e < 0x80 && !std::isalnum(e)) return {static_cast<char>(e), i + 2, false};
    switch (e) {
    case 't':
        return {'\t', i + 2, false};
    case 'n':
        return {'\n', i + 2, false};
    case 'r':
        return {'\r', i + 2, false};
    case 'f':
        return {'\f', i + 2, false};
    case 'v':
        return {'\v', i + 2, false};
    case 'a':
        return {'\a', i + 2, false};
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S':
    case 'C': // classes, any byte
    case 'b':
    case 'B':
    case 'A':
    case 'z': // assertions
        return {std::nullopt, i + 2, false};
    case 'p':
    case 'P': {
        if (i + 2 < p.size() && p[i + 2] == '{') {
            const auto close = p.find('}', i);
            if (close == std::string_view::npos) return {std::nullopt, p.size(), true};
            return {std::nullopt, close + 1, false};
        }
        return {std::nullopt, i + 3, false};
    }
    default: // \x53, \123, \Q...\E, \E: text this reading would have to decode
        return {std::nullopt, p.size(), true};
    }
}

// A group's opening at p[i] == '(': where its body starts, whether it opens a group (a bare
// "(?s)" sets flags for the rest and opens none), and unreadable where it folds case or is not
// read here.
struct Opening {
    std::size_t next = 0;
    bool opens = true;
    bool unreadable = false;
};

Opening openingAt(std::string_view p, std::size_t i) {
    if (p.substr(i, 2) != "(?") return {i + 1, true, false};
    if (p.substr(i, 3) == "(?:") return {i + 3, true, false};
    if ((p.substr(i, 4) == "(?P<" || p.substr(i, 3) == "(?<") && p.substr(i, 4) != "(?<=" &&
        p.substr(i, 4) != "(?<!") {
        const auto close = p.find('>', i);
        if (close == std::string_view::npos) return {p.size(), true, true};
        return {close + 1, true, false};
    }
    // Flags: (?s), (?m-s:...), (?U). Any that turns on case folding makes no text certain.
    bool on = true;
    std::size_t k = i + 2;
    for (; k < p.size() && std::string_view("imsU-").find(p[k]) != std::string_view::npos; ++k) {
        if (p[k] == '-') on = false;
        if (p[k] == 'i' && on) return {p.size(), true, true};
    }
    if (k < p.size() && p[k] == ')') return {k + 1, false, false};
    if (k < p.size() && p[k] == ':') return {k + 1, true, false};
    return {p.size(), true, true};
}

} // namespace

std::string requiredLiteral(std::string_view p) {
    std::string best, run;
    auto endRun = [&] {
        if (run.size() > best.size()) best = run;
        run.clear();
    };
    int depth = 0;
    for (std::size_t i = 0; i < p.size();) {
        const unsigned char c = static_cast<unsigned char>(p[i]);
        Atom atom{std::nullopt, i + 1, false};
        if (c == '(') {
            const Opening o = openingAt(p, i);
            if (o.unreadable) return {};
            if (o.opens) ++depth;
            endRun();
            i = o.next;
            continue;
        }
        if (c == ')') {
            if (--depth < 0) return {};
            endRun();
            ++i;
            continue;
        }
        if (c == '|') {
            if (depth == 0) return {}; // an alternative at the top: no text is in every match
            ++i;
            continue;
        }
        if (c == '\\') {
            atom = escapeAt(p, i);
            if (atom.unreadable) return {};
        } else if (c == '[') {
            const auto end = classEnd(p, i);
            if (!end) return {};
            atom.next = *end;
        } else if (c == '{') {
            if (const auto rep = repetitionAt(p, i)) {
                atom.next = rep->second; // a repetition of an atom before it: already weighed
            } else {
                atom.literal = '{';
            }
        } else if (c >= 0x80) {
            // A UTF-8 character: one atom (a quantifier after it takes all its bytes).
            while (atom.next < p.size() &&
                   (static_cast<unsigned char>(p[atom.next]) & 0xC0) == 0x80)
                ++atom.next;
        } else if (c != '.' && c != '^' && c != '$' && c != '*' && c != '+' && c != '?') {
            atom.literal = static_cast<char>(c);
        }
        // The quantifier after the atom: "?", "*", "{0..." make it optional; "+" and "{n..."
        // keep one of it, but the run cannot go on past a repeat.
        bool optional = false, repeats = false;
        if (atom.next < p.size()) {
            const char q = p[atom.next];
            if (q == '?' || q == '*') optional = true;
            if (q == '+') repeats = true;
            if (q == '{')
                if (const auto rep = repetitionAt(p, atom.next)) {
                    optional = rep->first == 0;
                    repeats = true;
                }
        }
        if (atom.literal && depth == 0 && !optional) {
            run += *atom.literal;
            if (repeats) endRun();
        } else {
            endRun();
        }
        i = atom.next;
    }
    endRun();
    return best;
}

} // namespace sv
