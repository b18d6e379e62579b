#include "core/report/reportdocument.h"

#include "core/model/outputtext.h"

#include "core/measure/steadystateanalyzer.h"
#include "core/report/casenotes.h"
#include "core/report/comparisonreport.h"
#include "core/report/energytext.h"
#include "core/formats/formatregistry.h"
#include "core/report/report.h"
#include "core/stats/scalingloss.h"

#include <algorithm>
#include <set>

namespace sv {
namespace {

// Every value in the page is HTML element content (the page's attributes are all ScaleView's).
std::string esc(const std::string& s) {
    return htmlText(s);
}

std::string opt(const std::optional<double>& v, int decimals) {
    return v ? formatShown(*v, decimals) : std::string("–");
}

std::string ci(const std::optional<Interval>& v, int decimals) {
    return v ? formatFixed(v->lo, decimals) + " – " + formatFixed(v->hi, decimals) : "–";
}

std::string row(const std::vector<std::string>& cells, const char* tag = "td") {
    std::string out = "<tr>";
    for (const auto& c : cells)
        out += std::string("<") + tag + ">" + esc(c) + "</" + tag + ">";
    return out + "</tr>\n";
}

// An SVG as Qt writes it, without its XML declaration and DOCTYPE (not allowed mid-document).
std::string inlineSvg(const std::string& svg) {
    const auto start = svg.find("<svg");
    // Characters no XML holds are replaced even here: the page must stay well-formed XHTML.
    return start == std::string::npos ? std::string() : xmlCharacters(svg.substr(start));
}

// The units of the cases' figures, each once, in the order met ("images/s", "tokens/s").
std::vector<std::string> unitsOf(const std::vector<const Summary*>& summaries) {
    std::vector<std::string> units;
    for (const Summary* s : summaries)
        for (const auto& c : s->cases)
            if (const std::string u(logFormatOf(c.key.format).unit);
                std::find(units.begin(), units.end(), u) == units.end())
                units.push_back(u);
    if (units.empty()) units.push_back("images/s");
    return units;
}

std::string unitsText(const std::vector<const Summary*>& summaries) {
    const auto units = unitsOf(summaries);
    if (units.size() == 1) return "Throughput in " + units.front();
    std::string all;
    for (const auto& u : units)
        all += (all.empty() ? "" : ", ") + u;
    return "Throughput in each case's own unit (" + all + ")";
}

// How the figures were read: "time method, warmup 20, iterations 120", or, where every case's
// figure is its log's own reports (no time or speed method over them), the window alone.
std::string methodText(const Summary& s) {
    const auto own = [](const CaseStats& c) { return readsOwnReports(logFormatOf(c.key.format)); };
    const bool ownReports = !s.cases.empty() && std::all_of(s.cases.begin(), s.cases.end(), own);
    return ownReports ? windowText(s)
                      : std::string(methodName(s.options.method)) + " method, " + windowText(s);
}

std::vector<const Summary*> summariesOf(const ReportInput& in) {
    std::vector<const Summary*> out;
    for (const auto& r : in.series)
        out.push_back(&r.summary);
    return out;
}

std::string caseTable(const Summary& s) {
    std::string out =
        "<table>\n" +
        row({"model", "precision", "batch", "nodes", s.onCpuRanks() ? "ranks" : "GPUs", "runs",
             "median", "95 % CI", "mean", "CV %", "speedup", "efficiency", "reference",
             "reference method", "delta %", "vs reference's repeats", "% of peak"},
            "th");
    for (const auto& c : s.cases) {
        std::string ab = "–";
        if (const auto& k = c.referenceContrast; k && k->ratio)
            ab = formatFixed(*k->ratio, 4) +
                 (k->ratioCi95
                      ? " [" + ci(k->ratioCi95, 4) + "]: " + referenceVerdictWords(k->verdict)
                      : std::string());
        // Counts nobody states are "?", never 0.
        const bool known = c.gpus() > 0;
        // Three repeats or fewer: the interval is their min–max, said as such.
        const std::string interval =
            ci(c.medianCi95, 2) + (c.medianCiIsMinMax() ? " (min–max)" : "");
        out += row({c.key.model, c.key.precision, std::to_string(c.key.batchPerDevice),
                    known && !nodesUnstated(c, s.runs) ? std::to_string(c.key.topology.nodes) : "?",
                    known ? std::to_string(c.gpus()) : "?", std::to_string(c.values.size()),
                    opt(c.median, 2), interval, opt(c.mean, 2), opt(c.cvPct, 2), opt(c.speedup, 2),
                    c.efficiency ? formatFixed(*c.efficiency * 100.0, 1) + " %" : "–",
                    c.reference ? c.reference->label() + " (" +
                                      formatFixed(c.reference->throughput, 2) + ")"
                                : "–",
                    c.referenceMethod.empty() ? "–" : c.referenceMethod,
                    c.deltaPct ? formatShown(*c.deltaPct, 1) : "–", ab, peakCell(c.peak)});
    }
    out += "</table>\n";
    // What each percent of peak rests on (or why there is none), once per distinct basis.
    std::set<std::string> peaks;
    for (const auto& c : s.cases)
        if (c.median) peaks.insert(peakBasis(c.peak));
    for (const auto& p : peaks)
        out += "<p class=\"note\">percent of peak: " + htmlText(p) + "</p>\n";
    return out;
}

// Where each multi-device case's scaling goes (issue 28): its loss and the parts the campaign's
// probes measured, "not measured" for the others; rows of cells, header first; none without a
// multi-device case with an efficiency. A breakdown not to trust says so under the table.
struct LossTable {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> cautions; // "<case>: this breakdown is not reliable: <why>"
};

LossTable lossTable(const Summary& s) {
    LossTable table;
    auto& rows = table.rows;
    const ProbeFile probes = readCampaignProbes(s.root);
    for (const auto& c : s.cases) {
        const auto loss = c.gpus() > 1 ? scalingLossFor(s.cases, c, probes) : std::nullopt;
        if (!loss) continue;
        std::vector<std::string> row{
            c.key.model + " " + c.key.precision + " b" + std::to_string(c.key.batchPerDevice) +
                " " + c.key.topology.name(),
            formatFixed(loss->totalPct, 2) +
                (loss->totalCi95 ? " [" + formatFixed(loss->totalCi95->lo, 2) + ", " +
                                       formatFixed(loss->totalCi95->hi, 2) + "]"
                                 : "")};
        for (const auto& kind : scalingLossKinds()) {
            std::string cell = "not measured";
            for (const auto& p : loss->parts)
                if (p.kind == kind)
                    cell = formatFixed(p.pct, 2) +
                           (p.pct < -0.005 ? " (the parts exceed the loss)" : "");
            row.push_back(cell);
        }
        if (!loss->unreliable.empty())
            table.cautions.push_back(row.front() +
                                     ": this breakdown is not reliable: " + loss->unreliable + ".");
        std::string slow;
        for (const auto& n : loss->slowNodes)
            slow += (slow.empty() ? "" : ", ") + n.node + " (" + formatFixed(n.slowerPct, 1) +
                    " % slower)";
        row.push_back(slow.empty() ? "–" : slow);
        rows.push_back(std::move(row));
    }
    if (!rows.empty())
        rows.insert(rows.begin(), {"case", "loss (points of ideal) [95 % CI]", "device slowdown",
                                   "slowest node", "communication", "remainder", "slow nodes"});
    return table;
}

const char* kLossNote = "Each part in points of the ideal throughput (devices x the 1-device "
                        "pace), measured by the campaign's probes (run --probes); \"not "
                        "measured\" where no probe measured it; the loss itself is exact.";

// The GPUs' energy per image per case (issue 38): the measured cases in a table, the reasons the
// others were not measured once each.
std::string energySection(const Summary& s) {
    std::string rows;
    std::set<std::string> unmeasured;
    for (const auto& c : s.cases) {
        if (!c.energy) {
            if (c.median) unmeasured.insert(energyText(c));
            continue;
        }
        const CaseEnergy& e = *c.energy;
        rows += row(
            {c.key.model + " " + c.key.precision + " b" + std::to_string(c.key.batchPerDevice) +
                 " " + c.key.topology.name(),
             formatShown(e.joulesPerImage, 3) + (e.ci95 ? " [" + formatShown(e.ci95->lo, 3) + ", " +
                                                              formatShown(e.ci95->hi, 3) + "]"
                                                        : std::string()),
             formatShown(e.imagesPerJoule(), 2), energySourceText(e.source),
             e.powerJoulesPerImage ? formatShown(*e.powerJoulesPerImage, 3) : "–"});
    }
    std::string out = "<h3>Energy</h3>\n<p>" +
                      esc(std::string("GPU energy per image, ") + kEnergyScope + ".") + "</p>\n";
    if (!rows.empty())
        out += "<table>\n" +
               row({"case", "J/image [95 % CI]", "images/s/W", "source", "power samples J/image"},
                   "th") +
               rows + "</table>\n";
    for (const auto& n : unmeasured)
        out += "<p class=\"note\">" + esc(n) + "</p>\n";
    return out;
}

std::string seriesSection(const ReportSeries& r) {
    const Summary& s = r.summary;
    std::string out = "<section>\n<h2>" + esc(r.label) + "</h2>\n<p>Directory: <code>" +
                      esc(s.root) + "</code>. " + esc(unitsText({&s})) + "; " + esc(methodText(s)) +
                      (s.windowSource.empty() ? "" : " (window from " + esc(s.windowSource) + ")") +
                      ". " + std::to_string(s.runs.size()) + " logs.</p>\n";
    out += "<h3>Cases</h3>\n" + caseTable(s);
    if (const LossTable loss = lossTable(s); !loss.rows.empty()) {
        const auto& rows = loss.rows;
        out += "<h3>Where the scaling goes</h3>\n<p>" + esc(kLossNote) + "</p>\n<table>\n" +
               row(rows.front(), "th");
        for (std::size_t i = 1; i < rows.size(); ++i)
            out += row(rows[i]);
        out += "</table>\n";
        for (const auto& caution : loss.cautions)
            out += "<p class=\"note\">" + esc(caution) + "</p>\n";
    }
    out += energySection(s);
    if (!r.charts.empty() || !r.chartNote.empty()) out += "<h3>Charts</h3>\n";
    for (const auto& [title, svg] : r.charts)
        out += "<figure><figcaption>" + esc(title) + "</figcaption>\n" + inlineSvg(svg) +
               "\n</figure>\n";
    if (!r.chartNote.empty()) out += "<p class=\"note\">" + esc(r.chartNote) + "</p>\n";
    // Each case's warnings and notes in words (core/report/casenotes.h), as the command line's
    // table says them: no kind tags, no verdict codes.
    std::string cautions, notes;
    for (const auto& c : s.cases) {
        const std::string where = caseWhere(c, s.runs) + ": ";
        for (const auto& w : c.warnings)
            cautions += "<li>" + esc(where + w.message) + "</li>\n";
        for (const std::string& n :
             {outlierNote(c), referenceMethodNote(c, methodName(s.options.method)),
              referenceContrastNote(c)})
            if (!n.empty()) notes += "<li>" + esc(where + n) + "</li>\n";
    }
    for (const auto& w : s.warnings)
        cautions += "<li>" + esc(w.text()) + "</li>\n";
    out += "<h3>Warnings</h3>\n" +
           (cautions.empty() ? std::string("<p>None.</p>\n") : "<ul>\n" + cautions + "</ul>\n");
    if (!notes.empty()) out += "<h3>Notes</h3>\n<ul>\n" + notes + "</ul>\n";
    std::string excluded;
    for (const auto& c : s.cases)
        for (const auto& e : c.excluded)
            excluded += row({e.path, std::to_string(e.repeat), e.reason});
    out += "<h3>Excluded runs</h3>\n" +
           (excluded.empty()
                ? std::string("<p>None: every run counts.</p>\n")
                : "<table>\n" + row({"log", "repeat", "reason"}, "th") + excluded + "</table>\n");
    out += "<h3>Campaign and environment</h3>\n";
    if (r.files.empty())
        out += "<p>No campaign file or captured environment beside the logs.</p>\n";
    for (const auto& f : r.files)
        out += "<details><summary>" + esc(f.name) + "</summary><pre>" + esc(f.text) +
               "</pre></details>\n";
    return out + "</section>\n";
}

// A verdict in words, as the screen says it (the codes are JSON's and CSV's), with the series a
// case is only in by name, and whether the runs it is over were disturbed.
std::string verdictCell(const Comparison& c, const CaseComparison& cc, std::size_t b) {
    const Verdict v = cc.contrasts[b - 1].verdict;
    std::string out = v == Verdict::OnlyInA   ? "only in " + c.labels[0]
                      : v == Verdict::OnlyInB ? "only in " + c.labels[b]
                                              : std::string(verdictWords(v));
    const auto said = [&](std::size_t s) {
        return s < cc.disturbed.size() && !cc.disturbed[s].empty();
    };
    if (said(0) || said(b)) out += " (runs disturbed: ";
    if (said(0)) out += c.labels[0] + ": " + cc.disturbed[0];
    if (said(0) && said(b)) out += "; ";
    if (said(b)) out += c.labels[b] + ": " + cc.disturbed[b];
    if (said(0) || said(b)) out += ")";
    return out;
}

std::string comparisonSection(const Comparison& c) {
    std::string out = "<section>\n<h2>Comparison</h2>\n<p>Each series against the first (" +
                      esc(c.labels.front()) +
                      "): the ratio of medians with its 95 % bootstrap interval; a change is "
                      "called only when the interval excludes 1 and the change is beyond " +
                      formatFixed(c.options.thresholdPct, 1) + " %.</p>\n<table>\n";
    out += row(comparisonTableHead(c), "th");
    for (const auto& cc : c.cases) {
        std::vector<std::string> cells = {cc.key.model + " " + cc.key.precision + " bs" +
                                          std::to_string(cc.key.batchPerDevice) + " " +
                                          cc.key.topology.name()};
        for (const auto& m : cc.medians)
            cells.push_back(opt(m, 2));
        for (std::size_t i = 0; i < cc.contrasts.size(); ++i) {
            const CaseContrast& k = cc.contrasts[i];
            cells.push_back(k.ratio ? formatFixed(*k.ratio, 4) +
                                          (k.ratioCi95 ? " [" + ci(k.ratioCi95, 4) + "]" : "")
                                    : "–");
            cells.push_back(verdictCell(c, cc, i + 1));
        }
        out += row(cells);
    }
    out += "</table>\n<ul class=\"changed\">\n";
    for (const auto& line : comparisonChangeLines(c))
        out += "<li>" + esc(line) + "</li>\n";
    return out + "</ul>\n</section>\n";
}

const char* kStyle = R"(body{font-family:sans-serif;margin:2em;max-width:80em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}
th{background:#eee}figure{margin:1em 0}figure svg{max-width:100%;height:auto}
pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em}.note{color:#a60}
)";

} // namespace

std::string formatHtmlReport(const ReportInput& in) {
    std::string title = "ScaleView report";
    if (!in.series.empty()) title += ": " + in.series.front().label;
    for (std::size_t i = 1; i < in.series.size(); ++i)
        title += (i + 1 == in.series.size() ? " and " : ", ") + in.series[i].label;
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
                      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                      "<meta charset=\"UTF-8\"/>\n<title>" +
                      esc(title) + "</title>\n<style>" + kStyle +
                      "</style>\n</head>\n<body>\n<h1>" + esc(title) + "</h1>\n<p>ScaleView " +
                      esc(in.version) + ", " + esc(in.generated) + ". " +
                      esc(unitsText(summariesOf(in))) +
                      "; DLPerf's method and statistics (median of the repeats, speedup against "
                      "1n1g).</p>\n";
    if (in.comparison) out += comparisonSection(*in.comparison);
    for (const auto& s : in.series)
        out += seriesSection(s);
    return out + "</body>\n</html>\n";
}

std::string formatMarkdownReport(const ReportInput& in) {
    std::string out = "# ScaleView report\n\nScaleView " + in.version + ", " + in.generated + ". " +
                      unitsText(summariesOf(in)) + ".\n\n";
    if (in.comparison) out += "## Comparison\n\n" + formatComparisonMarkdown(*in.comparison) + "\n";
    // Every value below is the logs', the sidecars' or the user's: Markdown-escaped, so none
    // is raw HTML, a link or a table's cell break (core/model/outputtext.h).
    for (const auto& r : in.series) {
        const Summary& s = r.summary;
        out += "## " + markdownText(r.label) + "\n\nDirectory " + markdownCode(s.root) + ", " +
               markdownText(unitsText({&s})) + ", " + markdownText(methodText(s)) + ".\n\n" +
               formatMarkdown(s) + "\n";
        if (const LossTable loss = lossTable(s); !loss.rows.empty()) {
            const auto& rows = loss.rows;
            out += "Where the scaling goes. " + std::string(kLossNote) + "\n\n";
            for (std::size_t i = 0; i < rows.size(); ++i) {
                std::string line = "|";
                for (const auto& cell : rows[i])
                    line += " " + markdownText(cell) + " |";
                out += line + "\n";
                if (i > 0) continue;
                std::string rule = "|";
                for (std::size_t k = 0; k < rows[i].size(); ++k)
                    rule += " --- |";
                out += rule + "\n";
            }
            out += "\n";
            for (const auto& caution : loss.cautions)
                out += "**" + markdownText(caution) + "**\n\n";
        }
        for (const auto& [title, file] : r.charts)
            out += "![" + markdownText(title) + "](" + markdownLinkTarget(file) + ")\n\n";
        if (!r.chartNote.empty()) out += "> " + markdownText(r.chartNote) + "\n\n";
        std::string excluded;
        for (const auto& c : s.cases)
            for (const auto& e : c.excluded)
                excluded += "- " + markdownCode(e.path) + ": " + markdownText(e.reason) + "\n";
        if (!excluded.empty()) out += "Excluded runs:\n\n" + excluded + "\n";
    }
    return out;
}

} // namespace sv
