#include "ui/charts/tracechart.h"

#include "ui/charts/chartstyle.h"
#include "core/measure/slowiterations.h"

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

// The busiest other process's CPU share, on its own right-hand axis (dashed, in the problem
// colour when it passed a quarter of a core): a neighbour's work lines up with the dips above.
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
    QPen pen(top >= 25.0 ? ChartStyle::problem() : QColor(0x70, 0x70, 0x70));
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

// The per-rank min–max between its two lines.
QAreaSeries* rankBand(QChart* chart, const TraceLines& lines) {
    auto* band = new QAreaSeries(lines.bandMax, lines.bandMin);
    band->setParent(chart);
    band->setName(QStringLiteral("Per-rank min–max"));
    QColor fill = ChartStyle::measured();
    fill.setAlpha(60);
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

// The iterations along the bottom, up to xEnd.
QValueAxis* iterationAxis(QChart* chart, double xEnd) {
    auto* axisX = new QValueAxis(chart);
    axisX->setRange(-0.5, xEnd - 0.5);
    axisX->setLabelFormat(QStringLiteral("%d"));
    axisX->setTickType(QValueAxis::TicksDynamic);
    axisX->setTickAnchor(0);
    axisX->setTickInterval(xEnd > 60 ? 20 : 10);
    ChartStyle::applyAxis(axisX, QStringLiteral("Iteration"));
    return axisX;
}

// As many decimals as the tick step needs: a narrow range (3.5 to 5 images/s) in whole
// numbers would label two ticks "4".
void labelThroughputAxis(QValueAxis* axisY) {
    const double step = (axisY->max() - axisY->min()) / std::max(1, axisY->tickCount() - 1);
    const int decimals = step > 0 && step < 1 ? static_cast<int>(std::ceil(-std::log10(step))) : 0;
    axisY->setLabelFormat(QStringLiteral("%.") + QString::number(std::min(decimals, 3)) +
                          QStringLiteral("f"));
    ChartStyle::applyAxis(axisY, QStringLiteral("Throughput (images/s)"));
}

} // namespace

QChart* TraceChart::build(const IterationTrace& trace, const MeasureOptions& window,
                          const QString& title,
                          const std::vector<RunResult::MonitorPoint>& monitor) {
    auto* chart = new QChart;
    ChartStyle::apply(chart, title);
    const TraceLines lines = traceLines(chart, trace);
    // Round figures on the axis; the shading then spans exactly the axis range.
    QValueAxis* axisY = throughputAxis(chart, lines.lo, lines.hi);
    const double xEnd =
        std::max<double>(static_cast<double>(trace.median.size()), window.iterations);

    // Shading first, so that the data is drawn over it.
    std::vector<QAbstractSeries*> series;
    addWindowShading(series, chart, window, axisY->min(), axisY->max());
    if (trace.ranks > 1) series.push_back(rankBand(chart, lines));
    series.push_back(lines.median);
    if (auto* marks = slowMarks(chart, trace, window)) series.push_back(marks);

    QValueAxis* axisX = iterationAxis(chart, xEnd);
    labelThroughputAxis(axisY);
    ChartStyle::addSeries(chart, axisX, axisY, series);
    if (!monitor.empty()) addMonitorCurve(chart, axisX, monitor);
    return chart;
}

} // namespace sv::ui
