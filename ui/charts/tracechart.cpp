#include "ui/charts/tracechart.h"

#include "ui/charts/chartstyle.h"
#include "core/measure/slowiterations.h"
#include "core/measure/steadystateanalyzer.h"

#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace sv::ui {

namespace {

QAreaSeries* shade(QChart* chart, const QString& name, const QColor& colour, double x0, double x1,
                   double y0, double y1) {
    auto* upper = new QLineSeries(chart);
    auto* lower = new QLineSeries(chart);
    upper->append({{x0, y1}, {x1, y1}});
    lower->append({{x0, y0}, {x1, y0}});
    auto* area = new QAreaSeries(upper, lower);
    area->setParent(chart);
    area->setName(name);
    area->setColor(colour);
    area->setBorderColor(Qt::transparent);
    return area;
}

// The busiest other process's CPU share, on its own right-hand axis (dashed, in the caution
// colour when it passed a quarter of a core: the slow iterations' marks are the problem red): a
// neighbour's work lines up with the dips above.
void addMonitorCurve(QChart* chart, QValueAxis* axisX,
                     const std::vector<RunResult::MonitorPoint>& monitor) {
    auto* curve = new QLineSeries(chart);
    double top = 0, load = 0;
    for (const auto& p : monitor) {
        // A sample covers the interval before it: drawn as a step over that interval.
        if (curve->count() > 0) curve->append(p.iteration, curve->at(curve->count() - 1).y());
        curve->append(p.iteration, p.foreignCpuPct);
        top = std::max(top, p.foreignCpuPct);
        load = std::max(load, p.load1);
    }
    // A run on several hosts: each point is the busiest host's (core's readMonitorCurve).
    curve->setName(QStringLiteral("Busiest other process, % of a core (right; of the busiest host "
                                  "when the run had several; load avg up to %1)")
                       .arg(load, 0, 'f', 1));
    QPen pen(top >= 25.0 ? ChartStyle::caution() : ChartStyle::ideal());
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.4);
    curve->setPen(pen);
    auto* axis = new QValueAxis(chart);
    // Whole cores on the axis, ticks at round shares of one.
    const double cores = std::max(1.0, std::ceil(top / 100.0));
    axis->setRange(0, cores * 100.0);
    axis->setTickCount(cores == 1.0 ? 5 : static_cast<int>(cores) * 2 + 1);
    axis->setLabelFormat(QStringLiteral("%.0f"));
    ChartStyle::applyAxis(axis, QStringLiteral("Other processes (% of a core)"));
    chart->addAxis(axis, Qt::AlignRight);
    chart->addSeries(curve);
    curve->attachAxis(axisX);
    curve->attachAxis(axis);
}

// The trace's lines: the median (or the one rank's figure) and the per-rank band, with the
// range of values they reach (0..1 when none is finite).
struct TraceLines {
    QLineSeries* median;
    QLineSeries* bandMax;
    QLineSeries* bandMin;
    double lo, hi;
};

TraceLines traceLines(QChart* chart, const IterationTrace& trace) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    auto* median = new QLineSeries(chart);
    median->setName(trace.ranks > 1 ? QStringLiteral("Median across %1 ranks").arg(trace.ranks)
                                    : QStringLiteral("Reported throughput"));
    QPen pen(ChartStyle::measured());
    pen.setWidthF(1.8);
    median->setPen(pen);
    auto* bandMax = new QLineSeries(chart);
    auto* bandMin = new QLineSeries(chart);
    for (std::size_t k = 0; k < trace.median.size(); ++k) {
        const double x = static_cast<double>(k);
        if (std::isfinite(trace.median[k])) median->append(x, trace.median[k]);
        if (std::isfinite(trace.min[k]) && std::isfinite(trace.max[k])) {
            bandMin->append(x, trace.min[k]);
            bandMax->append(x, trace.max[k]);
            lo = std::min(lo, trace.min[k]);
            hi = std::max(hi, trace.max[k]);
        }
    }
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    return {median, bandMax, bandMin, lo, hi};
}

// The throughput axis over lo..hi with a margin, in round figures.
QValueAxis* throughputAxis(QChart* chart, double lo, double hi) {
    const double pad = std::max((hi - lo) * 0.08, std::abs(hi) * 0.01 + 1e-9);
    auto* axisY = new QValueAxis(chart);
    axisY->setRange(std::max(0.0, lo - pad), hi + pad);
    axisY->applyNiceNumbers();
    return axisY;
}

// The warmup and the measured window, shaded from y0 to y1.
void addWindowShading(std::vector<QAbstractSeries*>& series, QChart* chart,
                      const MeasureOptions& window, double y0, double y1) {
    series.push_back(shade(chart, QStringLiteral("Warmup (iterations 0–%1)").arg(window.warmup - 1),
                           ChartStyle::warmupShade(), -0.5, window.warmup - 0.5, y0, y1));
    series.push_back(shade(
        chart,
        QStringLiteral("Measured window (%1–%2)").arg(window.warmup).arg(window.iterations - 1),
        ChartStyle::windowShade(), window.warmup - 0.5, window.iterations - 0.5, y0, y1));
}

// The reports a log's own figure is of, [from, to) of n in the log's order, as its analyzer
// takes them: after the first tenth by default (steadystateanalyzer.cpp), else the window's
// reports (a format file's rule resolved to reports left out and reports read). Empty (from ==
// to) where no window of reports is known.
MeasureOptions ownReportsWindow(const MeasureOptions& window, int n) {
    if (isSteadyStateWindow(window)) return {n >= 2 ? std::max(1, n / 10) : 0, n};
    if (window.warmup < 0 || window.iterations <= window.warmup) return {0, 0};
    return {std::min(window.warmup, n), std::min(window.iterations, n)};
}

// The same for a figure that is the log's own reports: the reports left out and those read,
// never a range of iterations that cannot be ("0–-1").
void addReportShading(std::vector<QAbstractSeries*>& series, QChart* chart,
                      const MeasureOptions& reports, bool firstTenth, double y0, double y1) {
    if (reports.warmup > 0)
        series.push_back(shade(chart,
                               (firstTenth ? QStringLiteral("First tenth, left out (reports 0–%1)")
                                           : QStringLiteral("Left out (reports 0–%1)"))
                                   .arg(reports.warmup - 1),
                               ChartStyle::warmupShade(), -0.5, reports.warmup - 0.5, y0, y1));
    if (reports.iterations > reports.warmup)
        series.push_back(shade(chart,
                               QStringLiteral("Median of reports %1–%2")
                                   .arg(reports.warmup)
                                   .arg(reports.iterations - 1),
                               ChartStyle::windowShade(), reports.warmup - 0.5,
                               reports.iterations - 0.5, y0, y1));
}

// The trace report by report: the iterations that hold a value, in order (a log reports every
// 10th or 50th step; its own figure counts reports, not steps).
IterationTrace reportsOnly(const IterationTrace& trace) {
    IterationTrace out;
    out.ranks = trace.ranks;
    for (std::size_t k = 0; k < trace.median.size(); ++k) {
        if (!std::isfinite(trace.median[k])) continue;
        out.median.push_back(trace.median[k]);
        out.min.push_back(k < trace.min.size() ? trace.min[k] : trace.median[k]);
        out.max.push_back(k < trace.max.size() ? trace.max[k] : trace.median[k]);
    }
    return out;
}

// The per-rank min–max between its two lines.
QAreaSeries* rankBand(QChart* chart, const TraceLines& lines) {
    auto* band = new QAreaSeries(lines.bandMax, lines.bandMin);
    band->setParent(chart);
    band->setName(QStringLiteral("Per-rank min–max"));
    QColor fill = ChartStyle::measured();
    fill.setAlpha(95); // apart from the shades in the legend (ChartStyle::warmupShade)
    band->setColor(fill);
    band->setBorderColor(fill.darker(110));
    return band;
}

// The iterations that cost the run its figure, so a disturbed or drifting run shows where;
// nullptr when there are none.
QScatterSeries* slowMarks(QChart* chart, const IterationTrace& trace,
                          const MeasureOptions& window) {
    const std::vector<int> slow = slowIterations(trace.median, window);
    if (slow.empty()) return nullptr;
    auto* marks = new QScatterSeries(chart);
    marks->setName(QStringLiteral("%1 slow iteration%2 (over 10 % below the window's median)")
                       .arg(slow.size())
                       .arg(slow.size() == 1 ? QString() : QStringLiteral("s")));
    marks->setColor(ChartStyle::problem());
    marks->setBorderColor(ChartStyle::problem());
    marks->setMarkerSize(7.0);
    for (int k : slow)
        marks->append(k, trace.median[static_cast<std::size_t>(k)]);
    return marks;
}

// A round step (1, 2 or 5 times a power of ten) that puts about ten ticks on span.
double roundStep(double span) {
    const double raw = std::max(1.0, span / 10.0);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * power >= raw) return m * power;
    return 10.0 * power;
}

// The iterations (or reports) along the bottom, up to xEnd: 10 or 20 apart as DLPerf's windows
// read, wider on a long log so that every label fits (a 4000-report log is not 200 "…"), 1, 2 or
// 5 apart on a short one.
QValueAxis* iterationAxis(QChart* chart, double xEnd, const QString& title) {
    auto* axisX = new QValueAxis(chart);
    axisX->setRange(-0.5, xEnd - 0.5);
    axisX->setLabelFormat(QStringLiteral("%d"));
    axisX->setTickType(QValueAxis::TicksDynamic);
    axisX->setTickAnchor(0);
    // A short log's few reports each labelled (10 apart, 6 reports showed only "0").
    axisX->setTickInterval(xEnd > 60   ? std::max(20.0, roundStep(xEnd))
                           : xEnd > 20 ? 10.0
                                       : roundStep(xEnd));
    ChartStyle::applyAxis(axisX, title);
    return axisX;
}

// As many decimals as the tick step needs: a narrow range (3.5 to 5 images/s) in whole
// numbers would label two ticks "4".
void labelThroughputAxis(QValueAxis* axisY, const QString& unit) {
    const double step = (axisY->max() - axisY->min()) / std::max(1, axisY->tickCount() - 1);
    const int decimals = step > 0 && step < 1 ? static_cast<int>(std::ceil(-std::log10(step))) : 0;
    axisY->setLabelFormat(QStringLiteral("%.") + QString::number(std::min(decimals, 3)) +
                          QStringLiteral("f"));
    ChartStyle::applyAxis(axisY, QStringLiteral("Throughput (%1)").arg(unit));
}

} // namespace

QChart* TraceChart::build(const IterationTrace& iterations, const MeasureOptions& iterationWindow,
                          const QString& title, const std::vector<RunResult::MonitorPoint>& monitor,
                          const TraceFigure& figure) {
    auto* chart = new QChart;
    ChartStyle::apply(chart, title);
    // A log's own reports: drawn report by report, shaded by the reports its figure is of.
    const IterationTrace trace = figure.ownReports ? reportsOnly(iterations) : iterations;
    const MeasureOptions window =
        figure.ownReports ? ownReportsWindow(iterationWindow, static_cast<int>(trace.median.size()))
                          : iterationWindow;
    const TraceLines lines = traceLines(chart, trace);
    // Round figures on the axis; the shading then spans exactly the axis range.
    QValueAxis* axisY = throughputAxis(chart, lines.lo, lines.hi);
    const double xEnd =
        std::max<double>(static_cast<double>(trace.median.size()), window.iterations);

    // Shading first, so that the data is drawn over it.
    std::vector<QAbstractSeries*> series;
    if (figure.ownReports)
        addReportShading(series, chart, window, isSteadyStateWindow(iterationWindow), axisY->min(),
                         axisY->max());
    else
        addWindowShading(series, chart, window, axisY->min(), axisY->max());
    if (trace.ranks > 1) series.push_back(rankBand(chart, lines));
    series.push_back(lines.median);
    // A median of the log's own reports is not lowered by a few slow ones (DLPerf's time method
    // is): slow points are marked where they cost the figure.
    if (!figure.ownReports)
        if (auto* marks = slowMarks(chart, trace, window)) series.push_back(marks);

    QValueAxis* axisX =
        iterationAxis(chart, std::max(xEnd, 1.0),
                      figure.ownReports ? QStringLiteral("Report (in the log's order)")
                                        : QStringLiteral("Iteration"));
    labelThroughputAxis(axisY, figure.unit);
    ChartStyle::addSeries(chart, axisX, axisY, series);
    // The monitor's samples are at iterations, which a trace of reports does not have.
    if (!monitor.empty() && !figure.ownReports) addMonitorCurve(chart, axisX, monitor);
    return chart;
}

} // namespace sv::ui
