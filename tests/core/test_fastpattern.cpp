// A user format's line pattern read without RE2 (core/parse/fastpattern.h) gives RE2's answer:
// the same match or none, the same groups, on every line tried, for the patterns it takes; and
// it takes the drafted patterns and the bench's, hands back what it cannot decide, refuses the
// rest. Differential: RE2 itself is the reference here.

#include "core/parse/fastpattern.h"

#include <gtest/gtest.h>
#include <re2/re2.h>

#include <random>

using namespace sv;

namespace {

// RE2's match of line, its groups as FastPattern's spans; false where none.
bool re2Match(const re2::RE2& re, std::string_view line, FastPattern::Span* spans, int groups) {
    re2::StringPiece g[17];
    if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), re2::RE2::UNANCHORED,
                  g, groups + 1))
        return false;
    for (int i = 1; i <= groups; ++i)
        spans[i] = {g[i].data(), g[i].size()};
    return true;
}

// Lines built from the bytes patterns care about, and variations of the given ones.
std::vector<std::string> linesFor(const std::vector<std::string>& seeds) {
    std::vector<std::string> out = seeds;
    std::mt19937 rng(20261205);
    const std::string alphabet =
        "0123456789.KMeE+- samples/s|]itloss:[step]=throughput\t,abcxyz\xc3\xa9";
    for (int k = 0; k < 3000; ++k) {
        std::string s;
        if (k % 2 == 0 && !seeds.empty()) {
            s = seeds[rng() % seeds.size()];
            for (int e = 0; e < 3; ++e) {
                const std::size_t at = s.empty() ? 0 : rng() % s.size();
                switch (rng() % 3) {
                case 0:
                    if (!s.empty()) s.erase(at, 1);
                    break;
                case 1:
                    s.insert(at, 1, alphabet[rng() % alphabet.size()]);
                    break;
                default:
                    if (!s.empty()) s[at] = alphabet[rng() % alphabet.size()];
                }
            }
        } else {
            const std::size_t n = rng() % 60;
            for (std::size_t i = 0; i < n; ++i)
                s += alphabet[rng() % alphabet.size()];
        }
        out.push_back(s);
    }
    return out;
}

void expectSameAsRe2(const std::string& pattern, const std::vector<std::string>& seeds) {
    SCOPED_TRACE(pattern);
    re2::RE2::Options o;
    o.set_log_errors(false);
    const re2::RE2 re(pattern, o);
    ASSERT_TRUE(re.ok()) << re.error();
    const int groups = re.NumberOfCapturingGroups();
    const auto fast = FastPattern::compile(pattern, groups);
    ASSERT_TRUE(fast) << "not taken";
    int decided = 0, matched = 0;
    for (const std::string& line : linesFor(seeds)) {
        FastPattern::Span a[17], b[17];
        const auto outcome = fast->match(line, a);
        if (outcome == FastPattern::Outcome::Undecided) continue;
        ++decided;
        const bool m = re2Match(re, line, b, groups);
        ASSERT_EQ(outcome == FastPattern::Outcome::Match, m) << "line: " << line;
        if (!m) continue;
        ++matched;
        for (int i = 1; i <= groups; ++i) {
            ASSERT_EQ(a[i].data == nullptr, b[i].data == nullptr) << line << " group " << i;
            if (a[i].data) {
                ASSERT_EQ(std::string_view(a[i].data, a[i].size),
                          std::string_view(b[i].data, b[i].size))
                    << line << " group " << i;
            }
        }
    }
    EXPECT_GT(decided, 2000); // most lines decided without RE2
    EXPECT_GT(matched, 0);
}

} // namespace

TEST(FastPattern, TheBenchPatternAsRe2) {
    expectSameAsRe2(
        R"(\] trainer \| it (?P<step>\d+)/\d+ \| loss [0-9.]+ \| (?P<value>[0-9.]+)(?P<scale>[KM]?) samples/s)",
        {"[2026-12-04 10:00:01.250] trainer | it 1/150000 | loss 2.1234 | 7.71K samples/s",
         "[2026-12-04 10:00:01.250] trainer | it 12/150 | loss 2.9 | 11.05 samples/s",
         "eval: accuracy 0.1234 after 50 steps"});
}

TEST(FastPattern, DraftedPatternsAsRe2) {
    // formatdraft.cpp's value, step and scale captures around literal text.
    expectSameAsRe2(
        R"(\[step (?P<step>[0-9]+)\]\s+loss=[0-9.]+\s+throughput=(?P<value>[0-9.]+(?:[eE][-+]?[0-9]+)?)(?P<scale>[KkMG]?) tks/s)",
        {"INFO:root:[step 249]\tloss=9.24\tthroughput=122.0K tks/s\tlr=1",
         "[step 5]  loss=1  throughput=1.5e+03 tks/s", "[step 7] loss=2 throughput=3e5M tks/s"});
    expectSameAsRe2(R"(^it (?P<step>\d+): (?P<value>\d+\.\d+) img/s$)",
                    {"it 10: 1234.5 img/s", "it 10: 1234.5 img/s x", " it 10: 1.0 img/s"});
    expectSameAsRe2(R"(rank (?P<rank>\d+) [^:]*: (?P<value>[0-9.]+) samples/sec)",
                    {"rank 3 of 8: 100.5 samples/sec", "rank 3 (node é): 100.5 samples/sec"});
    expectSameAsRe2(R"(speed=(?P<value>\d+)(?: ms)?$)", {"speed=12 ms", "speed=12", "speed=12 mx"});
    expectSameAsRe2(R"(speed=(?P<value>[0-9.]+)(?: \(step (?P<step>\d+)\))?,)",
                    {"speed=12.5 (step 3),", "speed=12.5,", "speed=12.5 (step x),"});
}

TEST(FastPattern, WhatItLeavesToRe2) {
    // Alternatives, counted repeats, lazy repeats, flags, back references, ambiguous repeats.
    for (const char* p : {"a|b", R"(\d{3})", R"(x.*?y)", "(?i)speed", R"((a)\1)",
                          R"(speed: (?P<value>[0-9.]+)\.)", R"(loss .* (?P<value>\d+))", R"(\bx)",
                          R"((?:ab)+)", "[[:digit:]]+", R"(rank (\d+)[^:]*:)",
                          // a group that fails midway where the pattern could end: RE2 skips it
                          R"(speed=(?P<value>\d+)(?: ms)?)"}) {
        re2::RE2::Options o;
        o.set_log_errors(false);
        EXPECT_FALSE(FastPattern::compile(p, re2::RE2(p, o).NumberOfCapturingGroups())) << p;
    }
    // A non-ASCII byte in a wide class: RE2 decides (it reads UTF-8 characters).
    const auto f = FastPattern::compile(R"(node [^ ]+ ok)", 0);
    ASSERT_TRUE(f);
    FastPattern::Span s[1];
    EXPECT_EQ(f->match("node \xc3\xa9t\xc3\xa9 ok", s), FastPattern::Outcome::Undecided);
    EXPECT_EQ(f->match("node abc ok", s), FastPattern::Outcome::Match);
    EXPECT_EQ(f->match("node abc", s), FastPattern::Outcome::NoMatch);
}
