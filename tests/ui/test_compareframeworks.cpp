// A tree of three frameworks' logs (NGC MXNet, NGC PyTorch, NGC TensorFlow 1): the Show selector
// lists each framework's cases and the Compare frameworks view; that view's charts draw one bar
// and one speedup line per framework, in the window and in `scaleview-cli plot --compare`.

#include "tests/support/process.h"
#include "tests/support/realworldwriter.h"
#include "tests/ui/snapshotfixture.h"
#include "tests/ui/seriestrees.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/chartpage.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/resultspage.h"
#include "ui/browse/speeduppage.h"

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <set>

using namespace sv;
using namespace sv::test;

namespace {

const QStringList kFrameworks{QStringLiteral("NGC MXNet"), QStringLiteral("NGC PyTorch"),
                              QStringLiteral("NGC TensorFlow 1")};

ui::AnalysisPtr waitForGroup(ui::MainWindow& w, bool allFrameworks) {
    const bool ok = waitUntil(
        [&] {
            const auto a = w.analysis()->current();
            return a && a->complete && !w.analysis()->isBusy() && a->group &&
                   a->group->format.empty() == allFrameworks;
        },
        20000);
    EXPECT_TRUE(ok);
    return w.analysis()->current();
}

QStringList barSetNames(QChart* chart) {
    QStringList names;
    for (auto* s : chart->series())
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            for (auto* set : bars->barSets())
                names << set->label();
    return names;
}

} // namespace

TEST(CompareFrameworks, ShowSelectorListsFrameworksAndTheChartsSetThemSideBySide) {
    TempDir dir;
    writeFrameworkTree(dir.path());
    AppWindow app;
    app.window.openDirectory(QString::fromStdString(dir.path().string()));
    const auto a = waitForGroup(app.window, true);
    ASSERT_TRUE(a);

    // The Show selector: the three frameworks together first, then each alone.
    QComboBox* show = app.window.controls()->groupBox();
    ASSERT_EQ(show->count(), 4);
    EXPECT_EQ(show->itemText(0), QStringLiteral("Compare frameworks · r50 fp32, batch 128"));
    std::set<QString> alone;
    for (int i = 1; i < 4; ++i)
        alone.insert(show->itemText(i));
    for (const auto& f : kFrameworks)
        EXPECT_TRUE(alone.count(f + QStringLiteral(" · r50 fp32, batch 128"))) << f.toStdString();

    // The series are the frameworks, compared case by case.
    ASSERT_TRUE(a->comparesFrameworks);
    QStringList labels;
    for (const auto& s : a->series)
        labels << QString::fromStdString(s.label);
    labels.sort();
    EXPECT_EQ(labels, kFrameworks);
    ASSERT_TRUE(a->comparison);
    EXPECT_EQ(app.window.resultsPage()->comparisonModel()->rowCount(), 2); // 1n1g, 1n4g
    EXPECT_TRUE(app.window.resultsPage()->comparisonCaption().startsWith("Frameworks compared"));

    // Throughput: grouped bars per GPU count, one per framework, each framework's own published
    // figure beside (issue 27: not NGC MXNet's for all of them).
    QChart* throughput = app.window.throughputPage()->view()->chart();
    const QStringList bars = barSetNames(throughput);
    ASSERT_EQ(bars.size(), 6) << bars.join(", ").toStdString();
    QStringList measured = bars.mid(0, 3);
    measured.sort();
    EXPECT_EQ(measured, kFrameworks);
    EXPECT_TRUE(bars[3].startsWith(QStringLiteral("DLPerf NGC MXNet"))) << bars[3].toStdString();
    // Each framework's own DLPerf README table (bundled since), not the report's column.
    EXPECT_TRUE(bars[4].startsWith(QStringLiteral("DLPerf NGC PyTorch"))) << bars[4].toStdString();
    EXPECT_TRUE(bars[5].startsWith(QStringLiteral("DLPerf NGC TensorFlow 1.15.2")))
        << bars[5].toStdString();
    for (auto* s : throughput->series()) {
        if (auto* b = qobject_cast<QBarSeries*>(s)) {
            for (auto* set : b->barSets()) {
                EXPECT_EQ(set->count(), 2);
            }
        }
    }
    bool unitAxis = false;
    for (auto* axis : throughput->axes(Qt::Vertical))
        unitAxis = unitAxis || axis->titleText() == QStringLiteral("Throughput (images/s)");
    EXPECT_TRUE(unitAxis);

    // Speedup: one line per framework and the ideal.
    QStringList lines;
    for (auto* s : app.window.speedupPage()->view()->chart()->series())
        if (qobject_cast<QLineSeries*>(s) && !qobject_cast<QScatterSeries*>(s)) lines << s->name();
    for (const auto& f : kFrameworks)
        EXPECT_TRUE(lines.contains(f)) << lines.join(", ").toStdString();
    EXPECT_TRUE(lines.contains(QStringLiteral("Ideal (linear)")));

    // One framework alone: no comparison, its own bars only.
    show->setCurrentIndex(2);
    const auto one = waitForGroup(app.window, false);
    ASSERT_TRUE(one);
    EXPECT_FALSE(one->comparesFrameworks);
    EXPECT_FALSE(one->comparison);
    EXPECT_EQ(one->groupCases().size(), 2u);
    EXPECT_EQ(barSetNames(app.window.throughputPage()->view()->chart()).first(),
              QStringLiteral("Measured median (time method)"));
}

TEST(CompareFrameworks, PlotCliDrawsTheSameChartsHeadless) {
    TempDir dir;
    writeFrameworkTree(dir / "tree");
    for (const char* chart : {"throughput", "speedup"}) {
        const auto svg = (dir / (std::string(chart) + ".svg")).string();
        const auto r = runProcess({SCALEVIEW_CLI, "plot", (dir / "tree").string(), "--chart", chart,
                                   "--compare", "frameworks", "--output", svg, "--quiet"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const std::string text = readWhole(svg);
        for (const auto& f : kFrameworks)
            EXPECT_NE(text.find(f.toStdString()), std::string::npos)
                << chart << ": " << f.toStdString();
    }
    // Without --compare, the first framework alone (never two frameworks' figures mixed).
    const auto single = (dir / "single.svg").string();
    auto r =
        runProcess({SCALEVIEW_CLI, "plot", (dir / "tree").string(), "--output", single, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readWhole(single).find("Measured median"), std::string::npos);
    r = runProcess({SCALEVIEW_CLI, "plot", (dir / "tree").string(), "--compare", "models",
                    "--output", single});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--compare must be frameworks"), std::string::npos) << r.err;
}

// Issue 37 item 7: real logs of two frameworks at different batch sizes ("r50 fp16, batch 256"
// of TensorFlow, "r50 fp16, batch 128" of PyTorch) were listed without their frameworks; each
// group of one framework names it where the directory holds several.
TEST(CompareFrameworks, GroupsOfOneFrameworkNameItWhereTheDirectoryHoldsSeveral) {
    TempDir dir;
    writeFile(dir.path() / "tf/8xV100/run.txt",
              dllTfLog(8, 256, 40, [](int k) { return 6000.0 + k; }));
    writeFile(dir.path() / "pt/8xV100/run.txt",
              dllPytorchLog(8, 128, 1, 40, [](int k) { return 2000.0 + k; }));
    const ui::Analysis a = ui::analyze(readSnapshot(dir.path()), {});
    ASSERT_EQ(a.groups.size(), 2u);
    QStringList shown;
    for (const auto& g : a.groups)
        shown << ui::ControlPanel::groupText(g, a.groups);
    shown.sort();
    ASSERT_EQ(shown.size(), 2);
    EXPECT_TRUE(shown[0].startsWith(QStringLiteral("PyTorch DLLogger · ")) &&
                shown[0].endsWith(QStringLiteral(", batch 128")))
        << shown.join(" | ").toStdString();
    EXPECT_TRUE(shown[1].startsWith(QStringLiteral("TensorFlow DLLogger · ")) &&
                shown[1].endsWith(QStringLiteral(", batch 256")))
        << shown.join(" | ").toStdString();
    // One framework alone: the label as before.
    TempDir one;
    writeFile(one.path() / "tf/8xV100/run.txt",
              dllTfLog(8, 256, 40, [](int k) { return 6000.0 + k; }));
    const ui::Analysis b = ui::analyze(readSnapshot(one.path()), {});
    ASSERT_EQ(b.groups.size(), 1u);
    EXPECT_EQ(ui::ControlPanel::groupText(b.groups[0], b.groups),
              QString::fromStdString(b.groups[0].label()));
    EXPECT_TRUE(b.groups[0].format.empty());
}
