// The window as a user drives it (offscreen): open a directory, switch method, toggle a
// reference, select a run, export PNG, SVG and CSV; settings that survive, and break, safely.

#include "uifixture.h"

#include "analysiscontroller.h"
#include "appsettings.h"
#include "casetablemodel.h"
#include "chartpage.h"
#include "controlpanel.h"
#include "livecontroller.h"
#include "loadcontroller.h"
#include "mainwindow.h"
#include "referencelistmodel.h"
#include "report.h"
#include "resultspage.h"
#include "runcontroller.h"
#include "runpanel.h"
#include "runspage.h"
#include "runtablemodel.h"
#include "speeduppage.h"
#include "warninglistmodel.h"

#include <QAction>
#include <QAreaSeries>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
    bool waitFor(std::function<bool(const ui::Analysis&)> pred, int ms = 20000) {
        return waitUntil(
            [&] {
                auto a = window.analysis()->current();
                return a && a->complete && !window.analysis()->isBusy() && pred(*a);
            },
            ms);
    }
    int barSets() const {
        for (auto* s : window.throughputPage()->view()->chart()->series())
            if (auto* b = qobject_cast<QBarSeries*>(s)) return b->count();
        return 0;
    }
};

struct Campaign {
    TempDir dir;
    CampaignSpec spec;
    Campaign() {
        spec.batch = 128;
        spec.topologies = {{1, 1}, {1, 2}, {1, 8}};
        writeCampaign(dir.path(), spec);
        writeFile(logPath(dir.path(), spec, 1, 8, 3), runText(spec, 8, 3, 30)); // cut short
    }
    QString root() const { return QString::fromStdString(dir.path().string()); }
};

QAction* liveAction(ui::MainWindow& window) {
    for (auto* a : window.findChildren<QAction*>())
        if (a->text().contains(QLatin1String("follow new and growing logs"))) return a;
    return nullptr;
}

MeasureOptions measureShown(ui::MainWindow& window) {
    return {window.controls()->warmupBox()->value(), window.controls()->iterationsBox()->value()};
}

} // namespace

// Pages and Export after a failed open: an empty analysis, never the directory open before.
TEST(MainWindow, AFailedOpenLeavesNothingStaleOnThePagesOrInExport) {
    Campaign c;
    TempDir notLogs;
    writeFile(notLogs / "notes.txt", "hello\n");
    Window w;
    w.window.show();
    QSignalSpy failed(w.window.loader(), &ui::LoadController::failed);
    for (const QString& bad : {QStringLiteral("/nonexistent/scaleview"),
                               QString::fromStdString(notLogs.path().string())}) {
        w.window.openDirectory(c.root());
        ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
        ASSERT_EQ(w.window.resultsPage()->model()->rowCount(), 3);
        const int failures = failed.count();
        w.window.openDirectory(bad);
        ASSERT_TRUE(waitUntil([&] { return failed.count() > failures; }));
        const auto a = w.window.analysis()->current();
        ASSERT_TRUE(a) << bad.toStdString();
        EXPECT_TRUE(a->summary.runs.empty());
        EXPECT_EQ(a->summary.root, bad.toStdString());
        EXPECT_EQ(w.window.resultsPage()->model()->rowCount(), 0);
        EXPECT_EQ(w.window.runsPage()->model()->rowCount(), 0);
        EXPECT_EQ(w.window.warnings()->rowCount(), 0);
        EXPECT_FALSE(w.window.throughputPage()->view()->isVisible());
        QString error;
        EXPECT_FALSE(w.window.exporter()->tableText(ui::TableFormat::Csv, &error));
        EXPECT_EQ(error, QStringLiteral("nothing loaded"));
        QTemporaryDir out;
        EXPECT_FALSE(w.window.exporter()->exportChart(ui::ChartKind::Throughput,
                                                      out.filePath(QStringLiteral("t.png")),
                                                      QSize(600, 400), 1.0, &error));
        EXPECT_TRUE(w.window.statusText().startsWith(QStringLiteral("Cannot open")))
            << w.window.statusText().toStdString();
    }
}

// A run of a campaign ends while its directory is open: what is new is read (one look by the
// live controller), the directory is not loaded again.
TEST(MainWindow, ARunEndReadsWhatIsNewWithoutReopening) {
    Campaign c;
    Window w;
    liveAction(w.window)->setChecked(false); // so no file event can be what updates the view
    w.window.openDirectory(c.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    emit w.window.runPanel()->controller()->started(1);
    QSignalSpy reloads(w.window.loader(), &ui::LoadController::started);
    writeFile(logPath(c.dir.path(), c.spec, 1, 2, 4), runText(c.spec, 2, 4));
    emit w.window.runPanel()->resultsReady(c.root(), 20, 120);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 10u; }));
    EXPECT_EQ(reloads.count(), 0);
    EXPECT_FALSE(w.window.live()->isActive()); // one look; Live stays off as the user set it
}

// The user chose another warmup and window while the campaign ran: run ends keep them, also
// when the first one brings the campaign's directory into view.
TEST(MainWindow, ARunEndNeverOverwritesTheUsersWarmupAndWindow) {
    Campaign c;
    Window w;
    emit w.window.runPanel()->controller()->started(1);
    w.window.controls()->warmupBox()->setValue(10);
    w.window.controls()->iterationsBox()->setValue(30);
    emit w.window.runPanel()->resultsReady(c.root(), 2, 8);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    EXPECT_EQ(w.window.loader()->root(), c.root());
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.warmup, 10);
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.iterations, 30);
    writeFile(logPath(c.dir.path(), c.spec, 1, 2, 4), runText(c.spec, 2, 4));
    emit w.window.runPanel()->resultsReady(c.root(), 2, 8);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 10u; }));
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.warmup, 10);
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.iterations, 30);
    EXPECT_EQ(measureShown(w.window).warmup, 10);
    EXPECT_EQ(measureShown(w.window).iterations, 30);
}

// Untouched, the campaign's own warmup and window measure its results when they come into view.
TEST(MainWindow, ARunEndShowsTheCampaignMeasuredAsItWasRun) {
    Campaign c;
    Window w;
    emit w.window.runPanel()->controller()->started(1);
    emit w.window.runPanel()->resultsReady(c.root(), 5, 25);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.warmup, 5);
    EXPECT_EQ(w.window.analysis()->current()->summary.load.measure.iterations, 25);
    EXPECT_EQ(measureShown(w.window).iterations, 25);
}

// The user opened another directory since the campaign started: a run end leaves it be.
TEST(MainWindow, ARunEndNeverReplacesADirectoryOpenedSinceTheCampaignStarted) {
    Campaign campaign, theirs;
    Window w;
    w.window.openDirectory(campaign.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    emit w.window.runPanel()->controller()->started(1);
    w.window.openDirectory(theirs.root());
    ASSERT_TRUE(w.waitFor(
        [&](const ui::Analysis& a) { return a.summary.root == theirs.dir.path().string(); }));
    QSignalSpy reloads(w.window.loader(), &ui::LoadController::started);
    // The window acts on the signal at once (a load would start within this call).
    emit w.window.runPanel()->resultsReady(campaign.root(), 2, 8);
    EXPECT_EQ(reloads.count(), 0);
    EXPECT_EQ(w.window.loader()->root(), theirs.root());
    EXPECT_EQ(measureShown(w.window).warmup, 20);
    EXPECT_EQ(measureShown(w.window).iterations, 120);
}

TEST(MainWindow, OpenSwitchMethodToggleReferenceSelectRunAndExport) {
    Campaign c;
    Window w;
    w.window.show();
    w.window.openDirectory(c.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis&) { return true; }));

    // Results: the core's statistics, time method.
    const auto* results = w.window.resultsPage()->model();
    ASSERT_EQ(results->rowCount(), 3);
    const Summary time = summarizeDirectory(c.dir.path(), {}, {});
    EXPECT_EQ(results->data(results->index(2, ui::CaseTableModel::Median)).toString().toStdString(),
              formatFixed(*time.cases[2].median, 2));
    EXPECT_EQ(w.window.warnings()->rowCount(), 1);
    EXPECT_TRUE(w.window.statusText().contains(QStringLiteral("1 warning")));
    EXPECT_FALSE(w.window.statusText().contains(QStringLiteral("1 warnings")));
    EXPECT_TRUE(w.window.statusText().contains(QStringLiteral("9 runs, 8 used")));

    // Switch method in the control panel.
    w.window.controls()->methodBox()->setCurrentIndex(1);
    ASSERT_TRUE(
        w.waitFor([](const ui::Analysis& a) { return a.summary.options.method == Method::Speed; }));
    SummaryOptions speed;
    speed.method = Method::Speed;
    const Summary core = summarizeDirectory(c.dir.path(), {}, speed);
    EXPECT_EQ(results->data(results->index(2, ui::CaseTableModel::Median)).toString().toStdString(),
              formatFixed(*core.cases[2].median, 2));

    // Toggle a second reference: the throughput chart gets its bars.
    EXPECT_EQ(w.barSets(), 2);
    auto* refs = w.window.controls()->references();
    const QModelIndex oneflow = refs->indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0");
    ASSERT_TRUE(oneflow.isValid());
    refs->setData(oneflow, Qt::Checked, Qt::CheckStateRole);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.references.size() == 2; }));
    EXPECT_EQ(w.barSets(), 3);

    // Select the cut-short run: its trace shows, with the shaded window.
    w.window.showPage(ui::MainWindow::Runs);
    auto* runs = w.window.runsPage();
    int cutShort = -1;
    for (int r = 0; r < runs->model()->rowCount(); ++r)
        if (!runs->model()->run(r).usable()) cutShort = r;
    ASSERT_GE(cutShort, 0);
    runs->selectRun(cutShort);
    EXPECT_EQ(runs->selectedRun(), cutShort);
    ASSERT_TRUE(runs->traceView()->isVisible());
    QChart* trace = runs->traceView()->chart();
    EXPECT_TRUE(trace->title().contains(QStringLiteral("incomplete")));
    int areas = 0;
    for (auto* s : trace->series())
        areas += qobject_cast<QAreaSeries*>(s) ? 1 : 0;
    EXPECT_EQ(areas, 3);

    // Exports.
    QTemporaryDir out;
    QString error;
    w.window.showPage(ui::MainWindow::Throughput);
    const QString png = out.filePath(QStringLiteral("throughput.png"));
    ASSERT_TRUE(w.window.exporter()->exportChart(w.window.currentChartKind(), png, QSize(900, 600),
                                                 2.0, &error))
        << error.toStdString();
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1800, 1200));
    EXPECT_GT(distinctColours(image), 20);
    const QString svg = out.filePath(QStringLiteral("speedup.svg"));
    w.window.showPage(ui::MainWindow::Speedup);
    ASSERT_TRUE(w.window.exporter()->exportChart(w.window.currentChartKind(), svg, QSize(900, 600),
                                                 1.0, &error));
    const std::string svgText = slurpFile(svg.toStdString());
    EXPECT_NE(svgText.find("Speedup — r50 fp32, batch 128"), std::string::npos);
    EXPECT_NE(svgText.find("OneFlow 0.2.0"), std::string::npos);
    const QString trc = out.filePath(QStringLiteral("trace.png"));
    w.window.showPage(ui::MainWindow::Runs);
    ASSERT_TRUE(w.window.exporter()->exportChart(w.window.currentChartKind(), trc, QSize(600, 300),
                                                 1.0, &error));
    EXPECT_EQ(QImage(trc).size(), QSize(600, 300));
    const QString csv = out.filePath(QStringLiteral("results.csv"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::Csv, csv, &error));
    const std::string csvText = slurpFile(csv.toStdString());
    EXPECT_NE(csvText.find(",speed,"), std::string::npos);
    EXPECT_NE(csvText.find(formatFixed(*core.cases[0].median, 2)), std::string::npos);
    EXPECT_NE(csvText.find("dlperf-ngc-mxnet-fp32-bs128"),
              std::string::npos); // first overlay is the reference
    EXPECT_EQ(std::count(csvText.begin(), csvText.end(), '\n'), 4); // header + 3 cases
    const QString md = out.filePath(QStringLiteral("results.md"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::Markdown, md, &error));
    EXPECT_NE(slurpFile(md.toStdString()).find("| node_num | gpu_num | samples/s | speedup |"),
              std::string::npos);
    const QString dl = out.filePath(QStringLiteral("dlperf.json"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::DlperfJson, dl, &error));
    EXPECT_NE(slurpFile(dl.toStdString()).find("\"1n8g\": {\"average_speed\""), std::string::npos);
}

TEST(MainWindow, WarmupChangeRecomputesAndResultsCopy) {
    Campaign c;
    Window w;
    w.window.openDirectory(c.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis&) { return true; }));
    w.window.controls()->warmupBox()->setValue(10);
    w.window.controls()->iterationsBox()->setValue(30);
    ASSERT_TRUE(
        w.waitFor([](const ui::Analysis& a) { return a.summary.load.measure.iterations == 30; }));
    // With a 30-iteration window the cut-short run counts again.
    EXPECT_EQ(w.window.warnings()->rowCount(), 0);
    EXPECT_EQ(w.window.resultsPage()
                  ->model()
                  ->data(w.window.resultsPage()->model()->index(2, ui::CaseTableModel::RunsUsed))
                  .toInt(),
              3);
    w.window.resultsPage()->view()->selectAll();
    const QString copied = w.window.resultsPage()->selectionText();
    EXPECT_TRUE(copied.startsWith(QStringLiteral("Model\tPrecision")));
    EXPECT_EQ(copied.count(QLatin1Char('\n')), 4);
    // The group's model, precision and batch are hidden in the window (the caption says them),
    // yet every copied line carries every column.
    EXPECT_TRUE(w.window.resultsPage()->view()->isColumnHidden(ui::CaseTableModel::Model));
    for (const QString& line : copied.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        EXPECT_EQ(line.count(QLatin1Char('\t')), ui::CaseTableModel::ColumnCount - 1)
            << line.toStdString();
}

TEST(MainWindow, SettingsPersistSelections) {
    Campaign c;
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    {
        ui::AppSettings settings(ini);
        ui::MainWindow window(&settings);
        window.openDirectory(c.root());
        ASSERT_TRUE(waitUntil([&] {
            auto a = window.analysis()->current();
            return a && a->complete;
        }));
        window.controls()->methodBox()->setCurrentIndex(1);
        ASSERT_TRUE(waitUntil(
            [&] { return window.analysis()->current()->summary.options.method == Method::Speed; }));
        window.close();
    }
    ui::AppSettings settings(ini);
    EXPECT_EQ(settings.lastDirectory(), c.root());
    EXPECT_EQ(settings.recent(), QStringList{c.root()});
    EXPECT_EQ(settings.analysisOptions().method, Method::Speed);
    EXPECT_FALSE(settings.geometry().isEmpty());
    ui::MainWindow window(&settings);
    EXPECT_EQ(window.controls()->methodBox()->currentIndex(), 1);
}

TEST(MainWindow, BrokenSettingsFileDoesNotStopTheApp) {
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    {
        QFile f(ini);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(
            "[analysis]\nwarmup=banana\niterations=-7\nreferences=no-such-table\nmethod=\x01\xff\n"
            "[window]\ngeometry=@ByteArray(\\xff\\x00garbage)\nstate=@Variant("
            "\\0\\0\\0\\x7f\\xff\\xff)\npage=99\n"
            "[\xff\xfe\nrecent=@Invalid()\n\0\0\0garbage");
    }
    ui::AppSettings settings(ini);
    const ui::AnalysisOptions o = settings.analysisOptions();
    EXPECT_EQ(o.measure.warmup, 20);
    EXPECT_EQ(o.measure.iterations, 120);
    EXPECT_EQ(o.method, Method::Time);
    EXPECT_TRUE(o.references.empty());
    EXPECT_EQ(settings.page(), 0);
    ui::MainWindow window(&settings);
    window.show();
    EXPECT_TRUE(window.isVisible());
    Campaign c;
    window.openDirectory(c.root());
    EXPECT_TRUE(waitUntil([&] {
        auto a = window.analysis()->current();
        return a && a->complete;
    }));
}

TEST(MainWindow, UnreadableSettingsFileIsSetAside) {
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    QDir().mkpath(ini); // a directory where the file should be: QSettings cannot read it
    ui::AppSettings settings(ini);
    ui::MainWindow window(&settings);
    EXPECT_EQ(settings.analysisOptions().measure.warmup, 20);
    // Said, and moved out of the way so the next start writes a good one.
    EXPECT_TRUE(settings.wasBroken());
    EXPECT_TRUE(QFileInfo(ini + QStringLiteral(".broken")).isDir());
    EXPECT_FALSE(QFileInfo::exists(ini) && QFileInfo(ini).isDir());
}
