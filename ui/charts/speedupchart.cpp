#include "speedupchart.h"

#include "chartstyle.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sv::ui {

namespace {

// A tick step giving about six labelled ticks: 1, 2, 4, 8... GPUs.
double gpuTickStep(int maxGpus) {
    double step = 1;
    while (maxGpus / step > 8)
        step *= 2;
    return step;
}

QLineSeries* curve(QChart* chart, const QString& name, const QColor& colour, qreal width,
                   Qt::PenStyle style) {
    auto* s = new QLineSeries(chart);
    s->setName(name);
    QPen pen(colour);
    pen.setWidthF(width);
    pen.setStyle(style);
    s->setPen(pen);
    s->setPointsVisible(style == Qt::SolidLine);
    return s;
}

} // namespace

QChart* SpeedupChart::build(const ScalingData& d, bool efficiency) {
    auto* chart = new QChart;
    const QString group = QString::fromStdString(d.group.label());
    ChartStyle::apply(chart, efficiency ? QStringLiteral("Scaling efficiency — %1").arg(group)
                                        : QStringLiteral("Speedup — %1").arg(group));
    const int maxGpus = d.maxGpus();
    auto value = [&](double speedup, int gpus) {
        return efficiency ? 100.0 * speedup / gpus : speedup;
    };

    auto* ideal =
        curve(chart, QStringLiteral("Ideal (linear)"), ChartStyle::ideal(), 1.5, Qt::DashLine);
    if (efficiency)
        ideal->append({{0.0, 100.0}, {static_cast<double>(maxGpus), 100.0}});
    else
        ideal->append({{1.0, 1.0}, {static_cast<double>(maxGpus), static_cast<double>(maxGpus)}});
    std::vector<QAbstractSeries*> series{ideal};

    double top = efficiency ? 100.0 : maxGpus;
    for (std::size_t r = 0; r < d.references.size(); ++r) {
        const auto& ref = d.references[r];
        auto* s = curve(chart, QString::fromStdString(ref.label),
                        ChartStyle::reference(static_cast<int>(r)), 2.0, Qt::SolidLine);
        for (const auto& p : d.points)
            if (auto sp = ref.speedupAt(p.topology)) {
                s->append(p.gpus, value(*sp, p.gpus));
                top = std::max(top, value(*sp, p.gpus));
            }
        series.push_back(s);
    }
    auto* measured = curve(chart,
                           efficiency ? QStringLiteral("Measured efficiency")
                                      : QStringLiteral("Measured speedup"),
                           ChartStyle::measured(), 3.0, Qt::SolidLine);
    for (const auto& p : d.points)
        if (p.speedup) {
            // Efficiency from the unrounded ratio, as the core computes it.
            const double v =
                efficiency ? 100.0 * p.efficiency.value_or(*p.speedup / p.gpus) : *p.speedup;
            measured->append(p.gpus, v);
            top = std::max(top, v);
        }
    series.push_back(measured); // last, so it is drawn over the references

    auto* axisX = new QValueAxis(chart);
    axisX->setRange(0, maxGpus + std::max(0.5, maxGpus * 0.04));
    axisX->setTickType(QValueAxis::TicksDynamic);
    axisX->setTickAnchor(0);
    axisX->setTickInterval(gpuTickStep(maxGpus));
    axisX->setLabelFormat(QStringLiteral("%d"));
    ChartStyle::applyAxis(axisX, QStringLiteral("GPUs"));
    auto* axisY = new QValueAxis(chart);
    if (efficiency) {
        axisY->setRange(0, std::max(110.0, std::ceil(top / 10) * 10 + 5));
        axisY->setTickType(QValueAxis::TicksDynamic);
        axisY->setTickAnchor(0);
        axisY->setTickInterval(20);
        axisY->setLabelFormat(QStringLiteral("%.0f"));
        ChartStyle::applyAxis(axisY, QStringLiteral("Scaling efficiency (% of ideal)"));
    } else {
        axisY->setRange(0, top * 1.05 + 0.5);
        axisY->setTickType(QValueAxis::TicksDynamic);
        axisY->setTickAnchor(0);
        axisY->setTickInterval(gpuTickStep(static_cast<int>(std::ceil(top))));
        axisY->setLabelFormat(
            QStringLiteral("%.0f")); // the unit is in the title: labels take no non-ASCII
        ChartStyle::applyAxis(axisY, QStringLiteral("Speedup (× one GPU)"));
    }
    ChartStyle::addSeries(chart, axisX, axisY, series);
    if (!d.hasSpeedup())
        chart->setTitle(chart->title() + QStringLiteral(" (no 1n1g baseline: speedup unknown)"));
    return chart;
}

} // namespace sv::ui
