#include "app/cli/arguments.h"
#include "app/cli/measurearguments.h"
#include "app/cli/commands.h"
#include "core/formats/formatregistry.h"
#include "core/load/runloader.h"
#include "core/model/wording.h"
#include "app/cli/peakarguments.h"
#include "app/cli/usercatalog.h"
#include "version.h"

#include "core/load/campaignwindow.h"
#include "core/report/dlperfview.h"
#include "core/report/report.h"
#include "core/stats/summary.h"
#include "core/model/atomicfile.h"
#include "core/model/outputtext.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <unistd.h>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli summarize: %s\n(see scaleview-cli --help)\n",
                 message.c_str());
    return 2;
}

// Replaces path atomically (core/model/atomicfile.h): readers see the old file or the new one,
// never half of it, and no name planted beside it is written through.
bool writeFileAtomically(const std::string& path, const std::string& text, std::string& error) {
    if (auto failed = sv::writeFileAtomically(path, text)) {
        error = std::move(*failed);
        return false;
    }
    return true;
}

std::string joinMix(const CaseMix& mix) {
    std::string s;
    if (mix.precisions.size() > 1) {
        s += "precisions";
        for (const auto& p : mix.precisions)
            s += " " + p;
    }
    if (mix.batchSizes.size() > 1) {
        s += s.empty() ? "batch sizes" : "; batch sizes";
        for (int b : mix.batchSizes)
            s += " " + std::to_string(b);
    }
    if (mix.formats.size() > 1) {
        s += s.empty() ? "formats" : "; formats";
        for (const auto& f : mix.formats)
            s += " " + f;
    }
    return s;
}

} // namespace

std::string versionString() {
    return std::string("scaleview-cli ") + SCALEVIEW_VERSION + " (git " + SCALEVIEW_GIT_REVISION +
           ")";
}

namespace {

// What summarize was asked, read from its command line.
struct SummarizeRequest {
    LoadOptions load;
    SummaryOptions options;
    CaseFilter filter;
    MeasureArguments window;                 // --warmup and --iterations as given
    std::string format;                      // table, csv, json or dlperf
    std::optional<ReferenceCatalog> catalog; // options.references points into it
    PeakRequest peak;                        // options.peak points into its catalogue
    std::vector<std::filesystem::path> paths;
    std::string root; // the first path: where a campaign's window is looked for
    std::string windowSource, campaignFile;
    bool quiet = false;
};

// --batch-size, --cv-threshold, --exclude-disturbed, --log-format, --model, --precision and
// --format: which runs are read, how, how they are judged and how the summary is written.
void readSelection(Arguments& args, SummarizeRequest& req) {
    if (auto b = args.integer("batch-size", 1, 1 << 24)) req.filter.batchPerDevice = *b;
    if (auto cv = args.value("cv-threshold")) {
        char* end = nullptr;
        const double v = std::strtod(cv->c_str(), &end);
        if (cv->empty() || *end != '\0' || !(v > 0.0 && v <= 100.0))
            args.fail("--cv-threshold must be a percentage above 0 and at most 100, not '" + *cv +
                      "'");
        else
            req.options.trust.cvPct = v;
    }
    req.options.excludeDisturbed = args.flag("exclude-disturbed");
    if (auto f = args.value("log-format")) {
        if (!findLogFormat(*f))
            args.fail("--log-format must be one of " + logFormatIds() + ", not '" + *f + "'");
        else
            req.load.logFormat = *f;
    }
    req.filter.model = args.value("model");
    req.filter.precision = args.value("precision");
    req.format = args.value("format").value_or("table");
    if (req.format != "table" && req.format != "csv" && req.format != "json" &&
        req.format != "dlperf")
        args.fail("--format must be table, csv, json or dlperf, not '" + req.format + "'");
}

// The whole command line into req, the first bad option the usage error (its exit code).
std::optional<int> readRequest(Arguments& args, const std::vector<std::string>& referenceFiles,
                               std::string fileError, SummarizeRequest& req) {
    req.window = readMeasureArguments(args, &req.options.method, &req.load);
    readSelection(args, req);
    readPeakArguments(args, &req.peak);
    if (!fileError.empty()) args.fail(fileError);
    // The published tables, the user's own and --reference-file: a malformed file is refused.
    req.catalog = loadCatalog(referenceFiles, args.flag("quiet"), &fileError);
    if (!req.catalog) return usageError(fileError);
    req.options.references = &*req.catalog;
    if (auto r = args.value("reference")) {
        if (!req.catalog->knows(*r))
            args.fail("no reference table '" + *r + "' (scaleview-cli references lists them)");
        req.options.reference = *r;
    }
    if (args.error()) return usageError(*args.error());
    if (args.positional().empty()) return usageError("LOG_DIR (or LOG_FILE...) is missing");
    // One folder, one log, or several logs and folders (summarize FILE...).
    req.root = args.positional()[0];
    for (const auto& p : args.positional())
        req.paths.emplace_back(p);
    req.quiet = args.flag("quiet");
    return std::nullopt;
}

// A campaign's logs are measured over the campaign's window (what it ran), unless the
// command line says otherwise (a value given wins over the campaign's); with neither, each
// log over its format's DLPerf defaults, as DLPerf's script for it would.
std::optional<int> chooseWindow(SummarizeRequest& req) {
    const CampaignWindowLookup found = findCampaignWindow(req.root);
    if (found.error && !req.quiet) std::fprintf(stderr, "warning: %s\n", found.error->c_str());
    const SeriesWindow chosen = seriesWindow(found, req.window.warmup, req.window.iterations);
    req.load.measure = chosen.measure;
    req.windowSource = chosen.source;
    req.campaignFile = found.window ? found.window->file : std::string();
    if (auto bad = validateMeasureOptions(req.load.measure)) return usageError(*bad);
    if (found.window && !req.quiet)
        std::fprintf(stderr, "note: %s window: warmup %d, iterations %d%s (%s)\n",
                     req.windowSource == "campaign" ? "the campaign's" : "the command line's",
                     req.load.measure.warmup, req.load.measure.iterations,
                     req.windowSource == "campaign" ? "" : " instead of the campaign's",
                     req.campaignFile.c_str());
    return std::nullopt;
}

// What the reading said: its warnings and notes on standard error, and exit code 2 when it
// found no log at all.
std::optional<int> reportReading(const Summary& summary, const SummarizeRequest& req) {
    if (!req.quiet)
        for (const auto& w : summary.warnings)
            std::fprintf(stderr, "warning: %s\n", terminalText(w.text()).c_str());
    // What the scan found, in one line (never a warning per file that is not a log); a tree of
    // logs only says nothing, as before.
    if (!req.quiet && summary.scanLine.find("skipped") != std::string::npos)
        std::fprintf(stderr, "note: %s\n", summary.scanLine.c_str());
    // Where DLPerf's script computes another figure than ScaleView's, say so and give both.
    if (!req.quiet && req.format != "dlperf")
        for (const auto& r : summary.runs)
            for (const auto& n : r.notes)
                if (n.rfind("DLPerf's ", 0) == 0)
                    std::fprintf(stderr, "note: %s: %s\n", terminalText(r.path).c_str(),
                                 terminalText(n).c_str());
    if (summary.runs.empty()) {
        std::fprintf(stderr,
                     "scaleview-cli summarize: no throughput logs in %s (%s; DLPerf's layout "
                     "<N>n<G>g/<model>_b<B>_<precision>_<repeat>.log, or any file whose lines a "
                     "known format reads: scaleview-cli formats)\n",
                     summary.root.c_str(), summary.scanLine.c_str());
        return 2;
    }
    return std::nullopt;
}

// The runs DLPerf's script for one format reads, where the logs mix formats: the format of the
// most runs (DLPerf's layout first: a tree's own logs outnumber what was copied beside them).
// Every other log is named on standard error as left out, with its format.
Summary oneScriptsLogs(const Summary& summary, bool quiet) {
    std::map<std::string, int> count;
    for (const auto& r : summary.runs)
        ++count[r.key.format];
    if (count.size() <= 1) return summary;
    const auto most =
        std::max_element(count.begin(), count.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    const std::string format = most->first;
    Summary out = summary;
    out.runs.clear();
    for (const auto& r : summary.runs) {
        if (r.key.format == format) {
            out.runs.push_back(r);
            continue;
        }
        if (!quiet)
            std::fprintf(stderr,
                         "note: left out of DLPerf's output: %s (read as %s; DLPerf's script for "
                         "%s reads that format's logs only)\n",
                         r.path.c_str(), r.key.format.c_str(), format.c_str());
    }
    recomputeCases(out);
    return out;
}

// --format dlperf: the summary as DLPerf's script for its one format would print it, into
// *text; a usage error's exit code when the logs mix formats, precisions or batch sizes.
std::optional<int> renderDlperf(const Summary& whole, const SummarizeRequest& req,
                                std::string* text) {
    const Summary summary = oneScriptsLogs(whole, req.quiet);
    const CaseMix mix = caseMix(summary);
    // A script that prints tables (OneFlow's) groups the batch sizes itself.
    const LogFormat* only = mix.formats.size() == 1 ? findLogFormat(*mix.formats.begin()) : nullptr;
    const bool tables = only && only->dlperfOutput == DlperfOutput::MarkdownTables;
    if (tables ? mix.precisions.size() > 1 : mix.mixed())
        return usageError("--format dlperf writes one format, precision and batch size, and " +
                          summary.root + " holds " + joinMix(mix) +
                          ": choose with --precision and --batch-size (one format: a "
                          "folder of one framework)");
    const DlperfView view = dlperfView(summary, req.options.method);
    if (!req.quiet)
        for (const auto& n : view.notes)
            std::fprintf(stderr, "note: %s\n", terminalText(n).c_str());
    *text = dlperfText(view);
    return std::nullopt;
}

// The summary in the --format asked for, into *text.
std::optional<int> render(const Summary& summary, const SummarizeRequest& req, std::string* text) {
    if (req.format == "table")
        *text = formatTable(summary);
    else if (req.format == "csv")
        *text = formatCsv(summary);
    else if (req.format == "json")
        *text = formatJson(summary, SCALEVIEW_VERSION);
    else
        return renderDlperf(summary, req, text);
    return std::nullopt;
}

// text into --output (replaced atomically) or to standard output.
std::optional<int> writeText(const std::optional<std::string>& output, const std::string& text) {
    if (output) {
        std::string error;
        if (!writeFileAtomically(*output, text, error)) {
            std::fprintf(stderr, "scaleview-cli summarize: %s\n", error.c_str());
            return 2;
        }
    } else {
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return std::nullopt;
}

// 2 when no case has a median (a table of dashes is no summary), 1 under --strict with
// warnings, 0 otherwise.
int exitStatus(const Summary& summary, bool strict) {
    const bool anyUsable = std::any_of(summary.cases.begin(), summary.cases.end(),
                                       [](const CaseStats& c) { return c.median.has_value(); });
    if (!anyUsable) {
        // Logs that all stop at the same N were written for a window of N: say which flag reads
        // them, rather than leaving the user to guess from N warnings.
        if (auto n = commonShortIterations(summary.runs))
            std::fprintf(stderr,
                         "note: these logs all have %d iterations, fewer than the window's %d: "
                         "use --iterations %d to read them as written\n",
                         *n, summary.runs.front().window.iterations, *n);
        // A table of dashes is no summary: say so, and let scripts see it.
        std::fprintf(stderr,
                     "scaleview-cli summarize: no usable run in %s (%s, none counts: see "
                     "the warnings; a campaign's logs need its --warmup and --iterations)\n",
                     summary.root.c_str(),
                     sv::countOf(static_cast<long long>(summary.runs.size()), "log").c_str());
        return 2;
    }
    if (strict && !summary.warnings.empty()) return 1;
    return 0;
}

} // namespace

int summarizeCommand(const std::vector<std::string>& argvIn) {
    std::vector<std::string> argv = argvIn;
    std::string fileError;
    const auto referenceFiles = takeRepeated(argv, "reference-file", &fileError);
    Arguments args(argv,
                   {"method", "warmup", "iterations", "format", "output", "reference", "model",
                    "precision", "batch-size", "threads", "cv-threshold", "log-format", "device",
                    "peak-tflops", "peak-catalogue"},
                   {"strict", "quiet", "exclude-disturbed"});
    SummarizeRequest req;
    if (auto code = readRequest(args, referenceFiles, fileError, req)) return *code;
    if (auto code = chooseWindow(req)) return *code;

    Summary summary = summarizePaths(req.paths, req.load, req.options, req.filter);
    summary.windowSource = req.windowSource;
    summary.campaignFile = req.campaignFile;
    if (summary.error) {
        std::fprintf(stderr, "scaleview-cli summarize: %s\n", summary.error->c_str());
        return 2;
    }
    applyPeak(summary, req.peak);
    if (auto code = reportReading(summary, req)) return *code;
    std::string text;
    if (auto code = render(summary, req, &text)) return *code;
    if (auto code = writeText(args.value("output"), text)) return *code;
    return exitStatus(summary, args.flag("strict"));
}

} // namespace sv::cli
