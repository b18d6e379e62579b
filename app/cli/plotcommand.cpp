// scaleview-cli plot: the GUI's throughput, speedup, efficiency and scaling-loss charts written to
// PNG or SVG
// without a display (Qt's offscreen platform when there is none). `--compare frameworks` draws
// the GUI's Compare frameworks charts: one bar (or line) per framework of the tree.

#include "app/cli/arguments.h"
#include "core/load/campaignwindow.h"
#include "app/cli/commands.h"
#include "core/load/runloader.h"

#include "ui/analysis/analysis.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/lossbreakdownchart.h"
#include "ui/analysis/scalingdata.h"
#include "ui/charts/speedupchart.h"
#include "core/stats/summary.h"
#include "ui/charts/throughputchart.h"
#include "core/model/outputtext.h"

#include <algorithm>
#include <QApplication>
#include <QChart>
#include <QFileInfo>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli plot: %s\n(see scaleview-cli --help)\n", message.c_str());
    return 2;
}

// What plot was asked, read from its command line.
struct PlotRequest {
    std::string dir;                     // LOG_DIR
    std::vector<std::string> references; // --reference, in order
    std::optional<int> warmup, iterations, batch, threads;
    std::string chartName; // throughput, speedup, efficiency or loss
    ui::Whisker whisker = ui::Whisker::MinMax;
    std::optional<std::string> compare; // "frameworks"
    QString outPath, suffix;            // suffix: png or svg
    QSize size;
    double scale = 1;
    bool quiet = false;
};

// --reference may be given several times; Arguments keeps one value per name. Takes them out of
// rawArgs into *references, the rest into *args.
std::optional<int> takeReferences(const std::vector<std::string>& rawArgs,
                                  std::vector<std::string>* args,
                                  std::vector<std::string>* references) {
    for (std::size_t i = 0; i < rawArgs.size(); ++i) {
        const std::string& a = rawArgs[i];
        if (a == "--reference" && i + 1 == rawArgs.size())
            return usageError("--reference needs a value (a table id, or ID:SERIES)");
        if (a == "--reference")
            references->push_back(rawArgs[++i]);
        else if (a.rfind("--reference=", 0) == 0)
            references->push_back(a.substr(12));
        else
            args->push_back(a);
    }
    return std::nullopt;
}

// --chart, --whisker, --compare, --output, --size, --scale and the references: what is drawn
// and where; the first bad one is the usage error (its exit code).
std::optional<int> readDrawing(const Arguments& opts, PlotRequest& req) {
    req.chartName = opts.value("chart").value_or("throughput");
    if (req.chartName != "throughput" && req.chartName != "speedup" &&
        req.chartName != "efficiency" && req.chartName != "loss")
        return usageError("--chart must be throughput, speedup, efficiency or loss, not '" +
                          req.chartName + "'");
    const std::string whiskerName = opts.value("whisker").value_or("minmax");
    const auto whisker = ui::ThroughputChart::parseWhisker(whiskerName);
    if (!whisker) return usageError("--whisker must be minmax or ci95, not '" + whiskerName + "'");
    req.whisker = *whisker;
    req.compare = opts.value("compare");
    if (req.compare && *req.compare != "frameworks")
        return usageError("--compare must be frameworks, not '" + *req.compare + "'");
    const auto output = opts.value("output");
    if (!output) return usageError("needs --output FILE.png or FILE.svg");
    req.outPath = QString::fromStdString(*output);
    req.suffix = QFileInfo(req.outPath).suffix().toLower();
    if (req.suffix != QLatin1String("png") && req.suffix != QLatin1String("svg"))
        return usageError("--output must end in .png or .svg");
    req.size =
        ui::ChartExport::parseSize(QString::fromStdString(opts.value("size").value_or("1200x800")));
    if (!req.size.isValid())
        return usageError("--size must be WIDTHxHEIGHT in pixels, e.g. 1200x800");
    req.scale = std::atof(opts.value("scale").value_or("1").c_str());
    if (!(req.scale >= 0.5 && req.scale <= 4)) return usageError("--scale must be from 0.5 to 4");
    for (const auto& r : req.references)
        if (!ReferenceCatalog::builtin().knows(r))
            return usageError("unknown reference '" + r + "' (see 'references')");
    return std::nullopt;
}

// The directory summarized over the window summarize, compare and report read it with, into
// *summary; its warnings on standard error (why runs do not count comes first, above all when
// none does), and exit code 2 when no case is left.
std::optional<int> readSummary(const Arguments& opts, const PlotRequest& req,
                               SummaryOptions* options, Summary* summary) {
    LoadOptions load;
    const CampaignWindowLookup found = findCampaignWindow(req.dir);
    if (found.error) std::fprintf(stderr, "warning: %s\n", found.error->c_str());
    load.measure = seriesWindow(found, req.warmup, req.iterations).measure;
    if (req.threads) load.threads = *req.threads;
    if (auto why = validateMeasureOptions(load.measure)) return usageError(*why);
    if (auto m = opts.value("method")) {
        auto parsed = parseMethod(*m);
        if (!parsed) return usageError("--method must be time or speed");
        options->method = *parsed;
    }
    CaseFilter filter;
    filter.model = opts.value("model");
    filter.precision = opts.value("precision");
    if (req.batch) filter.batchPerDevice = *req.batch;

    *summary = summarizeDirectory(req.dir, load, *options, filter);
    if (summary->error) {
        std::fprintf(stderr, "scaleview-cli plot: %s\n", summary->error->c_str());
        return 2;
    }
    if (!req.quiet)
        for (const auto& w : summary->warnings)
            std::fprintf(stderr, "warning: %s\n", terminalText(w.text()).c_str());
    if (summary->cases.empty()) {
        std::fprintf(stderr, "scaleview-cli plot: no usable runs in %s\n", req.dir.c_str());
        return 2;
    }
    return std::nullopt;
}

// The first case group (model, precision, batch; its framework unless frameworks are
// compared), as the GUI shows it first, as the charts draw it.
ui::ScalingData chartData(const Summary& summary, const PlotRequest& req, Method method) {
    const auto& first = summary.cases.front().key;
    const ui::CaseGroup group{first.model, first.precision, first.batchPerDevice,
                              req.compare ? std::string() : first.format};
    std::vector<const CaseStats*> cases;
    std::vector<std::string> formats;
    for (const auto& c : summary.cases)
        if (group.contains(c.key)) {
            cases.push_back(&c);
            if (std::find(formats.begin(), formats.end(), c.key.format) == formats.end())
                formats.push_back(c.key.format);
        }
    // The app's own choice: each framework's matching table (its model, precision, batch).
    const std::vector<std::string> references =
        req.references.empty() ? ui::matchingReferences(group, formats) : req.references;
    if (!req.compare) return ui::scalingData(cases, group, method, references);
    const auto series = ui::frameworkSeries(cases, method);
    if (series.size() < 2 && !req.quiet)
        std::fprintf(stderr, "note: %s holds one framework for %s: nothing to compare\n",
                     req.dir.c_str(), group.label().c_str());
    return ui::scalingData(series, group, method, references);
}

// Where the scaling goes (issue 28): the first case group's breakdown, the app's Speedup page
// chart, from the probes.json of the directory (none: every part "not measured").
ui::LossBreakdown lossData(const Summary& summary) {
    const auto& first = summary.cases.front().key;
    const ui::CaseGroup group{first.model, first.precision, first.batchPerDevice, first.format};
    const ProbeFile probes = readCampaignProbes(summary.root);
    std::vector<const CaseStats*> cases;
    std::vector<std::optional<ScalingLoss>> losses;
    for (const auto& c : summary.cases)
        if (group.contains(c.key)) {
            cases.push_back(&c);
            losses.push_back(scalingLossFor(summary.cases, c, probes));
        }
    return ui::LossBreakdownChart::breakdown(cases, losses, probes);
}

// The chart drawn into --output, PNG or SVG.
int drawChart(const PlotRequest& req, const ui::ScalingData& data,
              const ui::LossBreakdown& loss) {
    // Charts need a QApplication; with no display, Qt's offscreen platform draws just the same.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QChart* chart = req.chartName == "throughput" ? ui::ThroughputChart::build(data, req.whisker)
                    : req.chartName == "loss"     ? ui::LossBreakdownChart::build(loss)
                                                  : ui::SpeedupChart::build(data, req.chartName == "efficiency");
    QString error;
    const bool ok =
        req.suffix == QLatin1String("svg")
            ? ui::ChartExport::writeSvg(chart, req.size, req.outPath, &error)
            : ui::ChartExport::writePng(chart, req.size, req.scale, req.outPath, &error);
    if (!ok) {
        std::fprintf(stderr, "scaleview-cli plot: %s\n", qPrintable(error));
        return 2;
    }
    return 0;
}

} // namespace

int plotCommand(const std::vector<std::string>& rawArgs) {
    PlotRequest req;
    std::vector<std::string> args;
    if (auto code = takeReferences(rawArgs, &args, &req.references)) return *code;
    Arguments opts(args,
                   {"chart", "output", "size", "method", "warmup", "iterations", "model",
                    "precision", "batch-size", "threads", "scale", "whisker", "compare"},
                   {"quiet"});
    req.warmup = opts.integer("warmup", 1, kMaxMeasureIterations - 1);
    req.iterations = opts.integer("iterations", 2, kMaxMeasureIterations);
    req.batch = opts.integer("batch-size", 1, 1000000);
    req.threads = opts.integer("threads", 1, 1024);
    if (opts.error()) return usageError(*opts.error());
    if (opts.positional().size() != 1) return usageError("needs exactly one LOG_DIR");
    req.dir = opts.positional().front();
    req.quiet = opts.flag("quiet");
    if (auto code = readDrawing(opts, req)) return *code;

    SummaryOptions options;
    Summary summary;
    if (auto code = readSummary(opts, req, &options, &summary)) return *code;
    if (req.chartName == "loss") {
        const ui::LossBreakdown loss = lossData(summary);
        if (loss.bars.empty()) {
            std::fprintf(stderr, "scaleview-cli plot: %s has no multi-device case with an "
                                 "efficiency (no 1-device case to scale from): no loss to break "
                                 "down\n",
                         req.dir.c_str());
            return 2;
        }
        if (!req.quiet)
            for (const QString& note : ui::LossBreakdownChart::notes(loss))
                std::fprintf(stderr, "note: %s\n", qPrintable(note));
        return drawChart(req, {}, loss);
    }
    return drawChart(req, chartData(summary, req, options.method), {});
}

} // namespace sv::cli
