#include "core/report/report.h"
#include "core/measure/steadystateanalyzer.h"

#include "core/model/outputtext.h"
#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/stats/scalingloss.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace sv {
namespace {

std::string opt(const std::optional<double>& v, int decimals, const char* none = "-") {
    return v ? formatShown(*v, decimals) : std::string(none);
}

std::string pad(const std::string& s, std::size_t width, bool right) {
    if (s.size() >= width) return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

nlohmann::json optJson(const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json intervalJson(const std::optional<Interval>& v) {
    return v ? nlohmann::json::array({v->lo, v->hi}) : nlohmann::json(nullptr);
}

std::string intervalText(const std::optional<Interval>& v, int decimals, const char* none = "-") {
    return v ? formatFixed(v->lo, decimals) + "-" + formatFixed(v->hi, decimals) : none;
}

// A case's scaling loss in JSON (issue 28's contract): null where there is no efficiency.
nlohmann::json scalingLossJson(const std::optional<ScalingLoss>& l) {
    using nlohmann::json;
    if (!l) return nullptr;
    json parts = json::array();
    for (const auto& p : l->parts)
        parts.push_back({{"kind", p.kind},
                         {"pct", p.pct},
                         {"ci95", intervalJson(p.ci95)},
                         {"evidence", p.evidence}});
    return {{"total_pct", l->totalPct},
            {"total_ci95", intervalJson(l->totalCi95)},
            {"parts", parts},
            {"not_measured", l->notMeasured}};
}

nlohmann::json slowNodesJson(const std::optional<ScalingLoss>& l) {
    nlohmann::json out = nlohmann::json::array();
    if (l)
        for (const auto& n : l->slowNodes)
            out.push_back({{"node", n.node}, {"slower_pct", n.slowerPct}, {"evidence", n.evidence}});
    return out;
}

// "scaling loss 9.72 % of ideal: device-slowdown 3.10 [2.90, 3.30], …; not measured: …"
std::string scalingLossText(const ScalingLoss& l) {
    std::string out = "scaling loss " + formatFixed(l.totalPct, 2) + " % of ideal:";
    for (std::size_t i = 0; i < l.parts.size(); ++i) {
        const auto& p = l.parts[i];
        out += std::string(i ? ", " : " ") + p.kind + " " + formatFixed(p.pct, 2);
        if (p.ci95)
            out += " [" + formatFixed(p.ci95->lo, 2) + ", " + formatFixed(p.ci95->hi, 2) + "]";
    }
    if (!l.notMeasured.empty()) {
        out += "; not measured:";
        for (std::size_t i = 0; i < l.notMeasured.size(); ++i)
            out += std::string(i ? ", " : " ") + l.notMeasured[i];
    }
    for (const auto& n : l.slowNodes)
        out += "; slow node " + n.node + " (" + formatFixed(n.slowerPct, 1) + " % slower)";
    return out;
}

} // namespace

std::string formatTable(const Summary& s) {
    std::string out;
    const CaseStats* group = nullptr;
    const std::vector<std::string> head = {"nodes",   "GPUs",       "runs",      "median",
                                           "95 % CI", "mean",       "stdev",     "CV %",
                                           "speedup", "efficiency", "reference", "delta %"};
    const std::vector<std::size_t> width = {5, 4, 6, 10, 19, 10, 8, 5, 7, 10, 10, 7};
    auto row = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i)
            line += (i ? "  " : "") + pad(cells[i], width[i], true);
        out += line + "\n";
    };
    for (const auto& c : s.cases) {
        if (!group || !group->key.sameGroup(c.key)) {
            if (group) out += "\n";
            const LogFormat& f = logFormatOf(c.key.format);
            // A window other than DLPerf's usual 20…119 is named (each format's may differ).
            const MeasureOptions w = windowFor(f, s.load.measure);
            // The log's own reports are its figures, not the time or speed method over a
            // window of iterations: the header says which, never "time method" for them.
            const std::string how =
                isSteadyStateWindow(w)
                    ? "the log's own reports: median after the first tenth"
                    : std::string(methodName(s.options.method)) + " method" +
                          (w.warmup == 20 && w.iterations == 120
                               ? ""
                               : ", iterations " + std::to_string(w.warmup) + "-" +
                                     std::to_string(w.iterations - 1));
            // A batch nobody states (a log outside DLPerf's layout) is "?".
            const std::string batch =
                c.key.batchPerDevice > 0 ? std::to_string(c.key.batchPerDevice) : "?";
            out += std::string(f.framework) + "  " + c.key.model + "  " + c.key.precision +
                   "  batch " + batch + " per GPU  (throughput in " +
                   std::string(f.unit) + ", " + how + ")\n";
            row(head);
            group = &c;
        }
        std::string runs = std::to_string(c.values.size());
        if (!c.excluded.empty()) runs += "+" + std::to_string(c.excluded.size()) + "x";
        row({std::to_string(c.key.topology.nodes), std::to_string(c.gpus()), runs, opt(c.median, 2),
             intervalText(c.medianCi95, 2), opt(c.mean, 2), opt(c.stdev, 2), opt(c.cvPct, 1),
             opt(c.speedup, 2), c.efficiency ? formatShown(*c.efficiency * 100.0, 1) + " %" : "-",
             c.reference ? formatFixed(c.reference->throughput, 2) : "-", opt(c.deltaPct, 1)});
    }
    // What the reader must know to trust the table.
    std::vector<std::string> notes, cautions;
    const ProbeFile probes = readProbeFile(s.root);
    if (!probes.error.empty()) cautions.push_back("probes not read: " + probes.error);
    for (const auto& c : s.cases) {
        const std::string where = c.key.model + " " + c.key.precision + " b" +
                                  std::to_string(c.key.batchPerDevice) + " " +
                                  c.key.topology.name();
        if (!c.outlierRepeats.empty()) {
            std::string reps;
            for (int r : c.outlierRepeats)
                reps += (reps.empty() ? "" : ", ") + std::to_string(r);
            notes.push_back(where + ": outlier repeat(s) " + reps + " (kept in the statistics)");
        }
        for (const auto& w : c.warnings)
            cautions.push_back(where + ": " + w.message + " [" + w.kind + "]");
        for (const auto& e : c.excluded)
            notes.push_back(where + ": excluded " + e.path + ": " + e.reason);
        // The breakdown where probes measured a part of it (the loss alone is the efficiency).
        if (const auto l = scalingLossFor(s.cases, c, probes); l && c.gpus() > 1 &&
                                                               !l->parts.empty())
            notes.push_back(where + ": " + scalingLossText(*l));
        if (!c.deltaNote.empty()) notes.push_back(where + ": " + c.deltaNote);
        if (c.referenceMedian && c.referenceMethod != methodName(s.options.method))
            notes.push_back(where + ": delta by the reference's " + c.referenceMethod +
                            " method (median " + formatFixed(*c.referenceMedian, 2) + ")");
        if (const auto& k = c.referenceContrast; k && k->ratio)
            notes.push_back(
                where + ": against the reference's " +
                std::to_string(c.reference->series->repeats.at(c.key.topology.name()).size()) +
                " repeats: ratio " + formatFixed(*k->ratio, 4) +
                (k->ratioCi95 ? " [95 % CI " + formatFixed(k->ratioCi95->lo, 4) + ", " +
                                    formatFixed(k->ratioCi95->hi, 4) + "], " +
                                    std::string(verdictName(k->verdict))
                              : ", " + k->note));
    }
    std::set<std::string> missingBaseline;
    for (const auto& c : s.cases)
        if (!c.speedup && !c.speedupNote.empty() && c.median) missingBaseline.insert(c.speedupNote);
    for (const auto& n : missingBaseline)
        notes.push_back("speedup not computed: " + n);
    std::set<std::string> refs;
    for (const auto& c : s.cases)
        if (c.reference)
            refs.insert(c.reference->label() + " (" + c.reference->table->title + ")" +
                        (c.referenceMethod.empty()
                             ? std::string()
                             : "; compared by the " + c.referenceMethod + " method"));
    if (!notes.empty() || !refs.empty() || !cautions.empty()) out += "\n";
    for (const auto& r : refs)
        out += "reference: " + r + "\n";
    for (const auto& c : cautions)
        out += "warning: " + c + "\n";
    for (const auto& n : notes)
        out += "note: " + n + "\n";
    return out;
}

std::string formatCsv(const Summary& s) {
    std::string out =
        "model,precision,batch_size_per_device,nodes,gpus_per_node,gpus,method,runs_used,"
        "runs_excluded,mean,median,median_ci95_lo,median_ci95_hi,min,max,stdev,cv_pct,speedup,"
        "speedup_ci95_lo,speedup_ci95_hi,efficiency,outlier_repeats,reference_id,reference,"
        "delta_pct,warnings,reference_method,reference_median,reference_ratio,"
        "reference_ratio_ci95_lo,reference_ratio_ci95_hi,reference_verdict,framework,format,unit,"
        "scaling_loss_pct,loss_device_slowdown_pct,loss_slowest_node_pct,loss_communication_pct,"
        "loss_remainder_pct,slow_nodes\n";
    const ProbeFile probes = readProbeFile(s.root);
    for (const auto& c : s.cases) {
        const auto loss = scalingLossFor(s.cases, c, probes);
        auto part = [&](const char* kind) {
            if (loss)
                for (const auto& p : loss->parts)
                    if (p.kind == kind) return formatFixed(p.pct, 2);
            return std::string();
        };
        std::string slow;
        if (loss)
            for (const auto& n : loss->slowNodes)
                slow += (slow.empty() ? "" : " ") + n.node;
        std::string outl;
        for (int r : c.outlierRepeats)
            outl += (outl.empty() ? "" : " ") + std::to_string(r);
        std::string kinds;
        for (const auto& w : c.warnings)
            kinds += (kinds.empty() ? "" : " ") + w.kind;
        auto end = [](const std::optional<Interval>& v, bool hi, int decimals) {
            return v ? formatFixed(hi ? v->hi : v->lo, decimals) : std::string();
        };
        const auto& k = c.referenceContrast;
        std::vector<std::string> f = {csvField(c.key.model),
                                      csvField(c.key.precision),
                                      std::to_string(c.key.batchPerDevice),
                                      std::to_string(c.key.topology.nodes),
                                      std::to_string(c.key.topology.gpusPerNode),
                                      std::to_string(c.gpus()),
                                      std::string(methodName(s.options.method)),
                                      std::to_string(c.values.size()),
                                      std::to_string(c.excluded.size()),
                                      opt(c.mean, 2, ""),
                                      opt(c.median, 2, ""),
                                      end(c.medianCi95, false, 2),
                                      end(c.medianCi95, true, 2),
                                      opt(c.min, 2, ""),
                                      opt(c.max, 2, ""),
                                      opt(c.stdev, 2, ""),
                                      opt(c.cvPct, 2, ""),
                                      opt(c.speedup, 2, ""),
                                      end(c.speedupCi95, false, 4),
                                      end(c.speedupCi95, true, 4),
                                      opt(c.efficiency, 4, ""),
                                      outl,
                                      c.reference ? csvField(c.reference->label()) : "",
                                      c.reference ? formatFixed(c.reference->throughput, 2) : "",
                                      opt(c.deltaPct, 2, ""),
                                      kinds,
                                      c.referenceMethod,
                                      opt(c.referenceMedian, 2, ""),
                                      k ? opt(k->ratio, 4, "") : "",
                                      k ? end(k->ratioCi95, false, 4) : "",
                                      k ? end(k->ratioCi95, true, 4) : "",
                                      k && k->ratioCi95 ? std::string(verdictName(k->verdict)) : "",
                                      csvField(std::string(logFormatOf(c.key.format).framework)),
                                      std::string(logFormatOf(c.key.format).id),
                                      std::string(logFormatOf(c.key.format).unit),
                                      loss ? formatFixed(loss->totalPct, 2) : "",
                                      part("device-slowdown"),
                                      part("slowest-node"),
                                      part("communication"),
                                      part("remainder"),
                                      csvField(slow)};
        std::string line;
        for (std::size_t i = 0; i < f.size(); ++i)
            line += (i ? "," : "") + f[i];
        out += line + "\n";
    }
    return out;
}

std::string formatMarkdown(const Summary& s) {
    std::string out;
    const CaseStats* group = nullptr;
    for (const auto& c : s.cases) {
        if (!group || !group->key.sameGroup(c.key)) {
            if (group) out += "\n";
            out += "### " + c.key.model + " " + c.key.precision + ", batch size per device " +
                   std::to_string(c.key.batchPerDevice) + "\n\n";
            out += "| node_num | gpu_num | samples/s | speedup |\n| -------- | ------- | --------- "
                   "| ------- |\n";
            group = &c;
        }
        out += "| " + std::to_string(c.key.topology.nodes) + " | " + std::to_string(c.gpus()) +
               " | " + opt(c.median, 2) + " | " + opt(c.speedup, 2) + " |\n";
    }
    return out;
}

std::string formatJson(const Summary& s, std::string_view toolVersion) {
    using nlohmann::json;
    json j;
    j["tool"] = {{"name", "scaleview"}, {"version", std::string(toolVersion)}};
    j["root"] = s.root;
    // One window for every run, or (each format's DLPerf defaults, differing) null here and
    // each in "windows" and in its runs.
    const auto windows = windowsUsed(s);
    json windowList = json::array();
    for (const auto& u : windows)
        windowList.push_back({{"warmup", u.window.warmup},
                              {"iterations", u.window.iterations},
                              {"formats", u.formats}});
    const bool oneWindow = windows.size() == 1;
    j["options"] = {
        {"method", std::string(methodName(s.options.method))},
        {"warmup", oneWindow ? json(windows[0].window.warmup) : json(nullptr)},
        {"iterations", oneWindow ? json(windows[0].window.iterations) : json(nullptr)},
        {"windows", windowList},
        {"window_source", s.windowSource.empty() ? json(nullptr) : json(s.windowSource)},
        {"campaign_file", s.campaignFile.empty() ? json(nullptr) : json(s.campaignFile)},
        {"reference", s.options.reference.empty() ? json(nullptr) : json(s.options.reference)},
        {"cv_threshold_pct", s.options.trust.cvPct},
        {"max_line_bytes", s.load.parse.maxLineBytes}};
    json runs = json::array();
    for (const auto& r : s.runs) {
        const LogFormat& f = logFormatOf(r.key.format);
        json jr = {{"path", r.path},
                   {"format", std::string(f.id)},
                   {"framework", std::string(f.framework)},
                   {"unit", std::string(f.unit)},
                   {"model", r.key.model},
                   {"precision", r.key.precision},
                   {"batch_size_per_device", r.key.batchPerDevice},
                   {"topology", r.key.topology.name()},
                   {"nodes", r.key.topology.nodes},
                   {"gpus_per_node", r.key.topology.gpusPerNode},
                   {"repeat", r.key.repeat},
                   {"warmup", r.window.warmup},
                   {"iterations", r.window.iterations},
                   {"status", std::string(statusName(r.status))},
                   {"in_progress", r.inProgress}, // being written: short, not broken
                   {"reason", r.reason.empty() ? json(nullptr) : json(r.reason)},
                   {"notes", r.notes},
                   {"speed_lines", r.counters.markerLines},
                   {"expected_lines", r.expectedLines},
                   {"lines", r.counters.lines},
                   {"overlong_lines", r.counters.overlongLines},
                   {"throughput_time", optJson(r.timeThroughput)},
                   {"throughput_speed", optJson(r.speedThroughput)},
                   // DLPerf's own script's figure where it differs in kind (a quirk of it).
                   {"throughput_dlperf", optJson(r.dlperfThroughput)},
                   {"method_difference_pct", optJson(r.methodDifferencePct)},
                   {"methods_disagree", r.methodsDisagree},
                   {"ranks_tagged", r.ranksTagged},
                   {"rank_spread_pct", optJson(r.rankSpreadPct)},
                   {"slowest_rank", r.slowestRank >= 0 ? json(r.slowestRank) : json(nullptr)},
                   {"clock_offset_ms", optJson(r.clockOffsetMs)},
                   {"drift_pct", optJson(r.driftPct)},
                   {"disturbed", r.disturbed},
                   {"disturbance", r.disturbed ? json(r.disturbance) : json(nullptr)}};
        runs.push_back(std::move(jr));
    }
    j["runs"] = std::move(runs);
    json cases = json::array();
    const ProbeFile probes = readProbeFile(s.root);
    j["probes"] = probes.path.empty() ? json(nullptr)
                                      : json({{"file", probes.path},
                                              {"records", probes.records.size()},
                                              {"error", probes.error.empty()
                                                            ? json(nullptr)
                                                            : json(probes.error)}});
    for (const auto& c : s.cases) {
        json excluded = json::array();
        for (const auto& e : c.excluded)
            excluded.push_back({{"path", e.path}, {"repeat", e.repeat}, {"reason", e.reason}});
        json caseWarnings = json::array();
        for (const auto& w : c.warnings)
            caseWarnings.push_back({{"kind", w.kind}, {"message", w.message}});
        json ref = nullptr;
        if (c.reference)
            ref = {{"id", c.reference->table->id},
                   {"series", c.reference->series ? c.reference->series->name : ""},
                   {"title", c.reference->table->title},
                   {"source", c.reference->table->source},
                   {"hardware", c.reference->table->hardware},
                   {"throughput", c.reference->throughput},
                   {"method", c.reference->table->method.empty()
                                  ? json(nullptr)
                                  : json(c.reference->table->method)}};
        json contrast = nullptr;
        if (const auto& k = c.referenceContrast)
            contrast = {
                {"ratio", optJson(k->ratio)},
                {"ratio_ci95", intervalJson(k->ratioCi95)},
                {"verdict",
                 k->ratioCi95 ? json(std::string(verdictName(k->verdict))) : json(nullptr)},
                {"reference_repeats", c.reference->series->repeats.at(c.key.topology.name())}};
        const LogFormat& f = logFormatOf(c.key.format);
        cases.push_back(
            {{"format", std::string(f.id)},
             {"framework", std::string(f.framework)},
             {"unit", std::string(f.unit)},
             {"model", c.key.model},
             {"precision", c.key.precision},
             {"batch_size_per_device", c.key.batchPerDevice},
             {"topology", c.key.topology.name()},
             {"nodes", c.key.topology.nodes},
             {"gpus_per_node", c.key.topology.gpusPerNode},
             {"gpus", c.gpus()},
             {"repeats", c.repeats},
             {"values", c.values},
             {"excluded", excluded},
             {"average_speed", optJson(c.mean)},
             {"median_speed", optJson(c.median)},
             {"median_ci95", intervalJson(c.medianCi95)},
             {"min", optJson(c.min)},
             {"max", optJson(c.max)},
             {"stdev", optJson(c.stdev)},
             {"cv_pct", optJson(c.cvPct)},
             {"outlier_repeats", c.outlierRepeats},
             {"speedup", optJson(c.speedup)},
             {"speedup_ci95", intervalJson(c.speedupCi95)},
             {"efficiency", optJson(c.efficiency)},
             {"efficiency_ci95", intervalJson(c.efficiencyCi95)},
             {"warnings", caseWarnings},
             {"speedup_note", c.speedupNote.empty() ? json(nullptr) : json(c.speedupNote)},
             {"reference", ref},
             {"delta_pct", optJson(c.deltaPct)},
             {"delta_note", c.deltaNote.empty() ? json(nullptr) : json(c.deltaNote)},
             // The delta's median: by the reference's method, which may not be the view's.
             {"reference_method",
              c.referenceMethod.empty() ? json(nullptr) : json(c.referenceMethod)},
             {"reference_median", optJson(c.referenceMedian)},
             {"reference_comparison", contrast}});
        const auto loss = scalingLossFor(s.cases, c, probes);
        cases.back()["scaling_loss"] = scalingLossJson(loss);
        cases.back()["slow_nodes"] = slowNodesJson(loss);
    }
    j["cases"] = std::move(cases);
    json warnings = json::array();
    for (const auto& w : s.warnings)
        warnings.push_back({{"file", w.file}, {"line", w.line}, {"message", w.message}});
    j["warnings"] = std::move(warnings);
    return j.dump(2) + "\n";
}

CaseMix caseMix(const Summary& s) {
    CaseMix m;
    for (const auto& c : s.cases) {
        m.precisions.insert(c.key.precision);
        m.batchSizes.insert(c.key.batchPerDevice);
    }
    for (const auto& r : s.runs)
        if (!r.key.format.empty()) m.formats.insert(r.key.format);
    return m;
}

std::string formatDlperfJson(const Summary& s) {
    // json.dump's default separators (", " and ": "), keys in the order DLPerf inserts them.
    std::map<std::string, std::vector<const CaseStats*>> byModel;
    for (const auto& c : s.cases)
        if (c.median) byModel[c.key.model].push_back(&c);
    std::string out = "{";
    bool firstModel = true;
    for (const auto& [model, cases] : byModel) {
        out += (firstModel ? "" : ", ") + nlohmann::json(model).dump() + ": {";
        firstModel = false;
        // compute_speedup needs the 1n1g figure (the last 1n1g file's, truthy). Without it every
        // case keeps its last file's figure as average_speed (the listing's last: here the
        // highest repeat), gets no median_speed and speedup 1.0, and the check itself leaves a
        // stray "1n1g": {"average_speed": {}} behind (AutoVivification).
        const bool baseline = std::any_of(cases.begin(), cases.end(), [](const CaseStats* c) {
            return c->key.topology == Topology{1, 1} && c->values.back() != 0.0;
        });
        bool first = true;
        for (const CaseStats* c : cases) {
            out += (first ? "" : ", ") + std::string("\"") + c->key.topology.name() + "\": {";
            first = false;
            out += "\"average_speed\": " + pythonFloatRepr(baseline ? *c->mean : c->values.back());
            out += ", \"batch_size_per_device\": " + std::to_string(c->key.batchPerDevice);
            if (!baseline) {
                out += ", \"speedup\": 1.0}";
                continue;
            }
            out += ", \"median_speed\": " + pythonFloatRepr(*c->median);
            out += ", \"speedup\": " +
                   (c->speedup ? pythonFloatRepr(*c->speedup) : std::string("null"));
            out += "}";
        }
        if (!baseline) out += ", \"1n1g\": {\"average_speed\": {}}";
        out += "}";
    }
    return out + "}";
}

} // namespace sv
