// What changed beside each verdict on the Results page's comparison: two campaigns (logs,
// campaign.json and the environment the launcher captured) opened and added to the comparison,
// the "What changed" column of each pair, as `scaleview-cli compare` prints it.

#include "tests/ui/seriestrees.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/resultspage.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/export/reportexport.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QHeaderView>
#include <QStringList>
#include <QTableView>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

// OUT/campaign.json, OUT/environment/<time>-node1.txt (the driver given), OUT/logs/.
void writeCampaignWithDriver(const std::filesystem::path& out, const std::string& driver) {
    writeSeriesTree(out / "logs", {{1, 1, 1.0}, {1, 2, 1.0}});
    writeFile(out / "campaign.json",
              "{\"profile\": \"ngc-mxnet-rn50\", \"warmup\": 20, \"iterations\": 120}\n");
    writeFile(out / "environment" / "20261130-101010-node1.txt",
              "ScaleView 0.1.0\n== hostname\nnode1\n== nvidia-smi -q\n"
              "Driver Version                            : " +
                  driver + "\nCUDA Version                              : 12.4\n");
}

ui::AnalysisPtr waitForTwoSeries(ui::MainWindow& w) {
    const bool ok = waitUntil(
        [&] {
            const auto a = w.analysis()->current();
            return a && a->complete && a->others.size() == 1 && a->others[0].complete &&
                   !w.analysis()->isBusy() && a->comparison.has_value();
        },
        20000);
    EXPECT_TRUE(ok) << "the window never compared the two campaigns";
    return w.analysis()->current();
}

QStringList changedCells(const ui::ComparisonTableModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, m.changedColumn(1)).data().toString();
    return out;
}

} // namespace

TEST(ComparisonChanged, ADriverUpgradeShowsBesideEveryVerdict) {
    TempDir dir;
    writeCampaignWithDriver(dir / "monday", "535.104.05");
    writeCampaignWithDriver(dir / "tuesday", "550.54.14");
    AppWindow app;
    app.window.openDirectory(QString::fromStdString((dir / "monday").string()));
    app.window.addToComparison(QString::fromStdString((dir / "tuesday").string()));
    ASSERT_TRUE(waitForTwoSeries(app.window));
    auto* model = app.window.resultsPage()->comparisonModel();
    ASSERT_EQ(model->rowCount(), 2);
    EXPECT_EQ(model->changedColumn(1), model->verdictColumn(1) + 1);
    EXPECT_EQ(model->headerData(model->changedColumn(1), Qt::Horizontal).toString(),
              "What changed");
    for (const QString& cell : changedCells(*model))
        EXPECT_EQ(cell, "driver 535.104.05 -> 550.54.14");
    EXPECT_EQ(model->index(0, model->changedColumn(1)).data(Qt::ToolTipRole).toString(),
              "driver: 535.104.05 -> 550.54.14");
}

TEST(ComparisonChanged, TheSameMachineSaysNothingRecordedChanged) {
    TempDir dir;
    writeCampaignWithDriver(dir / "monday", "535.104.05");
    writeCampaignWithDriver(dir / "tuesday", "535.104.05");
    AppWindow app;
    app.window.openDirectory(QString::fromStdString((dir / "monday").string()));
    app.window.addToComparison(QString::fromStdString((dir / "tuesday").string()));
    ASSERT_TRUE(waitForTwoSeries(app.window));
    auto* model = app.window.resultsPage()->comparisonModel();
    ASSERT_EQ(model->rowCount(), 2);
    for (const QString& cell : changedCells(*model))
        EXPECT_EQ(cell, "nothing recorded changed");
}

TEST(ComparisonChanged, TheExportedReportListsWhatChanged) {
    TempDir dir;
    writeCampaignWithDriver(dir / "monday", "535.104.05");
    writeCampaignWithDriver(dir / "tuesday", "550.54.14");
    AppWindow app;
    app.window.openDirectory(QString::fromStdString((dir / "monday").string()));
    app.window.addToComparison(QString::fromStdString((dir / "tuesday").string()));
    const auto analysis = waitForTwoSeries(app.window);
    ASSERT_TRUE(analysis);
    auto content = ui::ReportExport::gather(*analysis); // as File > Export > Report does
    ASSERT_TRUE(content.comparison);
    for (const auto& c : content.comparison->cases)
        EXPECT_EQ(describeChanges(c.changed.at(0)), "driver 535.104.05 -> 550.54.14");
    const std::string html =
        ui::ReportExport::html(*analysis, std::move(content), QStringLiteral("monday"));
    EXPECT_NE(html.find("<li>what changed, tuesday against monday: driver 535.104.05 -&gt; "
                        "550.54.14</li>"),
              std::string::npos);
}

// Issue 37: at 1024×700 Compare's Verdict and What changed columns were off-screen, pushed by
// long series names. The figures' columns are capped; both stay in view.
TEST(ComparisonChanged, VerdictAndWhatChangedStayInViewAt1024) {
    TempDir dir;
    writeCampaignWithDriver(dir / "nightly-campaign-monday-on-the-old-driver", "535.104.05");
    writeCampaignWithDriver(dir / "nightly-campaign-tuesday-on-the-new-driver", "550.54.14");
    AppWindow app;
    app.window.resize(1024, 700);
    app.window.show();
    app.window.openDirectory(
        QString::fromStdString((dir / "nightly-campaign-monday-on-the-old-driver").string()));
    app.window.addToComparison(
        QString::fromStdString((dir / "nightly-campaign-tuesday-on-the-new-driver").string()));
    ASSERT_TRUE(waitForTwoSeries(app.window));
    QCoreApplication::processEvents();
    auto* model = app.window.resultsPage()->comparisonModel();
    QTableView* view = app.window.resultsPage()->comparisonView();
    ASSERT_TRUE(waitUntil([&] { return view->isVisible() && view->viewport()->width() > 0; }));
    const int width = view->viewport()->width();
    const int verdict = model->verdictColumn(1), changed = model->changedColumn(1);
    EXPECT_LE(view->columnViewportPosition(verdict) + view->columnWidth(verdict), width)
        << "viewport " << width << ", verdict at " << view->columnViewportPosition(verdict);
    EXPECT_LT(view->columnViewportPosition(changed) + 40, width)
        << "viewport " << width << ", what changed at " << view->columnViewportPosition(changed);
    // A capped header still names its series in full.
    EXPECT_TRUE(model->headerData(model->medianColumn(1), Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("tuesday")));
}

// Issue 37's walk: at 1024×700 two nightly campaigns' capped median columns were headed
// "-2026-12-0" both, the header clipped at both ends, so neither figure said whose it was. The
// header leaves out the "/logs" both names end with and, where it does not fit, is cut at the
// left: each keeps the end that tells the campaigns apart.
TEST(ComparisonChanged, CappedHeadersStillTellTheSeriesApart) {
    TempDir dir;
    writeCampaignWithDriver(dir / "nightly-2026-12-04" / "logs", "535.104.05");
    writeCampaignWithDriver(dir / "nightly-2026-12-05" / "logs", "550.54.14");
    AppWindow app;
    app.window.resize(1024, 700);
    app.window.show();
    app.window.openDirectory(
        QString::fromStdString((dir / "nightly-2026-12-04" / "logs").string()));
    app.window.addToComparison(
        QString::fromStdString((dir / "nightly-2026-12-05" / "logs").string()));
    ASSERT_TRUE(waitForTwoSeries(app.window));
    QCoreApplication::processEvents();
    auto* model = app.window.resultsPage()->comparisonModel();
    QTableView* view = app.window.resultsPage()->comparisonView();
    ASSERT_TRUE(waitUntil([&] { return view->isVisible() && view->viewport()->width() > 0; }));
    QHeaderView* header = view->horizontalHeader();
    const QFontMetrics metrics(header->font());
    QStringList shown;
    for (int s = 0; s < 2; ++s) {
        const int column = model->medianColumn(s);
        // What the header draws: its text as given, clipped to the section.
        shown << model->headerData(column, Qt::Horizontal).toString();
        EXPECT_LE(metrics.horizontalAdvance(shown.back()), header->sectionSize(column))
            << shown.back().toStdString() << " in " << header->sectionSize(column) << " px";
    }
    EXPECT_NE(shown[0], shown[1]) << shown.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(shown[0].endsWith(QStringLiteral("04"))) << shown[0].toStdString();
    EXPECT_TRUE(shown[1].endsWith(QStringLiteral("05"))) << shown[1].toStdString();
    // The ratio's header keeps both sides, B over A.
    const QStringList ratio = model->headerData(model->ratioColumn(1), Qt::Horizontal)
                                  .toString()
                                  .split(QLatin1Char('\n'));
    ASSERT_EQ(ratio.size(), 2) << ratio.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(ratio[0].endsWith(QStringLiteral("05 /"))) << ratio[0].toStdString();
    EXPECT_TRUE(ratio[1].endsWith(QStringLiteral("04"))) << ratio[1].toStdString();
    for (const QString& line : ratio)
        EXPECT_LE(metrics.horizontalAdvance(line), header->sectionSize(model->ratioColumn(1)))
            << line.toStdString();
    // The tooltip still names each in full.
    EXPECT_TRUE(model->headerData(model->medianColumn(1), Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("nightly-2026-12-05/logs")));
}
