#include "core/stats/summary.h"

#include "core/parse/logformat.h"
#include "core/load/rundisturbance.h"
#include "core/measure/runmeter.h"

#include <algorithm>

namespace sv {

Summary summarizeDirectory(const std::filesystem::path& root, const LoadOptions& load,
                           const SummaryOptions& options, const CaseFilter& filter,
                           const LoadProgress& progress) {
    Summary s;
    s.root = root.string();
    s.load = load;
    s.options = options;
    ScanResult scan = scanLogDirectory(root);
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
    // A campaign's journal says which runs its monitor saw disturbed.
    applyRunDisturbances(s.runs, root, readRunDisturbances(root));
    recomputeCases(s);
    return s;
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

} // namespace sv
