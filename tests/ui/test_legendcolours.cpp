// Every chart's legend tells its entries apart by colour: no two series of one chart closer than
// ChartStyle::kDistinctColours (CIE76 ΔE). The History chart once drew its regression mark and
// the floor it fell below in the same red, and a comparison's second series (crimson) sat beside
// a red reference.

#include "tests/ui/uifixture.h"

#include "history/historytrend.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/lossbreakdownchart.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/charts/tracechart.h"
#include "ui/history/historychart.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QXYSeries>

#include <gtest/gtest.h>

#include <memory>

using namespace sv;

namespace {

struct Entry {
    QString name;
    QColor colour;
};

// The colour each visible legend entry is drawn in: a bar set's fill, an area's fill, a line's
// pen, a scatter's fill; the chart shown in a view, as the page shows it (a legend's markers
// are laid out, and hidden ones hidden, only then).
std::vector<Entry> legendEntries(QChart* chart) {
    std::vector<Entry> out;
    if (!chart->scene()) return out;
    for (QLegendMarker* m : chart->legend()->markers()) {
        if (!m->isVisible() || m->label().isEmpty()) continue;
        QColor colour;
        if (auto* bars = qobject_cast<QBarSeries*>(m->series())) {
            for (QBarSet* set : bars->barSets())
                if (set->label() == m->label()) colour = set->color();
        } else if (auto* area = qobject_cast<QAreaSeries*>(m->series())) {
            colour = area->color();
        } else if (auto* xy = qobject_cast<QXYSeries*>(m->series())) {
            colour = xy->color();
        }
        if (colour.isValid() && colour.alpha() > 0) out.push_back({m->label(), colour});
    }
    return out;
}

// Every pair of the chart's legend entries that a user could take for one colour.
std::string clashes(QChart* chart) {
    std::string out;
    const auto entries = legendEntries(chart);
    for (std::size_t i = 0; i < entries.size(); ++i)
        for (std::size_t j = i + 1; j < entries.size(); ++j) {
            const double d = ui::ChartStyle::colourDistance(entries[i].colour, entries[j].colour);
            if (d < ui::ChartStyle::kDistinctColours)
                out += "'" + entries[i].name.toStdString() + "' " +
                       entries[i].colour.name().toStdString() + " and '" +
                       entries[j].name.toStdString() + "' " +
                       entries[j].colour.name().toStdString() + ": ΔE " + std::to_string(d) + "\n";
        }
    return out;
}

void shown(QChartView& view) {
    view.resize(1400, 800);
    view.show();
    QCoreApplication::processEvents();
}

ui::ScalingPoint point(int nodes, int gpusPerNode, double median) {
    ui::ScalingPoint p;
    p.topology = Topology{nodes, gpusPerNode};
    p.gpus = nodes * gpusPerNode;
    p.median = p.min = p.max = median;
    p.repeats = 1;
    p.speedup = median / 100.0;
    p.efficiency = p.speedup.value() / p.gpus * 100.0;
    return p;
}

// Six measured series (a comparison of six directories) and every reference colour.
ui::ScalingData crowded() {
    ui::ScalingData d;
    d.label = "series 0";
    d.points = {point(1, 1, 100), point(1, 2, 190), point(1, 4, 370), point(1, 8, 720)};
    for (int s = 1; s < 6; ++s) {
        ui::SeriesCurve c;
        c.label = "series " + std::to_string(s);
        for (const auto& p : d.points)
            c.points.push_back(point(p.topology.nodes, p.topology.gpusPerNode, *p.median * 0.9));
        d.others.push_back(c);
    }
    for (int r = 0; r < ui::ChartStyle::referenceColours(); ++r) {
        ui::ReferenceCurve ref;
        ref.id = ref.label = ref.fullName = "table " + std::to_string(r);
        for (const auto& p : d.points)
            ref.throughput[p.topology.name()] = *p.median * (1.0 + 0.01 * r);
        ref.baseline = 100.0 * (1.0 + 0.01 * r);
        d.references.push_back(ref);
    }
    return d;
}

} // namespace

TEST(ChartStyle, EveryColourThatMayShareAChartIsDistinct) {
    std::vector<std::pair<std::string, QColor>> colours = {{"ideal", ui::ChartStyle::ideal()},
                                                           {"problem", ui::ChartStyle::problem()}};
    for (int s = 0; s < 6; ++s)
        colours.push_back({"series " + std::to_string(s), ui::ChartStyle::series(s)});
    for (int r = 0; r < ui::ChartStyle::referenceColours(); ++r)
        colours.push_back({"reference " + std::to_string(r), ui::ChartStyle::reference(r)});
    for (std::size_t i = 0; i < colours.size(); ++i)
        for (std::size_t j = i + 1; j < colours.size(); ++j)
            EXPECT_GE(ui::ChartStyle::colourDistance(colours[i].second, colours[j].second),
                      ui::ChartStyle::kDistinctColours)
                << colours[i].first << " " << colours[i].second.name().toStdString() << " vs "
                << colours[j].first << " " << colours[j].second.name().toStdString();
    // The distance itself: a colour is 0 from itself, black and white 100 apart.
    EXPECT_DOUBLE_EQ(ui::ChartStyle::colourDistance(Qt::red, Qt::red), 0.0);
    EXPECT_NEAR(ui::ChartStyle::colourDistance(Qt::black, Qt::white), 100.0, 0.5);
    // The near-identical reds a History legend once showed read as one.
    EXPECT_LT(ui::ChartStyle::colourDistance(QColor(0xb0, 0x2a, 0x3a), QColor(0xc9, 0x3c, 0x3c)),
              ui::ChartStyle::kDistinctColours);
}

TEST(LegendColours, ThroughputAndSpeedupWithSixSeriesAndTwelveReferences) {
    const ui::ScalingData d = crowded();
    QChartView throughput(ui::ThroughputChart::build(d));
    shown(throughput);
    ASSERT_GE(legendEntries(throughput.chart()).size(), 18u);
    EXPECT_EQ(clashes(throughput.chart()), "");
    QChartView speedup(ui::SpeedupChart::build(d, false));
    shown(speedup);
    ASSERT_GE(legendEntries(speedup.chart()).size(), 18u);
    EXPECT_EQ(clashes(speedup.chart()), "");
}

TEST(LegendColours, HistoryRegressionFloorAndChangePointAreApart) {
    history::CaseTrend t;
    for (int i = 0; i < 8; ++i) {
        history::TrendPoint p;
        p.time = "2026-11-0" + std::to_string(i + 1) + "T00:00:00";
        p.label = "nightly-" + std::to_string(i + 1);
        p.median = i < 4 ? 1000.0 : 900.0;
        p.min = p.median - 5, p.max = p.median + 5;
        p.values = {p.min, p.median, p.max};
        t.points.push_back(p);
    }
    t.points.back().median = 800.0;
    t.previousLow = 895.0;
    t.regression = true;
    history::CaseStep step;
    step.point.index = 4, step.point.before = 1000, step.point.after = 900,
    step.point.stepPct = -10;
    t.steps.push_back(step);
    QChartView view(ui::HistoryChart::build(t));
    shown(view);
    QChart* chart = view.chart();
    const auto entries = legendEntries(chart);
    bool regression = false, floor = false;
    for (const auto& e : entries)
        regression |= e.name.contains(QStringLiteral("regression")),
            floor |= e.name.contains(QStringLiteral("lowest earlier"));
    ASSERT_TRUE(regression && floor);
    EXPECT_EQ(clashes(chart), "");
}

TEST(LegendColours, TraceSlowIterationsAndABusyNeighbourAreApart) {
    IterationTrace trace;
    trace.ranks = 2;
    std::vector<RunResult::MonitorPoint> monitor;
    for (int k = 0; k < 60; ++k) {
        const double v = (k == 33 || k == 47) ? 60.0 : 100.0;
        trace.median.push_back(v);
        trace.min.push_back(v - 2);
        trace.max.push_back(v + 2);
        if (k % 5 == 0) monitor.push_back({double(k), 3.0, k > 30 ? 90.0 : 5.0});
    }
    QChartView view(
        ui::TraceChart::build(trace, MeasureOptions{10, 60}, QStringLiteral("run"), monitor));
    shown(view);
    QChart* chart = view.chart();
    const auto entries = legendEntries(chart);
    bool slow = false, busy = false;
    for (const auto& e : entries)
        slow |= e.name.contains(QStringLiteral("slow iteration")),
            busy |= e.name.contains(QStringLiteral("Busiest other process"));
    ASSERT_TRUE(slow && busy);
    EXPECT_EQ(clashes(chart), "");
}

TEST(LegendColours, TheLossBreakdownsPartsAreApart) {
    std::vector<QColor> parts = {ui::ChartStyle::measured()};
    for (int i = 0; i < 5; ++i)
        parts.push_back(ui::ChartStyle::part(i));
    for (std::size_t i = 0; i < parts.size(); ++i)
        for (std::size_t j = i + 1; j < parts.size(); ++j)
            EXPECT_GE(ui::ChartStyle::colourDistance(parts[i], parts[j]),
                      ui::ChartStyle::kDistinctColours)
                << parts[i].name().toStdString() << " vs " << parts[j].name().toStdString();
}

// Issue 37: the History chart drew each campaign's median and the latest campaign as the same
// blue squares in its legend. The latest is a triangle in a colour of its own, and the legend
// draws each entry as its series does.
TEST(LegendColours, HistoryLatestCampaignIsApartFromTheMedians) {
    history::CaseTrend t;
    for (int i = 0; i < 5; ++i) {
        history::TrendPoint p;
        p.time = "2026-11-0" + std::to_string(i + 1) + "T00:00:00";
        p.label = "nightly-" + std::to_string(i + 1);
        p.median = 1000.0 + i;
        p.min = p.median - 5, p.max = p.median + 5;
        p.values = {p.min, p.median, p.max};
        t.points.push_back(p);
    }
    t.previousLow = 995.0;
    QChartView view(ui::HistoryChart::build(t));
    shown(view);
    QChart* chart = view.chart();
    EXPECT_EQ(chart->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
    QXYSeries* median = nullptr;
    QScatterSeries* latest = nullptr;
    for (QLegendMarker* m : chart->legend()->markers()) {
        if (!m->isVisible()) continue;
        if (m->label().contains(QStringLiteral("median")))
            median = qobject_cast<QXYSeries*>(m->series());
        if (m->label().contains(QStringLiteral("latest")))
            latest = qobject_cast<QScatterSeries*>(m->series());
    }
    ASSERT_TRUE(median && latest) << "the legend names the medians and the latest campaign";
    EXPECT_NE(latest->markerShape(), QScatterSeries::MarkerShapeCircle);
    EXPECT_NE(latest->markerShape(), QScatterSeries::MarkerShapeRectangle);
    EXPECT_GE(ui::ChartStyle::colourDistance(latest->color(), median->color()),
              ui::ChartStyle::kDistinctColours);
    EXPECT_EQ(clashes(chart), "");
}
