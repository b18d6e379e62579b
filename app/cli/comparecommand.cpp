// scaleview-cli compare: several log directories or campaigns as named series, each case's
// medians side by side, and each series against the first with an interval and a verdict.

#include "arguments.h"
#include "measurearguments.h"
#include "commands.h"
#include "usercatalog.h"
#include "version.h"

#include "campaignwindow.h"
#include "comparison.h"
#include "comparisonreport.h"
#include "summary.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli compare: %s\n(see scaleview-cli compare --help)\n",
                 message.c_str());
    return 2;
}

// The directory's own name ("campaign-2026-11" for ".../campaign-2026-11/"), as the GUI names it.
std::string defaultLabel(const std::string& dir) {
    std::filesystem::path p(dir);
    if (!p.has_filename()) p = p.parent_path();
    std::string name = p.filename().string();
    if (name.empty() || name == ".")
        name = std::filesystem::absolute(p).lexically_normal().string();
    return name;
}

} // namespace

int compareCommand(const std::vector<std::string>& argvIn) {
    std::vector<std::string> argv = argvIn;
    std::string repeatError;
    // --label repeats, one per series in order; Arguments keeps one value per option.
    const auto labels = takeRepeated(argv, "label", &repeatError);
    const auto referenceFiles = takeRepeated(argv, "reference-file", &repeatError);
    if (!repeatError.empty()) return usageError(repeatError);
    Arguments args(
        argv, {"method", "warmup", "iterations", "format", "threshold", "threads", "reference"},
        {"quiet"});
    SummaryOptions options;
    LoadOptions load;
    ComparisonOptions compare;
    const auto [warmup, iterations] = readMeasureArguments(args, &options.method, &load);
    readThreshold(args, &compare.thresholdPct);
    const std::string format = args.value("format").value_or("table");
    if (format != "table" && format != "csv" && format != "json" && format != "markdown")
        args.fail("--format must be table, csv, json or markdown, not '" + format + "'");
    if (args.error()) return usageError(*args.error());
    const auto& dirs = args.positional();
    const auto reference = args.value("reference");
    if (dirs.size() + (reference ? 1 : 0) < 2)
        return usageError("give two or more log directories (A B [C...]), or one and --reference");
    if (labels.size() > dirs.size())
        return usageError(std::to_string(labels.size()) + " labels for " +
                          std::to_string(dirs.size()) + " directories");
    const bool quiet = args.flag("quiet");

    std::vector<ComparisonSeries> series;
    if (reference) {
        // The reference is A, so each directory's verdict reads against it; the directories
        // are measured by the table's own method, as its figures were.
        std::string error;
        const auto catalog = loadCatalog(referenceFiles, quiet, &error);
        if (!catalog) return usageError(error);
        auto ref = seriesFromReference(*catalog, *reference);
        if (!ref)
            return usageError("no reference table '" + *reference +
                              "' (scaleview-cli references lists them)");
        if (args.value("method") && ref->method != options.method && !quiet)
            std::fprintf(stderr, "note: %s is the %s method: the directories are read by it\n",
                         reference->c_str(), std::string(methodName(ref->method)).c_str());
        options.method = ref->method;
        series.push_back(std::move(*ref));
    } else if (!referenceFiles.empty()) {
        return usageError("--reference-file needs --reference ID (a table of that file)");
    }
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        LoadOptions l = load;
        // Each series is read over its own campaign's window, unless the command line says.
        const CampaignWindowLookup found = findCampaignWindow(dirs[i]);
        if (found.error && !quiet) std::fprintf(stderr, "warning: %s\n", found.error->c_str());
        if (found.window) l.measure = found.window->measure;
        if (warmup) l.measure.warmup = *warmup;
        if (iterations) l.measure.iterations = *iterations;
        if (auto bad = validateMeasureOptions(l.measure)) return usageError(*bad);
        Summary s = summarizeDirectory(dirs[i], l, options);
        if (s.error) {
            std::fprintf(stderr, "scaleview-cli compare: %s\n", s.error->c_str());
            return 2;
        }
        if (!quiet)
            for (const auto& w : s.warnings)
                std::fprintf(stderr, "warning: %s: %s\n", dirs[i].c_str(), w.text().c_str());
        if (s.runs.empty()) {
            std::fprintf(stderr, "scaleview-cli compare: no DLPerf logs in %s\n", dirs[i].c_str());
            return 2;
        }
        ComparisonSeries cs;
        cs.label = i < labels.size() ? labels[i] : defaultLabel(dirs[i]);
        for (const auto& other : series)
            if (other.label == cs.label) cs.label += " (" + std::to_string(i + 1) + ")";
        cs.source = dirs[i];
        cs.method = options.method;
        cs.cases = std::move(s.cases);
        series.push_back(std::move(cs));
    }

    const Comparison c = compareSeries(series, compare);
    std::string text;
    if (format == "table")
        text = formatComparisonTable(c);
    else if (format == "csv")
        text = formatComparisonCsv(c);
    else if (format == "markdown")
        text = formatComparisonMarkdown(c);
    else
        text = formatComparisonJson(c, SCALEVIEW_VERSION);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace sv::cli
