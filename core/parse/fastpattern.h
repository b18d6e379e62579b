#pragma once
// A user format's line pattern read without RE2 where its form allows (issue 26, item 6: RE2's
// submatch extraction cost about 1 us a line). The form of drafted and hand-written line
// patterns: ASCII literals, escapes, classes ([0-9.], \d, \w, \s, [^ ], .) with ?, * or +, groups
// (named, plain or non-capturing, a group optional with ?), ^ at the start and $ at the end, and
// where every repeat is decided by its next byte: the bytes a quantified item takes and the bytes
// that may come after it are disjoint, so greedy matching never gives one back and the match at a
// start is unique. Then each start is tried in order with one pass, and the first match is RE2's
// leftmost-first match with the same groups. Any other form is not compiled (RE2 reads it), and a
// line whose reading would touch a non-ASCII byte in a class, or would take more than a few
// passes over the line, is handed back to RE2 (Outcome::Undecided): the answer is RE2's always.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

class FastPattern {
  public:
    enum class Outcome { Match, NoMatch, Undecided };
    struct Span {
        const char* data = nullptr; // null: the group took no part in the match
        std::size_t size = 0;
    };

    // nullptr where pattern (RE2 syntax, Python's (?<name>) already turned into (?P<name>) or
    // not) is not of the form above, or its group count is not groups.
    static std::unique_ptr<FastPattern> compile(std::string_view pattern, int groups);

    // spans[1..groups] (spans must hold groups + 1) on a match.
    Outcome match(std::string_view line, Span* spans) const;

    struct Token;
    ~FastPattern();

  private:
    FastPattern();
    bool tryAt(std::string_view line, std::size_t start, Span* spans, std::size_t& work,
               bool& undecided) const;
    std::vector<Token> m_tokens;
    int m_groups = 0;
    bool m_anchorStart = false, m_anchorEnd = false;
    char m_firstChar = 0; // the first token's byte where it is a single literal, else 0
};

} // namespace sv
