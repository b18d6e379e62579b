#include "core/stats/summary.h"

#include "core/formats/formatregistry.h"
#include "core/load/rundisturbance.h"
#include "core/load/runenergy.h"
#include "core/load/runmeter.h"
#include "core/measure/steadystateanalyzer.h"

#include <algorithm>

namespace sv {

namespace {

// The header every log starts with, where all have one and agree (deviceWords in the app).
std::optional<WorkloadHeader> commonWorkload(const std::vector<LogFile>& logs) {
    std::optional<WorkloadHeader> common;
    for (const LogFile& l : logs) {
        std::optional<WorkloadHeader> w = readWorkloadHeader(l.path);
        if (!w || (common && (common->framework != w->framework || common->device != w->device)))
            return std::nullopt;
        common = std::move(w);
    }
    return common;
}

Summary summarizeScan(ScanResult scan, const std::filesystem::path& root, const LoadOptions& load,
                      const SummaryOptions& options, const CaseFilter& filter,
                      const LoadProgress& progress);

} // namespace

Summary summarizeDirectory(const std::filesystem::path& root, const LoadOptions& load,
                           const SummaryOptions& options, const CaseFilter& filter,
                           const LoadProgress& progress) {
    return summarizeScan(scanLogDirectory(root), root, load, options, filter, progress);
}

Summary summarizePaths(const std::vector<std::filesystem::path>& paths, const LoadOptions& load,
                       const SummaryOptions& options, const CaseFilter& filter,
                       const LoadProgress& progress) {
    if (paths.size() == 1) return summarizeDirectory(paths[0], load, options, filter, progress);
    ScanResult scan = scanLogFiles(paths);
    if (scan.logs.empty() && !scan.error) scan.error = "no throughput log among the files given";
    return summarizeScan(std::move(scan), std::filesystem::path(), load, options, filter, progress);
}

namespace {

Summary summarizeScan(ScanResult scan, const std::filesystem::path& root, const LoadOptions& load,
                      const SummaryOptions& options, const CaseFilter& filter,
                      const LoadProgress& progress) {
    Summary s;
    s.root = root.string();
    s.load = load;
    s.options = options;
    s.scanLine = scan.summaryLine();
    if (scan.error) {
        s.error = *scan.error;
        return s;
    }
    s.skippedFiles = scan.warnings.size();
    s.warnings = std::move(scan.warnings);
    std::vector<LogFile> logs;
    for (auto& l : scan.logs)
        if (filter.accepts(l.key)) logs.push_back(std::move(l));
    std::size_t total = logs.size();
    bool cancelled = false;
    s.runs = loadRuns(logs, load, [&](std::size_t done, std::size_t all) {
        if (progress && !progress(done, all)) {
            cancelled = true;
            return false;
        }
        return true;
    });
    s.cancelled = cancelled && s.runs.size() < total;
    s.workload = commonWorkload(logs);
    // A campaign's journal says which runs its monitor saw disturbed.
    // And, from its monitor's samples, the GPUs' energy.
    if (!root.empty()) {
        const RunDisturbances found = readRunDisturbances(root);
        applyRunDisturbances(s.runs, root, found);
        applyRunEnergy(s.runs, root, found);
    }
    recomputeCases(s);
    return s;
}

} // namespace

std::string frameworkText(const Summary& s, const LogFormat& format) {
    return s.workload ? s.workload->framework + " on " + s.workload->device
                      : std::string(format.framework);
}

std::size_t runsUsed(const Summary& s) {
    std::size_t used = 0;
    for (const auto& r : s.runs)
        if (r.usable() && !r.inProgress && r.throughput(s.options.method) &&
            !(r.disturbed && s.options.excludeDisturbed))
            ++used;
    return used;
}

void recomputeCases(Summary& s) {
    // Scan warnings stay; run warnings are redone.
    s.warnings.resize(s.skippedFiles);
    for (const auto& r : s.runs)
        if (!r.usable() && !r.inProgress)
            s.warnings.push_back({r.path, 0, std::string(statusName(r.status)) + ": " + r.reason});
    s.cases =
        computeCases(s.runs, s.options,
                     s.options.references ? *s.options.references : ReferenceCatalog::builtin());
}

std::vector<WindowUse> windowsUsed(const Summary& s) {
    std::vector<WindowUse> out;
    for (const auto& r : s.runs) {
        auto it = std::find_if(out.begin(), out.end(),
                               [&](const WindowUse& u) { return sameMeasure(u.window, r.window); });
        if (it == out.end()) it = out.insert(out.end(), WindowUse{r.window, {}});
        const std::string format(logFormatOf(r.key.format).id);
        if (std::find(it->formats.begin(), it->formats.end(), format) == it->formats.end())
            it->formats.push_back(format);
    }
    if (out.empty()) // nothing read: the window asked for (NGC MXNet's, for format defaults)
        out.push_back({windowFor(ngcMxnetFormat(), s.load.measure), {}});
    return out;
}

std::string windowText(const Summary& s) {
    return windowText(windowsUsed(s));
}

std::string windowText(const std::vector<WindowUse>& used) {
    std::string out;
    for (const auto& u : used) {
        if (!out.empty()) out += "; ";
        // Logs that report their own throughput (steadystateanalyzer.h): their reports, never
        // a window of iterations (a format file's rule is no "warmup -1").
        const bool own = !u.formats.empty() &&
                         std::all_of(u.formats.begin(), u.formats.end(),
                                     [](const auto& f) { return readsOwnReports(logFormatOf(f)); });
        if (isSteadyStateWindow(u.window) || own)
            out += ownReportsText(u.window);
        else
            out += "warmup " + std::to_string(u.window.warmup) + ", iterations " +
                   std::to_string(u.window.iterations);
        if (used.size() == 1) break;
        std::string formats;
        for (const auto& f : u.formats)
            formats += (formats.empty() ? "" : ", ") + f;
        out += " (" + formats + ")";
    }
    return out;
}

void setPeak(Summary& summary, const PeakOptions& peak) {
    summary.options.peak = peak;
    for (auto& c : summary.cases)
        c.peak = peakShare(c.key.model, c.key.precision, c.gpus(), c.median, peak);
}

} // namespace sv
