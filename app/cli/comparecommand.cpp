// scaleview-cli compare: several log directories or campaigns as named series, each case's
// medians side by side, and each series against the first with an interval and a verdict.

#include "app/cli/arguments.h"
#include "app/cli/measurearguments.h"
#include "app/cli/seriesdirectory.h"
#include "app/cli/commands.h"
#include "app/cli/usercatalog.h"
#include "version.h"

#include "core/load/campaignwindow.h"
#include "core/compare/comparison.h"
#include "core/compare/comparisonreport.h"
#include "core/compare/serieslabels.h"
#include "core/parse/logformat.h"
#include "core/stats/summary.h"

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
    const std::size_t firstDir = series.size(); // after the reference's series, if any
    std::vector<SeriesOrigin> origins;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        auto read =
            readSeriesDirectory(dirs[i], load, options, {warmup, iterations}, quiet, "compare");
        if (read.usage) return usageError(*read.usage);
        if (!read.summary) return 2;
        Summary& s = *read.summary;
        SeriesOrigin origin{dirs[i], {}};
        for (const auto& r : s.runs)
            if (!r.key.format.empty())
                origin.frameworks.emplace_back(logFormatOf(r.key.format).framework);
        origins.push_back(std::move(origin));
        ComparisonSeries cs;
        cs.source = dirs[i];
        cs.method = options.method;
        cs.cases = std::move(s.cases);
        // What changed beside each verdict: what the launcher recorded (environment, campaign
        // settings) and the window the runs were measured over.
        cs.recorded = recordedFacts(s);
        cs.window = s.load.measure;
        series.push_back(std::move(cs));
    }
    // Named after the directory, and where two share a name, after what tells them apart (their
    // frameworks, else their folders); a --label as given. "(N)" only for a name still taken.
    const auto named = distinguishingLabels(origins);
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        std::string label = i < labels.size() ? labels[i] : named[i];
        for (std::size_t j = 0; j < firstDir + i; ++j)
            if (series[j].label == label) label += " (" + std::to_string(i + 1) + ")";
        series[firstDir + i].label = std::move(label);
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
