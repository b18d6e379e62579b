#include "core/report/report.h"
#include "core/report/casenotes.h"

#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/report/energytext.h"
#include "core/stats/scalingloss.h"
#include "core/model/jsontext.h"

#include <nlohmann/json.hpp>

namespace sv {
namespace {

using nlohmann::json;

json optJson(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

json intervalJson(const std::optional<Interval>& v) {
    return v ? json::array({v->lo, v->hi}) : json(nullptr);
}

// A count nobody states (a batch, nodes, GPUs, a repeat number) is null, never 0: a reader
// summing GPUs or plotting batches must not take "unknown" for a figure.
json countJson(int v) {
    return v > 0 ? json(v) : json(nullptr);
}
json countsJson(const std::vector<int>& v) {
    json out = json::array();
    for (int x : v)
        out.push_back(countJson(x));
    return out;
}
json topologyJson(const Topology& t) {
    return t.nodes > 0 && t.gpusPerNode > 0 ? json(t.name()) : json(nullptr);
}

// A case's scaling loss in JSON (issue 28's contract): null where there is no efficiency.
json scalingLossJson(const std::optional<ScalingLoss>& l) {
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
            {"not_measured", l->notMeasured},
            {"unreliable", l->unreliable.empty() ? json(nullptr) : json(l->unreliable)}};
}

json slowNodesJson(const std::optional<ScalingLoss>& l) {
    json out = json::array();
    if (l)
        for (const auto& n : l->slowNodes)
            out.push_back(
                {{"node", n.node}, {"slower_pct", n.slowerPct}, {"evidence", n.evidence}});
    return out;
}

// The options the summary was made with: one window for every run, or (each format's DLPerf
// defaults, differing) null here and each in "windows" and in its runs.
json optionsJson(const Summary& s) {
    const auto windows = windowsUsed(s);
    json windowList = json::array();
    for (const auto& u : windows)
        windowList.push_back({{"warmup", u.window.warmup},
                              {"iterations", u.window.iterations},
                              {"formats", u.formats}});
    const bool oneWindow = windows.size() == 1;
    return {{"method", std::string(methodName(s.options.method))},
            {"warmup", oneWindow ? json(windows[0].window.warmup) : json(nullptr)},
            {"iterations", oneWindow ? json(windows[0].window.iterations) : json(nullptr)},
            {"windows", windowList},
            {"window_source", s.windowSource.empty() ? json(nullptr) : json(s.windowSource)},
            {"campaign_file", s.campaignFile.empty() ? json(nullptr) : json(s.campaignFile)},
            {"reference", s.options.reference.empty() ? json(nullptr) : json(s.options.reference)},
            {"cv_threshold_pct", s.options.trust.cvPct},
            {"max_line_bytes", s.load.parse.maxLineBytes}};
}

json runJson(const RunResult& r) {
    const LogFormat& f = logFormatOf(r.key.format);
    return {{"path", r.path},
            {"format", std::string(f.id)},
            {"framework", std::string(f.framework)},
            {"unit", std::string(f.unit)},
            {"model", r.key.model},
            {"precision", r.key.precision},
            {"batch_size_per_device", countJson(r.key.batchPerDevice)},
            {"topology", topologyJson(r.key.topology)},
            {"nodes", countJson(r.key.topology.nodes)},
            {"gpus_per_node", countJson(r.key.topology.gpusPerNode)},
            {"repeat", countJson(r.key.repeat)},
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
}

json probesJson(const ProbeFile& probes) {
    if (probes.path.empty()) return nullptr;
    return {{"file", probes.path},
            {"records", probes.records.size()},
            {"error", probes.error.empty() ? json(nullptr) : json(probes.error)}};
}

json referenceJson(const CaseStats& c) {
    if (!c.reference) return nullptr;
    return {{"id", c.reference->table->id},
            {"series", c.reference->series ? c.reference->series->name : ""},
            {"title", c.reference->table->title},
            {"source", c.reference->table->source},
            {"hardware", c.reference->table->hardware},
            {"throughput", c.reference->throughput},
            {"method", c.reference->table->method.empty() ? json(nullptr)
                                                          : json(c.reference->table->method)}};
}

// A case's percent of peak (issue 38's contract): every field null where it is unknown, and why.
json peakJson(const PeakShare& p) {
    const auto text = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
    return {{"pct", optJson(p.pct)},
            {"flops_per_sample", p.flopsPerSample > 0 ? json(p.flopsPerSample) : json(nullptr)},
            {"device", text(p.device)},
            {"device_source", text(p.deviceSource)},
            {"peak_tflops", p.peakTflops > 0 ? json(p.peakTflops) : json(nullptr)},
            {"precision", text(p.precision)},
            {"source", text(p.source)},
            {"note", text(p.note)},
            {"unknown", text(p.unknown)}};
}

json caseJson(const CaseStats& c) {
    json excluded = json::array();
    for (const auto& e : c.excluded)
        excluded.push_back(
            {{"path", e.path}, {"repeat", countJson(e.repeat)}, {"reason", e.reason}});
    json caseWarnings = json::array();
    for (const auto& w : c.warnings)
        caseWarnings.push_back({{"kind", w.kind}, {"message", w.message}});
    json contrast = nullptr;
    if (const auto& k = c.referenceContrast)
        contrast = {
            {"ratio", optJson(k->ratio)},
            {"ratio_ci95", intervalJson(k->ratioCi95)},
            {"verdict", k->ratioCi95 ? json(std::string(verdictName(k->verdict))) : json(nullptr)},
            {"reference_repeats", c.reference->series->repeats.at(c.key.topology.name())}};
    const LogFormat& f = logFormatOf(c.key.format);
    return {
        {"format", std::string(f.id)},
        {"framework", std::string(f.framework)},
        {"unit", std::string(f.unit)},
        {"model", c.key.model},
        {"precision", c.key.precision},
        {"batch_size_per_device", countJson(c.key.batchPerDevice)},
        {"topology", topologyJson(c.key.topology)},
        {"nodes", countJson(c.key.topology.nodes)},
        {"gpus_per_node", countJson(c.key.topology.gpusPerNode)},
        {"gpus", countJson(c.gpus())},
        {"repeats", countsJson(c.repeats)},
        {"values", c.values},
        {"excluded", excluded},
        {"average_speed", optJson(c.mean)},
        {"median_speed", optJson(c.median)},
        {"median_ci95", intervalJson(c.medianCi95)},
        // "min-max": the repeats' own extremes (three or fewer), not a bootstrap interval.
        {"median_ci95_kind", !c.medianCi95          ? json(nullptr)
                             : c.medianCiIsMinMax() ? json("min-max")
                                                    : json("bootstrap")},
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
        {"reference", referenceJson(c)},
        {"delta_pct", optJson(c.deltaPct)},
        {"delta_note", c.deltaNote.empty() ? json(nullptr) : json(c.deltaNote)},
        // The delta's median: by the reference's method, which may not be the view's.
        {"reference_method", c.referenceMethod.empty() ? json(nullptr) : json(c.referenceMethod)},
        {"reference_median", optJson(c.referenceMedian)},
        {"reference_comparison", contrast},
        {"peak", peakJson(c.peak)}};
}

} // namespace

std::string formatJson(const Summary& s, std::string_view toolVersion) {
    json j;
    j["tool"] = {{"name", "scaleview"}, {"version", std::string(toolVersion)}};
    j["root"] = s.root;
    j["options"] = optionsJson(s);
    // ScaleView's local workload: its framework and device, whatever format its logs print
    // ("framework" of each run and case says the same).
    j["workload"] = s.workload ? json{{"model", s.workload->model},
                                      {"framework", s.workload->framework},
                                      {"device", s.workload->device}}
                               : json(nullptr);
    json runs = json::array();
    for (const auto& r : s.runs) {
        runs.push_back(runJson(r));
        runs.back()["framework"] = frameworkText(s, logFormatOf(r.key.format));
        runs.back()["energy"] = runEnergyJson(r);
        runs.back()["gpus"] = countJson(r.key.topology.ranks());
        // GPUs stated without nodes: keyed 1 node, which no log said.
        if (r.key.origins.nodesUnknown)
            for (const char* key : {"topology", "nodes", "gpus_per_node"})
                runs.back()[key] = nullptr;
    }
    j["runs"] = std::move(runs);
    const ProbeFile probes = readCampaignProbes(s.root);
    j["probes"] = probesJson(probes);
    json cases = json::array();
    for (const auto& c : s.cases) {
        cases.push_back(caseJson(c));
        cases.back()["framework"] = frameworkText(s, logFormatOf(c.key.format));
        const auto loss = scalingLossFor(s.cases, c, probes);
        cases.back()["scaling_loss"] = scalingLossJson(loss);
        cases.back()["slow_nodes"] = slowNodesJson(loss);
        cases.back()["energy"] = caseEnergyJson(c);
        if (nodesUnstated(c, s.runs))
            for (const char* key : {"topology", "nodes", "gpus_per_node"})
                cases.back()[key] = nullptr;
    }
    j["cases"] = std::move(cases);
    json warnings = json::array();
    for (const auto& w : s.warnings)
        warnings.push_back({{"file", w.file}, {"line", w.line}, {"message", w.message}});
    j["warnings"] = std::move(warnings);
    return jsonText(j, 2) + "\n";
}

} // namespace sv
