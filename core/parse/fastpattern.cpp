#include "core/parse/fastpattern.h"

#include <array>
#include <bitset>
#include <cctype>
#include <cstring>

namespace sv {

struct FastPattern::Token {
    enum class Kind { Atom, Open, Close };
    Kind kind = Kind::Atom;
    std::bitset<256> set;  // an atom's bytes; an optional group's first bytes
    int min = 1, max = 1;  // max < 0: unbounded
    int group = -1;        // Open/Close: the capture's index, -1 for (?:...)
    bool optional = false; // Open/Close of a group followed by '?'
    std::size_t other = 0; // Open: its Close's index; Close: its Open's
};

namespace {

using Token = FastPattern::Token;
using Set = std::bitset<256>;
constexpr int kMaxGroups = 16;

void addRange(Set& s, unsigned char lo, unsigned char hi) {
    for (unsigned c = lo; c <= hi; ++c)
        s.set(c);
}

Set wordSet() {
    Set s;
    addRange(s, '0', '9');
    addRange(s, 'A', 'Z');
    addRange(s, 'a', 'z');
    s.set('_');
    return s;
}

// An escape at p[i] == '\\' (RE2's meaning): its bytes, i past it. False for escapes this form
// leaves to RE2 (\b, \pL, \x41, \Q...).
bool readEscape(std::string_view p, std::size_t& i, Set& s, bool inClass) {
    if (i + 1 >= p.size()) return false;
    const char c = p[i + 1];
    i += 2;
    Set d;
    switch (c) {
    case 'd':
        addRange(s, '0', '9');
        return true;
    case 'w':
        s |= wordSet();
        return true;
    case 's':
        for (char b : {'\t', '\n', '\f', '\r', ' '})
            s.set(static_cast<unsigned char>(b));
        return true;
    case 'D':
        addRange(d, '0', '9');
        break;
    case 'W':
        d = wordSet();
        break;
    case 'S':
        for (char b : {'\t', '\n', '\f', '\r', ' '})
            d.set(static_cast<unsigned char>(b));
        break;
    case 't':
        s.set('\t');
        return true;
    case 'n':
        s.set('\n');
        return true;
    case 'r':
        s.set('\r');
        return true;
    case 'f':
        s.set('\f');
        return true;
    default:
        if (c > 0x20 && c < 0x7f && !std::isalnum(static_cast<unsigned char>(c))) {
            s.set(static_cast<unsigned char>(c));
            return true;
        }
        return false;
    }
    if (inClass) return false;
    s |= ~d;
    return true;
}

// A class at p[i] == '[': its bytes, i past its ']'. False for what this form leaves to RE2.
bool readClass(std::string_view p, std::size_t& i, Set& s) {
    ++i;
    const bool negate = i < p.size() && p[i] == '^';
    if (negate) ++i;
    if (i < p.size() && p[i] == ']') return false;
    Set in;
    while (i < p.size() && p[i] != ']') {
        const unsigned char c = static_cast<unsigned char>(p[i]);
        if (c >= 0x80 || c < 0x20 || c == '[') return false;
        if (c == '\\') {
            if (!readEscape(p, i, in, true)) return false;
            continue;
        }
        if (i + 2 < p.size() && p[i + 1] == '-' && p[i + 2] != ']') {
            const unsigned char hi = static_cast<unsigned char>(p[i + 2]);
            if (hi < c || hi >= 0x80 || hi == '\\' || hi == '[') return false;
            addRange(in, c, hi);
            i += 3;
            continue;
        }
        in.set(c);
        ++i;
    }
    if (i >= p.size()) return false;
    ++i;
    s = negate ? ~in : in;
    return true;
}

bool isQuantifier(char c) {
    return c == '?' || c == '*' || c == '+' || c == '{';
}

// One atom at p[i]: ., [..], \x or a literal byte, and its quantifier.
bool readAtom(std::string_view p, std::size_t& i, Token& t) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '.') {
        t.set.set();
        t.set.reset('\n');
        ++i;
    } else if (c == '[') {
        if (!readClass(p, i, t.set)) return false;
    } else if (c == '\\') {
        if (!readEscape(p, i, t.set, false)) return false;
    } else {
        if (c >= 0x80 || c < 0x20 || isQuantifier(static_cast<char>(c)) || c == '|' || c == '}' ||
            c == ']')
            return false;
        t.set.set(c);
        ++i;
    }
    if (i < p.size() && isQuantifier(p[i])) {
        if (p[i] == '{') return false;
        t.min = p[i] == '+' ? 1 : 0;
        t.max = p[i] == '?' ? 1 : -1;
        ++i;
        if (i < p.size() && isQuantifier(p[i])) return false; // lazy or possessive: RE2's
    }
    return true;
}

// The bytes that may come right after token j-1: up to and with the first mandatory atom.
// *open: no mandatory atom follows (the pattern may end there).
Set followFrom(const std::vector<Token>& t, std::size_t j, bool* open = nullptr) {
    Set f;
    if (open) *open = false;
    for (std::size_t k = j; k < t.size(); ++k) {
        if (t[k].kind == Token::Kind::Open && t[k].optional) {
            f |= t[k].set;
            k = t[k].other;
        } else if (t[k].kind == Token::Kind::Atom) {
            f |= t[k].set;
            if (t[k].min >= 1) return f;
        }
    }
    if (open) *open = true;
    return f;
}

// Every optional group starts with a mandatory atom (its first bytes), and no repeat or optional
// part shares a byte with what may follow it. An optional group that can fail after its first
// byte needs a mandatory atom or $ after it: where the pattern may end there instead, RE2 would
// skip a group that failed midway and match without it.
bool decidedByNextByte(std::vector<Token>& t, bool anchorEnd) {
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind != Token::Kind::Open || !t[k].optional) continue;
        std::size_t a = k + 1;
        while (a < t[k].other && t[a].kind == Token::Kind::Open && !t[a].optional)
            ++a;
        if (a >= t[k].other || t[a].kind != Token::Kind::Atom || t[a].min < 1) return false;
        t[k].set = t[a].set;
    }
    for (std::size_t k = 0; k < t.size(); ++k) {
        const bool choice = (t[k].kind == Token::Kind::Atom && t[k].min != t[k].max) ||
                            (t[k].kind == Token::Kind::Open && t[k].optional);
        if (!choice) continue;
        const std::size_t next = t[k].kind == Token::Kind::Open ? t[k].other + 1 : k + 1;
        bool open = false;
        if ((t[k].set & followFrom(t, next, &open)).any()) return false;
        if (t[k].kind == Token::Kind::Open && open && !anchorEnd) return false;
    }
    return true;
}

} // namespace

FastPattern::FastPattern() = default;
FastPattern::~FastPattern() = default;

std::unique_ptr<FastPattern> FastPattern::compile(std::string_view p, int groups) {
    std::unique_ptr<FastPattern> f(new FastPattern);
    std::vector<Token>& t = f->m_tokens;
    std::vector<std::size_t> open;
    int count = 0;
    for (std::size_t i = 0; i < p.size();) {
        if (p[i] == '(') {
            Token o;
            o.kind = Token::Kind::Open;
            if (p.substr(i, 3) == "(?:") {
                i += 3;
            } else if (p.substr(i, 4) == "(?P<" || p.substr(i, 3) == "(?<") {
                const auto close = p.find('>', i);
                if (close == std::string_view::npos) return nullptr;
                o.group = ++count;
                i = close + 1;
            } else if (p.substr(i, 2) == "(?") {
                return nullptr; // flags: RE2's
            } else {
                o.group = ++count;
                ++i;
            }
            open.push_back(t.size());
            t.push_back(o);
        } else if (p[i] == ')') {
            if (open.empty()) return nullptr;
            Token c;
            c.kind = Token::Kind::Close;
            c.other = open.back();
            c.group = t[c.other].group;
            open.pop_back();
            ++i;
            if (i < p.size() && p[i] == '?') {
                c.optional = t[c.other].optional = true;
                ++i;
            }
            if (i < p.size() && isQuantifier(p[i])) return nullptr;
            t[c.other].other = t.size();
            t.push_back(c);
        } else if (p[i] == '^' && i == 0) {
            f->m_anchorStart = true;
            ++i;
        } else if (p[i] == '$' && i + 1 == p.size()) {
            f->m_anchorEnd = true;
            ++i;
        } else {
            Token a;
            if (p[i] == '^' || p[i] == '$' || !readAtom(p, i, a)) return nullptr;
            t.push_back(a);
        }
    }
    if (!open.empty() || count != groups || count > kMaxGroups ||
        !decidedByNextByte(t, f->m_anchorEnd))
        return nullptr;
    f->m_groups = count;
    std::size_t first = 0;
    while (first < t.size() && t[first].kind == Token::Kind::Open && !t[first].optional)
        ++first;
    if (first < t.size() && t[first].kind == Token::Kind::Atom && t[first].min == 1 &&
        t[first].set.count() == 1)
        for (unsigned c = 0; c < 128; ++c)
            if (t[first].set.test(c)) f->m_firstChar = static_cast<char>(c);
    return f;
}

bool FastPattern::tryAt(std::string_view line, std::size_t start, Span* spans, std::size_t& work,
                        bool& undecided) const {
    std::array<std::size_t, kMaxGroups + 1> begin{};
    for (int g = 1; g <= m_groups; ++g)
        spans[g] = Span{};
    std::size_t pos = start;
    for (std::size_t k = 0; k < m_tokens.size(); ++k) {
        const Token& t = m_tokens[k];
        if (t.kind == Token::Kind::Open) {
            if (t.optional) {
                const unsigned char b =
                    pos < line.size() ? static_cast<unsigned char>(line[pos]) : 0;
                const bool in = pos < line.size() && t.set[b];
                if (in && b >= 0x80) return undecided = true, false;
                if (!in) {
                    k = t.other; // skipped: its groups take no part
                    continue;
                }
            }
            if (t.group > 0) begin[static_cast<std::size_t>(t.group)] = pos;
        } else if (t.kind == Token::Kind::Close) {
            if (t.group > 0) {
                const std::size_t b = begin[static_cast<std::size_t>(t.group)];
                spans[t.group] = Span{line.data() + b, pos - b};
            }
        } else {
            int n = 0;
            while ((t.max < 0 || n < t.max) && pos < line.size()) {
                const unsigned char b = static_cast<unsigned char>(line[pos]);
                if (!t.set[b]) break;
                if (b >= 0x80) return undecided = true, false;
                ++pos;
                ++n;
            }
            work += static_cast<std::size_t>(n) + 1;
            if (n < t.min) return false;
        }
    }
    return !m_anchorEnd || pos == line.size();
}

FastPattern::Outcome FastPattern::match(std::string_view line, Span* spans) const {
    const std::size_t budget = 4 * line.size() + 256;
    std::size_t work = 0;
    bool undecided = false;
    const std::size_t last = m_anchorStart ? 0 : line.size();
    for (std::size_t start = 0; start <= last; ++start) {
        if (m_firstChar) {
            const void* hit = start < line.size() ? std::memchr(line.data() + start, m_firstChar,
                                                                line.size() - start)
                                                  : nullptr;
            if (!hit) return Outcome::NoMatch;
            start = static_cast<std::size_t>(static_cast<const char*>(hit) - line.data());
            if (m_anchorStart && start != 0) return Outcome::NoMatch;
        }
        if (tryAt(line, start, spans, work, undecided)) return Outcome::Match;
        if (undecided || work > budget) return Outcome::Undecided;
    }
    return Outcome::NoMatch;
}

} // namespace sv
