// The chart builders draw what the statistics say, and the exports write real images.

#include "tests/ui/snapshotfixture.h"
#include "tests/ui/uifixture.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/charthover.h"
#include "ui/browse/chartpage.h"
#include "ui/charts/chartstyle.h"
#include "ui/export/exportcontroller.h"
#include "ui/browse/speeduppage.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/charts/tracechart.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHelpEvent>
#include <QLegend>
#include <QTextDocument>
#include <QGraphicsTextItem>
#include <QRegularExpression>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QValueAxis>

#include <set>

#include <gtest/gtest.h>

#include <tuple>

using namespace sv;
using namespace sv::test;

namespace {

ui::Analysis analysisOf(const std::filesystem::path& root, std::vector<std::string> refs = {}) {
    ui::AnalysisOptions o;
    if (!refs.empty()) {
        o.autoReferences = false;
        o.references = std::move(refs);
    }
    return ui::analyze(readSnapshot(root), o);
}

template <typename T> std::vector<T*> seriesOf(QChart* chart) {
    std::vector<T*> out;
    for (auto* s : chart->series())
        if (auto* t = qobject_cast<T*>(s)) out.push_back(t);
    return out;
}

struct Campaign128 {
    TempDir dir;
    CampaignSpec spec;
    Campaign128() {
        spec.batch = 128;
        spec.topologies = {{1, 1}, {1, 2}, {1, 4}, {1, 8}};
        writeCampaign(dir.path(), spec);
    }
};

} // namespace

TEST(ThroughputChart, MeasuredMediansBesideEachReferenceWithWhiskers) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(
        c.dir.path(), {"dlperf-ngc-mxnet-fp32-bs128", "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0"});
    const ui::ScalingData d = a.scaling();
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(d));
    auto bars = seriesOf<QBarSeries>(chart.get());
    ASSERT_EQ(bars.size(), 1u);
    ASSERT_EQ(bars[0]->count(), 3); // measured + two references
    const QBarSet* measured = bars[0]->barSets()[0];
    const auto cases = a.groupCases();
    ASSERT_EQ(measured->count(), 4);
    for (int i = 0; i < 4; ++i)
        EXPECT_DOUBLE_EQ(measured->at(i), *cases[static_cast<std::size_t>(i)]->median);
    // The published NGC MXNet fp32 figures at 1n1g and 1n8g.
    EXPECT_DOUBLE_EQ(bars[0]->barSets()[1]->at(0), 392.24);
    EXPECT_DOUBLE_EQ(bars[0]->barSets()[1]->at(3), 3006.98);
    EXPECT_DOUBLE_EQ(bars[0]->barSets()[2]->at(0), 397.64);
    // One whisker per topology, spanning min..max of the repeats; then the published table whose
    // source printed its seven repeats (the seed's FP32 table) gets theirs, like a measured series,
    // and the table without repeats (the report's OneFlow column) none.
    auto whiskers = seriesOf<QLineSeries>(chart.get());
    const auto* table = ReferenceCatalog::builtin().find("dlperf-ngc-mxnet-fp32-bs128");
    ASSERT_NE(table, nullptr);
    const auto& repeats = table->series.at(0).repeats;
    ASSERT_EQ(d.references[0].spread.size(), 4u);
    EXPECT_TRUE(d.references[1].spread.empty());
    ASSERT_EQ(whiskers.size(), 8u);
    auto span = [](const QLineSeries* w) {
        double lo = 1e9, hi = 0;
        for (const auto& p : w->points())
            lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
        return std::make_pair(lo, hi);
    };
    EXPECT_DOUBLE_EQ(span(whiskers[0]).first, *cases[0]->min);
    EXPECT_DOUBLE_EQ(span(whiskers[0]).second, *cases[0]->max);
    EXPECT_LT(span(whiskers[0]).first, span(whiskers[0]).second);
    const auto& r1n1g = repeats.at("1n1g");
    EXPECT_DOUBLE_EQ(span(whiskers[4]).first, *std::min_element(r1n1g.begin(), r1n1g.end()));
    EXPECT_DOUBLE_EQ(span(whiskers[4]).second, *std::max_element(r1n1g.begin(), r1n1g.end()));
    // On the reference's bar: to the right of the measured whisker of the same topology.
    EXPECT_GT(whiskers[4]->points()[2].x(), whiskers[0]->points()[2].x());
    EXPECT_LT(whiskers[4]->points()[2].x(), 0.5);
}

TEST(SpeedupChart, MeasuredReferenceAndDashedIdeal) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    ASSERT_EQ(a.references,
              std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128"}); // matched by default
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a.scaling(), false));
    auto lines = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(lines.size(), 3u); // ideal, measured, reference (drawn over it)
    EXPECT_EQ(lines[0]->pen().style(), Qt::DashLine);
    EXPECT_EQ(lines[0]->points().back(), QPointF(3, 8)); // log2(8) GPUs, speedup 8
    const auto cases = a.groupCases();
    ASSERT_EQ(lines[1]->count(), 4);
    for (int i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(lines[1]->at(i).x(),
                         std::log2(cases[static_cast<std::size_t>(i)]->gpus()));
        EXPECT_DOUBLE_EQ(lines[1]->at(i).y(), *cases[static_cast<std::size_t>(i)]->speedup);
    }
    EXPECT_NEAR(lines[2]->at(3).y(), 3006.98 / 392.24, 1e-9);

    std::unique_ptr<QChart> eff(ui::SpeedupChart::build(a.scaling(), true));
    auto effLines = seriesOf<QLineSeries>(eff.get());
    ASSERT_EQ(effLines.size(), 3u);
    EXPECT_DOUBLE_EQ(effLines[0]->at(0).y(), 100.0);
    EXPECT_NEAR(effLines[1]->at(3).y(), 100.0 * *cases[3]->efficiency, 1e-9);
    EXPECT_LT(effLines[1]->at(3).y(), 100.0);
}

TEST(SpeedupChart, GpuAxisIsLog2WithTicksAtTheMeasuredCounts) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 128;
    spec.topologies = {{1, 1}, {1, 2}, {1, 8}, {3, 8}}; // 24 GPUs: not a power of two
    writeCampaign(dir.path(), spec);
    const ui::Analysis a = analysisOf(dir.path());
    for (bool efficiency : {false, true}) {
        std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a.scaling(), efficiency));
        auto* x = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Horizontal).front());
        ASSERT_NE(x, nullptr);
        EXPECT_EQ(x->categoriesLabels(), (QStringList{QStringLiteral("1"), QStringLiteral("2"),
                                                      QStringLiteral("8"), QStringLiteral("24")}));
        EXPECT_EQ(x->labelsPosition(), QCategoryAxis::AxisLabelsPositionOnValue);
        for (int g : {1, 2, 8, 24})
            EXPECT_DOUBLE_EQ(x->endValue(QString::number(g)), std::log2(g));
        EXPECT_LT(x->min(), 0.0);
        EXPECT_GT(x->max(), std::log2(24));
        // The measured points sit on their ticks.
        auto lines = seriesOf<QLineSeries>(chart.get());
        const QLineSeries* measured = lines[1]; // ideal, measured, reference
        ASSERT_EQ(measured->count(), 4);
        EXPECT_DOUBLE_EQ(measured->at(3).x(), std::log2(24));
        EXPECT_EQ(ui::SpeedupChart::gpusAt(measured->at(3).x()), 24);
    }
    // Speedup on log2 too, so the ideal is the diagonal.
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a.scaling(), false));
    auto* y = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).front());
    ASSERT_NE(y, nullptr);
    EXPECT_DOUBLE_EQ(y->base(), 2.0);
    EXPECT_LE(y->min(), 1.0);
    EXPECT_GE(y->max(), 24.0);
}

TEST(SpeedupChart, EfficiencyIsRangedAroundTheDataNotZeroToHundred) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a.scaling(), true));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).front());
    ASSERT_NE(y, nullptr);
    double lo = 100, hi = 100;
    for (auto* s : seriesOf<QLineSeries>(chart.get()))
        for (const QPointF& p : s->points())
            lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
    // The fixture loses 2 % per doubling: 1n8g is at about 94 %.
    EXPECT_LT(lo, 95.0);
    EXPECT_GT(lo, 85.0);
    EXPECT_LT(y->min(), lo);
    EXPECT_GT(y->max(), hi);
    EXPECT_GT(y->min(), 50.0) << "a 0-100 % axis squeezes the differences that matter";
    EXPECT_LT(y->max(), 120.0);
}

TEST(SpeedupChart, ReferencesAreDashedWithTheirOwnMarkers) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(
        c.dir.path(), {"dlperf-ngc-mxnet-fp32-bs128", "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0"});
    const ui::ScalingData d = a.scaling();
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(d, false));
    auto marks = seriesOf<QScatterSeries>(chart.get());
    ASSERT_EQ(marks.size(), 2u);
    auto lines = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(lines.size(), 4u); // ideal, measured, two references drawn over it
    for (int r = 0; r < 2; ++r) {
        const QLineSeries* line = lines[static_cast<std::size_t>(r) + 2];
        const QScatterSeries* mark = marks[static_cast<std::size_t>(r)];
        EXPECT_EQ(line->pen().style(), Qt::DashLine);
        EXPECT_EQ(line->pen().color(), ui::ChartStyle::reference(r));
        EXPECT_EQ(mark->color(), ui::ChartStyle::reference(r));
        EXPECT_EQ(mark->markerShape(), ui::ChartStyle::referenceMarker(r));
        EXPECT_EQ(mark->points(), line->points()); // a marker at every published figure
        EXPECT_GE(mark->count(), 2);
        EXPECT_EQ(mark->name().toStdString(), d.references[static_cast<std::size_t>(r)].label);
        // One legend entry per reference, its marker: the line's entry is hidden.
        EXPECT_FALSE(chart->legend()->markers(const_cast<QLineSeries*>(line)).front()->isVisible());
    }
    EXPECT_NE(marks[0]->markerShape(), marks[1]->markerShape());
    EXPECT_EQ(lines[1]->pen().style(), Qt::SolidLine);
    EXPECT_TRUE(lines[1]->pointsVisible());
    EXPECT_EQ(lines[1]->property(ui::SpeedupChart::kCurveProperty).toInt(),
              ui::SpeedupChart::kMeasured);
}

TEST(ChartStyle, TwelveReferenceColoursAndFiveShapesTellSixtyApart) {
    ASSERT_GE(ui::ChartStyle::referenceColours(), 12);
    std::set<QRgb> colours;
    for (int i = 0; i < 12; ++i) {
        colours.insert(ui::ChartStyle::reference(i).rgb());
        EXPECT_NE(ui::ChartStyle::reference(i), ui::ChartStyle::measured());
        EXPECT_NE(ui::ChartStyle::reference(i), ui::ChartStyle::ideal());
    }
    EXPECT_EQ(colours.size(), 12u);
    std::set<std::pair<QRgb, int>> looks;
    for (int i = 0; i < 60; ++i)
        looks.insert({ui::ChartStyle::reference(i).rgb(), ui::ChartStyle::referenceMarker(i)});
    EXPECT_EQ(looks.size(), 60u);
}

TEST(ScalingData, LegendLabelsCarryPrecisionAndBatchAndNeverRepeat) {
    Campaign128 c;
    const std::vector<std::string> ids = {"dlperf-ngc-mxnet-fp32-bs128",
                                          "dlperf-ngc-mxnet-fp16-amp-bs256",
                                          "dlperf-ngc-mxnet-fp16-noamp-bs256",
                                          "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0",
                                          "nvidia-dle-mxnet-dgx1-19.07:FP32, batch 96",
                                          "nvidia-dle-mxnet-dgx2-19.07:FP32, batch 128"};
    const ui::ScalingData d = analysisOf(c.dir.path(), ids).scaling();
    ASSERT_EQ(d.references.size(), ids.size());
    EXPECT_EQ(d.references[0].label, "DLPerf NGC MXNet 20.03 (FP32, bs 128)");
    EXPECT_EQ(d.references[1].label, "DLPerf NGC MXNet 20.03 (FP16 AMP, bs 256)");
    EXPECT_EQ(d.references[2].label, "DLPerf NGC MXNet 20.03 (FP16 no AMP, bs 256)");
    EXPECT_EQ(d.references[3].label, "OneFlow 0.2.0 (FP32, bs 128)");
    EXPECT_EQ(d.references[4].label, "NVIDIA DeepLearningExamples MXNet RN50 v1.5 (FP32, bs 96)");
    EXPECT_EQ(d.references[3].fullName,
              "OneFlow 0.2.0 — DLPerf report v1.0 (Oct 2020), all frameworks, FP32, batch 128 per "
              "GPU");
    std::set<std::string> labels;
    for (const auto& r : d.references) {
        labels.insert(r.label);
        EXPECT_NE(r.fullName.find(r.label.substr(0, 8)), std::string::npos) << r.fullName;
    }
    EXPECT_EQ(labels.size(), ids.size());
    // The full title is the hover text.
    EXPECT_EQ(d.references[0].fullName, "DLPerf NGC MXNet 20.03, FP32, batch 128 per GPU");
    // The case is fp32 batch 128: only the first, the fourth and the last match it.
    EXPECT_TRUE(d.references[0].mismatch.empty());
    EXPECT_EQ(d.references[1].mismatch, "it is FP16 AMP, bs 256, the case FP32, bs 128");
    EXPECT_TRUE(d.references[3].mismatch.empty());
    EXPECT_FALSE(d.references[4].mismatch.empty());
    EXPECT_TRUE(d.references[5].mismatch.empty());
    // The legend shows the labels.
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(d));
    auto bars = seriesOf<QBarSeries>(chart.get());
    EXPECT_EQ(bars[0]->barSets()[2]->label().toStdString(), d.references[1].label);
}

TEST(ThroughputChart, Ci95WhiskerSpansTheMediansInterval) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    const auto cases = a.groupCases();
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(a.scaling(), ui::Whisker::Ci95));
    auto whiskers = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(whiskers.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        ASSERT_TRUE(cases[i]->medianCi95);
        double lo = 1e9, hi = 0;
        for (const auto& p : whiskers[i]->points())
            lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
        EXPECT_DOUBLE_EQ(lo, cases[i]->medianCi95->lo);
        EXPECT_DOUBLE_EQ(hi, cases[i]->medianCi95->hi);
    }
    EXPECT_EQ(whiskers[0]->name(), QStringLiteral("95 % CI of median"));
    EXPECT_TRUE(ui::ThroughputChart::parseWhisker("ci95") == ui::Whisker::Ci95);
    EXPECT_TRUE(ui::ThroughputChart::parseWhisker("minmax") == ui::Whisker::MinMax);
    EXPECT_FALSE(ui::ThroughputChart::parseWhisker("stdev"));
}

TEST(ChartHover, NamesTopologyValueAndDelta) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(
        c.dir.path(), {"dlperf-ngc-mxnet-fp32-bs128", "dlperf-ngc-mxnet-fp16-amp-bs256"});
    const ui::ScalingData d = a.scaling();
    const auto cases = a.groupCases();
    const CaseStats& c8 = *cases[3]; // 1n8g
    ASSERT_TRUE(c8.deltaPct);
    const QString delta = QString::number(std::abs(*c8.deltaPct), 'f', 1) + QStringLiteral(" %");
    const QString measured = ui::ChartHover::barText(d, 0, 3, ui::Whisker::MinMax);
    EXPECT_TRUE(measured.startsWith(QStringLiteral("1n8g — 8 GPUs\n"))) << measured.toStdString();
    EXPECT_TRUE(measured.contains(
        QStringLiteral("Measured median: %1 images/s (3 repeats)").arg(*c8.median, 0, 'f', 2)))
        << measured.toStdString();
    EXPECT_TRUE(measured.contains(QStringLiteral("Whisker, Min–max of repeats: %1 – %2")
                                      .arg(*c8.min, 0, 'f', 2)
                                      .arg(*c8.max, 0, 'f', 2)))
        << measured.toStdString();
    EXPECT_TRUE(measured.contains(QStringLiteral("Δ vs DLPerf NGC MXNet 20.03 (FP32, bs 128): ") +
                                  (*c8.deltaPct < 0 ? QStringLiteral("−") : QStringLiteral("+")) +
                                  delta))
        << measured.toStdString();
    // The CI whisker says so.
    EXPECT_TRUE(ui::ChartHover::barText(d, 0, 3, ui::Whisker::Ci95)
                    .contains(QStringLiteral("Whisker, 95 % CI of median: %1 – %2")
                                  .arg(c8.medianCi95->lo, 0, 'f', 2)
                                  .arg(c8.medianCi95->hi, 0, 'f', 2)));
    // A reference's bar: its full name, figure, and Δ only where it matches.
    const QString ref = ui::ChartHover::barText(d, 1, 3, ui::Whisker::MinMax);
    EXPECT_TRUE(ref.contains(
        QStringLiteral("DLPerf NGC MXNet 20.03, FP32, batch 128 per GPU: 3006.98 images/s")))
        << ref.toStdString();
    EXPECT_TRUE(ref.contains(delta)) << ref.toStdString();
    const QString other = ui::ChartHover::barText(d, 2, 3, ui::Whisker::MinMax);
    EXPECT_TRUE(other.contains(QStringLiteral(
        "Δ vs DLPerf NGC MXNet 20.03 (FP16 AMP, bs 256): – (it is FP16 AMP, bs 256, the case "
        "FP32, bs 128)")))
        << other.toStdString();
    // A point of the speedup chart.
    const QString point = ui::ChartHover::pointText(d, ui::SpeedupChart::kMeasured, 8, false);
    EXPECT_TRUE(point.contains(QStringLiteral("Measured: %1× speedup").arg(*c8.speedup, 0, 'f', 2)))
        << point.toStdString();
    const QString eff = ui::ChartHover::pointText(d, 0, 8, true);
    EXPECT_TRUE(eff.contains(QStringLiteral("% efficiency"))) << eff.toStdString();
    EXPECT_TRUE(eff.startsWith(QStringLiteral("1n8g — 8 GPUs"))) << eff.toStdString();
}

TEST(ChartPage, BarHoverTextStaysWhenTheMouseRests) {
    Campaign128 c;
    auto a = std::make_shared<ui::Analysis>(analysisOf(c.dir.path()));
    ui::ChartPage page(ui::ChartKind::Throughput);
    page.resize(900, 600);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    page.setAnalysis(a);
    auto bars = seriesOf<QBarSeries>(page.view()->chart());
    ASSERT_EQ(bars.size(), 1u);
    emit bars[0]->hovered(true, 2, bars[0]->barSets()[0]);
    const QString expected = ui::ChartHover::barText(a->scaling(), 0, 2, ui::Whisker::MinMax);
    ASSERT_EQ(page.hoverText(), expected);
    // The mouse rests: Qt sends the view a tooltip event, which the scene answered by hiding
    // every tooltip (no chart item has one of its own).
    QWidget* viewport = page.view()->viewport();
    const QPoint at = viewport->rect().center();
    QHelpEvent rest(QEvent::ToolTip, at, viewport->mapToGlobal(at));
    QCoreApplication::sendEvent(viewport, &rest);
    // Qt hides a tooltip after a short delay: it must still be up a second later.
    EXPECT_FALSE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 1000))
        << "the hover text vanished while the mouse rested on the bar";
    EXPECT_EQ(QToolTip::text(), expected);
    // Leaving the bar ends it.
    emit bars[0]->hovered(false, 2, bars[0]->barSets()[0]);
    EXPECT_TRUE(page.hoverText().isEmpty());
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000));
    // A legend entry names its reference in full.
    for (QLegendMarker* m : page.view()->chart()->legend()->markers())
        if (m->label().startsWith(QStringLiteral("DLPerf NGC MXNet 20.03 (FP32"))) {
            emit m->hovered(true);
            EXPECT_TRUE(page.hoverText().startsWith(
                QStringLiteral("DLPerf NGC MXNet 20.03, FP32, batch 128 per GPU\nHardware: ")))
                << page.hoverText().toStdString();
            emit m->hovered(false);
        }
    EXPECT_TRUE(page.hoverText().isEmpty());
    // The whisker choice rebuilds the chart with the interval and says so.
    page.whiskerBox()->setCurrentIndex(1);
    EXPECT_EQ(page.whisker(), ui::Whisker::Ci95);
    auto whiskers = seriesOf<QLineSeries>(page.view()->chart());
    ASSERT_FALSE(whiskers.empty());
    EXPECT_EQ(whiskers[0]->name(), QStringLiteral("95 % CI of median"));
}

TEST(ChartPage, PointHoverNamesTheNearestMeasuredTopology) {
    Campaign128 c;
    auto a = std::make_shared<ui::Analysis>(analysisOf(c.dir.path()));
    ui::SpeedupPage page;
    page.setAnalysis(a);
    QLineSeries* measured = nullptr;
    for (auto* s : seriesOf<QLineSeries>(page.view()->chart()))
        if (s->property(ui::SpeedupChart::kCurveProperty).toInt() == ui::SpeedupChart::kMeasured)
            measured = s;
    ASSERT_NE(measured, nullptr);
    // The mouse on the line a little left of 8 GPUs (x = 3): the 1n8g point is named.
    emit measured->hovered(QPointF(2.9, 7.4), true);
    EXPECT_EQ(page.hoverText(),
              ui::ChartHover::pointText(a->scaling(), ui::SpeedupChart::kMeasured, 8, false));
    EXPECT_TRUE(page.hoverText().startsWith(QStringLiteral("1n8g — 8 GPUs")));
    emit measured->hovered(QPointF(2.9, 7.4), false);
    EXPECT_TRUE(page.hoverText().isEmpty());
}

TEST(TraceChart, ShadesWarmupAndWindowAndBandsTheRanks) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    const std::size_t run = a.logs.size() - 1; // a 1n8g run
    const IterationTrace trace = traceRunLog(*a.logs[run]);
    ASSERT_EQ(trace.ranks, 8);
    std::unique_ptr<QChart> chart(
        ui::TraceChart::build(trace, MeasureOptions{20, 120}, QStringLiteral("run")));
    auto areas = seriesOf<QAreaSeries>(chart.get());
    ASSERT_EQ(areas.size(), 3u); // warmup, window, rank band
    EXPECT_DOUBLE_EQ(areas[0]->upperSeries()->at(1).x(), 19.5);
    EXPECT_DOUBLE_EQ(areas[1]->upperSeries()->at(0).x(), 19.5);
    EXPECT_DOUBLE_EQ(areas[1]->upperSeries()->at(1).x(), 119.5);
    EXPECT_EQ(areas[2]->upperSeries()->count(), 120);
    // Rank r reports rate + r * 0.01: the band is 0.07 wide.
    EXPECT_NEAR(areas[2]->upperSeries()->at(50).y() - areas[2]->lowerSeries()->at(50).y(), 0.07,
                1e-6);
    auto lines = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0]->count(), 120);
    // A steady run has no slow iterations to mark.
    EXPECT_TRUE(seriesOf<QScatterSeries>(chart.get()).empty());
}

// A slow CPU run spans a few images/s: its axis labels must tell the ticks apart.
TEST(TraceChart, ANarrowRangeLabelsEveryTickDifferently) {
    IterationTrace trace;
    trace.ranks = 1;
    for (int k = 0; k < 30; ++k) {
        const double v = 3.6 + 0.05 * (k % 25);
        trace.median.push_back(v);
        trace.min.push_back(v);
        trace.max.push_back(v);
    }
    std::unique_ptr<QChart> chart(
        ui::TraceChart::build(trace, MeasureOptions{5, 30}, QStringLiteral("run")));
    QValueAxis* axisY = nullptr;
    for (auto* axis : chart->axes(Qt::Vertical))
        if (auto* v = qobject_cast<QValueAxis*>(axis); v && !axisY) axisY = v;
    ASSERT_NE(axisY, nullptr);
    QStringList labels;
    const double step = (axisY->max() - axisY->min()) / (axisY->tickCount() - 1);
    for (int i = 0; i < axisY->tickCount(); ++i)
        labels << QString::asprintf(axisY->labelFormat().toLatin1().constData(),
                                    axisY->min() + i * step);
    EXPECT_EQ(labels.removeDuplicates(), 0) << labels.join(QLatin1Char(' ')).toStdString();
}

TEST(TraceChart, MarksTheIterationsThatCostTheRunItsFigure) {
    IterationTrace trace;
    trace.ranks = 1;
    for (int k = 0; k < 60; ++k) {
        const double v = (k == 33 || k == 47) ? 60.0 : 100.0; // two stalls in the window
        trace.median.push_back(k == 3 ? 20.0 : v);            // and one in the warmup
        trace.min.push_back(trace.median.back());
        trace.max.push_back(trace.median.back());
    }
    std::unique_ptr<QChart> chart(
        ui::TraceChart::build(trace, MeasureOptions{10, 60}, QStringLiteral("run")));
    auto marks = seriesOf<QScatterSeries>(chart.get());
    ASSERT_EQ(marks.size(), 1u);
    ASSERT_EQ(marks[0]->count(), 2);
    EXPECT_EQ(marks[0]->at(0), QPointF(33, 60.0));
    EXPECT_EQ(marks[0]->at(1), QPointF(47, 60.0));
    EXPECT_TRUE(marks[0]->name().startsWith(QStringLiteral("2 slow iterations")))
        << marks[0]->name().toStdString();
}

TEST(ChartExport, PngAtTwiceTheScaleIsTwiceThePixelsAndNotBlank) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    QTemporaryDir out;
    const QString path = out.filePath(QStringLiteral("t.png"));
    QString error;
    ASSERT_TRUE(ui::ChartExport::writePng(ui::ThroughputChart::build(a.scaling()), QSize(640, 400),
                                          2.0, path, &error))
        << error.toStdString();
    const QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1280, 800));
    EXPECT_GT(distinctColours(image), 20);
    // Crisp at 2x: drawn at that resolution, so it has detail a 1x upscale would not.
    const QImage one =
        ui::ChartExport::renderImage(ui::ThroughputChart::build(a.scaling()), QSize(640, 400), 1.0);
    EXPECT_NE(image, one.scaled(1280, 800));
    // The measured colour is there (the bars were drawn, not just axes).
    bool blue = false;
    for (int y = 0; y < image.height() && !blue; y += 3)
        for (int x = 0; x < image.width() && !blue; x += 3)
            blue = image.pixelColor(x, y) == ui::ChartStyle::measured();
    EXPECT_TRUE(blue);
}

TEST(ChartExport, SvgHoldsTitleAxesAndLegend) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    QTemporaryDir out;
    const QString path = out.filePath(QStringLiteral("s.svg"));
    QString error;
    ASSERT_TRUE(ui::ChartExport::writeSvg(ui::SpeedupChart::build(a.scaling(), false),
                                          QSize(800, 500), path, &error));
    const std::string svg = readWhole(path.toStdString());
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("Speedup over 1 GPU — r50 fp32, batch 128"), std::string::npos);
    EXPECT_NE(svg.find(">GPUs (log"), std::string::npos);
    EXPECT_NE(svg.find("Ideal (linear)"), std::string::npos);
    EXPECT_NE(svg.find("DLPerf NGC MXNet 20.03"), std::string::npos);
}

TEST(ChartExport, ThroughputExportDrawsThePagesWhisker) {
    Campaign128 c;
    ui::ExportController exporter;
    exporter.setAnalysis(std::make_shared<ui::Analysis>(analysisOf(c.dir.path())));
    exporter.setWhisker(ui::Whisker::Ci95);
    QTemporaryDir out;
    const QString path = out.filePath(QStringLiteral("w.svg"));
    QString error;
    ASSERT_TRUE(exporter.exportChart(ui::ChartKind::Throughput, path, QSize(800, 500), 1.0, &error))
        << error.toStdString();
    const std::string svg = readWhole(path.toStdString());
    EXPECT_NE(svg.find("95 % CI of median"), std::string::npos);
    EXPECT_EQ(svg.find("Min–max of repeats"), std::string::npos);
}

TEST(ChartExport, ParsesSizes) {
    EXPECT_EQ(ui::ChartExport::parseSize(QStringLiteral("1200x800")), QSize(1200, 800));
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("1200")).isValid());
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("0x0")).isValid());
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("99999x800")).isValid());
}

// Issue 37 item 9: the Throughput chart's axis was linear whatever the spread, so one GPU's bar
// beside 32 GPUs' was a sliver. Past a decade the axis is logarithmic (its title says so) and
// reaches below the smallest bar; within a decade it stays linear from 0.
TEST(ThroughputChart, TheAxisIsLogarithmicWhereTheBarsSpanMoreThanADecade) {
    ui::ScalingData d;
    for (auto [nodes, gpus, median] :
         {std::tuple{1, 1, 380.0}, std::tuple{1, 8, 2900.0}, std::tuple{4, 8, 11200.0}}) {
        ui::ScalingPoint p;
        p.topology = {nodes, gpus};
        p.gpus = nodes * gpus;
        p.median = p.min = p.max = median;
        p.repeats = 1;
        d.points.push_back(p);
    }
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(d));
    QLogValueAxis* log = nullptr;
    for (auto* axis : chart->axes(Qt::Vertical))
        if (auto* l = qobject_cast<QLogValueAxis*>(axis)) log = l;
    ASSERT_NE(log, nullptr) << "380 to 11200 images/s: a linear axis makes 1n1g a sliver";
    EXPECT_EQ(log->titleText(), QStringLiteral("Throughput (images/s, log scale)"));
    EXPECT_LE(log->min(), 380.0 / 1.2);
    EXPECT_GE(log->max(), 11200.0);
    // Under two decades: base 2, so every doubling has a labelled line (base 10 labelled only
    // 100 and 1000 below bars up to 11200); the axis starts at the power of 2 below the smallest.
    EXPECT_EQ(log->base(), 2.0);
    EXPECT_EQ(log->min(), 256.0);
    EXPECT_LE(log->max(), 11200.0 * 1.5);
    {
        // Over two decades: base 10, from the decade below the smallest bar.
        ui::ScalingData wide = d;
        wide.points.front().median = wide.points.front().min = wide.points.front().max = 38.0;
        std::unique_ptr<QChart> c(ui::ThroughputChart::build(wide));
        QLogValueAxis* l = nullptr;
        for (auto* axis : c->axes(Qt::Vertical))
            if (auto* a = qobject_cast<QLogValueAxis*>(axis)) l = a;
        ASSERT_NE(l, nullptr);
        EXPECT_EQ(l->base(), 10.0);
        EXPECT_EQ(l->min(), 10.0);
    }

    d.points.pop_back(); // 380 to 2900: under a decade, linear from 0
    chart.reset(ui::ThroughputChart::build(d));
    QValueAxis* linear = nullptr;
    for (auto* axis : chart->axes(Qt::Vertical))
        if (auto* v = qobject_cast<QValueAxis*>(axis); v && v->isVisible()) linear = v;
    ASSERT_NE(linear, nullptr);
    EXPECT_EQ(linear->min(), 0.0);
    EXPECT_EQ(linear->titleText(), QStringLiteral("Throughput (images/s)"));
    EXPECT_FALSE(ui::ThroughputChart::logScale(380, 2900));
    EXPECT_TRUE(ui::ThroughputChart::logScale(380, 11200));
    EXPECT_FALSE(ui::ThroughputChart::logScale(0, 11200)); // nothing drawn above 0
}

// Issue 37's polish: a case without 1n1g drew the ideal line alone, a stub with nothing against
// it. No baseline, no ideal; with one, the ideal is there.
TEST(SpeedupChart, NoIdealLineWithoutABaseline) {
    ui::ScalingData d;
    for (int gpus : {2, 4}) {
        ui::ScalingPoint p;
        p.topology = {1, gpus};
        p.gpus = gpus;
        p.median = 100.0 * gpus;
        p.repeats = 1;
        d.points.push_back(p);
    }
    const auto hasIdeal = [](QChart* chart) {
        for (auto* s : chart->series())
            if (s->property(ui::SpeedupChart::kCurveProperty).toInt() == ui::SpeedupChart::kIdeal)
                return true;
        return false;
    };
    ASSERT_FALSE(d.hasSpeedup());
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(d, false));
    EXPECT_FALSE(hasIdeal(chart.get()));
    d.points[0].speedup = 1.0;
    d.points[1].speedup = 1.9;
    chart.reset(ui::SpeedupChart::build(d, false));
    EXPECT_TRUE(hasIdeal(chart.get()));
}

// Issue 37's polish, again: the one case of a folder with no 1n1g (its 2n8g run) beside a
// published reference drew a stub of the ideal line from 1 GPU to the lone reference marker, an
// empty "Measured speedup" in the legend, an axis out to the predicted 64 and 128 GPUs that were
// not drawn, and "predicted: link ..." above them. Without a baseline none of that is drawn, and
// the note says why.
TEST(SpeedupChart, WithoutABaselineNothingIsDrawnAgainstTheIdealAndTheNoteSaysWhy) {
    ui::ScalingData d;
    for (int gpus : {8, 16}) {
        ui::ScalingPoint p;
        p.topology = {gpus / 8, 8};
        p.gpus = gpus;
        p.median = 380.0 * gpus;
        p.repeats = 3;
        d.points.push_back(p);
    }
    ui::ReferenceCurve ref;
    ref.id = "t";
    ref.label = "A published table";
    ref.baseline = 400.0;
    ref.throughput = {{"1n8g", 3000.0}, {"2n8g", 5800.0}};
    d.references.push_back(ref);
    d.predicted.push_back({{4, 8}, 32, 11000.0, 10000.0, 12000.0, "ring"});
    d.predictionNote = "predicted: link 9.3 Gbit/s implied by the 2 multi-node cases";
    ASSERT_FALSE(d.hasSpeedup());
    for (const bool efficiency : {false, true}) {
        std::unique_ptr<QChart> chart(ui::SpeedupChart::build(d, efficiency));
        QStringList names;
        for (auto* s : chart->series()) {
            names << s->name();
            const int curve = s->property(ui::SpeedupChart::kCurveProperty).toInt();
            EXPECT_NE(curve, ui::SpeedupChart::kIdeal) << efficiency;
            EXPECT_NE(curve, ui::SpeedupChart::kMeasured) << efficiency;
            EXPECT_NE(curve, ui::SpeedupChart::kPredicted) << efficiency;
        }
        names.removeDuplicates(); // the reference's dashes and its markers
        EXPECT_EQ(names, QStringList{QStringLiteral("A published table")}) << efficiency;
        auto* x = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
        ASSERT_NE(x, nullptr);
        EXPECT_EQ(x->categoriesLabels(), (QStringList{QStringLiteral("8"), QStringLiteral("16")}));
        const QString note = ui::ChartStyle::note(chart.get());
        EXPECT_TRUE(note.startsWith(QStringLiteral("no measured figure on 1 GPU (1n1g) to divide "
                                                   "by: no measured speedup, no ideal line and "
                                                   "no prediction")))
            << note.toStdString();
        EXPECT_TRUE(note.contains(QStringLiteral("its own 1-GPU figure"))) << note.toStdString();
        EXPECT_FALSE(note.contains(QStringLiteral("predicted: link"))) << note.toStdString();
    }
}

// Issue 37's polish: with every run left out the throughput chart was an empty plot with an axis
// of 0 to 1 and nothing to say why. It says so (and its labels differ: the test below).
TEST(ThroughputChart, EveryRunLeftOutIsSaid) {
    ui::ScalingData d;
    ui::ScalingPoint p;
    p.topology = {2, 8};
    p.gpus = 16;
    d.points.push_back(p); // no median: its one run incomplete
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(d));
    EXPECT_EQ(ui::ChartStyle::note(chart.get()),
              QStringLiteral("no measured figure: every run of this case is left out (the Runs "
                             "page says why)"));
    d.points[0].median = 5700.0;
    d.points[0].repeats = 1;
    chart.reset(ui::ThroughputChart::build(d));
    EXPECT_TRUE(ui::ChartStyle::note(chart.get()).isEmpty())
        << ui::ChartStyle::note(chart.get()).toStdString();
}

// Issue 37's polish: at 1024×700 the Speedup page's note ("no prediction: only 1 multi-device
// case: a prediction needs two or more (…") and the loss chart's "⚠ not reliable (1n2g: parts
// exceed th…" were cut with "…". A title or note wider than the chart goes in lines at spaces,
// back to one line where it fits; plainTitle() and note() keep the whole text throughout.
TEST(ChartStyle, ATitleAndNoteWiderThanTheChartWrapInsteadOfBeingCut) {
    const QString title = QStringLiteral("Where the scaling goes — r50 fp32, batch 8 — ⚠ not "
                                         "reliable (1n2g: parts exceed the loss, runs disturbed)");
    const QString note = QStringLiteral("no prediction: only 1 multi-device case: a prediction "
                                        "needs two or more (a single node at several devices "
                                        "and a multi-node case, or more node counts)");
    auto* chart = new QChart;
    ui::ChartStyle::apply(chart, title);
    ui::ChartStyle::addNote(chart, note);
    QGraphicsScene scene;
    scene.addItem(chart);
    chart->resize(2400, 400); // both fit in one line each
    const QString wide = chart->title();
    EXPECT_EQ(wide.count(QStringLiteral("<br>")), 1) << wide.toStdString(); // the note's line
    chart->resize(600, 400);
    const QString narrow = chart->title();
    EXPECT_GE(narrow.count(QStringLiteral("<br>")), 3) << narrow.toStdString();
    // Every word is there, none cut: the lines joined again are the whole title and note.
    QTextDocument shown;
    shown.setHtml(narrow);
    const QString text = shown.toPlainText()
                             .replace(QLatin1Char('\n'), QLatin1Char(' '))
                             .replace(QChar(0x2029), QLatin1Char(' '))
                             .replace(QChar(0x2028), QLatin1Char(' '));
    EXPECT_EQ(text, title + QLatin1Char(' ') + note) << text.toStdString();
    // Each line fits the chart: the title's in its font, the note's (from "no prediction") in
    // the note's 9 pt.
    const QFontMetricsF titleMetrics(chart->titleFont());
    QFont noteFont = chart->titleFont();
    noteFont.setPointSizeF(9);
    noteFont.setBold(false);
    const QFontMetricsF noteMetrics(noteFont);
    bool inNote = false;
    int titleLines = 0;
    for (const QString& line :
         shown.toPlainText().split(QRegularExpression(QStringLiteral("[\\n\\x{2028}\\x{2029}]")))) {
        inNote = inNote || line.startsWith(QStringLiteral("no prediction"));
        titleLines += inNote ? 0 : 1;
        EXPECT_LE((inNote ? noteMetrics : titleMetrics).horizontalAdvance(line), 600.0)
            << line.toStdString();
    }
    EXPECT_GE(titleLines, 2);
    EXPECT_EQ(ui::ChartStyle::plainTitle(chart), title);
    EXPECT_EQ(ui::ChartStyle::note(chart), note);
    chart->resize(2400, 400);
    EXPECT_EQ(chart->title(), wide);
    // A title set since by someone else (an export's provenance line) is theirs: left as set.
    chart->setTitle(QStringLiteral("NOT VERIFIED\n") + chart->title());
    const QString marked = chart->title();
    chart->resize(600, 400);
    EXPECT_EQ(chart->title(), marked);
}

namespace {

// Every text the legend draws, each as laid out in the scene.
void legendTextItems(QGraphicsItem* item, std::vector<QGraphicsTextItem*>* out) {
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) out->push_back(text);
    for (auto* child : item->childItems())
        legendTextItems(child, out);
}

} // namespace

// Issue 37's polish: at 1024×700 the Speedup page's legend, moved to the right, drew "Predicted
// (ring model, backtest median |error|" past the chart's right edge. A label in lines fits inside
// the chart at every width.
TEST(ChartStyle, ALegendLabelInLinesStaysInsideTheChart) {
    ui::ScalingData d;
    for (int gpus : {1, 2, 4, 8, 16, 32}) {
        ui::ScalingPoint p;
        p.topology = {std::max(1, gpus / 8), std::min(gpus, 8)};
        p.gpus = gpus;
        p.median = 380.0 * gpus;
        p.speedup = 0.97 * gpus;
        p.repeats = 3;
        d.points.push_back(p);
    }
    d.predicted.push_back({{8, 8}, 64, 22000.0, 20000.0, 24000.0, "ring"});
    d.predictedLabel = "Predicted (ring model, backtest median |error| 3.4 %)";
    ui::ReferenceCurve ref;
    ref.id = "t";
    ref.label = "DLPerf NGC MXNet 20.03 (FP32, bs 128)";
    ref.baseline = 400.0;
    ref.throughput = {{"1n1g", 400.0}, {"1n8g", 3000.0}};
    d.references.push_back(ref);
    for (int width = 560; width <= 1000; width += 20) {
        QChart* chart = ui::SpeedupChart::build(d, false);
        QChartView view(chart);
        view.resize(width, 260);
        view.show();
        QCoreApplication::processEvents();
        if (chart->legend()->alignment() != Qt::AlignRight) continue;
        const qreal right = chart->mapToScene(QPointF(chart->size().width(), 0)).x();
        std::vector<QGraphicsTextItem*> texts;
        legendTextItems(chart->legend(), &texts);
        for (QGraphicsTextItem* t : texts) {
            if (!t->isVisible() || t->toPlainText().isEmpty()) continue;
            const qreal drawn = t->mapToScene(QPointF(t->document()->idealWidth(), 0)).x();
            EXPECT_LE(drawn, right) << width << ": " << t->toPlainText().toStdString();
        }
    }
}

// A value axis's labels have the decimals its ticks need to differ: a throughput of a few
// samples/s (the CPU workload), or every run excluded (a range of 0 to 1), printed "%.0f" gave
// 0, 0, 0, 1, 1, 1.
TEST(ChartStyle, ValueAxisLabelsAreDistinctAtEveryScale) {
    for (const double top : {1.0, 2.8, 0.05, 384.0, 11500.0}) {
        QValueAxis axis;
        axis.setRange(0, top);
        axis.applyNiceNumbers();
        ui::ChartStyle::distinctLabels(&axis);
        QStringList labels;
        const int ticks = axis.tickCount();
        for (int i = 0; i < ticks; ++i) {
            const double v = axis.min() + (axis.max() - axis.min()) * i / (ticks - 1);
            labels << QString::asprintf(axis.labelFormat().toLatin1().constData(), v);
        }
        EXPECT_EQ(labels.removeDuplicates(), 0)
            << top << ": " << labels.join(QStringLiteral(", ")).toStdString() << " ("
            << axis.labelFormat().toStdString() << ")";
        if (top >= 384.0) {
            EXPECT_EQ(axis.labelFormat(), QStringLiteral("%.0f"));
        }
    }
}
