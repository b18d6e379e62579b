#include "ui/history/historychart.h"

#include "ui/charts/chartstyle.h"
#include "history/historyformat.h"
#include "history/historytrend.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sv::ui {
namespace {

const char* kWhiskerName = "min–max of the repeats";

// The y range the points span, min to max of every campaign's repeats.
struct Span {
    double lo = 0.0, hi = 0.0;
};

Span spanOf(const history::CaseTrend& t) {
    Span s;
    if (t.points.empty()) return s;
    s.lo = t.points.front().min;
    s.hi = s.lo;
    for (const auto& p : t.points) {
        s.lo = std::min(s.lo, p.min);
        s.hi = std::max(s.hi, p.max);
    }
    return s;
}

// A whisker with caps per campaign: min-max and a short bar at each end.
void addWhiskers(QChart* chart, const history::CaseTrend& t,
                 std::vector<QAbstractSeries*>& series) {
    const double cap = 0.08;
    for (std::size_t i = 0; i < t.points.size(); ++i) {
        const auto& p = t.points[i];
        const double x = static_cast<double>(i);
        auto* whisker = new QLineSeries(chart);
        QPen w(ChartStyle::spread());
        w.setWidthF(1.5);
        whisker->setPen(w);
        for (const auto& [dx, y] : {std::pair{-cap, p.min},
                                    {cap, p.min},
                                    {0.0, p.min},
                                    {0.0, p.max},
                                    {-cap, p.max},
                                    {cap, p.max}})
            whisker->append(x + dx, y);
        whisker->setName(QObject::tr(kWhiskerName));
        series.push_back(whisker);
    }
}

// The medians joined in time order, and the latest one marked (red when a regression).
void addMedians(QChart* chart, const history::CaseTrend& t, std::vector<QAbstractSeries*>& series) {
    auto* median = new QLineSeries(chart);
    median->setName(QObject::tr("median of each campaign"));
    QPen pen(ChartStyle::measured());
    pen.setWidthF(2.5);
    median->setPen(pen);
    median->setPointsVisible(true);
    for (std::size_t i = 0; i < t.points.size(); ++i)
        median->append(static_cast<double>(i), t.points[i].median);
    // The latest campaign apart from the medians before it, by shape and colour: a triangle,
    // teal (red when a regression), its legend entry drawn as it is.
    auto* latest = new QScatterSeries(chart);
    latest->setName(t.regression ? QObject::tr("latest campaign: regression")
                                 : QObject::tr("latest campaign"));
    latest->setColor(t.regression ? ChartStyle::problem() : ChartStyle::series(2));
    latest->setBorderColor(Qt::white);
    latest->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    latest->setMarkerSize(18);
    if (!t.points.empty())
        latest->append(static_cast<double>(t.points.size() - 1), t.points.back().median);
    series.push_back(median);
    series.push_back(latest);
}

// The floor the latest campaign is judged against: in the caution colour, so it is not read as
// the same thing as a regression's red mark.
void addFloor(QChart* chart, const history::CaseTrend& t, std::vector<QAbstractSeries*>& series) {
    if (!t.previousLow) return;
    auto* floor = new QLineSeries(chart);
    floor->setName(QObject::tr("lowest earlier repeat"));
    QPen f(ChartStyle::caution());
    f.setStyle(Qt::DashLine);
    floor->setPen(f);
    floor->append(-0.5, *t.previousLow);
    floor->append(static_cast<double>(t.points.size()) - 0.5, *t.previousLow);
    series.push_back(floor);
}

// A change point's text, above the data where nothing is drawn: an invisible point at the
// dotted line's top carries it as its label.
QScatterSeries* changePointText(QChart* chart, const history::CaseStep& step, double x, double y,
                                const QColor& colour) {
    auto* text = new QScatterSeries(chart);
    text->setName(QStringLiteral("change point label"));
    text->setMarkerSize(1);
    text->setColor(Qt::transparent);
    text->setBorderColor(Qt::transparent);
    text->append(x, y);
    // The label's text is fixed: no @xPoint/@yPoint in it.
    text->setPointLabelsFormat(HistoryChart::changePointLabel(step));
    text->setPointLabelsVisible(true);
    text->setPointLabelsColor(colour);
    text->setPointLabelsClipping(false);
    return text;
}

// Each change point: a diamond on its campaign's median (its tooltip the step and what
// changed), a dotted line just before the campaign from the middle of the step to above the
// data, and there the step and what changed.
void addChangePoints(QChart* chart, const history::CaseTrend& t, double top,
                     std::vector<QAbstractSeries*>& series) {
    const QColor colour = ChartStyle::changePoint();
    for (const auto& step : t.steps) {
        const double x = static_cast<double>(step.point.index);
        auto* line = new QLineSeries(chart);
        QPen pen(colour);
        pen.setStyle(Qt::DotLine);
        pen.setWidthF(1.5);
        line->setPen(pen);
        line->setName(QStringLiteral("change point line"));
        line->append(x - 0.5, (step.point.before + step.point.after) / 2);
        line->append(x - 0.5, top);
        series.push_back(line);
        auto* mark = new QScatterSeries(chart);
        mark->setName(HistoryChart::changePointName(t, step));
        mark->setMarkerShape(
            QScatterSeries::MarkerShapeRotatedRectangle); // ◆, as the table marks it
        mark->setMarkerSize(19); // a rotated square draws smaller than a circle of the size
        mark->setColor(colour);
        mark->append(x, t.points[step.point.index].median);
        const QString tip =
            mark->name() + QStringLiteral("\n") + HistoryChart::changePointLabel(step);
        QObject::connect(mark, &QScatterSeries::hovered, mark, [tip](const QPointF&, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), tip);
            else
                QToolTip::hideText();
        });
        series.push_back(mark);
        series.push_back(changePointText(chart, step, x - 0.5, top, colour));
    }
}

// One category per campaign: its day and its name.
QCategoryAxis* campaignAxis(QChart* chart, const history::CaseTrend& t) {
    auto* x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setStartValue(-0.5);
    const int n = static_cast<int>(t.points.size());
    for (int i = 0; i < n; ++i) {
        const auto& p = t.points[static_cast<std::size_t>(i)];
        QString label = QStringLiteral("%1<br>%2")
                            .arg(QString::fromStdString(p.time.substr(0, 10)),
                                 QString::fromStdString(p.label).toHtmlEscaped());
        // An axis label must be unique: the same directory recorded twice on one day.
        if (x->categoriesLabels().contains(label)) label += QStringLiteral(" #%1").arg(i + 1);
        x->append(label, i);
    }
    x->setRange(-0.5, std::max(0.5, n - 0.5));
    return x;
}

// One legend entry for all whiskers; the change points' lines have none (their diamonds do).
void tidyLegend(QChart* chart) {
    bool whiskerShown = false;
    for (auto* m : chart->legend()->markers()) {
        if (m->label() == QObject::tr(kWhiskerName)) {
            m->setVisible(!whiskerShown);
            whiskerShown = true;
        } else if (m->label() == QLatin1String("change point line") ||
                   m->label() == QLatin1String("change point label")) {
            m->setVisible(false);
        }
    }
}

} // namespace

QString HistoryChart::changePointName(const history::CaseTrend& t, const history::CaseStep& s) {
    return QObject::tr("change point: %1 (%2 %)")
        .arg(QString::fromStdString(t.points[s.point.index].label))
        .arg(QString::number(s.point.stepPct, 'f', 1));
}

QString HistoryChart::changePointLabel(const history::CaseStep& s) {
    return QObject::tr("step %1 %: %2")
        .arg(QString::number(s.point.stepPct, 'f', 1),
             QString::fromStdString(describeChanges(s.changed)));
}

namespace {

// A value axis from lo to hi widened to round ticks (1, 2 or 5 times a power of ten, about five
// of them), labelled with no more decimals than the step needs: 2650 / 2700 / 2750, never
// 2657.0 / 2764.6.
QValueAxis* roundedAxis(QChart* chart, double lo, double hi) {
    const double raw = std::max(hi - lo, 1e-9) / 5;
    const double base = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * base;
    for (double m : {1.0, 2.0, 5.0})
        if (raw <= m * base) {
            step = m * base;
            break;
        }
    auto* y = new QValueAxis(chart);
    y->setRange(std::max(0.0, std::floor(lo / step) * step), std::ceil(hi / step) * step);
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(0);
    y->setTickInterval(step);
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
    y->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
    return y;
}

} // namespace

QChart* HistoryChart::build(const history::CaseTrend& t) {
    auto* chart = new QChart();
    ChartStyle::apply(chart, QStringLiteral("%1 over time (%2)")
                                 .arg(QString::fromStdString(history::caseName(t.key)),
                                      QString::fromStdString(history::trendMeasure(t))));
    std::vector<QAbstractSeries*> series;
    addWhiskers(chart, t, series);
    addMedians(chart, t, series);
    addFloor(chart, t, series);
    const Span span = spanOf(t);
    // Room above the data: a quarter of its span with a change point to name, else 15 %.
    const double margin = std::max(1.0, (span.hi - span.lo) * (t.steps.empty() ? 0.15 : 0.25));
    addChangePoints(chart, t, span.hi + margin * 0.55, series);
    auto* x = campaignAxis(chart, t);
    auto* y = roundedAxis(chart, std::max(0.0, span.lo - margin), span.hi + margin);
    ChartStyle::addSeries(chart, x, y, series);
    ChartStyle::applyAxis(x, QObject::tr("campaign (ran, UTC)"));
    ChartStyle::applyAxis(y, QString::fromStdString(history::trendUnit(t)));
    tidyLegend(chart);
    // Each entry as its series draws: the medians' line, the latest's triangle, the diamonds.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    return chart;
}

} // namespace sv::ui
