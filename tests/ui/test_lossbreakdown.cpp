// Issue 28 in the app: the scaling-loss breakdown under the speedup chart draws each topology's
// measured share of ideal and the parts the probes measured, with their evidence on hover; a
// negative part is not drawn upward but said; without probes every bar's loss is one hatched
// "not measured" part and the total is still exact.

#include "tests/ui/snapshotfixture.h"
#include "tests/support/process.h"
#include "tests/ui/uifixture.h"

#include "core/model/numerics.h"
#include "ui/charts/chartstyle.h"
#include "ui/browse/speeduppage.h"
#include "ui/charts/lossbreakdownchart.h"
#include "ui/charts/lossbreakdownview.h"
#include "ui/export/exportcontroller.h"
#include "ui/run/campaignform.h"
#include "ui/run/runpanel.h"

#include <QPushButton>

#include <memory>

#include <QAbstractBarSeries>
#include <QAction>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QImage>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QValueAxis>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;
using Set = ui::LossBreakdownChart::Set;

namespace {

// 1n1g, 1n2g, 1n4g, 2n2g (the UI fixture's 2 % loss per doubling).
struct LossCampaign {
    TempDir dir;
    CampaignSpec spec;
    std::filesystem::path logs; // where the logs are: the campaign's folder, or a launcher's leaf
    explicit LossCampaign(const std::string& logFolder = {}) {
        spec.topologies = {{1, 1}, {1, 2}, {1, 4}, {2, 2}};
        logs = logFolder.empty() ? dir.path() : dir.path() / logFolder;
        writeCampaign(logs, spec);
    }
    // 1n2g: its node alone at 124 per device, no all-reduce. 2n2g: n1 alone at 120, n2 at 110
    // (the slow one), a 50 ms all-reduce. 1n4g: no probe at all.
    void writeProbes() const {
        writeFile(dir.path() / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "1n2g", "node": "n1", "devices": 2, "pace_per_device": 124.0,
   "pace_samples": [123.8, 124.0, 124.2, 124.0, 124.1]},
  {"kind": "solo", "topology": "2n2g", "node": "n1", "devices": 2, "pace_per_device": 120.0,
   "pace_samples": [119.8, 120.0, 120.2, 120.0, 120.1]},
  {"kind": "solo", "topology": "2n2g", "node": "n2", "devices": 2, "pace_per_device": 110.0,
   "pace_samples": [109.8, 110.0, 110.2, 110.0, 110.1]},
  {"kind": "allreduce", "topology": "2n2g", "backend": "gloo", "bytes": 102400000, "ranks": 4,
   "seconds": [0.049, 0.050, 0.051, 0.050, 0.050]}]})");
    }
    ui::AnalysisPtr analyze() const {
        return std::make_shared<const ui::Analysis>(ui::analyze(readSnapshot(logs), {}));
    }
};

const CaseStats& caseAt(const ui::Analysis& a, const std::string& topology) {
    for (const CaseStats* c : a.groupCases())
        if (c->key.topology.name() == topology) return *c;
    throw std::runtime_error("no case " + topology);
}

QAbstractBarSeries* barsOf(QChart* chart) {
    for (auto* s : chart->series())
        if (auto* b = qobject_cast<QAbstractBarSeries*>(s)) return b;
    return nullptr;
}

double at(QAbstractBarSeries* bars, Set set, int bar) {
    return bars->barSets()[set]->at(bar);
}

double drawnSum(QAbstractBarSeries* bars, int bar) {
    double sum = 0;
    for (int s = 0; s < ui::LossBreakdownChart::kSets; ++s)
        sum += bars->barSets()[s]->at(bar);
    return sum;
}

} // namespace

TEST(LossBreakdownChart, ProbedPartsDrawnWithTheirValuesAndEvidence) {
    LossCampaign c;
    c.writeProbes();
    const ui::AnalysisPtr a = c.analyze();
    ui::SpeedupPage page;
    page.resize(1000, 700);
    page.setAnalysis(a);
    ui::LossBreakdownView* view = page.lossView();
    ASSERT_TRUE(view->isVisibleTo(&page)); // the group has multi-device cases
    const auto& d = view->breakdown();
    ASSERT_EQ(d.bars.size(), 3u);
    EXPECT_EQ(d.bars[0].topology, "1n2g");
    EXPECT_EQ(d.bars[1].topology, "1n4g");
    EXPECT_EQ(d.bars[2].topology, "2n2g");
    QAbstractBarSeries* bars = barsOf(view->view()->chart());
    ASSERT_NE(bars, nullptr);
    ASSERT_EQ(bars->count(), ui::LossBreakdownChart::kSets);

    // Hand-computed from the probes against the 1-device case's median pace t1.
    const double t1 = *caseAt(*a, "1n1g").median;
    const double eff2 = *caseAt(*a, "1n2g").efficiency, eff4 = *caseAt(*a, "2n2g").efficiency;
    // 1n2g: one node at 124 per device; communication not measured (the remainder holds it).
    EXPECT_NEAR(at(bars, Set::Measured, 0), 100.0 * eff2, 1e-9);
    const double dev2 = 100.0 * (1.0 - 124.0 / t1);
    EXPECT_NEAR(at(bars, Set::DeviceSlowdown, 0), dev2, 1e-9);
    EXPECT_EQ(at(bars, Set::SlowestNode, 0), 0.0);
    EXPECT_EQ(at(bars, Set::Communication, 0), 0.0);
    EXPECT_NEAR(at(bars, Set::Remainder, 0), 100.0 * (1.0 - eff2) - dev2, 1e-9);
    EXPECT_GT(at(bars, Set::Remainder, 0), 0.0);
    EXPECT_NEAR(drawnSum(bars, 0), 100.0, 1e-9); // measured + the loss's parts: ideal
    // 1n4g: no probe: its whole loss, exact, is one "not measured" part.
    EXPECT_NEAR(at(bars, Set::NotMeasured, 1), 100.0 * (1.0 - *caseAt(*a, "1n4g").efficiency),
                1e-9);
    EXPECT_NEAR(drawnSum(bars, 1), 100.0, 1e-9);
    // 2n2g: median node 120 (the high median of two), slowest 110, all-reduce 50 ms against
    // 64 / 110 s of compute.
    const double dev = 100.0 * (1.0 - 120.0 / t1), slow = 100.0 * 10.0 / t1;
    const double comp = 64.0 / 110.0, comm = 100.0 * (110.0 / t1) * 0.05 / (comp + 0.05);
    EXPECT_NEAR(at(bars, Set::DeviceSlowdown, 2), dev, 1e-9);
    EXPECT_NEAR(at(bars, Set::SlowestNode, 2), slow, 1e-9);
    EXPECT_NEAR(at(bars, Set::Communication, 2), comm, 1e-9);
    // The parts exceed this case's 4 % loss: the remainder is negative, not drawn, and said.
    const double rest = 100.0 * (1.0 - eff4) - dev - slow - comm;
    ASSERT_LT(rest, -5.0);
    EXPECT_EQ(at(bars, Set::Remainder, 2), 0.0);
    EXPECT_NEAR(drawnSum(bars, 2), 100.0 - rest, 1e-9); // past ideal by that much
    const QString notes = view->noteLabel()->text();
    EXPECT_TRUE(view->noteLabel()->isVisibleTo(&page));
    EXPECT_TRUE(notes.contains(QStringLiteral("2n2g: remainder is %1 points, not drawn")
                                   .arg(QString::fromStdString(formatShown(rest, 2)))))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains("the probes ran slower than the case itself"))
        << notes.toStdString();
    // Issue 37 item 8: past 100 % with nothing to explain it is not a breakdown to trust: said
    // first, in the warning colour, and in the title an exported image carries with the case.
    EXPECT_TRUE(notes.startsWith(QStringLiteral("⚠ 2n2g: this breakdown is not reliable: the "
                                                "measured parts (")))
        << notes.toStdString();
    EXPECT_TRUE(view->noteLabel()->styleSheet().contains("#b3261e"));
    // The whole title (the view may show it in lines where the chart is narrow).
    const QString title = ui::ChartStyle::plainTitle(view->view()->chart());
    EXPECT_EQ(title, QStringLiteral("Where the scaling goes — r50 fp32, batch 64 — ⚠ not reliable "
                                    "(2n2g: parts exceed the loss)"))
        << title.toStdString();
    std::unique_ptr<QChart> exported(
        ui::ExportController::buildChart(*a, ui::ChartKind::Loss, -1, ui::Whisker::MinMax));
    ASSERT_TRUE(exported);
    EXPECT_EQ(ui::ChartStyle::plainTitle(exported.get()), title);
    // The axis reaches the longest bar.
    auto* axis = qobject_cast<QValueAxis*>(view->view()->chart()->axes(Qt::Horizontal).value(0));
    ASSERT_NE(axis, nullptr);
    EXPECT_GE(axis->max(), 100.0 - rest);

    // Hovering a segment gives the part's points, its interval and its evidence.
    emit bars->hovered(true, 2, bars->barSets()[Set::Communication]);
    QString hover = view->hoverText();
    EXPECT_TRUE(
        hover.contains("2n2g — Communication: " + QString::fromStdString(formatShown(comm, 2)) +
                       " points of ideal, 95 % interval ["))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains("all-reduce of 102.4 MB across 4 ranks (gloo)"))
        << hover.toStdString();
    emit bars->hovered(true, 2, bars->barSets()[Set::SlowestNode]);
    EXPECT_TRUE(view->hoverText().contains("the slowest node, n2, alone: 110.00"))
        << view->hoverText().toStdString();
    // The measured part's hover lists the whole breakdown, a part at zero too.
    emit bars->hovered(true, 0, bars->barSets()[Set::Measured]);
    hover = view->hoverText();
    EXPECT_TRUE(hover.contains(
        "1n2g — Measured throughput: " + QString::fromStdString(formatShown(100.0 * eff2, 2)) +
        " % of ideal (scaling efficiency)"))
        << hover.toStdString();
    EXPECT_TRUE(hover.contains("\n  slowest-node: 0.00")) << hover.toStdString();
    EXPECT_TRUE(hover.contains("\n  communication: not measured")) << hover.toStdString();
    emit bars->hovered(true, 1, bars->barSets()[Set::NotMeasured]);
    EXPECT_TRUE(view->hoverText().contains("1n4g — Not measured: no probe measured this case"));
    emit bars->hovered(false, 1, bars->barSets()[Set::NotMeasured]);
    EXPECT_TRUE(view->hoverText().isEmpty());
    // Every set is in the legend here (each draws somewhere).
    for (QLegendMarker* m : view->view()->chart()->legend()->markers(bars))
        EXPECT_TRUE(m->isVisible()) << m->label().toStdString();
}

TEST(LossBreakdownChart, WithoutProbesEveryLossIsNotMeasuredAndExact) {
    LossCampaign c; // no probes.json
    const ui::AnalysisPtr a = c.analyze();
    ui::LossBreakdownView view;
    view.resize(800, 300);
    view.setAnalysis(a);
    const auto& d = view.breakdown();
    ASSERT_EQ(d.bars.size(), 3u);
    QAbstractBarSeries* bars = barsOf(view.view()->chart());
    ASSERT_NE(bars, nullptr);
    for (int i = 0; i < 3; ++i) {
        const CaseStats& cs =
            caseAt(*a, d.bars[static_cast<std::size_t>(i)].topology.toStdString());
        EXPECT_NEAR(at(bars, Set::Measured, i), 100.0 * *cs.efficiency, 1e-9);
        EXPECT_NEAR(at(bars, Set::NotMeasured, i), 100.0 * (1.0 - *cs.efficiency), 1e-9);
        for (Set s : {Set::DeviceSlowdown, Set::SlowestNode, Set::Communication, Set::Remainder})
            EXPECT_EQ(at(bars, s, i), 0.0);
        EXPECT_NEAR(drawnSum(bars, i), 100.0, 1e-9);
        // The category names the topology and its exact loss.
        EXPECT_EQ(ui::LossBreakdownChart::label(d.bars[static_cast<std::size_t>(i)]),
                  d.bars[static_cast<std::size_t>(i)].topology + " · loss " +
                      QString::fromStdString(formatShown(100.0 * (1.0 - *cs.efficiency), 2)) +
                      " %");
    }
    EXPECT_TRUE(view.noteLabel()->text().contains("where it went is not measured"));
    // The hatched part is the legend's "Not measured"; the parts no bar draws are not listed.
    const auto markers = view.view()->chart()->legend()->markers(bars);
    EXPECT_TRUE(markers[Set::NotMeasured]->isVisible());
    EXPECT_EQ(bars->barSets()[Set::NotMeasured]->brush().style(), Qt::BDiagPattern);
    EXPECT_FALSE(markers[Set::Communication]->isVisible());
    EXPECT_FALSE(markers[Set::Remainder]->isVisible());
    // It draws: more than a blank image's colours.
    view.show();
    EXPECT_GT(distinctColours(view.grab().toImage()), 8);
}

TEST(LossBreakdownChart, BadProbesJsonSaidUnderTheChart) {
    LossCampaign c;
    writeFile(c.dir.path() / "probes.json",
              R"({"probes": [{"kind": "solo", "topology": "1n2g"}]})");
    ui::LossBreakdownView view;
    view.setAnalysis(c.analyze());
    EXPECT_TRUE(view.noteLabel()->text().contains("probes.json not read: "));
    EXPECT_TRUE(view.noteLabel()->text().contains("probes[0]: no \"node\""))
        << view.noteLabel()->text().toStdString();
}

// Issue 37 item 2: the Run tab shows a launcher campaign's leaf logs folder, probes.json is at
// the campaign's root: the leaf's breakdown is the root's, never "No probes".
TEST(LossBreakdownChart, ACampaignOpenedAtItsLeafShowsTheProbesAtItsRoot) {
    LossCampaign c("logs/local/pytorch-cpu/resnet50");
    writeFile(c.dir.path() / "campaign.json", R"({"profile": "local-cpu-rn50"})");
    writeFile(c.dir.path() / "journal.jsonl", "");
    c.writeProbes();
    const ui::AnalysisPtr a = c.analyze();
    EXPECT_EQ(a->probes.records.size(), 4u) << a->probes.error;
    ui::LossBreakdownView view;
    view.resize(800, 300);
    view.setAnalysis(a);
    const auto& d = view.breakdown();
    ASSERT_EQ(d.bars.size(), 3u);
    EXPECT_EQ(d.bars[2].topology, "2n2g");
    QAbstractBarSeries* bars = barsOf(view.view()->chart());
    ASSERT_NE(bars, nullptr);
    const double t1 = *caseAt(*a, "1n1g").median;
    EXPECT_NEAR(at(bars, Set::SlowestNode, 2), 100.0 * 10.0 / t1, 1e-9);
    EXPECT_EQ(at(bars, Set::NotMeasured, 2), 0.0);
    EXPECT_FALSE(view.noteLabel()->text().contains("No probes"))
        << view.noteLabel()->text().toStdString();
}

TEST(LossBreakdownChart, OneDeviceOnlyHidesTheBreakdown) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    writeCampaign(dir.path(), spec);
    ui::SpeedupPage page;
    page.setAnalysis(
        std::make_shared<const ui::Analysis>(ui::analyze(readSnapshot(dir.path()), {})));
    EXPECT_FALSE(page.lossView()->hasBars());
    EXPECT_FALSE(page.lossView()->isVisibleTo(&page));
}

TEST(LossBreakdownChart, At1024x700BothChartsOfTheSpeedupPageAreReadable) {
    LossCampaign c;
    c.writeProbes();
    AppWindow w;
    w.window.resize(1024, 700);
    w.window.show();
    w.window.openDirectory(QString::fromStdString(c.dir.path().string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 12u; }));
    w.window.showPage(ui::MainWindow::Speedup);
    ui::SpeedupPage* page = w.window.speedupPage();
    ui::LossBreakdownView* loss = page->lossView();
    ASSERT_TRUE(waitUntil([&] { return loss->isVisible() && loss->view()->height() > 0; }));
    QCoreApplication::processEvents();
    // The speedup chart above, the breakdown below: neither squeezed to a strip.
    EXPECT_GE(page->view()->height(), 180) << page->view()->height();
    EXPECT_GE(loss->view()->height(), 150) << loss->view()->height();
    EXPECT_EQ(loss->breakdown().bars.size(), 3u);
    // The note under it (2n2g's negative remainder) is shown whole, not cut off.
    EXPECT_TRUE(loss->noteLabel()->isVisible());
    EXPECT_GE(loss->noteLabel()->height(),
              loss->noteLabel()->heightForWidth(loss->noteLabel()->width()));
}

// The probes name a slow node: the view offers "Rerun without n2…", and taking it puts the
// directory's campaign on the Run tab without n2, the probes' evidence as the reason, into a
// fresh output directory (issue 28: Rerun without this node).
TEST(LossBreakdownView, ASlowNodeIsOfferedForARerunWithoutIt) {
    LossCampaign c;
    writeFile(c.dir.path() / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "2n2g", "node": "n1", "devices": 2, "pace_per_device": 120.0,
   "pace_samples": [119.8, 120.0, 120.2, 120.0, 120.1]},
  {"kind": "solo", "topology": "2n2g", "node": "n2", "devices": 2, "pace_per_device": 80.0,
   "pace_samples": [79.8, 80.0, 80.2, 80.0, 80.1]}]})");
    const std::string out = (c.dir.path() / "first-run").string();
    writeFile(c.dir.path() / "campaign.json",
              R"({"profile": "local-cpu-rn50", "warmup": 20, "iterations": 120, "outputDir": ")" +
                  out + R"(", "topologies": ["1n1g", "1n2g", "2n2g"], "hosts": [)" +
                  R"({"name": "n1", "gpus": 2}, {"name": "n2", "gpus": 2}]})");
    AppWindow w;
    w.window.show();
    w.window.openDirectory(QString::fromStdString(c.dir.path().string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 12u; }));
    auto* view = w.window.speedupPage()->lossView();
    ASSERT_TRUE(view->rerunButton()->isVisibleTo(view));
    EXPECT_EQ(view->rerunButton()->text(), QStringLiteral("Rerun without n2…"));

    view->rerunButton()->click();
    ASSERT_TRUE(waitUntil([&] { return w.window.currentPage() == ui::MainWindow::Run; }));
    const launcher::Campaign shown = w.window.runPanel()->form()->campaign();
    ASSERT_EQ(shown.hosts.size(), 1u);
    EXPECT_EQ(shown.hosts.front().name, "n1");
    ASSERT_EQ(shown.excludedNodes.size(), 1u);
    EXPECT_EQ(shown.excludedNodes.front().host.name, "n2");
    // 80 per device against the median node's 120 (the high median of 120 and 80).
    EXPECT_NE(shown.excludedNodes.front().reason.find("33.3 % slower alone"), std::string::npos)
        << shown.excludedNodes.front().reason;
    EXPECT_NE(shown.outputDir, out); // a new campaign: the first one's logs are never touched
}

// Without a node the probes call slow, nothing is offered.
TEST(LossBreakdownView, NoSlowNodeNoRerunOffer) {
    LossCampaign c;
    writeFile(c.dir.path() / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "2n2g", "node": "n1", "devices": 2, "pace_per_device": 120.0,
   "pace_samples": [119.8, 120.0, 120.2, 120.0, 120.1]},
  {"kind": "solo", "topology": "2n2g", "node": "n2", "devices": 2, "pace_per_device": 118.0,
   "pace_samples": [117.8, 118.0, 118.2, 118.0, 118.1]}]})"); // 0.8 % below the median: quiet
    ui::LossBreakdownView view;
    view.setAnalysis(c.analyze());
    EXPECT_FALSE(view.rerunButton()->isVisibleTo(&view));
}

// scaleview-cli plot --chart loss draws the same bars headless, SVG and PNG; a directory with
// no multi-device case to break down is an error, said.
TEST(LossBreakdownPlot, ThePlotCommandDrawsTheBreakdownWithoutADisplay) {
    LossCampaign c;
    c.writeProbes();
    TempDir out;
    const auto svg = (out.path() / "loss.svg").string();
    auto r = runProcess({SCALEVIEW_CLI, "plot", c.dir.path().string(), "--chart", "loss",
                         "--output", svg, "--size", "1000x600"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string text = readWhole(svg);
    for (const char* shown : {"2n2g · loss", "1n4g · loss", "Waiting for the slowest node",
                              "Communication", "Not measured"})
        EXPECT_NE(text.find(shown), std::string::npos) << shown;
    // The note the app shows under the chart, on standard error.
    EXPECT_NE(r.err.find("note: 2n2g: remainder is"), std::string::npos) << r.err;
    const auto png = (out.path() / "loss.png").string();
    r = runProcess({SCALEVIEW_CLI, "plot", c.dir.path().string(), "--chart", "loss", "--output",
                    png, "--size", "800x500", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(QImage(QString::fromStdString(png)).size(), QSize(800, 500));

    TempDir single;
    CampaignSpec one;
    one.topologies = {{1, 1}};
    writeCampaign(single.path(), one);
    r = runProcess(
        {SCALEVIEW_CLI, "plot", single.path().string(), "--chart", "loss", "--output", png});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no loss to break down"), std::string::npos) << r.err;
}

// File › Export's Scaling Loss Chart, from any page: the breakdown as the Speedup page draws it,
// written by the window's exporter; the actions are enabled only where there is a loss to break
// down.
TEST(LossBreakdownExport, TheWindowExportsTheBreakdownFromAnyPage) {
    LossCampaign c;
    c.writeProbes();
    AppWindow w;
    w.window.show();
    w.window.openDirectory(QString::fromStdString(c.dir.path().string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return !a.summary.runs.empty(); }));
    w.window.showPage(ui::MainWindow::Throughput);
    auto* png = w.window.findChild<QAction*>(QStringLiteral("exportLossPng"));
    auto* svgAction = w.window.findChild<QAction*>(QStringLiteral("exportLossSvg"));
    ASSERT_TRUE(png && svgAction);
    EXPECT_TRUE(png->isEnabled());
    EXPECT_TRUE(svgAction->isEnabled());
    TempDir out;
    const QString svg = QString::fromStdString((out.path() / "loss.svg").string());
    QString error;
    ASSERT_TRUE(
        w.window.exporter()->exportChart(ui::ChartKind::Loss, svg, QSize(900, 500), 1.0, &error))
        << error.toStdString();
    const std::string text = readWhole(svg.toStdString());
    EXPECT_NE(text.find("Where the scaling goes"), std::string::npos);
    EXPECT_NE(text.find("2n2g · loss"), std::string::npos);
    EXPECT_NE(text.find("Waiting for the slowest node"), std::string::npos);
    EXPECT_EQ(w.window.exporter()
                  ->suggestedFileName(ui::ChartKind::Loss, QStringLiteral("svg"))
                  .endsWith(QStringLiteral("_scaling_loss.svg")),
              true);

    // One device only: nothing to break down, the actions off, the exporter says why.
    TempDir single;
    CampaignSpec one;
    one.topologies = {{1, 1}};
    writeCampaign(single.path(), one);
    w.window.openDirectory(QString::fromStdString(single.path().string()));
    ASSERT_TRUE(w.waitFor([&](const ui::Analysis& a) {
        return a.summary.root == single.path().string() && !a.summary.runs.empty();
    }));
    EXPECT_FALSE(png->isEnabled());
    EXPECT_FALSE(
        w.window.exporter()->exportChart(ui::ChartKind::Loss, svg, QSize(900, 500), 1.0, &error));
    EXPECT_NE(error.toStdString().find("no loss to break down"), std::string::npos)
        << error.toStdString();
}
