#include "ui/analysis/analysis.h"

#include "ui/analysis/chartfigures.h"
#include "core/formats/formatregistry.h"
#include "core/load/rundisturbance.h"
#include "core/load/runenergy.h"

#include <algorithm>
#include <set>
#include <filesystem>

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
    ScalingData d =
        series.size() > 1
            ? scalingData(series, *group, summary.options.method, references, catalog)
            : scalingData(groupCases(), *group, summary.options.method, references, catalog);
    addPrediction(d, prediction);
    return d;
}

Summary Analysis::groupSummary() const {
    Summary s = summary;
    s.cases.clear();
    for (const auto* c : groupCases())
        s.cases.push_back(*c);
    return s;
}

std::vector<WindowUse> Analysis::groupWindows() const {
    if (!group) return {};
    Summary shown;
    shown.load = summary.load;
    for (const auto& r : summary.runs)
        if (r.key.model == group->model && r.key.precision == group->precision &&
            r.key.batchPerDevice == group->batchPerDevice &&
            (group->format.empty() || r.key.format == group->format))
            shown.runs.push_back(r);
    return shown.runs.empty() ? std::vector<WindowUse>{} : windowsUsed(shown);
}

std::string referenceId(const ReferenceTable& table, const ReferenceSeries& series) {
    return table.series.size() <= 1 ? table.id : table.id + ":" + series.name;
}

std::optional<std::string> matchingReference(const CaseGroup& group, std::string_view format,
                                             const ReferenceCatalog& catalog) {
    const std::string_view framework =
        format.empty() ? std::string_view() : logFormatOf(format).framework;
    if (auto v = catalog.match(group.precision, group.batchPerDevice, group.model, framework);
        v && v->table && v->series)
        return referenceId(*v->table, *v->series);
    return std::nullopt;
}

std::vector<std::string> matchingReferences(const CaseGroup& group,
                                            const std::vector<std::string>& formats,
                                            const ReferenceCatalog& catalog) {
    std::vector<std::string> out;
    auto add = [&](std::string_view format) {
        if (auto id = matchingReference(group, format, catalog);
            id && std::find(out.begin(), out.end(), *id) == out.end())
            out.push_back(*id);
    };
    if (!group.format.empty())
        add(group.format);
    else
        for (const auto& f : formats)
            add(f);
    return out;
}

std::vector<RunLogPtr> remeasured(const std::vector<RunLogPtr>& logs,
                                  const MeasureOptions& measure) {
    std::vector<RunLogPtr> out = logs;
    std::vector<std::size_t> stale;
    std::vector<LogFile> files;
    for (std::size_t i = 0; i < logs.size(); ++i)
        if (!sameMeasure(logs[i]->measure, measure)) {
            stale.push_back(i);
            files.push_back(logs[i]->file);
        }
    if (stale.empty()) return out;
    std::vector<RunLog> fresh = readRunLogs(files, measure);
    for (std::size_t j = 0; j < stale.size(); ++j) {
        const RunLogPtr& old = logs[stale[j]];
        // The trace does not depend on the window: one copy while the file is as it was.
        if (!fresh[j].readError && fresh[j].position == old->position && old->trace)
            fresh[j].trace = old->trace;
        out[stale[j]] = std::make_shared<const RunLog>(std::move(fresh[j]));
    }
    return out;
}

namespace {

// One directory's runs measured with the options, and the journal's disturbances applied; its
// cases come later, once the reference is known.
Summary measureSnapshot(const LogSnapshot& snapshot, const AnalysisOptions& options,
                        std::vector<RunLogPtr>* logs) {
    Summary s;
    s.root = snapshot.root.toStdString();
    s.load.measure = options.measure;
    s.windowSource = options.windowSource;
    s.campaignFile = options.campaignFile;
    s.options.method = options.method;
    s.warnings = snapshot.scanWarnings;
    s.skippedFiles = snapshot.scanWarnings.size();
    s.cancelled = snapshot.cancelled;
    s.runs.reserve(snapshot.logs.size());
    *logs = remeasured(snapshot.logs, options.measure);
    for (const auto& log : *logs) {
        s.runs.push_back(log->result);
        const auto path = log->file.path.lexically_normal();
        for (const auto& p : snapshot.inProgress)
            s.runs.back().inProgress = s.runs.back().inProgress || p.lexically_normal() == path;
    }
    // Which runs the campaign's monitor saw disturbed: its journal, read here on the worker
    // (with no logs, as for an empty page on the GUI thread, there is nothing to mark).
    if (!snapshot.logs.empty()) {
        const auto found = readRunDisturbances(snapshot.root.toStdString());
        applyRunDisturbances(s.runs, snapshot.root.toStdString(), found);
        applyMonitorCurves(s.runs, snapshot.root.toStdString(), found);
        applyRunEnergy(s.runs, snapshot.root.toStdString(), found);
    }
    s.options.excludeDisturbed = options.excludeDisturbed;
    return s;
}

// Every model, precision and batch size once, in case order; where several frameworks share one,
// first all of them together (Compare frameworks), then each alone. Where the directories hold
// several frameworks, a group of one framework names it (its format), so that "r50 fp16, batch
// 256" of TensorFlow and "r50 fp16, batch 128" of gluon-cv can be told apart.
std::vector<CaseGroup> groupsOf(const std::vector<const std::vector<CaseStats>*>& all) {
    std::vector<std::pair<CaseGroup, std::vector<std::string>>> found;
    for (const auto* cases : all)
        for (const auto& c : *cases) {
            const CaseGroup g{c.key.model, c.key.precision, c.key.batchPerDevice};
            auto it = std::find_if(found.begin(), found.end(),
                                   [&](const auto& f) { return f.first == g; });
            if (it == found.end()) it = found.emplace(found.end(), g, std::vector<std::string>{});
            if (std::find(it->second.begin(), it->second.end(), c.key.format) == it->second.end())
                it->second.push_back(c.key.format);
        }
    std::set<std::string> everyFormat;
    for (const auto& [g, formats] : found)
        everyFormat.insert(formats.begin(), formats.end());
    std::vector<CaseGroup> out;
    for (const auto& [g, formats] : found) {
        out.push_back(g);
        if (formats.size() == 1 && everyFormat.size() > 1) out.back().format = formats.front();
        if (formats.size() > 1)
            for (const auto& f : formats)
                out.push_back(CaseGroup{g.model, g.precision, g.batchPerDevice, f});
    }
    return out;
}

ComparisonSeries seriesOf(const std::string& label, const Summary& s, const CaseGroup& group) {
    ComparisonSeries out;
    out.label = label;
    out.source = s.root;
    out.method = s.options.method;
    for (const auto& c : s.cases)
        if (group.contains(c.key)) out.cases.push_back(c);
    return out;
}

std::string defaultLabel(const std::string& root) {
    std::filesystem::path p(root);
    if (!p.has_filename()) p = p.parent_path();
    return p.filename().empty() ? root : p.filename().string();
}

} // namespace

std::vector<ComparisonSeries> frameworkSeries(const std::vector<const CaseStats*>& cases,
                                              Method method) {
    std::vector<ComparisonSeries> out;
    for (const CaseStats* c : cases) {
        auto it = std::find_if(out.begin(), out.end(), [&](const ComparisonSeries& s) {
            return s.source == c->key.format;
        });
        if (it == out.end()) {
            ComparisonSeries s;
            s.source = c->key.format;
            s.label = std::string(logFormatOf(c->key.format).framework);
            s.method = method;
            it = out.insert(out.end(), std::move(s));
        }
        CaseStats copy = *c;
        copy.key.format.clear();
        it->cases.push_back(std::move(copy));
    }
    return out;
}

namespace {

// Another directory beside the open one, measured over its own window, as `compare` measures
// it; the method and the rest are the view's.
SeriesAnalysis measureOther(const SeriesInput& input, const AnalysisOptions& options,
                            const ReferenceCatalog* userTables) {
    SeriesAnalysis o;
    o.label = input.label;
    o.expected = input.snapshot.expected;
    o.complete = input.snapshot.complete;
    AnalysisOptions own = options;
    own.measure = input.measure;
    own.windowSource = input.windowSource;
    own.campaignFile = input.campaignFile;
    o.summary = measureSnapshot(input.snapshot, own, &o.logs);
    if (userTables) o.summary.options.references = userTables;
    recomputeCases(o.summary); // its run warnings too, for its Runs view
    return o;
}

// The case groups of every directory open, and the one shown: the options', else the first.
// Computed with no reference, so that the group shown is known before its references.
void chooseGroup(Analysis& a, const AnalysisOptions& options, const ReferenceCatalog& catalog) {
    Summary& s = a.summary;
    s.cases = computeCases(s.runs, s.options, catalog);
    std::vector<const std::vector<CaseStats>*> all{&s.cases};
    for (const auto& o : a.others)
        all.push_back(&o.summary.cases);
    a.groups = groupsOf(all);
    if (options.group &&
        std::find(a.groups.begin(), a.groups.end(), *options.group) != a.groups.end())
        a.group = options.group;
    else if (!a.groups.empty())
        a.group = a.groups.front();
}

// The group's log formats, in every directory open, and their frameworks into a.frameworks:
// each framework's own references (the Results table's per case), a TensorFlow 2 tree is not
// compared with NGC MXNet's figures.
std::vector<std::string> groupFormats(Analysis& a) {
    const Summary& s = a.summary;
    std::vector<std::string> formats;
    if (a.group) {
        auto collect = [&](const std::vector<CaseStats>& cases) {
            for (const auto& c : cases)
                if (a.group->contains(c.key) &&
                    std::find(formats.begin(), formats.end(), c.key.format) == formats.end())
                    formats.push_back(c.key.format);
        };
        collect(s.cases);
        for (const auto& o : a.others)
            collect(o.summary.cases);
        for (const auto& f : a.group->format.empty() ? formats : std::vector{a.group->format})
            if (const std::string fw(logFormatOf(f).framework);
                !fw.empty() &&
                std::find(a.frameworks.begin(), a.frameworks.end(), fw) == a.frameworks.end())
                a.frameworks.push_back(fw);
    }
    return formats;
}

// The references drawn: each framework's own (automatic), or those the options name that the
// catalog knows. The cases are computed again with the first.
void chooseReferences(Analysis& a, const AnalysisOptions& options, const ReferenceCatalog& catalog,
                      const std::vector<std::string>& formats) {
    Summary& s = a.summary;
    if (options.autoReferences) {
        if (a.group) a.references = matchingReferences(*a.group, formats, catalog);
    } else {
        for (const auto& r : options.references)
            if (catalog.knows(r)) a.references.push_back(r);
    }
    // The Results table compares with the first overlay; with none, the core's own matching.
    s.options.reference =
        options.autoReferences || a.references.empty() ? std::string() : a.references.front();
    recomputeCases(s);
}

// The series the charts and the comparison draw: each directory's; or, in one tree of several
// frameworks with no framework chosen, each framework's; or the open directory's alone.
void buildSeries(Analysis& a, const AnalysisOptions& options) {
    const Summary& s = a.summary;
    if (a.group) {
        if (!a.others.empty()) {
            // With what each recorded (its captured environment and campaign settings, read
            // here on the worker; its window), for what changed beside each verdict.
            auto recorded = [&](ComparisonSeries series, const Summary& from) {
                recordSeries(series, from);
                return series;
            };
            a.series.push_back(recorded(seriesOf(a.label, s, *a.group), s));
            for (const auto& o : a.others)
                a.series.push_back(recorded(seriesOf(o.label, o.summary, *a.group), o.summary));
        } else if (a.group->format.empty()) {
            a.series = frameworkSeries(a.groupCases(), options.method);
            a.comparesFrameworks = a.series.size() > 1;
            if (!a.comparesFrameworks) a.series = {seriesOf(a.label, s, *a.group)};
        } else {
            a.series.push_back(seriesOf(a.label, s, *a.group));
        }
    }
}

} // namespace

Analysis analyze(const LogSnapshot& snapshot, const AnalysisOptions& options,
                 const ReferenceCatalog& given, const std::string& label,
                 const std::vector<SeriesInput>& others) {
    // The options' own catalog (the user's tables too) unless the caller names one.
    const ReferenceCatalog& catalog =
        &given == &ReferenceCatalog::builtin() ? options.referenceCatalog() : given;
    // Kept alive by a.options.catalog for as long as the summaries are.
    const ReferenceCatalog* userTables =
        &catalog == options.catalog.get() ? options.catalog.get() : nullptr;
    Analysis a;
    a.options = options;
    a.expected = snapshot.expected;
    a.complete = snapshot.complete;
    a.summary = measureSnapshot(snapshot, options, &a.logs);
    Summary& s = a.summary;
    if (userTables) s.options.references = userTables;
    // What the runs ran on, before the cases are computed: each case's percent of peak.
    s.options.peak = runPeak(s);
    a.label = label.empty() ? defaultLabel(s.root) : label;
    for (const auto& input : others)
        a.others.push_back(measureOther(input, options, userTables));

    chooseGroup(a, options, catalog);
    const std::vector<std::string> formats = groupFormats(a);
    chooseReferences(a, options, catalog, formats);
    buildSeries(a, options);
    // Where each case's loss goes (the probes' bootstraps run here too, never on the GUI thread).
    a.probes = readCampaignProbes(s.root);
    for (const CaseStats* c : a.groupCases())
        a.groupLosses.push_back(scalingLossFor(s.cases, *c, a.probes));
    a.prediction = predictGroup(a.groupCases(), a.probes);
    // The bootstrap of each case's ratio (10 000 resamples a side) runs here, on the worker.
    if (a.series.size() > 1) a.comparison = compareSeries(a.series);
    return a;
}

} // namespace sv::ui
