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
#include "core/report/comparisonreport.h"
#include "core/compare/serieslabels.h"
#include "core/formats/formatregistry.h"
#include "core/stats/summary.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli compare: %s\n(see scaleview-cli compare --help)\n",
                 message.c_str());
    return 2;
}

// What compare was asked: how to measure, how to compare, how to print.
struct Request {
    SummaryOptions options;
    LoadOptions load;
    ComparisonOptions compare;
    MeasureArguments window;
    std::string format;
    bool quiet = false;
};

// The reference table as series A, so each directory's verdict reads against it; the
// directories are measured by the table's own method, as its figures were. An exit status when
// it cannot be had.
std::optional<int> addReferenceSeries(Request& r, const std::string& reference,
                                      const std::vector<std::string>& referenceFiles,
                                      bool methodGiven, std::vector<ComparisonSeries>& series) {
    std::string error;
    const auto catalog = loadCatalog(referenceFiles, r.quiet, &error);
    if (!catalog) return usageError(error);
    auto ref = seriesFromReference(*catalog, reference);
    if (!ref)
        return usageError("no reference table '" + reference +
                          "' (scaleview-cli references lists them)");
    if (methodGiven && ref->method != r.options.method && !r.quiet)
        std::fprintf(stderr, "note: %s is the %s method: the directories are read by it\n",
                     reference.c_str(), std::string(methodName(ref->method)).c_str());
    r.options.method = ref->method;
    series.push_back(std::move(*ref));
    return std::nullopt;
}

// Each directory read as a series; its frameworks kept for its label. An exit status when one
// cannot be read.
std::optional<int> addDirectorySeries(const Request& r, const std::vector<std::string>& dirs,
                                      std::vector<ComparisonSeries>& series,
                                      std::vector<SeriesOrigin>& origins) {
    for (const auto& dir : dirs) {
        auto read = readSeriesDirectory(dir, r.load, r.options, r.window, r.quiet, "compare");
        if (read.usage) return usageError(*read.usage);
        if (!read.summary) return 2;
        Summary& s = *read.summary;
        SeriesOrigin origin{dir, {}};
        for (const auto& run : s.runs)
            if (!run.key.format.empty())
                origin.frameworks.emplace_back(logFormatOf(run.key.format).framework);
        origins.push_back(std::move(origin));
        ComparisonSeries cs;
        cs.source = dir;
        cs.method = r.options.method;
        cs.cases = std::move(s.cases);
        // What changed beside each verdict: what the launcher recorded (environment, campaign
        // settings), the window the runs were measured over, and the logs' parameter dumps.
        recordSeries(cs, s);
        series.push_back(std::move(cs));
    }
    return std::nullopt;
}

// Named after the directory, and where two share a name, after what tells them apart (their
// frameworks, else their folders); a --label as given. "(N)" only for a name still taken.
void nameSeries(std::vector<ComparisonSeries>& series, std::size_t firstDir,
                const std::vector<std::string>& labels, const std::vector<std::string>& named) {
    for (std::size_t i = 0; i < named.size(); ++i) {
        std::string label = i < labels.size() ? labels[i] : named[i];
        for (std::size_t j = 0; j < firstDir + i; ++j)
            if (series[j].label == label) label += " (" + std::to_string(i + 1) + ")";
        series[firstDir + i].label = std::move(label);
    }
}

std::string render(const Comparison& c, const std::string& format) {
    if (format == "table") return formatComparisonTable(c);
    if (format == "csv") return formatComparisonCsv(c);
    if (format == "markdown") return formatComparisonMarkdown(c);
    return formatComparisonJson(c, SCALEVIEW_VERSION);
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
    Request r;
    r.window = readMeasureArguments(args, &r.options.method, &r.load);
    readThreshold(args, &r.compare.thresholdPct);
    r.format = args.value("format").value_or("table");
    if (r.format != "table" && r.format != "csv" && r.format != "json" && r.format != "markdown")
        args.fail("--format must be table, csv, json or markdown, not '" + r.format + "'");
    if (args.error()) return usageError(*args.error());
    const auto& dirs = args.positional();
    const auto reference = args.value("reference");
    if (dirs.size() + (reference ? 1 : 0) < 2)
        return usageError("give two or more log directories (A B [C...]), or one and --reference");
    if (labels.size() > dirs.size())
        return usageError(std::to_string(labels.size()) + " labels for " +
                          std::to_string(dirs.size()) + " directories");
    r.quiet = args.flag("quiet");

    std::vector<ComparisonSeries> series;
    if (reference) {
        if (auto exit = addReferenceSeries(r, *reference, referenceFiles,
                                           args.value("method").has_value(), series))
            return *exit;
    } else if (!referenceFiles.empty()) {
        return usageError("--reference-file needs --reference ID (a table of that file)");
    }
    const std::size_t firstDir = series.size(); // after the reference's series, if any
    std::vector<SeriesOrigin> origins;
    if (auto exit = addDirectorySeries(r, dirs, series, origins)) return *exit;
    nameSeries(series, firstDir, labels, distinguishingLabels(origins));

    const std::string text = render(compareSeries(series, r.compare), r.format);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace sv::cli
