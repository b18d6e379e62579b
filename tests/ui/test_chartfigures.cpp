// Issue 38 in the app: the Throughput chart's toggle to percent of the hardware's peak (the axis,
// the series, what is left out and why, the export following it), and the Speedup chart's next
// topologies predicted (their x, their intervals, the refusal shown, the probes' link speed).

#include "tests/ui/snapshotfixture.h"
#include "tests/ui/uifixture.h"

#include "core/model/numerics.h"
#include "core/reference/devicecatalog.h"
#include "core/stats/predictionbacktest.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/speeduppage.h"
#include "ui/charts/chartexport.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/export/exportcontroller.h"

#include <QAbstractAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QLineSeries>
#include <QScatterSeries>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <regex>

#include <cmath>

using namespace sv;
using namespace sv::test;

namespace {

constexpr double kV100Fp32 = 15.7e12;        // NVIDIA's V100 SXM2 datasheet, FP32 dense
constexpr double kGradient = 25557032.0 * 4; // ResNet-50's FP32 gradient, bytes

ui::AnalysisPtr analysisOf(const std::filesystem::path& root) {
    return std::make_shared<const ui::Analysis>(
        ui::analyze(readSnapshot(root), ui::AnalysisOptions{}));
}

template <typename T> std::vector<T*> seriesOf(QChart* chart) {
    std::vector<T*> out;
    for (auto* s : chart->series())
        if (auto* t = qobject_cast<T*>(s)) out.push_back(t);
    return out;
}

QString yTitle(QChart* chart) {
    return chart->axes(Qt::Vertical).front()->titleText();
}

// Batch 128 FP32 on one node (the bundled NGC MXNet table matches it), its device as given.
struct Campaign {
    TempDir dir;
    CampaignSpec spec;
    explicit Campaign(const std::string& device,
                      std::vector<std::pair<int, int>> topologies = {{1, 1}, {1, 2}, {1, 4}}) {
        spec.batch = 128;
        spec.topologies = std::move(topologies);
        writeCampaign(dir.path(), spec);
        if (!device.empty())
            writeFile(dir.path() / "scaleview.json", nlohmann::json{{"device", device}}.dump());
    }
};

double r50Flops() {
    return DeviceCatalog::builtin().findModel("r50")->flopsPerSample;
}

// The predicted points of a speedup chart (their series carries kPredicted), and the intervals.
std::vector<QScatterSeries*> predictedMarks(QChart* chart) {
    std::vector<QScatterSeries*> out;
    for (auto* s : seriesOf<QScatterSeries>(chart))
        if (s->property(ui::SpeedupChart::kCurveProperty).toInt() == ui::SpeedupChart::kPredicted)
            out.push_back(s);
    return out;
}
std::vector<QLineSeries*> predictedIntervals(QChart* chart) {
    std::vector<QLineSeries*> out;
    for (auto* s : seriesOf<QLineSeries>(chart))
        if (s->property(ui::SpeedupChart::kCurveProperty).toInt() ==
            ui::SpeedupChart::kPredictedInterval)
            out.push_back(s);
    return out;
}

} // namespace

TEST(ChartFigures, ToggleSetsTheAxisAndTheSeriesToPercentOfPeak) {
    Campaign c("Tesla V100-SXM2-16GB");
    const auto a = analysisOf(c.dir.path());
    ASSERT_EQ(a->references, std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128"});
    ui::ChartPage page(ui::ChartKind::Throughput);
    page.setAnalysis(a);
    QChart* chart = page.view()->chart();
    EXPECT_EQ(yTitle(chart), QStringLiteral("Throughput (images/s)"));
    const auto cases = a->groupCases();
    ASSERT_EQ(cases.size(), 3u);
    EXPECT_DOUBLE_EQ(seriesOf<QBarSeries>(chart)[0]->barSets()[0]->at(0), *cases[0]->median);

    ASSERT_NE(page.scaleBox(), nullptr);
    page.scaleBox()->setCurrentIndex(1); // as the user picks it
    EXPECT_EQ(page.scale(), ui::ThroughputScale::PeakPercent);
    chart = page.view()->chart();
    EXPECT_EQ(yTitle(chart), QStringLiteral("% of V100-SXM2-16GB FP32 peak (dense)"));
    EXPECT_TRUE(ui::ChartStyle::plainTitle(chart).startsWith(QStringLiteral("Percent of peak")));
    EXPECT_TRUE(ui::ChartStyle::note(chart).isEmpty()) << ui::ChartStyle::note(chart).toStdString();
    const auto bars = seriesOf<QBarSeries>(chart)[0]->barSets();
    ASSERT_EQ(bars.size(), 2); // measured, the published table
    for (int i = 0; i < 3; ++i) {
        const CaseStats& k = *cases[static_cast<std::size_t>(i)];
        // By hand: images/s x FLOPs per image over the devices' FP32 peak.
        const double pct = 100.0 * *k.median * r50Flops() / (k.gpus() * kV100Fp32);
        EXPECT_NEAR(bars[0]->at(i), pct, 1e-9) << i;
        EXPECT_GT(bars[0]->at(i), 0.0);
    }
    // The published 1n1g figure, 392.24 images/s, on the same scale: about 61.3 %.
    EXPECT_NEAR(bars[1]->at(0), 100.0 * 392.24 * r50Flops() / kV100Fp32, 1e-9);
    EXPECT_NEAR(bars[1]->at(0), 61.3, 0.05);
    // The whiskers follow: the 1n1g repeats' min–max, scaled as the median is.
    const auto whiskers = seriesOf<QLineSeries>(chart);
    ASSERT_FALSE(whiskers.empty());
    double hi = 0;
    for (const auto& p : whiskers[0]->points())
        hi = std::max(hi, p.y());
    EXPECT_NEAR(hi, *cases[0]->max * bars[0]->at(0) / *cases[0]->median, 1e-9);

    // The export follows the toggle (the window forwards it), and back again.
    ui::ExportController exporter;
    exporter.setAnalysis(a);
    exporter.setScale(ui::ThroughputScale::PeakPercent);
    const QString svg = QString::fromStdString((c.dir.path() / "peak.svg").string());
    QString error;
    ASSERT_TRUE(exporter.exportChart(ui::ChartKind::Throughput, svg, QSize(900, 600), 1.0, &error))
        << error.toStdString();
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    EXPECT_TRUE(text.contains("V100-SXM2-16GB FP32 peak (dense)"));
    EXPECT_FALSE(text.contains("Throughput (images/s)"));
    std::unique_ptr<QChart> exported(ui::ExportController::buildChart(
        *a, ui::ChartKind::Throughput, -1, ui::Whisker::MinMax, ui::ThroughputScale::PeakPercent));
    EXPECT_EQ(yTitle(exported.get()), yTitle(chart));
    page.setScale(ui::ThroughputScale::Throughput);
    EXPECT_EQ(yTitle(page.view()->chart()), QStringLiteral("Throughput (images/s)"));
}

TEST(ChartFigures, UnknownPeakLeavesThePointOutAndSaysWhy) {
    Campaign c("Acme X1");
    const auto a = analysisOf(c.dir.path());
    std::unique_ptr<QChart> chart(ui::ThroughputChart::build(a->scaling(), ui::Whisker::MinMax,
                                                             ui::ThroughputScale::PeakPercent));
    const auto bars = seriesOf<QBarSeries>(chart.get())[0]->barSets();
    for (int i = 0; i < bars[0]->count(); ++i)
        EXPECT_EQ(bars[0]->at(i), 0.0) << "a point without a peak is never drawn";
    // No whisker of a point left out: only the published table's (its seven repeats' min–max).
    EXPECT_EQ(seriesOf<QLineSeries>(chart.get()).size(), a->scaling().references[0].spread.size());
    EXPECT_EQ(seriesOf<QLineSeries>(chart.get()).size(), 3u);
    const QString note = ui::ChartStyle::note(chart.get());
    EXPECT_NE(note.indexOf(QStringLiteral("Left out, peak unknown at 1n1g, 1n2g, 1n4g: device "
                                          "'Acme X1' is not in the catalogue")),
              -1)
        << note.toStdString();
    // The published table's device (its hardware names the V100) still has its figure.
    EXPECT_GT(bars[1]->at(0), 60.0);
    EXPECT_EQ(note.indexOf(QStringLiteral("DLPerf")), -1) << note.toStdString();
    EXPECT_EQ(yTitle(chart.get()),
              QStringLiteral("% of each device's dense peak (the cases' not known)"));

    // No device at all: the note says how to give it.
    Campaign none("");
    std::unique_ptr<QChart> bare(ui::ThroughputChart::build(analysisOf(none.dir.path())->scaling(),
                                                            ui::Whisker::MinMax,
                                                            ui::ThroughputScale::PeakPercent));
    EXPECT_NE(ui::ChartStyle::note(bare.get())
                  .indexOf(QStringLiteral(
                      "the device is not known (set \"device\" in scaleview.json or --device)")),
              -1)
        << ui::ChartStyle::note(bare.get()).toStdString();
}

TEST(ChartFigures, SpeedupChartDrawsTheNextTwoDoublingsWithTheirIntervals) {
    Campaign c("", {{1, 1}, {1, 2}, {2, 2}, {4, 2}});
    const auto a = analysisOf(c.dir.path());
    ASSERT_TRUE(a->prediction.refused.empty()) << a->prediction.refused;
    const ui::ScalingData d = a->scaling();
    ASSERT_EQ(d.predicted.size(), 2u);
    EXPECT_EQ(d.predicted[0].topology.name(), "8n2g");
    EXPECT_EQ(d.predicted[1].topology.name(), "16n2g");
    EXPECT_NE(d.predictedLabel.find("backtest median |error| " +
                                    formatFixed(builtinBacktest().medianAbsPct, 1) + " %"),
              std::string::npos)
        << d.predictedLabel;
    EXPECT_NE(d.predictionNote.find("implied by the 2 multi-node cases"), std::string::npos)
        << d.predictionNote;

    ui::SpeedupPage page;
    page.setAnalysis(a);
    QChart* chart = page.view()->chart();
    const auto marks = predictedMarks(chart);
    ASSERT_EQ(marks.size(), 1u);
    ASSERT_EQ(marks[0]->count(), 2);
    const double base = *a->groupCases().front()->median; // 1n1g
    const auto intervals = predictedIntervals(chart);
    ASSERT_EQ(intervals.size(), 2u);
    for (int i = 0; i < 2; ++i) {
        const auto& p = d.predicted[static_cast<std::size_t>(i)];
        EXPECT_DOUBLE_EQ(marks[0]->at(i).x(), std::log2(p.gpus)); // 16 and 32 GPUs
        EXPECT_NEAR(marks[0]->at(i).y(), p.throughput / base, 1e-9);
        double lo = 1e300, hi = 0;
        for (const auto& q : intervals[static_cast<std::size_t>(i)]->points())
            lo = std::min(lo, q.y()), hi = std::max(hi, q.y());
        EXPECT_NEAR(lo, p.low / base, 1e-9);
        EXPECT_NEAR(hi, p.high / base, 1e-9);
        EXPECT_LT(lo, marks[0]->at(i).y());
        EXPECT_GT(hi, marks[0]->at(i).y());
    }
    EXPECT_EQ(marks[0]->name(), QString::fromStdString(d.predictedLabel));
    // Hovering a predicted point gives its figure, interval and the model's terms.
    emit marks[0]->hovered(marks[0]->at(0), true);
    EXPECT_TRUE(page.hoverText().startsWith(QStringLiteral("16 (8n2g), predicted\n")))
        << page.hoverText().toStdString();
    EXPECT_TRUE(page.hoverText().contains(QStringLiteral("95 %: ")));
    EXPECT_TRUE(page.hoverText().contains(QStringLiteral("ring all-reduce")));
    emit marks[0]->hovered(marks[0]->at(0), false);
    // Dashed on from the largest measured point.
    for (auto* s : seriesOf<QLineSeries>(chart))
        if (s->property(ui::SpeedupChart::kCurveProperty).toInt() == ui::SpeedupChart::kPredicted) {
            EXPECT_EQ(s->pen().style(), Qt::DashLine);
            EXPECT_DOUBLE_EQ(s->at(0).x(), 3.0); // 4n2g: 8 GPUs
        }
    // Efficiency: the same points as percent of ideal.
    page.setEfficiency(true);
    const auto eff = predictedMarks(page.view()->chart());
    ASSERT_EQ(eff.size(), 1u);
    EXPECT_NEAR(eff[0]->at(0).y(), 100.0 * d.predicted[0].throughput / base / 16, 1e-9);
}

TEST(ChartFigures, RefusalIsShownAndNoPointIsDrawn) {
    // One multi-node case and no link speed; then one multi-device case in all.
    for (const auto& [topologies, why] :
         std::vector<std::pair<std::vector<std::pair<int, int>>, std::string>>{
             {{{1, 1}, {1, 2}, {2, 2}},
              "no prediction: the link speed is not known and one multi-node case cannot imply "
              "it"},
             {{{1, 1}, {1, 2}}, "no prediction: only 1 multi-device case"}}) {
        Campaign c("", topologies);
        const auto a = analysisOf(c.dir.path());
        std::unique_ptr<QChart> chart(ui::SpeedupChart::build(a->scaling(), false));
        EXPECT_TRUE(predictedMarks(chart.get()).empty());
        EXPECT_TRUE(predictedIntervals(chart.get()).empty());
        EXPECT_TRUE(ui::ChartStyle::note(chart.get()).startsWith(QString::fromStdString(why)))
            << ui::ChartStyle::note(chart.get()).toStdString();
        // An export carries the title and the note under it, as text.
        const std::string svg =
            ui::ChartExport::svgBytes(ui::SpeedupChart::build(a->scaling(), false), QSize(900, 600))
                .toStdString();
        EXPECT_NE(svg.find("Speedup over 1 GPU — r50 fp32, batch 128"), std::string::npos);
        EXPECT_NE(svg.find("no prediction: "), std::string::npos);
        // Its <title> is the words, never the rich text's markup ("&lt;br&gt;", a span).
        std::smatch title;
        ASSERT_TRUE(std::regex_search(svg, title, std::regex("<title>([^<]*)</title>")));
        EXPECT_EQ(
            title[1].str().rfind("Speedup over 1 GPU — r50 fp32, batch 128 no prediction: ", 0), 0u)
            << title[1];
        EXPECT_EQ(title[1].str().find("&lt;"), std::string::npos) << title[1];
    }
}

TEST(ChartFigures, TheProbesAllReduceGivesTheLinkSpeed) {
    Campaign c("", {{1, 1}, {1, 2}, {2, 2}});
    // The 2n2g all-reduce of the gradient at 9.4 Gbit/s.
    const double t = 2.0 * 3 / 4 * kGradient / (9.4e9 / 8);
    writeFile(c.dir.path() / "probes.json",
              nlohmann::json{{"probes",
                              {{{"kind", "allreduce"},
                                {"topology", "2n2g"},
                                {"bytes", kGradient},
                                {"ranks", 4},
                                {"seconds", {t, t * 1.01, t * 0.99}}}}}}
                  .dump());
    const auto a = analysisOf(c.dir.path());
    ASSERT_TRUE(a->prediction.refused.empty()) << a->prediction.refused;
    EXPECT_NEAR(a->prediction.linkBytesPerSecond * 8 / 1e9, 9.4, 1e-6);
    const ui::ScalingData d = a->scaling();
    ASSERT_EQ(d.predicted.size(), 2u);
    EXPECT_EQ(d.predicted[0].topology.name(), "4n2g");
    EXPECT_NE(d.predictionNote.find("link 9.4 Gbit/s from the probes' all-reduce"),
              std::string::npos)
        << d.predictionNote;
    std::unique_ptr<QChart> chart(ui::SpeedupChart::build(d, false));
    EXPECT_EQ(predictedMarks(chart.get()).front()->count(), 2);
    EXPECT_NE(ui::ChartStyle::note(chart.get()).indexOf(QStringLiteral("from the probes'")), -1);
}
