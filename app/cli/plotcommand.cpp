// scaleview-cli plot: the GUI's throughput, speedup and efficiency charts written to PNG or SVG
// without a display (Qt's offscreen platform when there is none). `--compare frameworks` draws
// the GUI's Compare frameworks charts: one bar (or line) per framework of the tree.

#include "app/cli/arguments.h"
#include "core/load/campaignwindow.h"
#include "app/cli/commands.h"
#include "core/load/runloader.h"

#include "ui/browse/analysis.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/scalingdata.h"
#include "ui/charts/speedupchart.h"
#include "core/stats/summary.h"
#include "ui/charts/throughputchart.h"

#include <algorithm>
#include <QApplication>
#include <QChart>
#include <QFileInfo>

#include <cstdio>
#include <cstdlib>

namespace sv::cli {
namespace {

int usageError(const std::string& message) {
    std::fprintf(stderr, "scaleview-cli plot: %s\n(see scaleview-cli --help)\n", message.c_str());
    return 2;
}

} // namespace

int plotCommand(const std::vector<std::string>& rawArgs) {
    // --reference may be given several times; Arguments keeps one value per name.
    std::vector<std::string> args, references;
    for (std::size_t i = 0; i < rawArgs.size(); ++i) {
        const std::string& a = rawArgs[i];
        if (a == "--reference" && i + 1 == rawArgs.size())
            return usageError("--reference needs a value (a table id, or ID:SERIES)");
        if (a == "--reference")
            references.push_back(rawArgs[++i]);
        else if (a.rfind("--reference=", 0) == 0)
            references.push_back(a.substr(12));
        else
            args.push_back(a);
    }
    Arguments opts(args,
                   {"chart", "output", "size", "method", "warmup", "iterations", "model",
                    "precision", "batch-size", "threads", "scale", "whisker", "compare"},
                   {"quiet"});
    const auto warmup = opts.integer("warmup", 1, kMaxMeasureIterations - 1);
    const auto iterations = opts.integer("iterations", 2, kMaxMeasureIterations);
    const auto batch = opts.integer("batch-size", 1, 1000000);
    const auto threads = opts.integer("threads", 1, 1024);
    if (opts.error()) return usageError(*opts.error());
    if (opts.positional().size() != 1) return usageError("needs exactly one LOG_DIR");
    const std::string chartName = opts.value("chart").value_or("throughput");
    if (chartName != "throughput" && chartName != "speedup" && chartName != "efficiency")
        return usageError("--chart must be throughput, speedup or efficiency, not '" + chartName +
                          "'");
    const std::string whiskerName = opts.value("whisker").value_or("minmax");
    const auto whisker = ui::ThroughputChart::parseWhisker(whiskerName);
    if (!whisker) return usageError("--whisker must be minmax or ci95, not '" + whiskerName + "'");
    const auto compare = opts.value("compare");
    if (compare && *compare != "frameworks")
        return usageError("--compare must be frameworks, not '" + *compare + "'");
    const auto output = opts.value("output");
    if (!output) return usageError("needs --output FILE.png or FILE.svg");
    const QString outPath = QString::fromStdString(*output);
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return usageError("--output must end in .png or .svg");
    const QSize size =
        ui::ChartExport::parseSize(QString::fromStdString(opts.value("size").value_or("1200x800")));
    if (!size.isValid()) return usageError("--size must be WIDTHxHEIGHT in pixels, e.g. 1200x800");
    const double scale = std::atof(opts.value("scale").value_or("1").c_str());
    if (!(scale >= 0.5 && scale <= 4)) return usageError("--scale must be from 0.5 to 4");
    for (const auto& r : references)
        if (!ReferenceCatalog::builtin().knows(r))
            return usageError("unknown reference '" + r + "' (see 'references')");

    LoadOptions load;
    // The window summarize, compare and report read the directory with.
    const CampaignWindowLookup found = findCampaignWindow(opts.positional().front());
    if (found.error) std::fprintf(stderr, "warning: %s\n", found.error->c_str());
    load.measure = seriesWindow(found, warmup, iterations).measure;
    if (threads) load.threads = *threads;
    if (auto why = validateMeasureOptions(load.measure)) return usageError(*why);
    SummaryOptions options;
    if (auto m = opts.value("method")) {
        auto parsed = parseMethod(*m);
        if (!parsed) return usageError("--method must be time or speed");
        options.method = *parsed;
    }
    CaseFilter filter;
    filter.model = opts.value("model");
    filter.precision = opts.value("precision");
    if (batch) filter.batchPerDevice = *batch;

    const Summary summary = summarizeDirectory(opts.positional().front(), load, options, filter);
    if (summary.error) {
        std::fprintf(stderr, "scaleview-cli plot: %s\n", summary.error->c_str());
        return 2;
    }
    // Why runs do not count comes first, above all when none does.
    if (!opts.flag("quiet"))
        for (const auto& w : summary.warnings)
            std::fprintf(stderr, "warning: %s\n", w.text().c_str());
    if (summary.cases.empty()) {
        std::fprintf(stderr, "scaleview-cli plot: no usable runs in %s\n",
                     opts.positional().front().c_str());
        return 2;
    }
    // The first case group (model, precision, batch; its framework unless frameworks are
    // compared), as the GUI shows it first.
    const auto& first = summary.cases.front().key;
    const ui::CaseGroup group{first.model, first.precision, first.batchPerDevice,
                              compare ? std::string() : first.format};
    std::vector<const CaseStats*> cases;
    std::vector<std::string> formats;
    for (const auto& c : summary.cases)
        if (group.contains(c.key)) {
            cases.push_back(&c);
            if (std::find(formats.begin(), formats.end(), c.key.format) == formats.end())
                formats.push_back(c.key.format);
        }
    // The app's own choice: each framework's matching table (its model, precision, batch).
    if (references.empty()) references = ui::matchingReferences(group, formats);
    ui::ScalingData data;
    if (compare) {
        const auto series = ui::frameworkSeries(cases, options.method);
        if (series.size() < 2 && !opts.flag("quiet"))
            std::fprintf(stderr, "note: %s holds one framework for %s: nothing to compare\n",
                         opts.positional().front().c_str(), group.label().c_str());
        data = ui::scalingData(series, group, options.method, references);
    } else {
        data = ui::scalingData(cases, group, options.method, references);
    }

    // Charts need a QApplication; with no display, Qt's offscreen platform draws just the same.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "scaleview-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    QChart* chart = chartName == "throughput"
                        ? ui::ThroughputChart::build(data, *whisker)
                        : ui::SpeedupChart::build(data, chartName == "efficiency");
    QString error;
    const bool ok = suffix == QLatin1String("svg")
                        ? ui::ChartExport::writeSvg(chart, size, outPath, &error)
                        : ui::ChartExport::writePng(chart, size, scale, outPath, &error);
    if (!ok) {
        std::fprintf(stderr, "scaleview-cli plot: %s\n", qPrintable(error));
        return 2;
    }
    return 0;
}

} // namespace sv::cli
