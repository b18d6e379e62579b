// Text from logs made safe for where it lands (core/model/outputtext.h, core/model/jsontext.h):
// each destination's function against payloads that broke it (issue 36), and the JSON writer
// over invalid UTF-8 and over every cut of a multi-byte character.

#include "core/model/jsontext.h"
#include "core/model/outputtext.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace sv;

namespace {

// Every byte string of length 0..3 over an alphabet that holds each kind of UTF-8 lead and
// continuation byte, ASCII, and the bytes no UTF-8 holds.
std::vector<std::string> byteStrings() {
    const unsigned char alphabet[] = {'a',  0x00, 0x1b, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf,
                                      0xe0, 0xe3, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, '<'};
    std::vector<std::string> out = {""};
    for (std::size_t len = 1; len <= 3; ++len) {
        std::vector<std::string> next;
        for (const auto& s : out)
            if (s.size() == len - 1)
                for (unsigned char c : alphabet)
                    next.push_back(s + static_cast<char>(c));
        out.insert(out.end(), next.begin(), next.end());
    }
    return out;
}

bool isValidUtf8(const std::string& s) {
    try {
        (void)nlohmann::json(s).dump(); // nlohmann's strict check (it throws on invalid UTF-8)
        return true;
    } catch (const nlohmann::json::type_error&) {
        return false;
    }
}

} // namespace

TEST(OutputText, JsonOfAModelWithInvalidBytesIsWrittenNotThrown) {
    nlohmann::json j = {{"model", std::string("resnet\xff\xfe"
                                              "50")}};
    std::string text;
    ASSERT_NO_THROW(text = jsonText(j, 2));
    const auto back = nlohmann::json::parse(text);
    EXPECT_EQ(back["model"], "resnet\xEF\xBF\xBD\xEF\xBF\xBD"
                             "50"); // two U+FFFD
}

TEST(OutputText, EveryCutOfAMultiByteCharacterFallsBetweenCharacters) {
    // A Japanese data_dir, a Greek letter, an emoji: 3-, 2- and 4-byte characters.
    const std::string value = "/データ/αβ/🚀/学習";
    for (std::size_t cut = 0; cut <= value.size() + 1; ++cut) {
        const std::string prefix(utf8Prefix(value, cut));
        EXPECT_LE(prefix.size(), cut);
        EXPECT_EQ(value.compare(0, prefix.size(), prefix), 0);
        EXPECT_TRUE(isValidUtf8(prefix)) << "cut at " << cut;
        EXPECT_GE(prefix.size() + 3, std::min(cut, value.size())) << "cut too far back at " << cut;
        EXPECT_NO_THROW(nlohmann::json::parse(jsonText(nlohmann::json{{"v", prefix}})));
    }
}

TEST(OutputText, InvalidUtf8BecomesReplacementCharactersAndValidTextIsKept) {
    EXPECT_EQ(validUtf8("plain"), "plain");
    EXPECT_EQ(validUtf8("データ"), "データ");
    EXPECT_EQ(validUtf8("a\xff"
                        "b"),
              "a\xEF\xBF\xBD"
              "b");
    EXPECT_EQ(validUtf8("\xe3\x83"), "\xEF\xBF\xBD");             // a cut character: one U+FFFD
    EXPECT_EQ(validUtf8("\xc0\xaf"), "\xEF\xBF\xBD\xEF\xBF\xBD"); // an overlong '/'
    EXPECT_EQ(validUtf8("\xed\xa0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // a surrogate
    for (const auto& s : byteStrings()) {
        EXPECT_TRUE(isValidUtf8(validUtf8(s)));
        for (const auto& out : {htmlText(s), xmlText(s), markdownText(s), csvField(s),
                                terminalText(s), xmlCharacters(s)})
            EXPECT_TRUE(isValidUtf8(out));
    }
}

TEST(OutputText, HtmlAndXmlHoldNoMarkupFromAValue) {
    EXPECT_EQ(htmlText("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
    EXPECT_EQ(htmlAttribute("\" onmouseover='x'"), "&quot; onmouseover=&#39;x&#39;");
    EXPECT_EQ(xmlText("A&B</title><script>"), "A&amp;B&lt;/title&gt;&lt;script&gt;");
    // XML 1.0 forbids C0 controls but tab and line breaks: shown, never written.
    EXPECT_EQ(xmlText("a\x01"
                      "b\tc\n"),
              "a\\x01b\tc\n");
    EXPECT_EQ(xmlCharacters("<text>a\x1b[31m</text>"), "<text>a\\x1b[31m</text>");
}

TEST(OutputText, MarkdownHoldsNoRawHtmlLinkOrCellBreak) {
    EXPECT_EQ(markdownText("<script>alert(1)</script>"), "\\<script>alert(1)\\</script>");
    EXPECT_EQ(markdownText("[x](javascript:alert(1))"), "\\[x\\](javascript:alert(1))");
    EXPECT_EQ(markdownText("a|b"), "a\\|b");
    EXPECT_EQ(markdownText("**bold** _x_"), "\\*\\*bold\\*\\* \\_x\\_");
    EXPECT_EQ(markdownText("line\n# heading"), "line \\# heading");
    EXPECT_EQ(markdownText("> quoted"), "\\> quoted");
    EXPECT_EQ(markdownText("driver 535 -> 550"), "driver 535 -> 550");
    EXPECT_EQ(markdownCode("logs/a`b.log"), "``logs/a`b.log``");
    EXPECT_EQ(markdownCode("`x"), "`` `x ``");
    EXPECT_EQ(markdownLinkTarget("a>b\nc"), "a\\>b%20c");
    EXPECT_EQ(markdownLinkTarget("x) ![y](z|_"), "x\\)%20\\!\\[y\\]\\(z\\|\\_"); // no link ends
    EXPECT_EQ(markdownLinkTarget("report-october-throughput.png"), "report-october-throughput.png");
}

TEST(OutputText, CsvCellsCannotBeFormulasAndKeepTheirQuotes) {
    EXPECT_EQ(csvField("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
    EXPECT_EQ(csvField("+1"), "'+1");
    EXPECT_EQ(csvField("-2+3"), "'-2+3");
    EXPECT_EQ(csvField("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvField("\t=1"), "'\t=1");
    EXPECT_EQ(csvField("\r=1"), "\"'\r=1\"");
    EXPECT_EQ(csvField("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("resnet50"), "resnet50");
}

TEST(OutputText, TheTerminalGetsNoEscapeSequence) {
    const std::string hostile = "r50\x1b]0;owned\x07\x1b[2J\xc2\x9b"
                                "31m\u202egnp.exe";
    const std::string shown = terminalText(hostile);
    EXPECT_EQ(shown.find('\x1b'), std::string::npos);
    EXPECT_EQ(shown.find('\x07'), std::string::npos);
    EXPECT_EQ(shown.find("\xc2\x9b"), std::string::npos); // C1 CSI
    EXPECT_EQ(shown.find("\u202e"), std::string::npos);   // right-to-left override
    EXPECT_EQ(shown, "r50\\x1b]0;owned\\x07\\x1b[2J\\u009b31m\\u202egnp.exe");
    EXPECT_EQ(terminalText("a\tb\nc"), "a\tb\nc");
}
