#include "core/report/comparisonreport.h"

#include "core/model/outputtext.h"
#include "core/report/report.h"
#include "core/model/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace sv {
namespace {

std::string opt(const std::optional<double>& v, int decimals) {
    return v ? formatFixed(*v, decimals) : std::string("-");
}

std::string caseName(const CaseKey& k) {
    return k.model + " " + k.precision + " bs" + std::to_string(k.batchPerDevice) + " " +
           k.topology.name();
}

std::string ratioText(const CaseContrast& c) {
    if (!c.ratio) return "-";
    std::string s = formatFixed(*c.ratio, 4);
    if (c.ratioCi95)
        s += " [" + formatFixed(c.ratioCi95->lo, 4) + ", " + formatFixed(c.ratioCi95->hi, 4) + "]";
    return s;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

// What the first lines of every text format say: the series, their method, the threshold.
// text(value) makes a label or a source safe for the format (Markdown escapes, a terminal's
// controls shown).
std::string seriesLegend(const Comparison& c, const char* prefix,
                         std::string (*text)(std::string_view)) {
    std::string out;
    for (std::size_t i = 0; i < c.labels.size(); ++i)
        out += std::string(prefix) + (i == 0 ? "A" : "series " + std::to_string(i + 1)) + ": " +
               text(c.labels[i]) + " (" + text(c.sources[i]) + ", " +
               std::string(methodName(c.methods[i])) + " method)\n";
    out += std::string(prefix) +
           "ratio: series median / first series' median, with its 95 % bootstrap interval; a "
           "change is called only when the interval excludes 1 and the change is beyond " +
           formatFixed(c.options.thresholdPct, 1) + " %\n";
    return out;
}

nlohmann::json changesJson(const std::vector<EnvironmentChange>& changes) {
    auto out = nlohmann::json::array();
    for (const auto& c : changes)
        out.push_back({{"what", c.what}, {"a", c.a}, {"b", c.b}});
    return out;
}

nlohmann::json contrastJson(const CaseContrast& c, const std::vector<EnvironmentChange>& changed) {
    nlohmann::json j;
    j["ratio"] = c.ratio ? nlohmann::json(*c.ratio) : nlohmann::json(nullptr);
    j["ratio_ci95"] = c.ratioCi95 ? nlohmann::json::array({c.ratioCi95->lo, c.ratioCi95->hi})
                                  : nlohmann::json(nullptr);
    j["verdict"] = std::string(verdictName(c.verdict));
    if (!c.note.empty()) j["note"] = c.note;
    j["changed"] = changesJson(changed);
    return j;
}

} // namespace

std::vector<std::string> comparisonTableHead(const Comparison& c) {
    std::vector<std::string> head = {"case"};
    for (const auto& l : c.labels)
        head.push_back(l);
    for (std::size_t i = 1; i < c.labels.size(); ++i) {
        head.push_back(c.labels[i] + " / " + c.labels[0] + " [95 % CI]");
        head.push_back("verdict");
    }
    return head;
}

std::vector<std::string> comparisonChangeLines(const Comparison& c) {
    std::vector<std::string> out;
    for (std::size_t i = 1; i < c.labels.size(); ++i) {
        // The cases of pair i grouped by their changes, in the cases' order.
        std::vector<std::pair<const std::vector<EnvironmentChange>*, std::string>> groups;
        for (const auto& cc : c.cases) {
            const auto& changed = cc.changed[i - 1];
            auto it = std::find_if(groups.begin(), groups.end(),
                                   [&](const auto& g) { return *g.first == changed; });
            if (it == groups.end()) it = groups.insert(groups.end(), {&changed, std::string()});
            it->second += (it->second.empty() ? "" : ", ") + caseName(cc.key);
        }
        const std::string head = "what changed, " + c.labels[i] + " against " + c.labels[0];
        for (const auto& [changed, cases] : groups)
            out.push_back(head + (groups.size() > 1 ? " (" + cases + ")" : std::string()) + ": " +
                          describeChanges(*changed));
    }
    return out;
}

std::string formatComparisonTable(const Comparison& c) {
    std::string out = seriesLegend(c, "", terminalText);
    const std::vector<std::string> head = comparisonTableHead(c);
    std::vector<std::vector<std::string>> rows = {head};
    for (const auto& cc : c.cases) {
        std::vector<std::string> row = {caseName(cc.key)};
        for (const auto& m : cc.medians)
            row.push_back(opt(m, 2));
        // The verdict in words, as the app and the HTML report say it (CSV and JSON: the codes).
        for (const auto& k : cc.contrasts) {
            row.push_back(ratioText(k));
            row.push_back(std::string(verdictWords(k.verdict)));
        }
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> width(head.size(), 0);
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i)
            width[i] = std::max(width[i], r[i].size());
    out += "\n";
    for (const auto& r : rows) {
        std::string line;
        for (std::size_t i = 0; i < r.size(); ++i)
            line += (i ? "  " : "") + pad(r[i], width[i]);
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    for (const auto& cc : c.cases)
        for (const auto& k : cc.contrasts)
            if (!k.note.empty()) out += "note: " + caseName(cc.key) + ": " + k.note + "\n";
    for (const auto& line : comparisonChangeLines(c))
        out += line + "\n";
    // For a terminal: no escape sequence from a log moves its cursor or recolours it.
    return terminalText(out);
}

std::string formatComparisonCsv(const Comparison& c) {
    std::string out = "model,precision,batch_size_per_device,topology";
    for (const auto& l : c.labels)
        out += "," + csvField("median " + l);
    for (std::size_t i = 1; i < c.labels.size(); ++i) {
        const std::string pair = c.labels[i] + "/" + c.labels[0];
        out += "," + csvField("ratio " + pair) + "," + csvField("ratio_ci95_lo " + pair) + "," +
               csvField("ratio_ci95_hi " + pair) + "," + csvField("verdict " + pair) + "," +
               csvField("changed " + pair);
    }
    out += "\n";
    for (const auto& cc : c.cases) {
        out += csvField(cc.key.model) + "," + csvField(cc.key.precision) + "," +
               (cc.key.batchPerDevice > 0 ? std::to_string(cc.key.batchPerDevice) : "") + "," +
               (cc.key.topology.ranks() > 0 ? cc.key.topology.name() : "");
        for (const auto& m : cc.medians)
            out += "," + (m ? formatFixed(*m, 2) : std::string());
        for (std::size_t i = 0; i < cc.contrasts.size(); ++i) {
            const CaseContrast& k = cc.contrasts[i];
            out += "," + (k.ratio ? formatFixed(*k.ratio, 6) : std::string()) + "," +
                   (k.ratioCi95 ? formatFixed(k.ratioCi95->lo, 6) : std::string()) + "," +
                   (k.ratioCi95 ? formatFixed(k.ratioCi95->hi, 6) : std::string()) + "," +
                   std::string(verdictName(k.verdict)) + "," +
                   csvField(describeChanges(cc.changed[i]));
        }
        out += "\n";
    }
    return out;
}

std::string formatComparisonMarkdown(const Comparison& c) {
    std::string out = seriesLegend(c, "> ", markdownText) + "\n| node_num | gpu_num |";
    for (const auto& l : c.labels)
        out += " " + markdownText(l) + " samples/s |";
    for (std::size_t i = 1; i < c.labels.size(); ++i)
        out += " " + markdownText(c.labels[i]) + " / " + markdownText(c.labels[0]) +
               " [95 % CI] | verdict |";
    out += "\n| --- | --- |";
    for (std::size_t i = 0; i < c.labels.size(); ++i)
        out += " --- |";
    for (std::size_t i = 1; i < c.labels.size(); ++i)
        out += " --- | --- |";
    out += "\n";
    const CaseKey* group = nullptr;
    for (const auto& cc : c.cases) {
        if (!group || !group->sameGroup(cc.key)) {
            group = &cc.key;
            out += "| " + markdownText(cc.key.model) + " " + markdownText(cc.key.precision) +
                   " bs" + std::to_string(cc.key.batchPerDevice) + " | |";
            for (std::size_t i = 0; i < c.labels.size(); ++i)
                out += " |";
            for (std::size_t i = 1; i < c.labels.size(); ++i)
                out += " | |";
            out += "\n";
        }
        out += "| " + std::to_string(cc.key.topology.nodes) + " | " +
               std::to_string(cc.key.topology.ranks()) + " |";
        for (const auto& m : cc.medians)
            out += " " + opt(m, 2) + " |";
        for (const auto& k : cc.contrasts)
            out += " " + ratioText(k) + " | " + std::string(verdictName(k.verdict)) + " |";
        out += "\n";
    }
    const auto changes = comparisonChangeLines(c);
    if (!changes.empty()) out += "\n";
    for (const auto& line : changes)
        out += "- " + markdownText(line) + "\n";
    return out;
}

std::string formatComparisonJson(const Comparison& c, std::string_view toolVersion) {
    nlohmann::json j;
    j["tool"] = std::string(toolVersion);
    j["threshold_pct"] = c.options.thresholdPct;
    j["resamples"] = c.options.resamples;
    j["series"] = nlohmann::json::array();
    for (std::size_t i = 0; i < c.labels.size(); ++i)
        j["series"].push_back({{"label", c.labels[i]},
                               {"source", c.sources[i]},
                               {"method", std::string(methodName(c.methods[i]))}});
    j["cases"] = nlohmann::json::array();
    for (const auto& cc : c.cases) {
        nlohmann::json jc;
        // Counts nobody states are null, never 0 (as in summarize's JSON).
        const Topology& t = cc.key.topology;
        jc["topology"] = t.nodes > 0 && t.gpusPerNode > 0 ? nlohmann::json(t.name()) : nullptr;
        jc["model"] = cc.key.model;
        jc["precision"] = cc.key.precision;
        jc["batch_size_per_device"] = cc.key.batchPerDevice > 0
                                          ? nlohmann::json(cc.key.batchPerDevice)
                                          : nlohmann::json(nullptr);
        jc["series"] = nlohmann::json::array();
        for (const auto& m : cc.medians)
            jc["series"].push_back(m ? nlohmann::json(*m) : nlohmann::json(nullptr));
        jc["repeats"] = cc.repeats;
        // The flat fields are the second series against the first; with more series,
        // "comparisons" has each one against the first, in order.
        if (!cc.contrasts.empty()) {
            const auto first = contrastJson(cc.contrasts.front(), cc.changed.front());
            for (const auto& [k, v] : first.items())
                jc[k] = v;
        }
        jc["comparisons"] = nlohmann::json::array();
        for (std::size_t i = 0; i < cc.contrasts.size(); ++i) {
            auto jk = contrastJson(cc.contrasts[i], cc.changed[i]);
            jk["series"] = c.labels[i + 1];
            jc["comparisons"].push_back(std::move(jk));
        }
        j["cases"].push_back(std::move(jc));
    }
    return jsonText(j, 2) + "\n";
}

} // namespace sv
