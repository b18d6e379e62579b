#include "core/parse/logparser.h"
#include "tests/support/logwriter.h"
#include "core/model/numerics.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <random>

using namespace sv;
using namespace sv::test;

namespace {

struct Parsed {
    std::vector<SpeedSample> samples;
    ParseCounters counters;
    std::size_t pending = 0;
};

Parsed parseChunks(const std::string& text, const std::vector<std::size_t>& cuts,
                   ParseOptions opt = {}) {
    Parsed p;
    LogParser parser(opt, [&](const SpeedSample& s) { p.samples.push_back(s); });
    std::size_t pos = 0;
    for (std::size_t cut : cuts) {
        parser.feed(std::string_view(text).substr(pos, cut - pos));
        pos = cut;
    }
    parser.feed(std::string_view(text).substr(pos));
    p.counters = parser.counters();
    p.pending = parser.pendingBytes();
    return p;
}

Parsed parseWhole(const std::string& text, ParseOptions opt = {}) {
    return parseChunks(text, {}, opt);
}

bool sameSamples(const std::vector<SpeedSample>& a, const std::vector<SpeedSample>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto &x = a[i], &y = b[i];
        if (x.line != y.line || x.rank != y.rank || x.epoch != y.epoch ||
            x.batchFirst != y.batchFirst || x.hasTime != y.hasTime || x.timeUs != y.timeUs ||
            x.batchLast != y.batchLast || x.hasSpeed != y.hasSpeed ||
            !(x.speed == y.speed || (std::isnan(x.speed) && std::isnan(y.speed))) ||
            x.hasRounded2 != y.hasRounded2 || x.speedRounded2 != y.speedRounded2)
            return false;
    }
    return true;
}

} // namespace

TEST(LogParser, OpenMpiTaggedLine) {
    auto p =
        parseWhole("[1,3]<stderr>:2020-09-01 10:00:00,123:INFO: Epoch[0] Batch [19-19]\tSpeed: "
                   "3007.1 samples/sec\tLR: 0.25\t\n");
    ASSERT_EQ(p.samples.size(), 1u);
    const auto& s = p.samples[0];
    EXPECT_EQ(s.rank, 3);
    EXPECT_EQ(s.epoch, 0);
    EXPECT_EQ(s.batchFirst, 19);
    EXPECT_EQ(s.batchLast, 19);
    EXPECT_TRUE(s.hasSpeed);
    EXPECT_EQ(s.speed, 3007.1);
    ASSERT_TRUE(s.hasTime);
    // 2020-09-01 is day 18506 after 1970-01-01.
    EXPECT_EQ(s.timeUs, ((18506LL * 24 + 10) * 3600) * 1000000 + 123000);
    EXPECT_EQ(s.line, 1);
}

TEST(LogParser, HorovodGlooTaggedLine) {
    auto p = parseWhole(speedLine(TagStyle::Gloo, 12, 1500, 4, "812.5"));
    ASSERT_EQ(p.samples.size(), 1u);
    EXPECT_EQ(p.samples[0].rank, 12);
    EXPECT_EQ(p.samples[0].speed, 812.5);
    EXPECT_TRUE(p.samples[0].hasTime);
}

TEST(LogParser, TorchRankTaggedLine) {
    auto p = parseWhole(speedLine(TagStyle::TorchRank, 12, 1500, 4, "812.5"));
    ASSERT_EQ(p.samples.size(), 1u);
    EXPECT_EQ(p.samples[0].rank, 12);
    EXPECT_EQ(p.samples[0].speed, 812.5);
    EXPECT_TRUE(p.samples[0].hasTime);
    // Only the exact form: "[rank]:" or "[rank x]:" is no tag, and the line keeps no rank.
    for (const char* almost : {"[rank]:", "[rank 3]:", "[rank3]", "[Rank3]:"}) {
        auto q = parseWhole(almost + speedLine(TagStyle::None, 0, 1500, 4, "812.5"));
        ASSERT_EQ(q.samples.size(), 1u) << almost;
        EXPECT_EQ(q.samples[0].rank, -1) << almost;
    }
}

TEST(LogParser, SrunLabelRightAlignedFromTenRanks) {
    // srun --label pads the rank to the widest one: " 3: " and "11: " among 12 tasks.
    const std::string text = "0: " + speedLine(TagStyle::None, 0, 1500, 4, "812.5") +
                             " 3: " + speedLine(TagStyle::None, 0, 1500, 4, "812.5") +
                             "11: " + speedLine(TagStyle::None, 0, 1500, 4, "812.5") +
                             "  7: " + speedLine(TagStyle::None, 0, 1500, 4, "812.5");
    auto p = parseWhole(text);
    ASSERT_EQ(p.samples.size(), 4u);
    EXPECT_EQ(p.samples[0].rank, 0);
    EXPECT_EQ(p.samples[1].rank, 3);
    EXPECT_EQ(p.samples[2].rank, 11);
    EXPECT_EQ(p.samples[3].rank, 7);
    for (const auto& s : p.samples) {
        EXPECT_EQ(s.speed, 812.5);
        EXPECT_TRUE(s.hasTime); // the prefix is gone: the timestamp is read
    }
    // A number without the space after its colon, or of 7 digits, is no label.
    for (const char* almost : {"3:", "1234567: ", "x3: ", ": "}) {
        auto q = parseWhole(almost + speedLine(TagStyle::None, 0, 1500, 4, "812.5"));
        ASSERT_EQ(q.samples.size(), 1u) << almost;
        EXPECT_EQ(q.samples[0].rank, -1) << almost;
    }
}

TEST(LogParser, UntaggedLineHasNoRank) {
    auto p = parseWhole(speedLine(TagStyle::None, 0, 1500, 4, "812.5"));
    ASSERT_EQ(p.samples.size(), 1u);
    EXPECT_EQ(p.samples[0].rank, -1);
    EXPECT_EQ(p.samples[0].speed, 812.5);
}

TEST(LogParser, StdoutTagAccepted) {
    auto p = parseWhole("[2,7]<stdout>:" + speedLine(TagStyle::None, 0, 0, 0, "1.5"));
    ASSERT_EQ(p.samples.size(), 1u);
    EXPECT_EQ(p.samples[0].rank, 7);
}

TEST(LogParser, AnyFloatFormAndNanInf) {
    const std::vector<std::pair<std::string, double>> forms = {{"3007", 3007.0},
                                                               {"3.0071e+03", 3007.1},
                                                               {"3.0071E3", 3007.1},
                                                               {"+12.5", 12.5},
                                                               {".5", 0.5}};
    for (const auto& [text, value] : forms) {
        auto p = parseWhole(speedLine(TagStyle::None, 0, 0, 0, text));
        ASSERT_EQ(p.samples.size(), 1u) << text;
        EXPECT_TRUE(p.samples[0].hasSpeed) << text;
        EXPECT_EQ(p.samples[0].speed, value) << text;
    }
    for (const char* text : {"nan", "inf", "-inf", "1e999"}) {
        auto p = parseWhole(speedLine(TagStyle::None, 0, 0, 0, text));
        ASSERT_EQ(p.samples.size(), 1u);
        EXPECT_TRUE(p.samples[0].hasSpeed);
        EXPECT_FALSE(std::isfinite(p.samples[0].speed)) << text;
    }
    auto bad = parseWhole(speedLine(TagStyle::None, 0, 0, 0, "fast"));
    ASSERT_EQ(bad.samples.size(), 1u);
    EXPECT_FALSE(bad.samples[0].hasSpeed);
}

TEST(LogParser, CountsOnlyEpochZeroMarkerLines) {
    std::string text = speedLine(TagStyle::OpenMpi, 0, 0, 0, "1.0");
    text += "[1,0]<stderr>:2020-09-01 10:00:00,000:INFO: Epoch[1] Batch [0-0]\tSpeed: 2.0 "
            "samples/sec\t\n";
    text += "Epoch[0] Batch [0-0] without the leading space\n";
    auto p = parseWhole(text);
    EXPECT_EQ(p.counters.markerLines, 1);
    EXPECT_EQ(p.counters.lines, 3);
    ASSERT_EQ(p.samples.size(), 1u);
}

TEST(LogParser, CrlfLinesParseLikeLf) {
    RunSpec spec;
    spec.ranks = 2;
    spec.iterations = 5;
    auto speed = [](int k, int r) { return std::to_string(100 + k) + "." + std::to_string(r); };
    auto lf = parseWhole(makeLog(spec, speed));
    spec.eol = "\r\n";
    auto crlf = parseWhole(makeLog(spec, speed));
    EXPECT_EQ(crlf.counters.markerLines, 10);
    EXPECT_TRUE(sameSamples(lf.samples, crlf.samples));
}

TEST(LogParser, LineSplitAcrossChunksIsParsedOnceWhole) {
    const std::string line = speedLine(TagStyle::OpenMpi, 5, 2000, 1, "3007.125");
    for (std::size_t cut = 1; cut < line.size(); ++cut) {
        auto p = parseChunks(line, {cut});
        ASSERT_EQ(p.samples.size(), 1u) << "cut at " << cut;
        EXPECT_EQ(p.samples[0].speed, 3007.125) << "cut at " << cut;
        EXPECT_EQ(p.samples[0].rank, 5) << "cut at " << cut;
    }
}

TEST(LogParser, UnterminatedLastLineIsHeldNotParsed) {
    const std::string line = speedLine(TagStyle::OpenMpi, 0, 2000, 1, "3007.125");
    auto p = parseWhole(line.substr(0, line.size() - 1)); // no newline: still being written
    EXPECT_TRUE(p.samples.empty());
    EXPECT_EQ(p.pending, line.size() - 1);
    // The rest arrives: parsed once.
    auto q = parseChunks(line.substr(0, line.size() - 1) + "\n", {line.size() - 1});
    EXPECT_EQ(q.samples.size(), 1u);
    EXPECT_EQ(q.pending, 0u);
}

TEST(LogParser, ChunkedParsingEqualsWholeParsing) {
    RunSpec spec;
    spec.ranks = 3;
    spec.iterations = 40;
    std::string text =
        makeLog(spec, [](int k, int r) { return std::to_string(1000 + k * 3 + r) + ".25"; });
    text += "junk \x1b[31mred\x1b[0m\rprogress 10%\rprogress 90%\n";
    const auto whole = parseWhole(text);
    std::mt19937 rng(42);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::size_t> cuts;
        std::size_t pos = 0;
        while (true) {
            pos += 1 + rng() % 300;
            if (pos >= text.size()) break;
            cuts.push_back(pos);
        }
        const auto chunked = parseChunks(text, cuts);
        ASSERT_TRUE(sameSamples(whole.samples, chunked.samples)) << "trial " << trial;
        ASSERT_EQ(whole.counters.lines, chunked.counters.lines);
        ASSERT_EQ(whole.counters.markerLines, chunked.counters.markerLines);
    }
    EXPECT_EQ(whole.samples.size(), 120u);
}

TEST(LogParser, OverlongLinesAreSkippedAndCountedWithBoundedMemory) {
    ParseOptions opt;
    opt.maxLineBytes = 1000;
    std::string huge(5000, 'x');
    huge.insert(100, " Epoch[0] Batch [0-0]\tSpeed: 1.0 samples/sec");
    const std::string good = speedLine(TagStyle::OpenMpi, 0, 1000, 0, "42.5");
    const std::string text = good + huge + "\n" + good + std::string(3000, 'y') + "\n" + good;
    auto whole = parseWhole(text, opt);
    EXPECT_EQ(whole.samples.size(), 3u);
    EXPECT_EQ(whole.counters.overlongLines, 2);
    EXPECT_EQ(whole.counters.firstOverlongLine, 2);
    // Fed a byte at a time, the held line never exceeds the cap.
    std::size_t maxBuffered = 0;
    LogParser parser(opt, [](const SpeedSample&) {});
    for (char c : text) {
        parser.feed(std::string_view(&c, 1));
        maxBuffered = std::max(maxBuffered, parser.bufferedBytes());
    }
    EXPECT_LE(maxBuffered, opt.maxLineBytes);
    EXPECT_EQ(parser.counters().overlongLines, 2);
    EXPECT_EQ(parser.counters().markerLines, 3);
}

// Whole buffers are scanned for the marker across many lines, or line by line while the marker
// is on every line; a byte at a time, each line is read on its own as it completes. Runs of speed
// lines, other lines and over-long lines of both kinds, in every order: the same samples and
// counters either way.
TEST(LogParser, MixedLinesReadTheSameInBuffersAsAByteAtATime) {
    ParseOptions opt;
    opt.maxLineBytes = 300;
    std::mt19937_64 rng(14);
    for (int trial = 0; trial < 300; ++trial) {
        std::string text;
        int lines = 0;
        while (lines < 60) {
            const int run = 1 + static_cast<int>(rng() % 6);
            const int kind = static_cast<int>(rng() % 4);
            for (int k = 0; k < run; ++k, ++lines) {
                switch (kind) {
                case 0:
                    text += speedLine(TagStyle::OpenMpi, static_cast<int>(rng() % 8), lines * 10,
                                      lines, std::to_string(rng() % 5000) + ".5");
                    break;
                case 1:
                    text += "NCCL INFO Ring 00 : 0 1 2 3 " + std::string(rng() % 40, 'z') + "\n";
                    break;
                case 2: // over-long, with the marker
                    text += std::string(200, 'x') +
                            " Epoch[0] Batch [1-1]\tSpeed: 2.5 samples/sec" +
                            std::string(100, 'x') + "\n";
                    break;
                default: // over-long, without
                    text += std::string(310 + rng() % 50, 'y') + "\n";
                }
            }
        }
        const auto buffered = parseWhole(text, opt);
        Parsed single;
        LogParser parser(opt, [&](const SpeedSample& s) { single.samples.push_back(s); });
        for (char c : text)
            parser.feed(std::string_view(&c, 1));
        const ParseCounters& c = parser.counters();
        ASSERT_TRUE(sameSamples(buffered.samples, single.samples)) << "trial " << trial;
        ASSERT_EQ(buffered.counters.lines, c.lines) << "trial " << trial;
        ASSERT_EQ(buffered.counters.markerLines, c.markerLines) << "trial " << trial;
        ASSERT_EQ(buffered.counters.overlongLines, c.overlongLines) << "trial " << trial;
        ASSERT_EQ(buffered.counters.firstOverlongLine, c.firstOverlongLine) << "trial " << trial;
        ASSERT_EQ(buffered.counters.lines, lines);
    }
}

TEST(LogParser, HostileBytesNeverCrash) {
    std::string text;
    std::mt19937 rng(7);
    for (int i = 0; i < 200000; ++i)
        text += static_cast<char>(rng() % 256);
    text += std::string("\0\0\0", 3) +
            "\xff\xfe\xc3\x28 Epoch[0] Batch [\xff-\x00]\tSpeed: \x80 samples/sec\n";
    auto p = parseWhole(text);
    EXPECT_GE(p.counters.lines, 1);
    EXPECT_EQ(p.counters.markerLines, static_cast<std::int64_t>(p.samples.size()));
}

TEST(LogParser, ProgressBarAndAnsiBeforeTheLine) {
    const std::string line =
        "loading 10%\rloading 100%\r\x1b[0m" + speedLine(TagStyle::OpenMpi, 2, 1000, 0, "9.5");
    auto p = parseWhole(line);
    ASSERT_EQ(p.samples.size(), 1u);
    EXPECT_EQ(p.samples[0].rank, 2);
    EXPECT_TRUE(p.samples[0].hasTime);
    EXPECT_EQ(p.samples[0].speed, 9.5);
}

TEST(LogParser, TimestampFractionIsStrptimeMicroseconds) {
    size_t len = 0;
    auto a = parseLogTimestamp("2020-09-01 10:00:00,5", &len);
    ASSERT_TRUE(a);
    auto b = parseLogTimestamp("2020-09-01 10:00:00,500000");
    ASSERT_TRUE(b);
    EXPECT_EQ(*a, *b);
    EXPECT_FALSE(parseLogTimestamp("2020-13-01 10:00:00,500"));
    EXPECT_FALSE(parseLogTimestamp("2020-09-01 10:00:00"));
}

// Consecutive stamps usually share their second, which parseLogTimestamp remembers: a stamp read
// right after another of the same second must read as it does on its own (fractions of 0 to 8
// digits, either separator, anything after).
TEST(LogParser, TimestampOfARememberedSecondReadsAsOnItsOwn) {
    std::mt19937_64 rng(12);
    const std::string seconds[] = {"2020-09-01 10:00:00", "2020-09-01 23:59:59",
                                   "2020-12-31 23:59:61", "1999-02-28 00:00:00",
                                   "2020-09-01 24:00:00", "2020-13-01 10:00:00"};
    const std::string decoy = "1970-01-02 03:04:05,6";
    int remembered = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::string& second = seconds[rng() % std::size(seconds)];
        auto stamp = [&] {
            std::string t = second + ",.x"[rng() % 3];
            for (int k = static_cast<int>(rng() % 9); k > 0; --k)
                t += static_cast<char>('0' + rng() % 10);
            if (rng() % 2) t += ":INFO: x";
            return t;
        };
        const std::string first = stamp(), next = stamp();
        const char separator = rng() % 4 ? ',' : '.';
        ASSERT_TRUE(parseLogTimestamp(decoy));
        std::size_t coldLen = 0;
        const auto cold = parseLogTimestamp(next, &coldLen, separator);
        ASSERT_TRUE(parseLogTimestamp(decoy));
        const bool primed = parseLogTimestamp(first, nullptr, ',').has_value();
        std::size_t warmLen = 0;
        const auto warm = parseLogTimestamp(next, &warmLen, separator);
        ASSERT_EQ(cold, warm) << first << " then " << next;
        if (cold) {
            ASSERT_EQ(coldLen, warmLen) << next;
            remembered += primed;
        }
    }
    EXPECT_GT(remembered, 800);
    // And the value itself: 2020-09-01 is day 18506.
    EXPECT_EQ(parseLogTimestamp("2020-09-01 10:00:00,25"),
              ((18506LL * 24 + 10) * 3600) * 1000000 + 250000);
    EXPECT_EQ(parseLogTimestamp("2020-09-01 10:00:00,000007"),
              ((18506LL * 24 + 10) * 3600) * 1000000 + 7);
}

// The usual NGC MXNet line is read in one pass from its marker; anything else by the general
// reading, which also reads the usual line (with the marker's place unknown). Both must agree on
// every line, clean or mangled.
TEST(LogParser, MxnetUsualLineReadsAsTheGeneralReading) {
    std::mt19937_64 rng(13);
    const MessageFormat& f = mxnetSpeedometer();
    const std::string pieces[] = {"-",   "1",  "9", ".", "e",        " ",
                                  "\t",  "]",  "[", "x", "12345678", "99999999999999999999",
                                  "nan", "0.", ",", ":"};
    std::uniform_real_distribution<double> dist(0.0, 40000.0);
    char buf[64];
    int usual = 0;
    for (int i = 0; i < 100000; ++i) {
        const double x = dist(rng);
        const auto res = std::to_chars(buf, buf + sizeof buf, x);
        std::string line = "2020-09-01 10:00:0" + std::to_string(rng() % 10) + "," +
                           std::to_string(100 + rng() % 900) + ":INFO: Epoch[0] Batch [" +
                           std::to_string(i) + "-" + std::to_string(i + rng() % 30) +
                           "]\tSpeed: " + std::string(buf, res.ptr) + " samples/sec\tLR: 0.1";
        if (i % 2) { // mangle half of them
            for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
                const std::size_t at = rng() % (line.size() + 1);
                if (rng() % 2)
                    line.insert(at, pieces[rng() % std::size(pieces)]);
                else
                    line.erase(at, 1 + rng() % 3);
            }
        }
        const std::size_t marker = line.find(f.marker);
        // Where the marker is not the first "Epoch[", the general reading starts elsewhere.
        if (marker == std::string::npos || line.find("Epoch[") != marker + 1) continue;
        SpeedSample a, b;
        f.parse(line, marker, a);
        f.parse(line, std::string_view::npos, b);
        ASSERT_TRUE(sameSamples({a}, {b})) << line;
        usual += a.hasSpeed && a.hasTime;
    }
    EXPECT_GT(usual, 50000);
}

TEST(LogParser, DigitRoundingEqualsPythonRoundOfTheDouble) {
    // The speed method rounds each printed speed as Python's round(float(text), 2). The parser
    // decides that from the digits when it safely can; it must agree with rounding the double.
    std::mt19937_64 rng(2020);
    std::uniform_real_distribution<double> dist(0.0, 40000.0);
    std::vector<std::string> texts = {
        "2.675", "1.115", "0.125", "0.375", "392.245", "11365.605", "2.6750000000000003",
        "2.6749999999999998", "100", "7.5", "3007.1", "0.005", "0.015", "1e3",
        // Beyond 53 bits of digits: read as from_chars does.
        "184467440737095517", "18446744073709551.7", "9007199254740993", "9007199254740993.125",
        "123456789012345678.9",
        // 18 and 19 digits whose 64-bit quotient lies exactly halfway between two doubles:
        // rounded again to 53 bits, each would be an ulp off.
        "50117258587.96806717", "4909.556999393127171", "8494631.670976105146"};
    char buf[64];
    std::uniform_int_distribution<std::uint64_t> wide(std::uint64_t{1} << 53, 9999999999999999999u);
    for (int i = 0; i < 20000; ++i) {
        // Any 16 to 19 digits with 2 to 15 after the point, not only the shortest repr of a double.
        std::string digits = std::to_string(wide(rng));
        digits.insert(digits.size() - 2 - static_cast<std::size_t>(i % 14), ".");
        texts.push_back(std::move(digits));
        const double x = dist(rng);
        auto res = std::to_chars(buf, buf + sizeof buf, x,
                                 std::chars_format::fixed); // shortest, like repr
        texts.emplace_back(buf, res.ptr);
        std::snprintf(buf, sizeof buf, "%.3f", x); // ties on the third decimal are common here
        texts.emplace_back(buf);
        std::snprintf(buf, sizeof buf, "%.2f5", std::floor(x * 100) / 100); // an exact decimal tie
        texts.emplace_back(buf);
    }
    int decidedFromDigits = 0;
    for (const auto& t : texts) {
        auto p = parseWhole(speedLine(TagStyle::None, 0, 0, 0, t));
        ASSERT_EQ(p.samples.size(), 1u) << t;
        const auto& s = p.samples[0];
        const double exact = std::strtod(t.c_str(), nullptr);
        ASSERT_TRUE(s.hasSpeed) << t;
        ASSERT_EQ(s.speed, exact) << t; // float(text) to the bit, however many digits
        if (s.hasRounded2) {
            ++decidedFromDigits;
            ASSERT_EQ(s.speedRounded2, roundPython2(exact)) << t;
        }
    }
    // All but the near-ties: a quarter of the texts are exact ties, and at 18 or 19 digits the
    // double's error spans more of the digits after the second decimal.
    EXPECT_GT(decidedFromDigits, 45000);
}

// The parser skips the tag matchers on lines whose first bytes start none of them: no line a
// matcher takes may be skipped. Tagged lines, their near-misses and random bytes.
TEST(LogParser, TagPrecheckNeverRejectsATaggedLine) {
    std::vector<std::string> lines = {"[1,3]<stderr>:INFO:root:Iter:5",
                                      "Tue Sep  1 10:00:00 2020[3]<stderr>:x",
                                      "Mon Dec 31 23:59:59 1999[12]<stdout>:",
                                      "[rank7]:Epoch: [0][ 1/9]",
                                      " 3: train: iter 5",
                                      "12: x",
                                      "     7: y",
                                      "INFO:root:Epoch[0] Batch [0-20]",
                                      "train: iter 0, loss 1, throughput: 2.0",
                                      ""};
    std::mt19937_64 rng(3);
    const std::string pieces[] = {"[", "]", "1",    ",",       "<stderr>:", "<stdout>:",
                                  " ", ":", "rank", "Tue Sep", "2020",      "  1 10:00:00 ",
                                  "x", "9", "0",    ": ",      "\t",        "I"};
    for (int i = 0; i < 300000; ++i) {
        std::string s;
        const int n = static_cast<int>(rng() % 10);
        for (int k = 0; k < n; ++k)
            s += pieces[rng() % std::size(pieces)];
        lines.push_back(s);
        // And a real tag with a byte changed.
        std::string t = lines[rng() % 7];
        if (!t.empty()) t[rng() % t.size()] = pieces[rng() % std::size(pieces)][0];
        lines.push_back(t);
    }
    int tagged = 0;
    for (const std::string& line : lines) {
        bool any = false;
        for (const TagFormat& tag : tagFormats()) {
            int rank = -1;
            std::size_t len = 0;
            any = any || tag.match(line, rank, len);
        }
        tagged += any;
        if (any) {
            ASSERT_TRUE(mayHaveTag(line)) << line;
        }
    }
    EXPECT_GT(tagged, 1000);
    EXPECT_FALSE(mayHaveTag("INFO:root:Iter:21 Rank:95.12 it/sec Total:761.00 it/sec"));
    EXPECT_FALSE(mayHaveTag("train: iter 20, loss 45.123456, throughput: 1927.456"));
}

// Open MPI-tagged NGC MXNet lines are read by the format's reader of the usual shape, without the
// searches of the general reading: every line, usual or nearly so, must read the same either way.
// Usual lines with one to three bytes changed (a '\r' or an escape before the marker, a second
// marker, another level, a longer fraction, a broken tag or number) against the general reading
// alone (the format without its usual reader), with the same counters.
TEST(LogParser, UsualLineReaderEqualsTheGeneralReading) {
    ParseOptions usual;
    ASSERT_NE(usual.format.parseUsual, nullptr);
    ParseOptions general;
    general.format.parseUsual = nullptr;
    std::mt19937_64 rng(2024);
    const std::string swaps = "\r\x1b[] :,.-0159EeBx\t";
    const std::vector<std::string> inserts = {" Epoch[0] Batch [3-3]\tSpeed: 9.0 samples/sec ",
                                              "WARNING",
                                              "000",
                                              "\r",
                                              "\r\n",
                                              "\x1b[0m",
                                              "[1,2]"};
    int readAlike = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        std::string text;
        for (int k = 0; k < 6; ++k) {
            std::string line = speedLine(
                TagStyle::OpenMpi, static_cast<int>(rng() % 16), 1000 * k + 7, k,
                std::to_string(1000 + rng() % 9000) + "." + std::to_string(rng() % 100000000000000),
                rng() % 4 == 0 ? "\r\n" : "\n");
            for (int m = static_cast<int>(rng() % 4); m > 0; --m) {
                const std::size_t at = rng() % (line.size() - 1); // never the newline
                if (rng() % 3 == 0)
                    line.insert(at, inserts[rng() % inserts.size()]);
                else
                    line[at] = swaps[rng() % swaps.size()];
            }
            text += line;
        }
        const auto a = parseWhole(text, usual);
        const auto b = parseWhole(text, general);
        ASSERT_TRUE(sameSamples(a.samples, b.samples)) << "trial " << trial << "\n" << text;
        ASSERT_EQ(a.counters.lines, b.counters.lines) << text;
        ASSERT_EQ(a.counters.markerLines, b.counters.markerLines) << text;
        ASSERT_EQ(a.pending, b.pending) << text;
        readAlike += static_cast<int>(a.samples.size());
    }
    EXPECT_GT(readAlike, 10000); // most lines still hold their marker
}
