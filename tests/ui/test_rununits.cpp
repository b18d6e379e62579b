// Issue 37, items 3 and 6: every page says each run's own unit, and "the log's own reports" where
// no DLPerf method applied. A gluon-nlp BERT log (tokens/s) on the Runs page is never "images/s"
// or "time method" (headers, cells, trace axis and legend, status bar, Method box); a page of runs
// in two units says so; a log read by a user's format file shows no window that cannot be.

#include "tests/ui/uifixture.h"
#include "tests/support/freshtrainer.h"
#include "tests/support/realworldwriter.h"

#include "core/formats/userformat.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/runspage.h"
#include "ui/models/runtablemodel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QValueAxis>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

// The gluon-nlp BERT shape the real log has (throughput=K tks/s every 250 steps): 400 reports,
// 133000 tokens/s after a slow first tenth.
void writeBertLog(const std::filesystem::path& path) {
    writeFile(path, gluonnlpLog("0,1,2,3,4,5,6,7", 400,
                                [](int k) { return k < 40 ? 90000.0 : 133000.0 + (k % 3) * 100; }));
}

QString headers(const ui::RunTableModel& m) {
    QStringList h;
    for (int c = 0; c < m.columnCount(); ++c)
        h << m.headerData(c, Qt::Horizontal).toString();
    return h.join(QStringLiteral(" | "));
}

QString cell(const ui::RunTableModel& m, int row, int column) {
    return m.data(m.index(row, column)).toString();
}

QString legendOf(QChart* chart) {
    QStringList names;
    for (auto* s : chart->series())
        names << s->name();
    return names.join(QStringLiteral(" | "));
}

QValueAxis* axisOf(QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
}

int rowOf(const ui::RunTableModel& m, const std::string& path) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.run(r).path == path) return r;
    return -1;
}

} // namespace

TEST(RunUnits, ATokensPerSecondLogSaysTokensOnTheRunsPage) {
    QTemporaryDir dir;
    writeBertLog(std::filesystem::path(dir.path().toStdString()) / "bert_base_pretrain.log");
    AppWindow w;
    w.window.resize(1400, 900);
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1u; }));
    ui::RunsPage* page = w.window.runsPage();
    const ui::RunTableModel& m = *page->model();
    ASSERT_EQ(m.rowCount(), 1);
    ASSERT_TRUE(m.run(0).usable()) << m.run(0).reason;

    const QString h = headers(m);
    EXPECT_EQ(m.headerData(ui::RunTableModel::TimeMethod, Qt::Horizontal).toString(),
              QStringLiteral("Log's own reports (tokens/s)"))
        << h.toStdString();
    EXPECT_FALSE(h.contains(QStringLiteral("images/s"))) << h.toStdString();
    EXPECT_FALSE(h.contains(QStringLiteral("Time method"))) << h.toStdString();
    // Its figure, and no speed method or difference of methods it does not have.
    EXPECT_EQ(cell(m, 0, ui::RunTableModel::TimeMethod), QStringLiteral("133100.00"));
    EXPECT_EQ(cell(m, 0, ui::RunTableModel::SpeedMethod), QStringLiteral("–"));
    EXPECT_TRUE(page->view()->isColumnHidden(ui::RunTableModel::SpeedMethod));
    EXPECT_TRUE(page->view()->isColumnHidden(ui::RunTableModel::MethodDifference));
    // The figure comes before the long note that says how the log was read, so it is seen.
    const QHeaderView* header = page->view()->horizontalHeader();
    EXPECT_LT(header->visualIndex(ui::RunTableModel::TimeMethod),
              header->visualIndex(ui::RunTableModel::Reason));

    page->selectRun(0);
    QChart* chart = page->traceView()->chart();
    ASSERT_NE(chart, nullptr);
    EXPECT_TRUE(chart->title().contains(QStringLiteral("tokens/s")))
        << chart->title().toStdString();
    QValueAxis* y = axisOf(chart, Qt::Vertical);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->titleText(), QStringLiteral("Throughput (tokens/s)"));
    // The legend names the reports the figure is of (the first tenth of 400 left out), never a
    // range of iterations that cannot be ("0–-1").
    const QString legend = legendOf(chart);
    EXPECT_TRUE(legend.contains(QStringLiteral("First tenth, left out (reports 0–39)")))
        << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("Median of reports 40–399")))
        << legend.toStdString();
    EXPECT_FALSE(legend.contains(QStringLiteral("–-"))) << legend.toStdString();
    EXPECT_FALSE(legend.contains(QStringLiteral("Warmup (iterations"))) << legend.toStdString();
    // The x axis counts reports, with few enough ticks that each label fits (not 20 apart over
    // 400: the labels would read "…").
    QValueAxis* x = axisOf(chart, Qt::Horizontal);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->titleText(), QStringLiteral("Report (in the log's order)"));
    EXPECT_LE((x->max() - x->min()) / x->tickInterval(), 12.0) << x->tickInterval();
}

TEST(RunUnits, TheStatusBarAndMethodBoxOfATokensLogSayItsOwnReports) {
    QTemporaryDir dir;
    writeBertLog(std::filesystem::path(dir.path().toStdString()) / "bert_base_pretrain.log");
    AppWindow w;
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1u; }));
    const QString status = w.window.statusText();
    EXPECT_TRUE(status.contains(QStringLiteral("· the log's own reports ·")))
        << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("throughput in tokens/s"))) << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("time method"))) << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("images/s"))) << status.toStdString();
    QComboBox* method = w.window.controls()->methodBox();
    EXPECT_EQ(method->currentText(), QStringLiteral("the log's own reports"));
    EXPECT_FALSE(method->isEnabled());
}

// A DLPerf tree and a tokens/s log in one directory: the table says each run's unit and kind of
// figure rather than picking one; the status bar says there are two units.
TEST(RunUnits, RunsOfTwoUnitsSayEachRunsOwn) {
    QTemporaryDir dir;
    const std::filesystem::path root(dir.path().toStdString());
    CampaignSpec c;
    c.topologies = {{1, 1}};
    c.repeats = 1;
    writeCampaign(root, c);
    writeBertLog(root / "bert" / "bert_base_pretrain.log");
    AppWindow w;
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 2u; }));
    ui::RunsPage* page = w.window.runsPage();
    const ui::RunTableModel& m = *page->model();
    EXPECT_EQ(m.headerData(ui::RunTableModel::TimeMethod, Qt::Horizontal).toString(),
              QStringLiteral("Time method or log's own reports (each run's own unit)"));
    EXPECT_EQ(m.headerData(ui::RunTableModel::SpeedMethod, Qt::Horizontal).toString(),
              QStringLiteral("Speed method (each run's own unit)"));
    EXPECT_FALSE(page->view()->isColumnHidden(ui::RunTableModel::SpeedMethod));
    const int bert = rowOf(m, "bert/bert_base_pretrain.log");
    const int mxnet = rowOf(m, "bz64/1n1g/r50_b64_fp32_1.log");
    ASSERT_GE(bert, 0);
    ASSERT_GE(mxnet, 0);
    EXPECT_EQ(cell(m, bert, ui::RunTableModel::TimeMethod), QStringLiteral("133100.00 tokens/s"));
    EXPECT_EQ(cell(m, bert, ui::RunTableModel::SpeedMethod), QStringLiteral("–"));
    EXPECT_TRUE(cell(m, mxnet, ui::RunTableModel::TimeMethod).endsWith(QStringLiteral(" images/s")))
        << cell(m, mxnet, ui::RunTableModel::TimeMethod).toStdString();
    EXPECT_TRUE(
        cell(m, mxnet, ui::RunTableModel::SpeedMethod).endsWith(QStringLiteral(" images/s")));
    const QString status = w.window.statusText();
    EXPECT_TRUE(status.contains(QStringLiteral("throughput in 2 units: images/s, tokens/s")) ||
                status.contains(QStringLiteral("throughput in 2 units: tokens/s, images/s")))
        << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("or the log's own reports")))
        << status.toStdString();
}

// A log read by a user's format file ("window": {"drop_first": 0.1}): its figure is its own
// reports by that rule. No page shows its "default" window -1…-2, nor one log's count of
// reports as a window of iterations, nor calls it DLPerf's.
TEST(RunUnits, ALogReadByAFormatFileShowsNoWindowThatCannotBe) {
    UserFormatError error;
    auto format = UserFormat::parse(kFreshFormat, "fresh.json", &error);
    ASSERT_TRUE(format) << error.reason;
    std::string why;
    ASSERT_TRUE(registerUserFormat(format, &why)) << why;
    QTemporaryDir dir;
    writeFreshLog(std::filesystem::path(dir.path().toStdString()) / "train.log", 100, 11.0);
    AppWindow w;
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) {
        return a.summary.runs.size() == 1u && a.summary.runs.front().usable();
    }));
    const QString status = w.window.statusText();
    EXPECT_FALSE(status.contains(QStringLiteral("DLPerf's window"))) << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("time method"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("the log's own reports"))) << status.toStdString();
    ui::ControlPanel* controls = w.window.controls();
    const QString badge = controls->windowBadge()->text();
    EXPECT_FALSE(badge.contains(QStringLiteral("-1"))) << badge.toStdString();
    EXPECT_FALSE(badge.contains(QStringLiteral("DLPerf"))) << badge.toStdString();
    EXPECT_TRUE(badge.contains(QStringLiteral("own reports"))) << badge.toStdString();
    // The boxes say whose rule it is, not this one log's 10 reports left out of 100.
    EXPECT_EQ(controls->warmupBox()->text(), QStringLiteral("format's rule"));
    EXPECT_EQ(controls->iterationsBox()->text(), QStringLiteral("format's rule"));
    // The trace shades the reports the rule left out and those it read.
    w.window.runsPage()->selectRun(0);
    const QString legend = legendOf(w.window.runsPage()->traceView()->chart());
    EXPECT_TRUE(legend.contains(QStringLiteral("Left out (reports 0–9)"))) << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("Median of reports 10–99"))) << legend.toStdString();
    EXPECT_TRUE(axisOf(w.window.runsPage()->traceView()->chart(), Qt::Vertical)
                    ->titleText()
                    .contains(QStringLiteral("samples/s")));
}

// A log of a few reports (HuggingFace's tqdm bars between its logged lines: one report each): the
// x axis was 10 apart from -0.5, so only "0" was labelled under 6 reports.
TEST(RunUnits, AShortLogsReportsAreEachLabelled) {
    QTemporaryDir dir;
    writeFile(std::filesystem::path(dir.path().toStdString()) / "bert_base_pretrain.log",
              gluonnlpLog("0,1,2,3,4,5,6,7", 6, [](int k) { return 133000.0 + k * 100; }));
    AppWindow w;
    w.window.resize(1400, 900);
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1u; }));
    ui::RunsPage* page = w.window.runsPage();
    page->selectRun(0);
    QValueAxis* x = axisOf(page->traceView()->chart(), Qt::Horizontal);
    ASSERT_NE(x, nullptr);
    EXPECT_EQ(x->tickInterval(), 1.0);
    EXPECT_EQ(x->tickAnchor(), 0.0);
}
