// Fuzzes what ScaleView writes: random bytes in every text field of a summary and a comparison
// (model, precision, label, directory, log paths, warnings, excluded runs' reasons, captured
// files, chart titles, what changed) written as JSON, CSV, HTML, Markdown, the terminal table
// and SVG text. Each must validate: the JSON parses, every CSV record has the header's fields and
// no text cell starts a formula, the HTML and Markdown hold exactly the markup a twin with plain
// values holds (no tag, link or cell break came from a value), and no output but JSON holds a
// control character or a byte that is not UTF-8.

#include "core/compare/comparison.h"
#include "core/model/jsontext.h"
#include "core/model/outputtext.h"
#include "core/report/comparisonreport.h"
#include "core/report/report.h"
#include "core/report/reportdocument.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

// The fields' texts, drawn once; the twin maps each distinct text to a plain token, so equal
// texts stay equal (cases group by model) and empty ones stay empty.
struct Texts {
    std::vector<std::string> drawn;
    bool twin = false;
    std::map<std::string, std::string> tokens;

    std::string at(std::size_t i) {
        const std::string& s = drawn[i % drawn.size()];
        if (!twin || s.empty()) return s;
        auto [it, added] = tokens.try_emplace(s, "t" + std::to_string(tokens.size()));
        return it->second;
    }
};

sv::CaseStats makeCase(Texts& t, std::size_t base, sv::Topology topology, double speed) {
    sv::CaseStats c;
    c.key = {t.at(base), t.at(base + 1), 64, topology, "ngc-mxnet"};
    c.repeats = {1, 2, 3};
    c.values = {speed, speed * 1.01, speed * 0.99};
    c.paths = {t.at(base + 2), t.at(base + 3), t.at(base + 4)};
    c.mean = c.median = speed;
    c.min = speed * 0.99;
    c.max = speed * 1.01;
    c.stdev = speed * 0.01;
    c.cvPct = 1.0;
    c.excluded = {{t.at(base + 5), 4, t.at(base + 6)}};
    c.warnings = {{t.at(base + 7), t.at(base + 8)}};
    c.deltaNote = t.at(base + 9);
    return c;
}

sv::Summary makeSummary(Texts& t, std::size_t base) {
    sv::Summary s;
    s.root = t.at(base);
    s.windowSource = t.at(base + 1);
    s.cases.push_back(makeCase(t, base + 2, {1, 1}, 100.0));
    s.cases.push_back(makeCase(t, base + 2, {1, 2}, 190.0)); // the same group
    s.cases.push_back(makeCase(t, base + 12, {1, 1}, 50.0));
    s.warnings.push_back({t.at(base + 22), 7, t.at(base + 23)});
    return s;
}

// A chart as the report inlines it: Qt's markup with the title and the texts escaped as the
// chart export escapes them.
std::string chartSvg(const std::string& title, const std::string& label) {
    return sv::xmlCharacters("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">"
                             "<title>" +
                             sv::xmlText(title) + "</title><text>" + sv::xmlText(label) +
                             "</text></svg>");
}

sv::Comparison makeComparison(Texts& t, const sv::Summary& a, const sv::Summary& b) {
    std::vector<sv::ComparisonSeries> series(2);
    for (int i = 0; i < 2; ++i) {
        const sv::Summary& s = i ? b : a;
        series[i].label = t.at(40 + i);
        series[i].source = s.root;
        series[i].cases = s.cases;
        series[i].recorded =
            sv::RecordedFacts{{"driver", t.at(42 + i)}, {"container_image", t.at(45 + i)}};
        series[i].caseRecorded.assign(s.cases.size(), {{"log." + t.at(47), t.at(48 + i)}});
    }
    sv::ComparisonOptions options;
    options.resamples = 20;
    return sv::compareSeries(series, options);
}

struct Outputs {
    std::vector<std::string> json, csv, html, markdown, terminal;
};

Outputs writeAll(Texts& t) {
    const sv::Summary a = makeSummary(t, 0), b = makeSummary(t, 1);
    Outputs o;
    o.json = {sv::formatJson(a, "fuzz"), sv::formatDlperfJson(a)};
    o.csv = {sv::formatCsv(a)};
    o.markdown = {sv::formatMarkdown(a)};
    o.terminal = {sv::formatTable(a)};
    const sv::Comparison c = makeComparison(t, a, b);
    o.json.push_back(sv::formatComparisonJson(c, "fuzz"));
    o.csv.push_back(sv::formatComparisonCsv(c));
    o.markdown.push_back(sv::formatComparisonMarkdown(c));
    o.terminal.push_back(sv::formatComparisonTable(c));
    sv::ReportInput in;
    in.version = "fuzz";
    in.generated = "now";
    for (int i = 0; i < 2; ++i) {
        sv::ReportSeries r;
        r.label = c.labels[i];
        r.summary = i ? b : a;
        r.files = {{t.at(30 + i), t.at(32 + i)}};
        r.charts = {{t.at(34), chartSvg(t.at(34), t.at(35))}};
        r.chartNote = t.at(36);
        in.series.push_back(std::move(r));
    }
    in.comparison = c;
    o.html = {sv::formatHtmlReport(in)};
    for (auto& r : in.series)
        r.charts = {{t.at(34), t.at(37)}}; // Markdown: the image file's name
    o.markdown.push_back(sv::formatMarkdownReport(in));
    return o;
}

[[noreturn]] void fail(const char* what, const std::string& output) {
    std::fprintf(stderr, "%s\n--- output ---\n%s\n", what, output.c_str());
    std::abort();
}

// UTF-8, with no control character (nor DEL, C1, the bidi controls) but line breaks and tabs,
// and carriage returns where the format keeps them (a CSV cell, an HTML <pre>), never for a
// terminal or in Markdown.
void checkText(const std::string& s, bool carriageReturns) {
    if (sv::validUtf8(s) != s) fail("not UTF-8", s);
    if ((carriageReturns ? sv::xmlCharacters(s) : sv::terminalText(s)) != s)
        fail("a control character", s);
}

// RFC 4180 records: each the header's field count, and text cells (the first two: model,
// precision) never a formula.
void checkCsv(const std::string& s) {
    std::vector<std::vector<std::string>> records(1);
    std::string field;
    bool quoted = false;
    records.back().emplace_back();
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        std::string& f = records.back().back();
        if (quoted) {
            if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
                f += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                f += c;
            }
        } else if (c == '"' && f.empty()) {
            quoted = true;
        } else if (c == ',') {
            records.back().emplace_back();
        } else if (c == '\n') {
            records.emplace_back();
            records.back().emplace_back();
        } else {
            f += c;
        }
    }
    if (quoted) fail("an unclosed quote", s);
    records.pop_back(); // after the last line break
    for (std::size_t r = 1; r < records.size(); ++r) {
        if (records[r].size() != records[0].size()) fail("a record of another width", s);
        for (std::size_t k = 0; k < 2; ++k)
            if (!records[r][k].empty() &&
                std::string_view("=+-@\t\r").find(records[r][k][0]) != std::string_view::npos)
                fail("a formula", s);
    }
}

// The markup characters outside escapes (and, for Markdown, outside code spans), sorted: the
// twin's cases may sort in another order (their keys are other texts), never hold other markup.
std::string markup(const std::string& s, bool markdown) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (markdown && c == '\\') {
            ++i;
            continue;
        }
        if (markdown && c == '`') {
            std::size_t n = 0;
            while (i + n < s.size() && s[i + n] == '`')
                ++n;
            const std::string fence(n, '`');
            std::size_t end = i + n;
            while ((end = s.find(fence, end)) != std::string::npos && end + n < s.size() &&
                   s[end + n] == '`')
                end += n + 1;
            if (end == std::string::npos) fail("an unclosed code span", s);
            i = end + n - 1;
            continue;
        }
        if (std::string_view(markdown ? "<[]|*_" : "<>").find(c) != std::string_view::npos)
            out += c;
        if (!markdown && c == '&') {
            const auto semi = s.find(';', i);
            const std::string ref = semi == std::string::npos ? "" : s.substr(i, semi - i + 1);
            if (ref != "&amp;" && ref != "&lt;" && ref != "&gt;" && ref != "&quot;" &&
                ref != "&#39;")
                fail("a bare &", s);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    Texts t;
    while (fdp.remaining_bytes() > 0 && t.drawn.size() < 64)
        t.drawn.push_back(fdp.ConsumeRandomLengthString(64));
    if (t.drawn.empty()) t.drawn.push_back("");
    const Outputs o = writeAll(t);
    for (const auto& s : o.json) {
        try {
            (void)nlohmann::json::parse(s);
        } catch (const nlohmann::json::exception& e) {
            fail(e.what(), s);
        }
    }
    for (const auto& s : o.csv) {
        checkText(s, true);
        checkCsv(s);
    }
    for (const auto& s : o.terminal)
        checkText(s, false);
    for (const auto& s : o.html)
        checkText(s, true);
    for (const auto& s : o.markdown)
        checkText(s, false);
    Texts plain = t;
    plain.twin = true;
    const Outputs twin = writeAll(plain);
    for (std::size_t i = 0; i < o.html.size(); ++i)
        if (markup(o.html[i], false) != markup(twin.html[i], false))
            fail("markup from a value (HTML)", o.html[i] + "\n--- the twin ---\n" + twin.html[i]);
    for (std::size_t i = 0; i < o.markdown.size(); ++i)
        if (markup(o.markdown[i], true) != markup(twin.markdown[i], true))
            fail("markup from a value (Markdown)",
                 o.markdown[i] + "\n--- its markup ---\n" + markup(o.markdown[i], true) +
                     "\n--- a plain twin's ---\n" + markup(twin.markdown[i], true) +
                     "\n--- the twin ---\n" + twin.markdown[i]);
    return 0;
}
