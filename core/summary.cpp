#include "summary.h"

#include "rundisturbance.h"

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

} // namespace sv
