#include "analysis.h"

#include "rundisturbance.h"

#include <algorithm>

namespace sv::ui {

std::vector<const CaseStats*> Analysis::groupCases() const {
    std::vector<const CaseStats*> out;
    if (!group) return out;
    for (const auto& c : summary.cases)
        if (group->contains(c.key)) out.push_back(&c);
    return out;
}

ScalingData Analysis::scaling(const ReferenceCatalog& given) const {
    if (!group) return {};
    const ReferenceCatalog& catalog =
        &given == &ReferenceCatalog::builtin() ? options.referenceCatalog() : given;
    return scalingData(groupCases(), *group, summary.options.method, references, catalog);
}

Summary Analysis::groupSummary() const {
    Summary s = summary;
    s.cases.clear();
    for (const auto* c : groupCases())
        s.cases.push_back(*c);
    return s;
}

std::string referenceId(const ReferenceTable& table, const ReferenceSeries& series) {
    return table.series.size() <= 1 ? table.id : table.id + ":" + series.name;
}

std::optional<std::string> matchingReference(const CaseGroup& group,
                                             const ReferenceCatalog& catalog) {
    // The 1n1g figure is in every published table; any other topology will do when it is not.
    for (const char* topo : {"1n1g", "1n8g", "2n8g", "4n8g", "1n2g", "1n4g", "1n16g"})
        if (auto v = catalog.lookup(group.precision, group.batchPerDevice, topo);
            v && v->table && v->series)
            return referenceId(*v->table, *v->series);
    return std::nullopt;
}

Analysis analyze(const LogSnapshot& snapshot, const AnalysisOptions& options,
                 const ReferenceCatalog& given) {
    // The options' own catalog (the user's tables too) unless the caller names one.
    const ReferenceCatalog& catalog =
        &given == &ReferenceCatalog::builtin() ? options.referenceCatalog() : given;
    Analysis a;
    a.options = options;
    a.expected = snapshot.expected;
    a.complete = snapshot.complete;
    Summary& s = a.summary;
    s.root = snapshot.root.toStdString();
    s.load.measure = options.measure;
    s.windowSource = options.windowSource;
    s.campaignFile = options.campaignFile;
    s.options.method = options.method;
    s.warnings = snapshot.scanWarnings;
    s.skippedFiles = snapshot.scanWarnings.size();
    s.cancelled = snapshot.cancelled;
    s.runs.reserve(snapshot.logs.size());
    for (const auto& log : snapshot.logs) {
        s.runs.push_back(analyzeRunLog(*log, options.measure));
        const auto path = log->file.path.lexically_normal();
        for (const auto& p : snapshot.inProgress)
            s.runs.back().inProgress = s.runs.back().inProgress || p.lexically_normal() == path;
        a.logs.push_back(log);
    }

    // Which runs the campaign's monitor saw disturbed: its journal, read here on the worker
    // (with no logs, as for an empty page on the GUI thread, there is nothing to mark).
    if (!snapshot.logs.empty()) {
        const auto found = readRunDisturbances(snapshot.root.toStdString());
        applyRunDisturbances(s.runs, snapshot.root.toStdString(), found);
        applyMonitorCurves(s.runs, snapshot.root.toStdString(), found);
    }
    s.options.excludeDisturbed = options.excludeDisturbed;
    // Kept alive by a.options.catalog for as long as the summary is.
    if (&catalog == a.options.catalog.get()) s.options.references = a.options.catalog.get();

    // Groups first (with no reference), so that the group shown is known before references.
    s.cases = computeCases(s.runs, s.options, catalog);
    for (const auto& c : s.cases) {
        CaseGroup g{c.key.model, c.key.precision, c.key.batchPerDevice};
        if (std::find(a.groups.begin(), a.groups.end(), g) == a.groups.end()) a.groups.push_back(g);
    }
    if (options.group &&
        std::find(a.groups.begin(), a.groups.end(), *options.group) != a.groups.end())
        a.group = options.group;
    else if (!a.groups.empty())
        a.group = a.groups.front();

    if (options.autoReferences) {
        if (a.group)
            if (auto id = matchingReference(*a.group, catalog)) a.references.push_back(*id);
    } else {
        for (const auto& r : options.references)
            if (catalog.knows(r)) a.references.push_back(r);
    }
    // The Results table compares with the first overlay; with none, the core's own matching.
    s.options.reference =
        options.autoReferences || a.references.empty() ? std::string() : a.references.front();
    recomputeCases(s);
    return a;
}

} // namespace sv::ui
