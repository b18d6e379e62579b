#include "history/historyformat.h"

#include "core/measure/steadystateanalyzer.h"
#include "core/formats/formatregistry.h"
#include "core/model/jsontext.h"
#include "core/model/outputtext.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace sv::history {
namespace {

std::string fixed(double v, int decimals = 2) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string hostsText(const EnvironmentSummary& env) {
    std::string out;
    for (const auto& h : env.hosts)
        out += (out.empty() ? "" : " ") + h;
    return out;
}

nlohmann::ordered_json changesJson(const std::vector<EnvironmentChange>& changes) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& c : changes)
        out.push_back({{"what", c.what}, {"a", c.a}, {"b", c.b}});
    return out;
}

std::string stepText(const CaseTrend& t, const CaseStep& s) {
    const TrendPoint& p = t.points[s.point.index];
    char head[160];
    std::snprintf(head, sizeof head, "%+.1f %% (%.2f -> %.2f)", s.point.stepPct, s.point.before,
                  s.point.after);
    return "step at " + p.label + " (ran " + p.time + "): " + head + "; " +
           describeChanges(s.changed);
}

// null for the history's own campaigns.
nlohmann::ordered_json originJson(const std::optional<CampaignOrigin>& o) {
    if (!o) return nullptr;
    return {{"bundled_by", o->bundledBy},
            {"bundled_at", o->bundledAt},
            {"scaleview_version", o->scaleviewVersion},
            {"bundle_file", o->bundleFile},
            {"signature_key", o->signatureKey.empty() ? nlohmann::ordered_json(nullptr)
                                                      : nlohmann::ordered_json(o->signatureKey)},
            {"text", describeOrigin(*o)}};
}

} // namespace

std::string trendUnit(const CaseTrend& trend) {
    return std::string(logFormatOf(trend.key.format).unit);
}

std::string trendMeasure(const CaseTrend& trend) {
    const LogFormat& f = logFormatOf(trend.key.format);
    return (readsOwnReports(f) ? std::string("the log's own reports") : trend.method + " method") +
           ", " + trendUnit(trend);
}

std::string formatTrendTable(const std::vector<CaseTrend>& trends, double thresholdPct,
                             double fdr) {
    if (trends.empty()) return "No case in the history.\n";
    std::string out;
    int flagged = 0;
    for (const auto& t : trends) {
        out += caseName(t.key) + "  (" + trendMeasure(t) + ")\n";
        char line[512];
        std::snprintf(line, sizeof line, "  %-20s  %-24s %5s %11s %11s %11s  %s\n", "ran (UTC)",
                      "campaign", "runs", "median", "min", "max", "environment");
        out += line;
        for (const auto& p : t.points) {
            std::snprintf(line, sizeof line, "  %-20s  %-24s %5d %11s %11s %11s  %s\n",
                          p.time.c_str(), p.label.c_str(), p.runs, fixed(p.median).c_str(),
                          fixed(p.min).c_str(), fixed(p.max).c_str(),
                          describeEnvironment(p.environment).c_str());
            out += line;
            // Another site's campaign says whose it is, under its row.
            if (p.origin) out += std::string(24, ' ') + describeOrigin(*p.origin) + "\n";
        }
        out += std::string("  ") +
               (t.failsCheck() ? "REGRESSION: "
                : t.regression ? "EXPECTED: "
                               : "") +
               t.note + "\n";
        if (t.points.size() >= 2)
            out += "  changed at the latest campaign: " + describeChanges(t.changed) + "\n";
        for (const auto& s : t.steps)
            out += "  " + stepText(t, s) + "\n";
        out += "\n";
        flagged += t.failsCheck() ? 1 : 0;
    }
    out += std::to_string(trends.size()) + " case" + (trends.size() == 1 ? "" : "s") + ", " +
           std::to_string(flagged) +
           " flagged (the latest campaign slower than its baseline as Compare " +
           "calls it: the ratio of the medians beyond " + fixed(thresholdPct, 1) +
           " % and its 95 % interval below 1; and a discovery on its repeats)\n";
    out += describeCheck(summarizeCheck(trends, fdr)) + "\n";
    return terminalText(out); // for people, at a terminal: no escape sequence from a log
}

std::string formatTrendCsv(const std::vector<CaseTrend>& trends) {
    std::string out = "model,precision,batch_size_per_device,topology,format,method,ran_at,"
                      "campaign,path,runs,median,min,max,hosts,driver,cuda,gpu_model,"
                      "container_image,latest,regression,origin\n";
    for (const auto& t : trends)
        for (std::size_t i = 0; i < t.points.size(); ++i) {
            const TrendPoint& p = t.points[i];
            const bool latest = i + 1 == t.points.size();
            out += csvField(t.key.model) + "," + csvField(t.key.precision) + "," +
                   std::to_string(t.key.batchPerDevice) + "," + t.key.topology.name() + "," +
                   csvField(t.key.format) + "," + t.method + "," + p.time + "," +
                   csvField(p.label) + "," + csvField(p.path) + "," + std::to_string(p.runs) + "," +
                   fixed(p.median) + "," + fixed(p.min) + "," + fixed(p.max) + "," +
                   csvField(hostsText(p.environment)) + "," + csvField(p.environment.driver) + "," +
                   csvField(p.environment.cuda) + "," + csvField(p.environment.gpuModel) + "," +
                   csvField(p.environment.containerImage) + "," + (latest ? "true" : "false") +
                   "," + (latest && t.failsCheck() ? "true" : "false") + "," +
                   csvField(p.origin ? describeOrigin(*p.origin) : std::string()) + "\n";
        }
    return out;
}

std::string formatTrendJson(const std::vector<CaseTrend>& trends, double thresholdPct,
                            const std::string& database, double fdr) {
    nlohmann::ordered_json root;
    root["database"] = database;
    root["threshold_pct"] = thresholdPct;
    root["fdr"] = fdr;
    root["rule"] = "regression when the latest campaign is slower than its baseline by "
                   "Compare's rule (the ratio of the latest median to the baseline's below 1 by "
                   "more than threshold_pct and its 95 % bootstrap interval below 1); it fails "
                   "the check when the one-sided Welch test of the latest repeats against the "
                   "baseline's is also a Benjamini-Hochberg discovery at fdr over the cases tested";
    const CheckSummary check = summarizeCheck(trends, fdr);
    root["check"] = {{"cases", check.cases},       {"judged", check.judged},
                     {"tested", check.tested},     {"regressions", check.regressions},
                     {"expected", check.expected}, {"text", describeCheck(check)}};
    auto& cases = root["cases"] = nlohmann::ordered_json::array();
    for (const auto& t : trends) {
        nlohmann::ordered_json c;
        c["model"] = t.key.model;
        c["precision"] = t.key.precision;
        c["batch_size_per_device"] = t.key.batchPerDevice;
        c["topology"] = t.key.topology.name();
        c["format"] = t.key.format;
        c["method"] = t.method;
        auto& points = c["campaigns"] = nlohmann::ordered_json::array();
        for (const auto& p : t.points)
            points.push_back({{"ran_at", p.time},
                              {"label", p.label},
                              {"path", p.path},
                              {"identity", p.identity},
                              {"runs", p.runs},
                              {"median", p.median},
                              {"min", p.min},
                              {"max", p.max},
                              {"hosts", p.environment.hosts},
                              {"driver", p.environment.driver},
                              {"cuda", p.environment.cuda},
                              {"gpu_model", p.environment.gpuModel},
                              {"container_image", p.environment.containerImage},
                              {"origin", originJson(p.origin)}});
        c["previous_low"] = t.previousLow ? nlohmann::ordered_json(*t.previousLow)
                                          : nlohmann::ordered_json(nullptr);
        c["previous_high"] = t.previousHigh ? nlohmann::ordered_json(*t.previousHigh)
                                            : nlohmann::ordered_json(nullptr);
        c["change_pct"] =
            t.changePct ? nlohmann::ordered_json(*t.changePct) : nlohmann::ordered_json(nullptr);
        c["ratio"] = t.contrast && t.contrast->ratio ? nlohmann::ordered_json(*t.contrast->ratio)
                                                     : nlohmann::ordered_json(nullptr);
        c["ratio_ci95"] =
            t.contrast && t.contrast->ratioCi95
                ? nlohmann::ordered_json{t.contrast->ratioCi95->lo, t.contrast->ratioCi95->hi}
                : nlohmann::ordered_json(nullptr);
        c["verdict"] = t.contrast
                           ? nlohmann::ordered_json(std::string(verdictName(t.contrast->verdict)))
                           : nlohmann::ordered_json(nullptr);
        c["disturbed_runs"] = t.points.empty() ? 0 : t.points.back().disturbed;
        c["p_value"] =
            t.pValue ? nlohmann::ordered_json(*t.pValue) : nlohmann::ordered_json(nullptr);
        c["discovery"] = t.discovery;
        c["regression"] = t.regression;
        c["improvement"] = t.improvement;
        c["expected"] = t.expected
                            ? nlohmann::ordered_json{{"who", t.expectedWho}, {"why", t.expectedWhy}}
                            : nlohmann::ordered_json(nullptr);
        c["fails_check"] = t.failsCheck();
        c["note"] = t.note;
        c["changed"] = changesJson(t.changed);
        auto& steps = c["change_points"] = nlohmann::ordered_json::array();
        for (const auto& s : t.steps) {
            const TrendPoint& p = t.points[s.point.index];
            steps.push_back({{"index", s.point.index},
                             {"label", p.label},
                             {"identity", p.identity},
                             {"ran_at", p.time},
                             {"before", s.point.before},
                             {"after", s.point.after},
                             {"step_pct", s.point.stepPct},
                             {"score", s.point.score},
                             {"changed", changesJson(s.changed)}});
        }
        cases.push_back(std::move(c));
    }
    return jsonText(root, 2) + "\n";
}

} // namespace sv::history
