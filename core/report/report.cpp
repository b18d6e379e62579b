#include "core/report/report.h"
#include "core/report/casenotes.h"
#include "core/measure/steadystateanalyzer.h"

#include "core/model/outputtext.h"
#include "core/report/energytext.h"
#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/stats/scalingloss.h"
#include "core/model/jsontext.h"
#include "core/model/wording.h"

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

std::string intervalText(const std::optional<Interval>& v, int decimals, const char* none = "-") {
    return v ? formatFixed(v->lo, decimals) + "-" + formatFixed(v->hi, decimals) : none;
}

// A count in CSV: empty where nobody states it (never "0").
std::string countField(int v) {
    return v > 0 ? std::to_string(v) : std::string();
}
// A case's nodes and GPUs as counts, "?" where nobody states them (never "0").
std::string nodesText(const Summary& s, const CaseStats& c) {
    return c.gpus() > 0 && !nodesUnstated(c, s.runs) ? std::to_string(c.key.topology.nodes)
                                                     : std::string("?");
}
std::string gpusText(const CaseStats& c) {
    return c.gpus() > 0 ? std::to_string(c.gpus()) : std::string("?");
}
// The header of a group of cases (one framework, model, precision and batch): what its figures
// are, and over which window.
std::string groupHeader(const Summary& s, const CaseStats& c) {
    const LogFormat& f = logFormatOf(c.key.format);
    // A window other than DLPerf's usual 20…119 is named (each format's may differ).
    const MeasureOptions w = windowFor(f, s.load.measure);
    // The log's own reports are its figures, not the time or speed method over a window of
    // iterations: the header says which, never "time method" for them.
    const std::string how =
        isSteadyStateWindow(w) ? "the log's own reports: median after the first tenth"
        : readsOwnReports(f)   ? ownReportsText(w)
                               : std::string(methodName(s.options.method)) + " method" +
                                   (w.warmup == 20 && w.iterations == 120
                                        ? ""
                                        : ", iterations " + std::to_string(w.warmup) + "-" +
                                              std::to_string(w.iterations - 1));
    // A batch nobody states (a log outside DLPerf's layout) is "?".
    const std::string batch = c.key.batchPerDevice > 0 ? std::to_string(c.key.batchPerDevice) : "?";
    // A case whose GPUs are unknown is its log's alone: the header names it.
    const std::string own = c.key.ownCase.empty() ? "" : "  " + c.key.ownCase;
    // The local workload is PyTorch's on CPU ranks (or CUDA) in NGC MXNet's log format: said
    // as such, never "NGC MXNet ... per GPU".
    const std::string framework = s.workload ? frameworkText(s, f) +
                                                   " (ScaleView's local workload, logs in " +
                                                   std::string(f.framework) + "'s format)"
                                             : std::string(f.framework);
    return framework + "  " + c.key.model + "  " + c.key.precision + "  batch " + batch +
           (s.onCpuRanks() ? " per rank" : " per GPU") + own + "  (throughput in " +
           std::string(f.unit) + ", " + how + ")\n";
}

std::vector<std::string> tableRow(const Summary& s, const CaseStats& c) {
    std::string runs = std::to_string(c.values.size());
    if (!c.excluded.empty()) runs += "+" + std::to_string(c.excluded.size()) + "x";
    // A min-max of a few repeats is marked, and the footer says what it is.
    const std::string interval = intervalText(c.medianCi95, 2) + (c.medianCiIsMinMax() ? "*" : "");
    return {nodesText(s, c),
            gpusText(c),
            runs,
            opt(c.median, 2),
            interval,
            opt(c.mean, 2),
            opt(c.stdev, 2),
            opt(c.cvPct, 1),
            opt(c.speedup, 2),
            c.efficiency ? formatShown(*c.efficiency * 100.0, 1) + " %" : "-",
            c.reference ? formatFixed(c.reference->throughput, 2) : "-",
            opt(c.deltaPct, 1),
            peakCell(c.peak),
            energyCell(c)};
}

// What the reader must know to trust a case's row: its warnings (cautions) and its notes.
void caseNotes(const Summary& s, const CaseStats& c, const ProbeFile& probes,
               std::vector<std::string>& notes, std::vector<std::string>& cautions) {
    const std::string where = caseWhere(c, s.runs);
    if (const std::string o = outlierNote(c); !o.empty()) notes.push_back(where + ": " + o);
    // The warning's message says what it is; its kind is the machine formats' field.
    for (const auto& w : c.warnings)
        cautions.push_back(where + ": " + w.message);
    for (const auto& e : c.excluded)
        notes.push_back(where + ": " + excludedNote(e));
    // The breakdown where probes measured a part of it (the loss alone is the efficiency).
    if (const auto l = scalingLossFor(s.cases, c, probes); l && c.gpus() > 1 && !l->parts.empty()) {
        notes.push_back(where + ": " + scalingLossNote(*l, s.onCpuRanks() ? "rank" : "GPU"));
        if (!l->unreliable.empty())
            cautions.push_back(where +
                               ": the scaling-loss breakdown is not reliable: " + l->unreliable);
    }
    if (!c.deltaNote.empty()) notes.push_back(where + ": " + c.deltaNote);
    if (c.energy) notes.push_back(where + ": GPU energy " + energyText(c));
    if (const std::string m = referenceMethodNote(c, methodName(s.options.method)); !m.empty())
        notes.push_back(where + ": " + m);
    if (const std::string k = referenceContrastNote(c); !k.empty())
        notes.push_back(where + ": " + k);
}

// Under the table: the references compared with, the warnings, the notes.
std::string tableFooter(const Summary& s) {
    std::vector<std::string> notes, cautions;
    const ProbeFile probes = readCampaignProbes(s.root);
    if (!probes.error.empty()) cautions.push_back("probes not read: " + probes.error);
    for (const auto& c : s.cases)
        caseNotes(s, c, probes, notes, cautions);
    std::set<std::string> missingBaseline;
    for (const auto& c : s.cases)
        if (!c.speedup && !c.speedupNote.empty() && c.median) missingBaseline.insert(c.speedupNote);
    for (const auto& n : missingBaseline)
        notes.push_back("speedup not computed: " + n);
    if (std::any_of(s.cases.begin(), s.cases.end(),
                    [](const CaseStats& c) { return c.medianCiIsMinMax(); }))
        notes.push_back("95 % CI marked *: the repeats' min-max, not a 95 % interval (three "
                        "repeats or fewer cannot tell a tighter one)");
    // Why the J/image column is empty, each reason once.
    std::set<std::string> unmeasured;
    for (const auto& c : s.cases)
        if (!c.energy && c.median) unmeasured.insert(energyText(c));
    for (const auto& n : unmeasured)
        notes.push_back(n);
    std::set<std::string> refs;
    for (const auto& c : s.cases)
        if (c.reference)
            refs.insert(c.reference->label() + " (" + c.reference->table->title + ")" +
                        (c.referenceMethod.empty()
                             ? std::string()
                             : "; compared by the " + c.referenceMethod + " method"));
    std::set<std::string> peaks;
    for (const auto& c : s.cases)
        if (c.median) peaks.insert(peakBasis(c.peak));
    std::string out;
    if (!notes.empty() || !refs.empty() || !cautions.empty() || !peaks.empty()) out += "\n";
    for (const auto& r : refs)
        out += "reference: " + r + "\n";
    for (const auto& p : peaks)
        out += "percent of peak: " + p + "\n";
    for (const auto& c : cautions)
        out += "warning: " + c + "\n";
    for (const auto& n : notes)
        out += "note: " + n + "\n";
    return out;
}

// A case's CSV row, its fields in the header's order.
std::vector<std::string> csvFields(const Summary& s, const CaseStats& c, const ProbeFile& probes) {
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
    return {csvField(c.key.model),
            csvField(c.key.precision),
            countField(c.key.batchPerDevice),
            countField(nodesUnstated(c, s.runs) ? 0 : c.key.topology.nodes),
            countField(nodesUnstated(c, s.runs) ? 0 : c.key.topology.gpusPerNode),
            countField(c.gpus()),
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
            csvField(kinds),
            csvField(c.referenceMethod),
            opt(c.referenceMedian, 2, ""),
            k ? opt(k->ratio, 4, "") : "",
            k ? end(k->ratioCi95, false, 4) : "",
            k ? end(k->ratioCi95, true, 4) : "",
            k && k->ratioCi95 ? std::string(verdictName(k->verdict)) : "",
            csvField(frameworkText(s, logFormatOf(c.key.format))),
            std::string(logFormatOf(c.key.format).id),
            std::string(logFormatOf(c.key.format).unit),
            loss ? formatFixed(loss->totalPct, 2) : "",
            part("device-slowdown"),
            part("slowest-node"),
            part("communication"),
            part("remainder"),
            csvField(slow),
            opt(c.peak.pct, 2, ""),
            c.peak.flopsPerSample > 0 ? formatFixed(c.peak.flopsPerSample / 1e9, 4) : "",
            csvField(c.peak.device),
            c.peak.peakTflops > 0 ? formatShown(c.peak.peakTflops, 1) : "",
            csvField(c.peak.precision),
            csvField(c.peak.source),
            csvField(c.peak.unknown)};
}

std::vector<std::string> csvRow(const Summary& s, const CaseStats& c, const ProbeFile& probes) {
    std::vector<std::string> f = csvFields(s, c, probes);
    for (auto& e : energyCsvFields(c))
        f.push_back(std::move(e));
    return f;
}

} // namespace

std::string formatTable(const Summary& s) {
    std::string out;
    const CaseStats* group = nullptr;
    // The local workload's CPU ranks are ranks, as every page of the app calls them.
    const std::string devices = s.onCpuRanks() ? "ranks" : "GPUs";
    const std::vector<std::string> head = {
        "nodes", devices,   "runs",       "median",    "95 % CI", "mean",      "stdev",
        "CV %",  "speedup", "efficiency", "reference", "delta %", "% of peak", "J/image"};
    const std::vector<std::size_t> width = {5, devices.size(), 6, 10, 19, 10, 8, 5, 7, 10, 10, 7, 9,
                                            7};
    auto row = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i)
            line += (i ? "  " : "") + pad(cells[i], width[i], true);
        out += line + "\n";
    };
    for (const auto& c : s.cases) {
        if (!group || !group->key.sameGroup(c.key)) {
            if (group) out += "\n";
            out += groupHeader(s, c);
            row(head);
            group = &c;
        }
        row(tableRow(s, c));
    }
    // For a terminal: no escape sequence from a log moves its cursor or recolours it.
    return terminalText(out + tableFooter(s));
}

std::string formatCsv(const Summary& s) {
    std::string out =
        "model,precision,batch_size_per_device,nodes,gpus_per_node,gpus,method,runs_used,"
        "runs_excluded,mean,median,median_ci95_lo,median_ci95_hi,min,max,stdev,cv_pct,speedup,"
        "speedup_ci95_lo,speedup_ci95_hi,efficiency,outlier_repeats,reference_id,reference,"
        "delta_pct,warnings,reference_method,reference_median,reference_ratio,"
        "reference_ratio_ci95_lo,reference_ratio_ci95_hi,reference_verdict,framework,format,unit,"
        "scaling_loss_pct,loss_device_slowdown_pct,loss_slowest_node_pct,loss_communication_pct,"
        "loss_remainder_pct,slow_nodes,peak_pct,gflops_per_sample,peak_device,peak_tflops,"
        "peak_precision,peak_source,peak_unknown," +
        energyCsvHeader() + "\n";
    const ProbeFile probes = readCampaignProbes(s.root);
    for (const auto& c : s.cases) {
        const std::vector<std::string> f = csvRow(s, c, probes);
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
            out += "### " + markdownText(c.key.model) + " " + markdownText(c.key.precision) +
                   ", batch size per device " +
                   (c.key.batchPerDevice > 0 ? std::to_string(c.key.batchPerDevice) : "?") +
                   (c.key.ownCase.empty() ? "" : ", " + markdownText(c.key.ownCase)) + "\n\n";
            out += "| node_num | gpu_num | samples/s | speedup |\n| -------- | ------- | --------- "
                   "| ------- |\n";
            group = &c;
        }
        out += "| " + nodesText(s, c) + " | " + gpusText(c) + " | " + opt(c.median, 2) + " | " +
               opt(c.speedup, 2) + " |\n";
    }
    return out;
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
        out += (firstModel ? "" : ", ") + jsonText(nlohmann::json(model)) + ": {";
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
