// The InsightFace report's comparison in the window: MXNet ArcFace's and OneFlow's R100 logs of
// one batch size open as the Compare frameworks view, its axis in samples/s (the formats' unit).

#include "tests/support/insightfacewriter.h"
#include "tests/support/logwriter.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/chartpage.h"

#include <QAbstractAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(InsightfaceUi, ArcfaceAndOneflowCompareInSamplesPerSecond) {
    TempDir dir;
    writeArcfaceTree(dir / "logs/mxnet/arcface/bz64");
    writeOneflowFaceTree(dir / "logs/oneflow/85744_fp32_b64_oneflow_model_parallel_1_partial_fc_1");
    AppWindow app;
    app.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(waitUntil(
        [&] {
            const auto a = app.window.analysis()->current();
            return a && a->complete && !app.window.analysis()->isBusy() && a->group &&
                   a->group->format.empty();
        },
        20000));
    const auto a = app.window.analysis()->current();
    ASSERT_TRUE(a->comparesFrameworks);

    QChart* throughput = app.window.throughputPage()->view()->chart();
    QStringList bars;
    for (auto* s : throughput->series())
        if (auto* b = qobject_cast<QBarSeries*>(s))
            for (auto* set : b->barSets())
                bars << set->label();
    bars.sort();
    EXPECT_EQ(bars, (QStringList{QStringLiteral("MXNet ArcFace"),
                                 QStringLiteral("OneFlow InsightFace")}));
    QStringList titles;
    for (auto* axis : throughput->axes(Qt::Vertical))
        titles << axis->titleText();
    EXPECT_TRUE(titles.contains(QStringLiteral("Throughput (samples/s)")) ||
                titles.contains(QStringLiteral("Throughput (samples/s, log scale)")))
        << titles.join(QStringLiteral(", ")).toStdString();
}
