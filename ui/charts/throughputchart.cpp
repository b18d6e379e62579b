#include "ui/charts/throughputchart.h"

#include "ui/charts/chartstyle.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QStringList>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sv::ui {

namespace {
constexpr double kGroupWidth = 0.8; // of a category, shared by the measured bar and the references

QString methodLabel(const ScalingData& d) {
    if (d.ownReports) return QStringLiteral("the log's own reports");
    return d.method == Method::Time ? QStringLiteral("time method")
                                    : QStringLiteral("speed method");
}
} // namespace

bool ThroughputChart::logScale(double low, double top) {
    return low > 0 && top > 10 * low;
}

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

double ThroughputChart::scaleFactor(const ScalingPoint& p, ThroughputScale scale) {
    if (scale == ThroughputScale::Throughput) return 1.0;
    if (!p.peakPct || !p.median || *p.median <= 0) return 0.0;
    return *p.peakPct / *p.median;
}

QString ThroughputChart::peakNote(const ScalingData& d) {
    // Each reason once, with the topologies it holds for, in the order met.
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    const auto add = [&](const std::string& why, const std::string& where) {
        std::string text = why;
        if (text.rfind("peak unknown: ", 0) == 0) text = text.substr(14);
        auto it = std::find_if(reasons.begin(), reasons.end(),
                               [&](const auto& r) { return r.first == text; });
        if (it == reasons.end()) it = reasons.insert(reasons.end(), {text, {}});
        it->second.push_back(where);
    };
    const auto series = [&](const std::vector<ScalingPoint>& points, const std::string& label) {
        for (const auto& p : points)
            if (!p.peakPct && p.median)
                add(p.peakUnknown.empty() ? "peak unknown" : p.peakUnknown,
                    (label.empty() ? "" : label + " ") + p.topology.name());
    };
    series(d.points, d.others.empty() ? std::string() : d.label);
    for (const auto& o : d.others)
        series(o.points, o.label);
    for (const auto& r : d.references)
        if (!r.throughput.empty() && r.peakPct.size() < r.throughput.size())
            add(r.peakUnknown.empty() ? "peak unknown" : r.peakUnknown, r.label);
    QStringList lines;
    for (const auto& [why, where] : reasons) {
        QStringList at;
        for (const auto& w : where)
            at << QString::fromStdString(w);
        lines << QStringLiteral("Left out, peak unknown at %1: %2")
                     .arg(at.join(QStringLiteral(", ")), QString::fromStdString(why));
    }
    return lines.join(QLatin1Char('\n'));
}

namespace {

using MeasuredSeries = std::vector<const std::vector<ScalingPoint>*>;

// The measured series, one bar set each (one colour each, named in the legend); the highest
// value drawn, whiskers included.
double addMeasuredBars(QBarSeries* bars, const ScalingData& d, const MeasuredSeries& measured,
                       Whisker whisker, ThroughputScale scale) {
    const bool compared = !d.others.empty();
    double top = 0;
    for (std::size_t s = 0; s < measured.size(); ++s) {
        const QString name = !compared ? QStringLiteral("Measured median (%1)").arg(methodLabel(d))
                             : s == 0  ? QString::fromStdString(d.label)
                                       : QString::fromStdString(d.others[s - 1].label);
        auto* set = new QBarSet(name);
        set->setColor(ChartStyle::series(static_cast<int>(s)));
        set->setBorderColor(ChartStyle::series(static_cast<int>(s)).darker(130));
        for (const auto& p : *measured[s]) {
            const double f = ThroughputChart::scaleFactor(p, scale);
            *set << p.median.value_or(0.0) * f;
            top = std::max(top, p.median.value_or(0.0) * f);
            if (auto w = ThroughputChart::whiskerSpan(p, whisker))
                top = std::max(top, w->second * f);
        }
        bars->append(set);
    }
    return top;
}

// A reference's figure at a topology on the scale (0: no peak known there).
double referenceFactor(const ReferenceCurve& ref, const std::string& topology,
                       ThroughputScale scale) {
    if (scale == ThroughputScale::Throughput) return 1.0;
    const auto pct = ref.peakPct.find(topology);
    const auto x = ref.throughput.find(topology);
    if (pct == ref.peakPct.end() || x == ref.throughput.end() || x->second <= 0) return 0.0;
    return pct->second / x->second;
}

// The references, a bar set each after the measured ones; the highest value drawn, their
// spread included.
double addReferenceBars(QBarSeries* bars, const ScalingData& d, ThroughputScale scale) {
    double top = 0;
    for (std::size_t r = 0; r < d.references.size(); ++r) {
        const auto& ref = d.references[r];
        auto* set = new QBarSet(QString::fromStdString(ref.label));
        set->setColor(ChartStyle::reference(static_cast<int>(r)));
        set->setBorderColor(ChartStyle::reference(static_cast<int>(r)).darker(130));
        for (const auto& p : d.points) {
            auto it = ref.throughput.find(p.topology.name());
            const double f = referenceFactor(ref, p.topology.name(), scale);
            const double v = it == ref.throughput.end() ? 0.0 : it->second * f;
            *set << v;
            top = std::max(top, v);
            if (const auto sp = ref.spread.find(p.topology.name()); sp != ref.spread.end())
                top = std::max(top, sp->second.second * f);
        }
        bars->append(set);
    }
    return top;
}

// The smallest figure a bar draws (medians, references, whisker ends); 0 where none is drawn.
double lowestDrawn(const ScalingData& d, const MeasuredSeries& measured, Whisker whisker) {
    double low = 0;
    const auto take = [&low](double v) {
        if (v > 0) low = low > 0 ? std::min(low, v) : v;
    };
    for (const auto* series : measured)
        for (const auto& p : *series) {
            take(p.median.value_or(0.0));
            if (auto w = ThroughputChart::whiskerSpan(p, whisker)) take(w->first);
        }
    for (const auto& ref : d.references)
        for (const auto& p : d.points)
            if (auto it = ref.throughput.find(p.topology.name()); it != ref.throughput.end())
                take(it->second);
    return low;
}

// The throughput up the side: linear from 0, or on a log scale where the figures span more
// than a decade (1 GPU's bar beside 64 GPUs' is no sliver).
QAbstractAxis* throughputAxis(QChart* chart, const ScalingData& d, double low, double top,
                              ThroughputScale scale) {
    const QString unit = QString::fromStdString(d.unit);
    // Percent of peak stays linear: its figures are of one order, 0 to 100.
    if (scale == ThroughputScale::Throughput && ThroughputChart::logScale(low, top)) {
        auto* axis = new QLogValueAxis(chart);
        // A log axis labels its base's powers only: over less than two decades base 10 labels
        // one or two lines (100, 1000) and bars up to 6000 have none to be read by, so base 2
        // (256, 512, … 8192) labels every doubling there.
        const double base = top / low < 100.0 ? 2.0 : 10.0;
        axis->setBase(base);
        // From the power below the smallest bar (a round base line) to a little above the top.
        axis->setRange(std::pow(base, std::floor(std::log(low / 1.2) / std::log(base))), top * 1.3);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(base == 10.0 ? 8 : 0);
        axis->setMinorGridLineColor(QColor(0xee, 0xee, 0xee));
        ChartStyle::applyAxis(axis, QStringLiteral("Throughput (%1, log scale)").arg(unit));
        return axis;
    }
    auto* axis = new QValueAxis(chart);
    axis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    axis->applyNiceNumbers();
    ChartStyle::distinctLabels(axis);
    ChartStyle::applyAxis(
        axis, scale == ThroughputScale::PeakPercent
                  ? (d.peakAxis.empty()
                         ? QStringLiteral("% of each device's dense peak (the cases' not known)")
                         : QString::fromStdString(d.peakAxis))
                  : QStringLiteral("Throughput (%1)").arg(unit));
    return axis;
}

// The topologies along the bottom, the throughput up the side; the value axis.
QAbstractAxis* addAxes(QChart* chart, QBarSeries* bars, const ScalingData& d, double low,
                       double top, ThroughputScale scale) {
    QStringList categories;
    for (const auto& p : d.points)
        categories << ThroughputChart::categoryLabel(p.topology);
    auto* axisX = new QBarCategoryAxis(chart);
    axisX->append(categories);
    const QString devices = QString::fromStdString(d.devices);
    ChartStyle::applyAxis(axisX, QStringLiteral("%1 (nodes × %2 per node)")
                                     .arg(devices.left(1).toUpper() + devices.mid(1), devices));
    QAbstractAxis* axisY = throughputAxis(chart, d, low, top, scale);
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    bars->attachAxis(axisX);
    bars->attachAxis(axisY);
    return axisY;
}

// Whiskers on the bars: a value axis aligned with the categories (category i spans
// i - 0.5 .. i + 0.5), the measured series being the first bars of the group, the references
// after them. One legend entry for all of them.
class Whiskers {
  public:
    Whiskers(QChart* chart, const QBarSeries* bars, QAbstractAxis* axisY, std::size_t categories,
             Whisker whisker)
        : m_chart(chart), m_axisY(axisY), m_whisker(whisker),
          m_barWidth(kGroupWidth / std::max(1, static_cast<int>(bars->count()))) {
        m_axisX = new QValueAxis(chart);
        m_axisX->setRange(-0.5, static_cast<double>(categories) - 0.5);
        m_axisX->setVisible(false);
        chart->addAxis(m_axisX, Qt::AlignBottom);
    }

    // One whisker, low to high, on bar `set` of category i.
    void add(std::size_t set, std::size_t i, double low, double high) {
        const double x = static_cast<double>(i) - kGroupWidth / 2 +
                         m_barWidth * (static_cast<double>(set) + 0.5);
        const double cap = m_barWidth * 0.25;
        auto* w = new QLineSeries(m_chart);
        w->setName(ThroughputChart::whiskerName(m_whisker));
        w->append({{x - cap, low},
                   {x + cap, low},
                   {x, low},
                   {x, high},
                   {x - cap, high},
                   {x + cap, high}});
        QPen pen(ChartStyle::spread());
        pen.setWidthF(1.6);
        w->setPen(pen);
        m_chart->addSeries(w);
        w->attachAxis(m_axisX);
        w->attachAxis(m_axisY);
        if (!m_first)
            for (auto* m : m_chart->legend()->markers(w))
                m->setVisible(false);
        m_first = false;
    }

  private:
    QChart* m_chart;
    QAbstractAxis* m_axisY;
    QValueAxis* m_axisX = nullptr;
    Whisker m_whisker;
    double m_barWidth;
    bool m_first = true;
};

void addWhiskers(QChart* chart, const QBarSeries* bars, QAbstractAxis* axisY, const ScalingData& d,
                 const MeasuredSeries& measured, Whisker whisker, ThroughputScale scale) {
    Whiskers whiskers(chart, bars, axisY, d.points.size(), whisker);
    for (std::size_t s = 0; s < measured.size(); ++s)
        for (std::size_t i = 0; i < measured[s]->size(); ++i) {
            const ScalingPoint& p = (*measured[s])[i];
            const double f = ThroughputChart::scaleFactor(p, scale);
            if (const auto span = ThroughputChart::whiskerSpan(p, whisker); span && f > 0)
                whiskers.add(s, i, span->first * f, span->second * f);
        }
    // A reference whose source printed its repeats shows their min–max like a measured series.
    if (whisker == Whisker::MinMax)
        for (std::size_t r = 0; r < d.references.size(); ++r)
            for (std::size_t i = 0; i < d.points.size(); ++i) {
                const std::string t = d.points[i].topology.name();
                const auto it = d.references[r].spread.find(t);
                const double f = referenceFactor(d.references[r], t, scale);
                if (it != d.references[r].spread.end() && f > 0)
                    whiskers.add(measured.size() + r, i, it->second.first * f,
                                 it->second.second * f);
            }
}

} // namespace

QChart* ThroughputChart::build(const ScalingData& d, Whisker whisker, ThroughputScale scale) {
    auto* chart = new QChart;
    const bool compared = !d.others.empty();
    const QString what = scale == ThroughputScale::PeakPercent ? QStringLiteral("Percent of peak")
                                                               : QStringLiteral("Throughput");
    ChartStyle::apply(
        chart, compared
                   ? QStringLiteral("%1 — %2 (medians, %3)")
                         .arg(what, QString::fromStdString(d.group.label()), methodLabel(d))
                   : QStringLiteral("%1 — %2").arg(what, QString::fromStdString(d.group.label())));

    auto* bars = new QBarSeries(chart);
    bars->setBarWidth(kGroupWidth);
    // The measured series first, then the references.
    MeasuredSeries measured{&d.points};
    for (const auto& o : d.others)
        measured.push_back(&o.points);
    // In this order: the bar sets are the group's bars from left to right.
    const double measuredTop = addMeasuredBars(bars, d, measured, whisker, scale);
    const double top = std::max(measuredTop, addReferenceBars(bars, d, scale));
    chart->addSeries(bars);
    QAbstractAxis* axisY = addAxes(chart, bars, d, lowestDrawn(d, measured, whisker), top, scale);
    addWhiskers(chart, bars, axisY, d, measured, whisker, scale);
    QStringList notes;
    if (scale == ThroughputScale::PeakPercent) notes << peakNote(d);
    // Every run left out: no bar of its own and an axis of nothing; said, not left to guess.
    const auto anyMedian = [](const std::vector<ScalingPoint>& points) {
        return std::any_of(points.begin(), points.end(),
                           [](const ScalingPoint& p) { return p.median.has_value(); });
    };
    if (!d.points.empty() && !anyMedian(d.points) &&
        std::none_of(d.others.begin(), d.others.end(),
                     [&](const SeriesCurve& o) { return anyMedian(o.points); }))
        notes << QStringLiteral("no measured figure: every run of this case is left out (the Runs "
                                "page says why)");
    notes.removeAll(QString());
    ChartStyle::addNote(chart, notes.join(QLatin1Char('\n')));
    return chart;
}

} // namespace sv::ui
