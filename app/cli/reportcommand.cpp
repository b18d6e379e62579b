// scaleview-cli report: one shareable file for one or more log directories, HTML (charts inline
// as SVG) or Markdown (charts as PNG beside it).

#include "app/cli/arguments.h"
#include "app/cli/measurearguments.h"
#include "app/cli/seriesdirectory.h"
#include "app/cli/commands.h"
#include "app/cli/peakarguments.h"
#include "app/cli/usercatalog.h"
#include "version.h"

#include "core/load/campaignwindow.h"
#include "core/compare/comparison.h"
#include "core/compare/recordedfacts.h"
#include "core/report/reportdocument.h"
#include "core/stats/summary.h"
#include "core/model/atomicfile.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sv::cli {
namespace {

namespace fs = std::filesystem;

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli report: %s\n(see scaleview-cli report --help)\n",
                 message.c_str());
    return 2;
}

// Runs scaleview-plot with an argument vector (no shell); its standard error on failure.
bool runPlot(const fs::path& program, const std::vector<std::string>& args, std::string& error) {
    std::vector<std::string> all = {program.string()};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // Its warnings repeat the report's own: kept aside, shown only when it fails.
    char errName[] = "/tmp/scaleview-plot-err-XXXXXX";
    const int errFd = ::mkstemp(errName);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (errFd >= 0) posix_spawn_file_actions_adddup2(&actions, errFd, 2);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawned == 0) ::waitpid(pid, &status, 0);
    std::string said;
    if (errFd >= 0) {
        said = readCapped(errName, 4096);
        ::close(errFd);
        ::unlink(errName);
    }
    if (spawned != 0) {
        error = "cannot run " + program.string();
        return false;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        // Its last line says why.
        while (!said.empty() && said.back() == '\n')
            said.pop_back();
        error = "scaleview-plot " + args[2] + " failed: " + said.substr(said.rfind('\n') + 1);
        return false;
    }
    return true;
}

std::string safeName(std::string s) {
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '-';
    return s;
}

bool writeAtomically(const fs::path& path, const std::string& text, std::string& error) {
    if (auto failed = writeFileAtomically(path, text)) {
        error = std::move(*failed);
        return false;
    }
    return true;
}

// The same charts as the desktop app's, drawn by scaleview-plot into r: SVG text for HTML
// (drawn in tmpDir), PNG files beside outPath for Markdown; a note where one cannot be drawn.
void drawCharts(ReportSeries& r, const Summary& s, const std::string& dir, std::size_t index,
                const std::optional<fs::path>& plot, Method method, bool html, const char* tmpDir,
                const fs::path& outPath) {
    if (!plot) r.chartNote = "charts left out: scaleview-plot is not installed";
    for (const char* chart : {"throughput", "speedup"}) {
        if (!plot) break;
        const std::string file =
            html ? std::string(tmpDir) + "/" + std::to_string(index) + "-" + chart + ".svg"
                 : (outPath.parent_path() /
                    (outPath.stem().string() + "-" + safeName(r.label) + "-" + chart + ".png"))
                       .string();
        std::vector<std::string> plotArgs = {
            dir, "--chart", chart, "--output", file, "--method", std::string(methodName(method))};
        // plot reads the directory by the same rule; a window given is passed on.
        if (!s.load.measure.formatDefaults)
            plotArgs.insert(plotArgs.end(),
                            {"--warmup", std::to_string(s.load.measure.warmup), "--iterations",
                             std::to_string(s.load.measure.iterations)});
        std::string error;
        if (!runPlot(*plot, plotArgs, error)) {
            r.chartNote = "chart left out: " + error;
            continue;
        }
        const std::string title = r.label + ": " + chart;
        if (html) {
            r.charts.push_back({title, readCapped(file, 16 * 1024 * 1024)});
            fs::remove(file);
        } else {
            r.charts.push_back({title, fs::path(file).filename().string()});
        }
    }
}

// "2026-12-04 21:10 UTC": when the report was written.
std::string utcNow() {
    char when[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    return when;
}

} // namespace

int reportCommand(const std::vector<std::string>& argvIn) {
    std::vector<std::string> argv = argvIn;
    std::string repeatError;
    const auto labels = takeRepeated(argv, "label", &repeatError);
    const auto referenceFiles = takeRepeated(argv, "reference-file", &repeatError);
    if (!repeatError.empty()) return usageError(repeatError);
    Arguments args(argv,
                   {"output", "method", "warmup", "iterations", "threshold", "threads", "device",
                    "peak-tflops", "peak-catalogue"},
                   {"quiet"});
    SummaryOptions options;
    LoadOptions load;
    ComparisonOptions compare;
    const auto [warmup, iterations] = readMeasureArguments(args, &options.method, &load);
    readThreshold(args, &compare.thresholdPct);
    PeakRequest peak;
    readPeakArguments(args, &peak);
    const auto output = args.value("output");
    if (!output)
        args.fail("--output FILE.html or FILE.md is missing");
    else if (fs::path(*output).extension() != ".html" && fs::path(*output).extension() != ".md")
        args.fail("--output must end in .html or .md, not '" + *output + "'");
    if (args.error()) return usageError(*args.error());
    const auto& dirs = args.positional();
    if (dirs.empty()) return usageError("LOG_DIR is missing");
    if (labels.size() > dirs.size()) return usageError("more --label than directories");
    const bool quiet = args.flag("quiet");
    const bool html = fs::path(*output).extension() == ".html";
    std::string error;
    const auto catalog = loadCatalog(referenceFiles, quiet, &error);
    if (!catalog) return usageError(error);
    options.references = &*catalog;

    ReportInput input;
    input.version = SCALEVIEW_VERSION;
    input.generated = utcNow();
    std::vector<ComparisonSeries> series;
    const auto plot = plotProgram();
    const fs::path outPath(*output);
    char tmpl[] = "/tmp/scaleview-report-XXXXXX";
    const char* tmpDir = html ? ::mkdtemp(tmpl) : nullptr;
    for (std::size_t i = 0; i < dirs.size(); ++i) {
        auto read =
            readSeriesDirectory(dirs[i], load, options, {warmup, iterations}, quiet, "report");
        if (read.usage) return usageError(*read.usage);
        if (!read.summary) return 2;
        Summary& s = *read.summary;
        applyPeak(s, peak);
        ReportSeries r;
        r.label = seriesLabel(dirs[i], i < labels.size() ? labels[i] : "", i, input.series);
        r.files = capturedFiles(dirs[i]);
        drawCharts(r, s, dirs[i], i, plot, options.method, html, tmpDir, outPath);
        ComparisonSeries cs;
        cs.label = r.label;
        cs.source = dirs[i];
        cs.method = options.method;
        cs.cases = s.cases;
        // What changed beside each verdict, read as `compare` reads it (the captured files, the
        // window, and what the logs' own parameters say): one comparison, one answer.
        recordSeries(cs, s);
        series.push_back(std::move(cs));
        r.summary = std::move(s);
        input.series.push_back(std::move(r));
    }
    if (tmpDir) ::rmdir(tmpDir);
    if (series.size() > 1) input.comparison = compareSeries(series, compare);
    const std::string text = html ? formatHtmlReport(input) : formatMarkdownReport(input);
    if (!writeAtomically(outPath, text, error)) {
        std::fprintf(stderr, "scaleview-cli report: %s\n", error.c_str());
        return 2;
    }
    if (!quiet)
        for (const auto& r : input.series)
            if (!r.chartNote.empty()) std::fprintf(stderr, "warning: %s\n", r.chartNote.c_str());
    return 0;
}

} // namespace sv::cli
