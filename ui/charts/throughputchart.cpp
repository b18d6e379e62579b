#include "ui/charts/throughputchart.h"

#include "ui/charts/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace sv::ui {

namespace {
constexpr double kGroupWidth = 0.8; // of a category, shared by the measured bar and the references

QString methodLabel(Method m) {
    return m == Method::Time ? QStringLiteral("time method") : QStringLiteral("speed method");
}
} // namespace

QString ThroughputChart::categoryLabel(const Topology& t) {
    return QStringLiteral("%1 (%2)").arg(t.ranks()).arg(QString::fromStdString(t.name()));
}

std::optional<std::pair<double, double>> ThroughputChart::whiskerSpan(const ScalingPoint& p,
                                                                      Whisker whisker) {
    if (p.repeats < 2) return std::nullopt;
    if (whisker == Whisker::Ci95) {
        if (!p.ciLow || !p.ciHigh) return std::nullopt;
        return std::make_pair(*p.ciLow, *p.ciHigh);
    }
    if (!p.min || !p.max) return std::nullopt;
    return std::make_pair(*p.min, *p.max);
}

QString ThroughputChart::whiskerName(Whisker whisker) {
    return whisker == Whisker::Ci95 ? QStringLiteral("95 % CI of median")
                                    : QStringLiteral("Min–max of repeats");
}

std::optional<Whisker> ThroughputChart::parseWhisker(const std::string& name) {
    if (name == "minmax") return Whisker::MinMax;
    if (name == "ci95") return Whisker::Ci95;
    return std::nullopt;
}

QChart* ThroughputChart::build(const ScalingData& d, Whisker whisker) {
    auto* chart = new QChart;
    const bool compared = !d.others.empty();
    ChartStyle::apply(
        chart,
        compared ? QStringLiteral("Throughput — %1 (medians, %2)")
                       .arg(QString::fromStdString(d.group.label()), methodLabel(d.method))
                 : QStringLiteral("Throughput — %1").arg(QString::fromStdString(d.group.label())));

    auto* bars = new QBarSeries(chart);
    bars->setBarWidth(kGroupWidth);
    // The measured series first (one colour each, named in the legend), then the references.
    std::vector<const std::vector<ScalingPoint>*> measuredSeries{&d.points};
    for (const auto& o : d.others)
        measuredSeries.push_back(&o.points);
    QStringList categories;
    double top = 0;
    for (const auto& p : d.points)
        categories << categoryLabel(p.topology);
    for (std::size_t s = 0; s < measuredSeries.size(); ++s) {
        const QString name = !compared
                                 ? QStringLiteral("Measured median (%1)").arg(methodLabel(d.method))
                             : s == 0 ? QString::fromStdString(d.label)
                                      : QString::fromStdString(d.others[s - 1].label);
        auto* set = new QBarSet(name);
        set->setColor(ChartStyle::series(static_cast<int>(s)));
        set->setBorderColor(ChartStyle::series(static_cast<int>(s)).darker(130));
        for (const auto& p : *measuredSeries[s]) {
            *set << p.median.value_or(0.0);
            top = std::max(top, p.median.value_or(0.0));
            if (auto w = whiskerSpan(p, whisker)) top = std::max(top, w->second);
        }
        bars->append(set);
    }
    for (std::size_t r = 0; r < d.references.size(); ++r) {
        const auto& ref = d.references[r];
        auto* set = new QBarSet(QString::fromStdString(ref.label));
        set->setColor(ChartStyle::reference(static_cast<int>(r)));
        set->setBorderColor(ChartStyle::reference(static_cast<int>(r)).darker(130));
        for (const auto& p : d.points) {
            auto it = ref.throughput.find(p.topology.name());
            const double v = it == ref.throughput.end() ? 0.0 : it->second;
            *set << v;
            top = std::max(top, v);
            if (const auto sp = ref.spread.find(p.topology.name()); sp != ref.spread.end())
                top = std::max(top, sp->second.second);
        }
        bars->append(set);
    }
    chart->addSeries(bars);

    auto* axisX = new QBarCategoryAxis(chart);
    axisX->append(categories);
    ChartStyle::applyAxis(axisX, QStringLiteral("GPUs (nodes × GPUs per node)"));
    auto* axisY = new QValueAxis(chart);
    axisY->setRange(0, top > 0 ? top * 1.08 : 1.0);
    axisY->applyNiceNumbers();
    axisY->setLabelFormat(QStringLiteral("%.0f"));
    ChartStyle::applyAxis(axisY,
                          QStringLiteral("Throughput (%1)").arg(QString::fromStdString(d.unit)));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    bars->attachAxis(axisX);
    bars->attachAxis(axisY);

    // Whiskers on the measured bars: a value axis aligned with the categories (category i spans
    // i - 0.5 .. i + 0.5), the measured series being the first bars of the group.
    const int sets = static_cast<int>(bars->count());
    const double barWidth = kGroupWidth / std::max(1, sets);
    auto* whiskerX = new QValueAxis(chart);
    whiskerX->setRange(-0.5, static_cast<double>(d.points.size()) - 0.5);
    whiskerX->setVisible(false);
    chart->addAxis(whiskerX, Qt::AlignBottom);
    bool first = true;
    // One whisker, low to high, on bar `set` of category i.
    auto addWhisker = [&](std::size_t set, std::size_t i, double low, double high) {
        const double x =
            static_cast<double>(i) - kGroupWidth / 2 + barWidth * (static_cast<double>(set) + 0.5);
        const double cap = barWidth * 0.25;
        auto* w = new QLineSeries(chart);
        w->setName(whiskerName(whisker));
        w->append({{x - cap, low},
                   {x + cap, low},
                   {x, low},
                   {x, high},
                   {x - cap, high},
                   {x + cap, high}});
        QPen pen(ChartStyle::spread());
        pen.setWidthF(1.6);
        w->setPen(pen);
        chart->addSeries(w);
        w->attachAxis(whiskerX);
        w->attachAxis(axisY);
        if (!first)
            for (auto* m : chart->legend()->markers(w))
                m->setVisible(false);
        first = false;
    };
    for (std::size_t s = 0; s < measuredSeries.size(); ++s)
        for (std::size_t i = 0; i < measuredSeries[s]->size(); ++i)
            if (const auto span = whiskerSpan((*measuredSeries[s])[i], whisker))
                addWhisker(s, i, span->first, span->second);
    // A reference whose source printed its repeats shows their min–max like a measured series.
    if (whisker == Whisker::MinMax)
        for (std::size_t r = 0; r < d.references.size(); ++r)
            for (std::size_t i = 0; i < d.points.size(); ++i) {
                const auto it = d.references[r].spread.find(d.points[i].topology.name());
                if (it != d.references[r].spread.end())
                    addWhisker(measuredSeries.size() + r, i, it->second.first, it->second.second);
            }
    return chart;
}

} // namespace sv::ui
