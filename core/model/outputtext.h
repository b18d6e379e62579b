#pragma once
// Text from logs, sidecars, format files and databases made safe for where it lands: one
// function per destination, and every writer uses the one for its destination (the HTML report,
// SVG charts, Markdown, CSV, the terminal). What each does is in docs/security.md, "What
// ScaleView writes". JSON has its own, core/model/jsontext.h.
//
// Shared by every destination but JSON: bytes that are not UTF-8 become U+FFFD, and control
// characters (C0 but the destination's own white space, DEL, C1) and the bidirectional
// overrides and isolates are shown as "\x1b" or "\u202e", so that no log can move a terminal's
// cursor or reorder what a reader sees.

#include <cstddef>
#include <string>
#include <string_view>

namespace sv {

// s with each sequence that is not UTF-8 (a stray byte, a cut character, an overlong form, a
// surrogate) replaced by U+FFFD, one per maximal invalid part as Unicode recommends.
std::string validUtf8(std::string_view s);

// The longest prefix of s of at most maxBytes bytes that does not end inside a character: where
// a value is cut to a length, the cut falls between two characters.
std::string_view utf8Prefix(std::string_view s, std::size_t maxBytes);

// HTML element content (and the report's <pre>): & < > " ' as references; line breaks and tabs
// kept.
std::string htmlText(std::string_view s);
// A quoted HTML attribute's value: the same references, so no quote ends it.
std::string htmlAttribute(std::string_view s);
// SVG and other XML text or attribute values: the same references, and no character XML 1.0
// forbids (its C0 controls, U+FFFE, U+FFFF), so the document stays well-formed.
std::string xmlText(std::string_view s);
// A whole XML document written by another writer (Qt's SVG generator), its markup as it is:
// only the characters XML 1.0 forbids, and bytes that are not UTF-8, are replaced, which no
// markup holds.
std::string xmlCharacters(std::string_view document);

// Markdown prose, headings and table cells: every character Markdown or GitHub's tables could
// read as inline markup (\ ` * _ { } [ ] < # | ~ &) backslash-escaped, and > + - = where they
// begin the value, so no raw HTML, link, image, emphasis or cell break comes from a value; line
// breaks become spaces.
std::string markdownText(std::string_view s);
// A Markdown code span holding s (for paths): fenced by more backticks than s holds in a row,
// line breaks as spaces. Not for table cells, where a '|' would still split the cell.
std::string markdownCode(std::string_view s);

// A Markdown link or image destination (the file names of a report's charts), written between
// ( and ): what markdownText escapes and ( ) > ! backslash-escaped, spaces as %20, line breaks
// and controls shown, so it cannot end the link or begin markup.
std::string markdownLinkTarget(std::string_view s);

// One CSV cell as RFC 4180 writes it (quoted when it holds a comma, a quote or a line break,
// its quotes doubled), and, by OWASP's rule against formula injection, prefixed with ' when it
// starts with = + - @ a tab or a carriage return, so that no spreadsheet runs it.
std::string csvField(std::string_view s);

// Text for a terminal (tables, warnings, notes): line breaks and tabs kept, every other control
// character shown, so no escape sequence from a log reaches the terminal.
std::string terminalText(std::string_view s);

} // namespace sv
