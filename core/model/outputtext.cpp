#include "core/model/outputtext.h"

#include <algorithm>
#include <cstdio>

namespace sv {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

// The UTF-8 character at s[i]: its length and code point, or 0 and in *bad the length of the
// maximal invalid part there (at least 1), by Unicode's table of well-formed sequences (no
// overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t decode(std::string_view s, std::size_t i, char32_t& c, std::size_t& bad) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        c = b0;
        return 1;
    }
    std::size_t need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
        need = 1;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        need = 2;
        if (b0 == 0xE0) lo = 0xA0;
        if (b0 == 0xED) hi = 0x9F; // surrogates
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        need = 3;
        if (b0 == 0xF0) lo = 0x90;
        if (b0 == 0xF4) hi = 0x8F;
    } else {
        bad = 1;
        return 0;
    }
    c = b0 & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
    for (std::size_t k = 1; k <= need; ++k) {
        if (i + k >= s.size()) {
            bad = k;
            return 0;
        }
        const auto b = static_cast<unsigned char>(s[i + k]);
        if (b < lo || b > hi) {
            bad = k;
            return 0;
        }
        lo = 0x80;
        hi = 0xBF;
        c = (c << 6) | (b & 0x3F);
    }
    return need + 1;
}

// Calls each(code point, its bytes, out) for every character of s; what is not UTF-8 becomes
// U+FFFD in out without a call.
template <typename Each> std::string eachCharacter(std::string_view s, Each each) {
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (std::size_t i = 0; i < s.size();) {
        char32_t c = 0;
        std::size_t bad = 0;
        const std::size_t n = decode(s, i, c, bad);
        if (n == 0) {
            appendUtf8(out, kReplacement);
            i += bad;
            continue;
        }
        each(c, s.substr(i, n), out);
        i += n;
    }
    return out;
}

bool isBidiControl(char32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

// A character no destination but JSON takes as it is: C0 controls but those in keep, DEL, C1,
// the bidirectional controls; and U+FFFE, U+FFFF, which XML forbids.
bool shown(char32_t c, std::string_view keep) {
    if (c < 0x20) return keep.find(static_cast<char>(c)) == std::string_view::npos;
    return (c >= 0x7F && c <= 0x9F) || isBidiControl(c) || c == 0xFFFE || c == 0xFFFF;
}

// "\x1b" for an ASCII control, "\u202e" for the rest.
void appendShown(std::string& out, char32_t c) {
    char buf[16];
    if (c < 0x80)
        std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
    else
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
    out += buf;
}

// The references of HTML and XML alike (&#39;, not &apos;, which HTML 4 lacks).
std::string markupText(std::string_view s) {
    return eachCharacter(s, [](char32_t c, std::string_view bytes, std::string& out) {
        switch (c) {
        case '&':
            out += "&amp;";
            return;
        case '<':
            out += "&lt;";
            return;
        case '>':
            out += "&gt;";
            return;
        case '"':
            out += "&quot;";
            return;
        case '\'':
            out += "&#39;";
            return;
        default:
            if (shown(c, "\t\n\r"))
                appendShown(out, c);
            else
                out += bytes;
        }
    });
}

// Controls shown and line breaks and tabs as spaces: the text of one Markdown line.
std::string markdownLine(std::string_view s, std::string_view escaped) {
    return eachCharacter(s, [escaped](char32_t c, std::string_view bytes, std::string& out) {
        if (c == '\n' || c == '\r' || c == '\t') {
            out += ' ';
        } else if (shown(c, "")) {
            appendShown(out, c);
        } else {
            if (c < 0x80 && escaped.find(static_cast<char>(c)) != std::string_view::npos)
                out += '\\';
            out += bytes;
        }
    });
}

std::string keepingWhiteSpace(std::string_view s, std::string_view keep) {
    return eachCharacter(s, [keep](char32_t c, std::string_view bytes, std::string& out) {
        if (shown(c, keep))
            appendShown(out, c);
        else
            out += bytes;
    });
}

} // namespace

std::string validUtf8(std::string_view s) {
    return eachCharacter(s,
                         [](char32_t, std::string_view bytes, std::string& out) { out += bytes; });
}

std::string_view utf8Prefix(std::string_view s, std::size_t maxBytes) {
    if (s.size() <= maxBytes) return s;
    std::size_t end = maxBytes;
    // Back to the first byte of the character the cut falls in (at most 3: a longer run of
    // continuation bytes is no character, and is cut where asked).
    for (int k = 0; k < 3 && end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80; ++k)
        --end;
    if ((static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) end = maxBytes;
    return s.substr(0, end);
}

std::string htmlText(std::string_view s) {
    return markupText(s);
}

std::string htmlAttribute(std::string_view s) {
    return markupText(s);
}

std::string xmlText(std::string_view s) {
    return markupText(s);
}

std::string xmlCharacters(std::string_view document) {
    return keepingWhiteSpace(document, "\t\n\r");
}

std::string markdownText(std::string_view s) {
    // Inline markup everywhere; what is markup only at a line's start (a quote, a list item, a
    // setext rule) only there. With [ and < escaped no link, image or tag can begin, so ( ) ! >
    // elsewhere stay as they read.
    std::string out = markdownLine(s, "\\`*_{}[]<#|~&");
    if (!out.empty() && std::string_view(">+-=").find(out.front()) != std::string_view::npos)
        out.insert(out.begin(), '\\');
    return out;
}

std::string markdownCode(std::string_view s) {
    const std::string text = markdownLine(s, "");
    std::size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(longest + 1, '`');
    // CommonMark strips one space from each end, and a backtick at an end would join the fence.
    const bool pad = text.empty() || text.front() == '`' || text.back() == '`' ||
                     text.front() == ' ' || text.back() == ' ';
    return pad ? fence + " " + text + " " + fence : fence + text + fence;
}

std::string markdownLinkTarget(std::string_view s) {
    std::string out;
    // Backslash escapes hold in a destination too: the same characters as markdownText's, and
    // the parentheses and > that would end or bend the link.
    for (char c : markdownLine(s, "\\`*_{}[]<>()#|!~&"))
        out += c == ' ' ? std::string("%20") : std::string(1, c);
    return out;
}

std::string csvField(std::string_view s) {
    std::string text = keepingWhiteSpace(s, "\t\n\r");
    if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos)
        text.insert(text.begin(), '\'');
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string terminalText(std::string_view s) {
    return keepingWhiteSpace(s, "\t\n");
}

} // namespace sv
