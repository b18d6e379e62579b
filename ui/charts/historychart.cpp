#include "ui/charts/historychart.h"

#include "ui/charts/chartstyle.h"
#include "history/historytrend.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace sv::ui {

QChart* HistoryChart::build(const history::CaseTrend& t) {
    auto* chart = new QChart();
    ChartStyle::apply(chart, QStringLiteral("%1 over time (%2 method)")
                                 .arg(QString::fromStdString(history::caseName(t.key)),
                                      QString::fromStdString(t.method)));
    const int n = static_cast<int>(t.points.size());
    auto* median = new QLineSeries(chart);
    median->setName(QObject::tr("median"));
    QPen pen(ChartStyle::measured());
    pen.setWidthF(2.5);
    median->setPen(pen);
    median->setPointsVisible(true);
    auto* latest = new QScatterSeries(chart);
    latest->setName(t.regression ? QObject::tr("latest: regression") : QObject::tr("latest"));
    latest->setColor(t.regression ? ChartStyle::problem() : ChartStyle::measured());
    latest->setMarkerSize(14);
    std::vector<QAbstractSeries*> series;
    double lo = t.points.empty() ? 0 : t.points.front().min, hi = lo;
    for (int i = 0; i < n; ++i) {
        const auto& p = t.points[static_cast<std::size_t>(i)];
        median->append(i, p.median);
        auto* whisker = new QLineSeries(chart);
        QPen w(ChartStyle::spread());
        w.setWidthF(1.5);
        whisker->setPen(w);
        // A whisker with caps: min-max and a short bar at each end.
        const double cap = 0.08;
        whisker->append(i - cap, p.min);
        whisker->append(i + cap, p.min);
        whisker->append(i, p.min);
        whisker->append(i, p.max);
        whisker->append(i - cap, p.max);
        whisker->append(i + cap, p.max);
        whisker->setName(QObject::tr("min–max of the repeats"));
        series.push_back(whisker);
        lo = std::min(lo, p.min);
        hi = std::max(hi, p.max);
    }
    if (n > 0) latest->append(n - 1, t.points.back().median);
    series.push_back(median);
    series.push_back(latest);
    if (t.previousLow) {
        // The floor the latest campaign is judged against.
        auto* floor = new QLineSeries(chart);
        floor->setName(QObject::tr("lowest earlier repeat"));
        QPen f(ChartStyle::problem());
        f.setStyle(Qt::DashLine);
        floor->setPen(f);
        floor->append(-0.5, *t.previousLow);
        floor->append(n - 0.5, *t.previousLow);
        series.push_back(floor);
    }
    auto* x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setStartValue(-0.5);
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
    auto* y = new QValueAxis(chart);
    const double margin = std::max(1.0, (hi - lo) * 0.15);
    y->setRange(std::max(0.0, lo - margin), hi + margin);
    y->setLabelFormat(QStringLiteral("%.1f"));
    ChartStyle::addSeries(chart, x, y, series);
    ChartStyle::applyAxis(x, QObject::tr("campaign (ran, UTC)"));
    ChartStyle::applyAxis(y, QObject::tr("images/s"));
    // One legend entry for all whiskers.
    const auto markers = chart->legend()->markers();
    bool whiskerShown = false;
    for (auto* m : markers)
        if (m->label() == QObject::tr("min–max of the repeats")) {
            m->setVisible(!whiskerShown);
            whiskerShown = true;
        }
    return chart;
}

} // namespace sv::ui
