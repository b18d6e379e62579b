#include "ui/charts/lossbreakdownchart.h"

#include "ui/analysis/analysis.h"
#include "ui/charts/chartstyle.h"
#include "core/model/numerics.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBrush>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <set>

namespace sv::ui {

namespace {

const char* kindOf(LossBreakdownChart::Set set) {
    switch (set) {
    case LossBreakdownChart::DeviceSlowdown:
        return "device-slowdown";
    case LossBreakdownChart::SlowestNode:
        return "slowest-node";
    case LossBreakdownChart::Communication:
        return "communication";
    case LossBreakdownChart::Remainder:
        return "remainder";
    default:
        return "";
    }
}

QString pts(double v) {
    return QString::fromStdString(formatShown(v, 2));
}

QString interval(const std::optional<Interval>& ci) {
    if (!ci) return QStringLiteral("no 95 % interval (too few samples)");
    return QStringLiteral("95 % interval [%1, %2]").arg(pts(ci->lo), pts(ci->hi));
}

// The parts in ChartStyle's one palette: orange, red (a node to look at), purple, khaki (what
// nothing explains), grey hatched (not measured).
QColor colourOf(LossBreakdownChart::Set set) {
    switch (set) {
    case LossBreakdownChart::Measured:
        return ChartStyle::measured();
    case LossBreakdownChart::DeviceSlowdown:
        return ChartStyle::part(0);
    case LossBreakdownChart::SlowestNode:
        return ChartStyle::part(1);
    case LossBreakdownChart::Communication:
        return ChartStyle::part(2);
    case LossBreakdownChart::Remainder:
        return ChartStyle::part(3);
    default:
        return ChartStyle::part(4);
    }
}

bool hasSeveralFormats(const std::vector<const CaseStats*>& cases) {
    std::set<std::string> formats;
    for (const CaseStats* c : cases)
        formats.insert(c->key.format);
    return formats.size() > 1;
}

} // namespace

LossBreakdown LossBreakdownChart::breakdown(const Analysis& a) {
    LossBreakdown out = breakdown(a.groupCases(), a.groupLosses, a.probes);
    if (a.group) out.group = QString::fromStdString(a.group->label());
    return out;
}

QString LossBreakdownChart::title(const LossBreakdown& d) {
    QString title = QStringLiteral("Where the scaling goes");
    if (!d.group.isEmpty()) title += QStringLiteral(" — ") + d.group;
    // A breakdown not to trust says so where an exported image shows it too.
    QStringList doubtful;
    for (const LossBar& bar : d.bars) {
        QStringList why;
        if (bar.loss.partsExceedLoss) why << QStringLiteral("parts exceed the loss");
        if (bar.loss.runsDisturbed) why << QStringLiteral("runs disturbed");
        if (!why.isEmpty())
            doubtful << bar.topology + QStringLiteral(": ") + why.join(QStringLiteral(", "));
    }
    if (!doubtful.isEmpty())
        title += QStringLiteral(" — ⚠ not reliable (%1)").arg(doubtful.join(QStringLiteral("; ")));
    return title;
}

LossBreakdown LossBreakdownChart::breakdown(const std::vector<const CaseStats*>& cases,
                                            const std::vector<std::optional<ScalingLoss>>& losses,
                                            const ProbeFile& probes) {
    LossBreakdown out;
    out.probeFile = QString::fromStdString(probes.path);
    out.probeError = QString::fromStdString(probes.error);
    const bool formats = hasSeveralFormats(cases);
    for (std::size_t i = 0; i < cases.size() && i < losses.size(); ++i) {
        const CaseStats& c = *cases[i];
        if (c.gpus() < 2 || !c.efficiency || !losses[i]) continue;
        LossBar bar;
        bar.topology = QString::fromStdString(c.key.topology.name());
        if (formats)
            bar.topology += QStringLiteral(" (%1)").arg(QString::fromStdString(c.key.format));
        bar.devices = c.gpus();
        bar.efficiencyPct = 100.0 * *c.efficiency;
        if (c.efficiencyCi95)
            bar.efficiencyCi95 =
                Interval{100.0 * c.efficiencyCi95->lo, 100.0 * c.efficiencyCi95->hi};
        bar.loss = *losses[i];
        out.bars.push_back(std::move(bar));
    }
    return out;
}

const LossPart* LossBreakdownChart::part(const LossBar& bar, Set set) {
    const std::string kind = kindOf(set);
    if (kind.empty()) return nullptr;
    for (const auto& p : bar.loss.parts)
        if (p.kind == kind) return &p;
    return nullptr;
}

double LossBreakdownChart::drawn(const LossBar& bar, Set set) {
    if (set == Measured) return std::max(0.0, bar.efficiencyPct);
    if (set == NotMeasured) return bar.loss.parts.empty() ? std::max(0.0, bar.loss.totalPct) : 0.0;
    const LossPart* p = part(bar, set);
    return p ? std::max(0.0, p->pct) : 0.0;
}

QString LossBreakdownChart::setName(Set set) {
    switch (set) {
    case Measured:
        return QStringLiteral("Measured throughput");
    case DeviceSlowdown:
        return QStringLiteral("Device slowdown");
    case SlowestNode:
        return QStringLiteral("Waiting for the slowest node");
    case Communication:
        return QStringLiteral("Communication");
    case Remainder:
        return QStringLiteral("Remainder");
    default:
        return QStringLiteral("Not measured");
    }
}

QString LossBreakdownChart::label(const LossBar& bar) {
    return QStringLiteral("%1 · loss %2 %").arg(bar.topology, pts(bar.loss.totalPct));
}

QString LossBreakdownChart::hoverText(const LossBar& bar, Set set) {
    const QString head = bar.topology + QStringLiteral(" — ") + setName(set) + QStringLiteral(": ");
    if (set == Measured) {
        // The whole breakdown, parts at zero (one node: nobody to wait for) included.
        QString text = head + QStringLiteral("%1 % of ideal (scaling efficiency), %2\nscaling loss "
                                             "%3 points of ideal, exact from the logs, %4")
                                  .arg(pts(bar.efficiencyPct), interval(bar.efficiencyCi95),
                                       pts(bar.loss.totalPct), interval(bar.loss.totalCi95));
        for (const auto& p : bar.loss.parts)
            text += QStringLiteral("\n  %1: %2").arg(QString::fromStdString(p.kind), pts(p.pct));
        for (const auto& kind : bar.loss.notMeasured)
            text += QStringLiteral("\n  %1: not measured").arg(QString::fromStdString(kind));
        return text;
    }
    if (set == NotMeasured)
        return head + QStringLiteral("no probe measured this case, so where its %1 points of loss "
                                     "went is not known (the loss itself is exact from the logs). "
                                     "Run the campaign with probes to split it.")
                          .arg(pts(bar.loss.totalPct));
    const LossPart* p = part(bar, set);
    if (!p) return head + QStringLiteral("not measured (the remainder holds it)");
    return head + QStringLiteral("%1 points of ideal, %2\n%3")
                      .arg(pts(p->pct), interval(p->ci95), QString::fromStdString(p->evidence));
}

QStringList LossBreakdownChart::notes(const LossBreakdown& d) {
    QStringList out;
    if (!d.probeError.isEmpty()) out << QStringLiteral("probes.json not read: ") + d.probeError;
    bool anyMeasured = false;
    for (const LossBar& bar : d.bars)
        if (!bar.loss.unreliable.empty())
            out << QStringLiteral("⚠ %1: this breakdown is not reliable: %2.")
                       .arg(bar.topology, QString::fromStdString(bar.loss.unreliable));
    for (const LossBar& bar : d.bars) {
        anyMeasured = anyMeasured || !bar.loss.parts.empty();
        if (bar.loss.totalPct < 0)
            out << QStringLiteral("%1: %2 % of ideal, faster than ideal scaling: no loss to split.")
                       .arg(bar.topology, pts(bar.efficiencyPct));
        for (const auto& p : bar.loss.parts)
            if (p.pct < -0.005)
                out << QStringLiteral("%1: %2 is %3 points, not drawn (the bar runs past 100 % by "
                                      "that much): %4")
                           .arg(bar.topology, QString::fromStdString(p.kind), pts(p.pct),
                                QString::fromStdString(p.evidence));
    }
    if (!d.bars.empty() && !anyMeasured && d.probeError.isEmpty())
        out << QStringLiteral(
            "No probes for these cases (no probes.json in their campaign's folder, "
            "or none for their topologies): each loss is exact from the logs, where it "
            "went is not measured.");
    return out;
}

QChart* LossBreakdownChart::build(const LossBreakdown& d) {
    auto* chart = new QChart;
    ChartStyle::apply(chart, title(d));
    auto* series = new QHorizontalStackedBarSeries(chart);
    auto* categories = new QBarCategoryAxis(chart);
    double widest = 100.0;
    for (const LossBar& bar : d.bars) {
        categories->append(label(bar));
        double sum = 0;
        for (int s = 0; s < kSets; ++s)
            sum += drawn(bar, static_cast<Set>(s));
        widest = std::max(widest, sum);
    }
    for (int s = 0; s < kSets; ++s) {
        const auto set = static_cast<Set>(s);
        auto* bars = new QBarSet(setName(set), series);
        for (const LossBar& bar : d.bars)
            bars->append(drawn(bar, set));
        const QColor colour = colourOf(set);
        bars->setColor(colour);
        bars->setBorderColor(colour.darker(130));
        if (set == NotMeasured) bars->setBrush(QBrush(colour, Qt::BDiagPattern));
        series->append(bars);
    }
    series->setBarWidth(0.6);
    auto* percent = new QValueAxis(chart);
    // Ticks every 20 % (every 50 past 200), the axis through the longest bar.
    const double step = widest > 200.0 ? 50.0 : 20.0;
    const double top = std::ceil(widest / step) * step;
    percent->setRange(0.0, top);
    percent->setTickCount(static_cast<int>(top / step) + 1);
    percent->setLabelFormat(QStringLiteral("%.0f"));
    ChartStyle::applyAxis(percent, QStringLiteral("% of ideal (devices × the 1-device pace)"));
    ChartStyle::applyAxis(categories, QString());
    // Ideal scaling: a dashed line at 100 %, across every bar.
    auto* ideal = new QLineSeries(chart);
    ideal->setName(QStringLiteral("Ideal (100 %)"));
    const qreal n = static_cast<qreal>(d.bars.size());
    ideal->append(100.0, -0.5);
    ideal->append(100.0, n - 0.5);
    QPen pen(ChartStyle::ideal());
    pen.setStyle(Qt::DashLine);
    pen.setWidthF(1.5);
    ideal->setPen(pen);
    ChartStyle::addSeries(chart, percent, categories, {series, ideal});
    // A set no bar draws is no legend entry.
    const auto markers = chart->legend()->markers(series);
    for (int s = 0; s < kSets && s < markers.size(); ++s) {
        bool any = false;
        for (const LossBar& bar : d.bars)
            any = any || drawn(bar, static_cast<Set>(s)) > 0;
        markers[s]->setVisible(any);
    }
    ChartStyle::fitLegend(chart);
    return chart;
}

} // namespace sv::ui
