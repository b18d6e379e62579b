#include "core/report/dlperfview.h"

#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/model/runkey.h"
#include "core/report/oneflowmarkdown.h"
#include "core/report/report.h"

#include <algorithm>
#include <filesystem>

namespace sv {

namespace {

// The runs' one format (NGC MXNet's where none is said) and the script of it that method picks;
// where the format has one script only, that one, with a note.
void chooseScript(DlperfView& view, Method& method) {
    for (const auto& r : view.summary.runs)
        if (!r.key.format.empty()) {
            view.format = findLogFormat(r.key.format);
            break;
        }
    if (!view.format) view.format = &ngcMxnetFormat();
    const LogFormat& f = *view.format;
    std::string_view script = method == Method::Time ? f.timeScript : f.speedScript;
    if (script.empty()) {
        // DLPerf has one script for this format: that one is what the user can compare with.
        script = method == Method::Time ? f.speedScript : f.timeScript;
        method = method == Method::Time ? Method::Speed : Method::Time;
        view.notes.push_back(
            "DLPerf has no --method " +
            std::string(methodName(method == Method::Time ? Method::Speed : Method::Time)) +
            " script for " + std::string(f.id) + "; this is " + std::string(script) + "'s output");
    }
    view.script = std::string(script);
    view.summary.options.method = method;
}

// Each run with the script's figure in place of ScaleView's; a run the script fails on is left
// out, with a note.
void takeScriptFigures(DlperfView& view, bool speedScript) {
    for (auto& r : view.summary.runs) {
        // DLPerf's scripts key their output by the file's own model name ("rn50"), not
        // ScaleView's one name for the model ("r50").
        if (auto name = parseLogName(std::filesystem::path(r.path).filename().string()))
            r.key.model = name->model;
        const std::optional<double>& figure =
            speedScript ? r.dlperfSpeedThroughput : r.dlperfThroughput;
        const std::string& note = speedScript ? r.dlperfSpeedNote : r.dlperfNote;
        if (figure) {
            // The script's figure replaces ScaleView's; a file it records 0 for counts as 0.
            r.status = RunStatus::Complete;
            r.timeThroughput = r.speedThroughput = figure;
        } else if (!note.empty()) {
            // A script that skips the file (MindSpore's "cost time is 0") prints the others.
            const bool fileOnly = note.find("records no entry") != std::string::npos;
            view.notes.push_back(r.path + ": " + note +
                                 (fileOnly ? ": ScaleView leaves this run out too"
                                           : ": the script prints nothing for this directory; "
                                             "ScaleView leaves this run out"));
            r.status = RunStatus::Unusable;
        }
    }
}

// Without a 1n1g figure the script prints no median and speedup 1.0, and its average_speed
// depends on the file system's listing order (formatDlperfJson).
void noteMissingBaselines(DlperfView& view) {
    std::vector<std::string> noBaseline;
    const auto& cases = view.summary.cases;
    for (const auto& c : cases) {
        if (!c.median ||
            std::find(noBaseline.begin(), noBaseline.end(), c.key.model) != noBaseline.end())
            continue;
        const bool baseline = std::any_of(cases.begin(), cases.end(), [&](const auto& b) {
            return b.key.model == c.key.model && b.median && b.key.topology == Topology{1, 1} &&
                   b.values.back() != 0.0;
        });
        if (baseline) continue;
        noBaseline.push_back(c.key.model);
        view.notes.push_back(
            "no 1n1g figure for " + c.key.model +
            ": DLPerf's script then writes speedup 1.0 and "
            "no median_speed for every case, and as average_speed the figure of whichever file "
            "its directory listing returned last (file-system order; here the highest repeat's)");
    }
}

// compute_average: the repeats added in order, divided, rounded to its decimals (Python's round
// on Python floats, numpy's on numpy floats).
void averageAsTheScript(DlperfView& view, Method method) {
    const LogFormat& f = *view.format;
    const bool pythonFloats = method == Method::Time && !f.timeScriptNumpyFigures;
    if (f.averageDecimals == 2 && !f.timeScriptNumpyFigures) return;
    for (auto& c : view.summary.cases) {
        if (c.values.empty()) continue;
        double total = 0.0;
        for (double x : c.values)
            total += x;
        const double mean = total / static_cast<double>(c.values.size());
        c.mean = pythonFloats ? roundPython(mean, f.averageDecimals)
                              : roundNumpy(mean, f.averageDecimals);
    }
}

} // namespace

DlperfView dlperfView(const Summary& in, Method method) {
    DlperfView view;
    view.summary = in;
    chooseScript(view, method);
    // A format with both scripts keeps the speed script's figure apart.
    takeScriptFigures(view, method == Method::Speed && !view.format->timeScript.empty());
    recomputeCases(view.summary);
    noteMissingBaselines(view);
    averageAsTheScript(view, method);
    return view;
}

std::string dlperfText(const DlperfView& view) {
    if (view.format && view.format->dlperfOutput == DlperfOutput::MarkdownTables)
        return formatOneflowMarkdown(view.summary);
    return formatDlperfJson(view.summary) + "\n";
}

} // namespace sv
