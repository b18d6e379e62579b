// The chart builders draw what the statistics say, and the exports write real images.

#include "snapshotfixture.h"
#include "uifixture.h"

#include "chartexport.h"
#include "chartstyle.h"
#include "speedupchart.h"
#include "throughputchart.h"
#include "tracechart.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>

#include <gtest/gtest.h>

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
    // One whisker per topology, spanning min..max of the repeats.
    auto whiskers = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(whiskers.size(), 4u);
    double lo = 1e9, hi = 0;
    for (const auto& p : whiskers[0]->points())
        lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
    EXPECT_DOUBLE_EQ(lo, *cases[0]->min);
    EXPECT_DOUBLE_EQ(hi, *cases[0]->max);
    EXPECT_LT(lo, hi);
}

TEST(SpeedupChart, MeasuredReferenceAndDashedIdeal) {
    Campaign128 c;
    const ui::Analysis a = analysisOf(c.dir.path());
    ASSERT_EQ(a.references,
              std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128"}); // matched by default
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a.scaling(), false));
    auto lines = seriesOf<QLineSeries>(chart.get());
    ASSERT_EQ(lines.size(), 3u); // ideal, reference, measured
    EXPECT_EQ(lines[0]->pen().style(), Qt::DashLine);
    EXPECT_EQ(lines[0]->points().back(), QPointF(8, 8));
    const auto cases = a.groupCases();
    ASSERT_EQ(lines[2]->count(), 4);
    for (int i = 0; i < 4; ++i) {
        EXPECT_DOUBLE_EQ(lines[2]->at(i).x(), cases[static_cast<std::size_t>(i)]->gpus());
        EXPECT_DOUBLE_EQ(lines[2]->at(i).y(), *cases[static_cast<std::size_t>(i)]->speedup);
    }
    EXPECT_NEAR(lines[1]->at(3).y(), 3006.98 / 392.24, 1e-9);

    std::unique_ptr<QChart> eff(ui::SpeedupChart::build(a.scaling(), true));
    auto effLines = seriesOf<QLineSeries>(eff.get());
    ASSERT_EQ(effLines.size(), 3u);
    EXPECT_DOUBLE_EQ(effLines[0]->at(0).y(), 100.0);
    EXPECT_NEAR(effLines[2]->at(3).y(), 100.0 * *cases[3]->efficiency, 1e-9);
    EXPECT_LT(effLines[2]->at(3).y(), 100.0);
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
    const std::string svg = slurpFile(path.toStdString());
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("Speedup — r50 fp32, batch 128"), std::string::npos);
    EXPECT_NE(svg.find(">GPUs<"), std::string::npos);
    EXPECT_NE(svg.find("Ideal (linear)"), std::string::npos);
    EXPECT_NE(svg.find("DLPerf NGC MXNet 20.03"), std::string::npos);
}

TEST(ChartExport, ParsesSizes) {
    EXPECT_EQ(ui::ChartExport::parseSize(QStringLiteral("1200x800")), QSize(1200, 800));
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("1200")).isValid());
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("0x0")).isValid());
    EXPECT_FALSE(ui::ChartExport::parseSize(QStringLiteral("99999x800")).isValid());
}
