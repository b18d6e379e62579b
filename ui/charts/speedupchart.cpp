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
#include <optional>
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

// The GPU axis: log2, a labelled grid line at each measured count (and each predicted one that
// is drawn) and nothing in between.
QCategoryAxis* gpuAxis(QChart* chart, const ScalingData& d, bool predicted) {
    std::set<int> counts;
    for (const auto& p : d.points)
        counts.insert(std::max(1, p.gpus));
    if (predicted)
        for (const auto& p : d.predicted)
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
    const QString devices = QString::fromStdString(d.devices);
    ChartStyle::applyAxis(
        axis, QStringLiteral("%1 (log₂ scale)").arg(devices.left(1).toUpper() + devices.mid(1)));
    return axis;
}

// The curves a chart draws, in order, and the range of the values they reach.
struct Curves {
    Curves(QChart* chart, bool efficiency, int maxGpus)
        : chart(chart), efficiency(efficiency), lo(efficiency ? 100.0 : 1.0),
          hi(efficiency ? 100.0 : maxGpus) {}

    void seen(double v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    // The chart's value of a speedup at gpus: itself, or the efficiency in percent.
    double value(double speedup, int gpus) const {
        return efficiency ? 100.0 * speedup / gpus : speedup;
    }

    QChart* chart;
    bool efficiency;
    std::vector<QAbstractSeries*> series;
    std::vector<QAbstractSeries*> unlisted; // drawn, but not a legend entry of their own
    double lo, hi;
};

// The ideal: on log2 × log2 a straight diagonal; efficiency's is flat at 100 %.
void addIdeal(Curves& c, int maxGpus) {
    auto* ideal = line(c.chart, QStringLiteral("Ideal (linear)"), ChartStyle::ideal(), 1.5,
                       Qt::DashLine, SpeedupChart::kIdeal);
    ideal->append(SpeedupChart::gpuX(1), c.efficiency ? 100.0 : 1.0);
    ideal->append(SpeedupChart::gpuX(maxGpus), c.efficiency ? 100.0 : static_cast<double>(maxGpus));
    c.series.push_back(ideal);
}

// One solid line per measured series (a comparison's directories or frameworks), each in its
// colour and named in the legend.
void addMeasured(Curves& c, const std::vector<ScalingPoint>& points, const QString& name, int index,
                 int curve) {
    auto* m = line(c.chart, name, ChartStyle::series(index), index == 0 ? 3.0 : 2.5, Qt::SolidLine,
                   curve);
    m->setPointsVisible(true);
    m->setMarkerSize(index == 0 ? 12 : 10);
    for (const auto& p : points)
        if (p.speedup) {
            // Efficiency from the unrounded ratio, as the core computes it.
            const double v =
                c.efficiency ? 100.0 * p.efficiency.value_or(*p.speedup / p.gpus) : *p.speedup;
            m->append(SpeedupChart::gpuX(p.gpus), v);
            c.seen(v);
        }
    c.series.push_back(m);
}

// Each reference dashed with markers: where a reference runs under the measured line it still
// shows. The legend shows the marker, whose shape tells references apart.
void addReferences(Curves& c, const ScalingData& d) {
    for (std::size_t r = 0; r < d.references.size(); ++r) {
        const auto& ref = d.references[r];
        const int index = static_cast<int>(r);
        const QColor colour = ChartStyle::reference(index);
        auto* s =
            line(c.chart, QString::fromStdString(ref.label), colour, 2.0, Qt::DashLine, index);
        auto* marks = new QScatterSeries(c.chart);
        marks->setName(s->name());
        marks->setProperty(SpeedupChart::kCurveProperty, index);
        marks->setMarkerShape(ChartStyle::referenceMarker(index));
        marks->setMarkerSize(8);
        marks->setColor(colour);
        marks->setBorderColor(Qt::white);
        for (const auto& p : d.points)
            if (auto sp = ref.speedupAt(p.topology)) {
                const double v = c.value(*sp, p.gpus);
                s->append(SpeedupChart::gpuX(p.gpus), v);
                marks->append(SpeedupChart::gpuX(p.gpus), v);
                c.seen(v);
            }
        c.series.push_back(s);
        c.series.push_back(marks);
        c.unlisted.push_back(s);
    }
}

// The measured single-device median: what a predicted throughput is a speedup over.
std::optional<double> baselineOf(const ScalingData& d) {
    for (const auto& p : d.points)
        if (p.gpus == 1 && p.median && *p.median > 0) return p.median;
    return std::nullopt;
}

// The predicted topologies: dashed from the largest measured point on, hollow markers, and each
// one's 95 % interval as an error bar (one legend entry for them all).
void addPredicted(Curves& c, const ScalingData& d) {
    const auto base = baselineOf(d);
    if (d.predicted.empty() || !base) return;
    const QColor colour = ChartStyle::series(0);
    auto* dashes = line(c.chart, QString::fromStdString(d.predictedLabel), colour, 2.0,
                        Qt::DashLine, SpeedupChart::kPredicted);
    auto* marks = new QScatterSeries(c.chart);
    marks->setName(dashes->name());
    marks->setProperty(SpeedupChart::kCurveProperty, SpeedupChart::kPredicted);
    marks->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    marks->setMarkerSize(11);
    marks->setColor(Qt::white);
    marks->setBorderColor(colour);
    marks->setPen(QPen(colour, 2.0));
    // From the largest measured point, so the dashes continue the measured line.
    for (auto it = d.points.rbegin(); it != d.points.rend(); ++it)
        if (it->speedup) {
            dashes->append(SpeedupChart::gpuX(it->gpus), c.value(*it->speedup, it->gpus));
            break;
        }
    // The points first: the legend names them before their intervals.
    c.series.push_back(dashes);
    c.series.push_back(marks);
    c.unlisted.push_back(dashes);
    bool first = true;
    for (const auto& p : d.predicted) {
        const double x = SpeedupChart::gpuX(p.gpus);
        const double v = c.value(p.throughput / *base, p.gpus);
        const double lo = c.value(p.low / *base, p.gpus), hi = c.value(p.high / *base, p.gpus);
        dashes->append(x, v);
        marks->append(x, v);
        c.seen(lo);
        c.seen(hi);
        auto* bar = line(c.chart, QStringLiteral("95 % interval of the prediction"), colour, 1.6,
                         Qt::SolidLine, SpeedupChart::kPredictedInterval);
        constexpr double cap = 0.08; // of a doubling
        bar->append({{x - cap, lo}, {x + cap, lo}, {x, lo}, {x, hi}, {x - cap, hi}, {x + cap, hi}});
        c.series.push_back(bar);
        if (!first) c.unlisted.push_back(bar);
        first = false;
    }
}

// Efficiency around the data (a 0–100 % axis squeezes 92 % and 97 % into one line); speedup
// on log2.
QAbstractAxis* valueAxis(const Curves& c) {
    if (c.efficiency) {
        auto* y = new QValueAxis(c.chart);
        const double pad = std::max(2.0, (c.hi - c.lo) * 0.12);
        const double step = niceStep(c.hi - c.lo + 2 * pad);
        y->setRange(std::max(0.0, std::floor((c.lo - pad) / step) * step),
                    std::ceil((c.hi + pad) / step) * step);
        y->setTickType(QValueAxis::TicksDynamic);
        y->setTickAnchor(0);
        y->setTickInterval(step);
        y->setLabelFormat(step < 1 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
        // Short titles: a vertical title longer than the plot is elided to "…", and at 1024×700
        // the plot is some 110 px tall (the log₂ scale is said on the GPU axis).
        ChartStyle::applyAxis(y, QStringLiteral("Efficiency (%)"));
        return y;
    }
    auto* y = new QLogValueAxis(c.chart);
    y->setBase(2);
    y->setRange(std::min(1.0, c.lo) / 1.25, c.hi * 1.25);
    y->setLabelFormat(QStringLiteral("%g")); // the unit is in the title: labels take no non-ASCII
    y->setMinorTickCount(0);
    // Against what, the chart's title says ("Speedup over 1 GPU"): "Speedup (× 1 rank)" was
    // elided to "Speedup (× 1 r…" at 1024×700.
    ChartStyle::applyAxis(y, QStringLiteral("Speedup (×)"));
    return y;
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
                                        : QStringLiteral("Speedup over 1 %1 — %2")
                                              .arg(QString::fromStdString(d.device), group));
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // each reference's marker
    // Without a measured 1-device figure nothing measured is a speedup and nothing is predicted
    // over it: no ideal line (a stub of it beside a lone reference marker), no axis out to
    // predicted counts that are not drawn, no empty "Measured speedup"; the note says why.
    const bool speedup = d.hasSpeedup();
    const bool predicted = speedup && baselineOf(d).has_value();
    auto* axisX = gpuAxis(chart, d, predicted);
    int maxGpus = d.maxGpus();
    if (predicted)
        for (const auto& p : d.predicted)
            maxGpus = std::max(maxGpus, p.gpus);

    Curves curves(chart, efficiency, maxGpus);
    if (speedup) addIdeal(curves, maxGpus);
    if (speedup || !d.others.empty())
        addMeasured(curves, d.points,
                    !d.others.empty() ? QString::fromStdString(d.label)
                    : efficiency      ? QStringLiteral("Measured efficiency")
                                      : QStringLiteral("Measured speedup"),
                    0, kMeasured);
    for (std::size_t j = 0; j < d.others.size(); ++j)
        addMeasured(curves, d.others[j].points, QString::fromStdString(d.others[j].label),
                    static_cast<int>(j) + 1, kOtherSeries - static_cast<int>(j));
    // After the measured curves: a reference that coincides with the measured curve (the
    // samples are DLPerf's own logs) still shows its dashes and marker on top of it.
    addReferences(curves, d);
    if (predicted) addPredicted(curves, d);

    ChartStyle::addSeries(chart, axisX, valueAxis(curves), curves.series);
    for (auto* s : curves.unlisted)
        for (auto* m : chart->legend()->markers(s))
            m->setVisible(false);
    if (!speedup) {
        chart->setTitle(chart->title() + QStringLiteral(" (no 1n1g baseline: speedup unknown)"));
        QString why = QStringLiteral("no measured figure on 1 %1 (1n1g) to divide by: no "
                                     "measured speedup, no ideal line and no prediction")
                          .arg(QString::fromStdString(d.device));
        if (!d.references.empty())
            why += QStringLiteral("; each published reference is over its own 1-GPU figure");
        ChartStyle::addNote(chart, why);
    } else {
        ChartStyle::addNote(chart, QString::fromStdString(d.predictionNote));
    }
    return chart;
}

} // namespace sv::ui
