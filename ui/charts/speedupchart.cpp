#include "ui/charts/speedupchart.h"

#include "ui/charts/chartstyle.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace sv::ui {

namespace {

QLineSeries* line(QChart* chart, const QString& name, const QColor& colour, qreal width,
                  Qt::PenStyle style, int curve) {
    auto* s = new QLineSeries(chart);
    s->setName(name);
    QPen pen(colour);
    pen.setWidthF(width);
    pen.setStyle(style);
    s->setPen(pen);
    s->setProperty(SpeedupChart::kCurveProperty, curve);
    return s;
}

// A step of about five ticks for a linear axis spanning span: 1, 2 or 5 times a power of 10.
double niceStep(double span) {
    const double raw = span / 5;
    const double base = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * base) return m * base;
    return 10 * base;
}

// The GPU axis: log2, a labelled grid line at each measured count and nothing in between.
QCategoryAxis* gpuAxis(QChart* chart, const ScalingData& d) {
    std::set<int> counts;
    for (const auto& p : d.points)
        counts.insert(std::max(1, p.gpus));
    if (counts.empty()) counts.insert(1);
    auto* axis = new QCategoryAxis(chart);
    const double lo = SpeedupChart::gpuX(*counts.begin());
    const double hi = SpeedupChart::gpuX(*counts.rbegin());
    const double pad = std::max(0.25, (hi - lo) * 0.04);
    axis->setRange(lo - pad, hi + pad);
    axis->setStartValue(lo - pad);
    for (int g : counts)
        axis->append(QString::number(g), SpeedupChart::gpuX(g));
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    ChartStyle::applyAxis(axis, QStringLiteral("GPUs (log₂ scale)"));
    return axis;
}

} // namespace

double SpeedupChart::gpuX(int gpus) {
    return std::log2(static_cast<double>(std::max(1, gpus)));
}

int SpeedupChart::gpusAt(double x) {
    return static_cast<int>(std::lround(std::exp2(x)));
}

QChart* SpeedupChart::build(const ScalingData& d, bool efficiency) {
    auto* chart = new QChart;
    const QString group = QString::fromStdString(d.group.label());
    ChartStyle::apply(chart, efficiency ? QStringLiteral("Scaling efficiency — %1").arg(group)
                                        : QStringLiteral("Speedup — %1").arg(group));
    auto value = [&](double speedup, int gpus) {
        return efficiency ? 100.0 * speedup / gpus : speedup;
    };
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // each reference's marker
    auto* axisX = gpuAxis(chart, d);
    const int maxGpus = d.maxGpus();

    auto* ideal = line(chart, QStringLiteral("Ideal (linear)"), ChartStyle::ideal(), 1.5,
                       Qt::DashLine, kIdeal);
    // On log2 × log2 the ideal is a straight diagonal; efficiency's is flat at 100 %.
    ideal->append(gpuX(1), efficiency ? 100.0 : 1.0);
    ideal->append(gpuX(maxGpus), efficiency ? 100.0 : static_cast<double>(maxGpus));
    std::vector<QAbstractSeries*> series{ideal};
    std::vector<QAbstractSeries*> unlisted; // drawn, but not a legend entry of their own

    double lo = efficiency ? 100.0 : 1.0, hi = efficiency ? 100.0 : maxGpus;
    auto seen = [&](double v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    };
    // One solid line per measured series (a comparison's directories or frameworks), each in
    // its colour and named in the legend.
    auto measuredLine = [&](const std::vector<ScalingPoint>& points, const QString& name, int index,
                            int curve) {
        auto* m = line(chart, name, ChartStyle::series(index), index == 0 ? 3.0 : 2.5,
                       Qt::SolidLine, curve);
        m->setPointsVisible(true);
        m->setMarkerSize(index == 0 ? 12 : 10);
        for (const auto& p : points)
            if (p.speedup) {
                // Efficiency from the unrounded ratio, as the core computes it.
                const double v =
                    efficiency ? 100.0 * p.efficiency.value_or(*p.speedup / p.gpus) : *p.speedup;
                m->append(gpuX(p.gpus), v);
                seen(v);
            }
        series.push_back(m);
    };
    measuredLine(d.points,
                 !d.others.empty() ? QString::fromStdString(d.label)
                 : efficiency      ? QStringLiteral("Measured efficiency")
                                   : QStringLiteral("Measured speedup"),
                 0, kMeasured);
    for (std::size_t j = 0; j < d.others.size(); ++j)
        measuredLine(d.others[j].points, QString::fromStdString(d.others[j].label),
                     static_cast<int>(j) + 1, kOtherSeries - static_cast<int>(j));
    // Before the references: a reference that coincides with the measured curve (the samples
    // are DLPerf's own logs) still shows its dashes and marker on top of it.
    for (std::size_t r = 0; r < d.references.size(); ++r) {
        const auto& ref = d.references[r];
        const int index = static_cast<int>(r);
        const QColor colour = ChartStyle::reference(index);
        // Dashed with markers: where a reference runs under the measured line it still shows.
        auto* s = line(chart, QString::fromStdString(ref.label), colour, 2.0, Qt::DashLine, index);
        auto* marks = new QScatterSeries(chart);
        marks->setName(s->name());
        marks->setProperty(kCurveProperty, index);
        marks->setMarkerShape(ChartStyle::referenceMarker(index));
        marks->setMarkerSize(8);
        marks->setColor(colour);
        marks->setBorderColor(Qt::white);
        for (const auto& p : d.points)
            if (auto sp = ref.speedupAt(p.topology)) {
                const double v = value(*sp, p.gpus);
                s->append(gpuX(p.gpus), v);
                marks->append(gpuX(p.gpus), v);
                seen(v);
            }
        series.push_back(s);
        series.push_back(marks);
        unlisted.push_back(s); // the legend shows the marker, whose shape tells references apart
    }

    QAbstractAxis* axisY = nullptr;
    if (efficiency) {
        // Around the data: a 0–100 % axis squeezes 92 % and 97 % into one line.
        auto* y = new QValueAxis(chart);
        const double pad = std::max(2.0, (hi - lo) * 0.12);
        const double step = niceStep(hi - lo + 2 * pad);
        y->setRange(std::max(0.0, std::floor((lo - pad) / step) * step),
                    std::ceil((hi + pad) / step) * step);
        y->setTickType(QValueAxis::TicksDynamic);
        y->setTickAnchor(0);
        y->setTickInterval(step);
        y->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
        ChartStyle::applyAxis(y, QStringLiteral("Scaling efficiency (% of ideal)"));
        axisY = y;
    } else {
        auto* y = new QLogValueAxis(chart);
        y->setBase(2);
        y->setRange(std::min(1.0, lo) / 1.25, hi * 1.25);
        y->setLabelFormat(
            QStringLiteral("%g")); // the unit is in the title: labels take no non-ASCII
        y->setMinorTickCount(0);
        ChartStyle::applyAxis(y, QStringLiteral("Speedup (× one GPU, log₂ scale)"));
        axisY = y;
    }
    ChartStyle::addSeries(chart, axisX, axisY, series);
    for (auto* s : unlisted)
        for (auto* m : chart->legend()->markers(s))
            m->setVisible(false);
    if (!d.hasSpeedup())
        chart->setTitle(chart->title() + QStringLiteral(" (no 1n1g baseline: speedup unknown)"));
    return chart;
}

} // namespace sv::ui
