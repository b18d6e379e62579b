// The window as a user drives it (offscreen): open a directory, switch method, toggle a
// reference, select a run, export PNG, SVG and CSV; settings that survive, and break, safely.

#include "uifixture.h"

#include "analysiscontroller.h"
#include "appsettings.h"
#include "casetablemodel.h"
#include "chartpage.h"
#include "controlpanel.h"
#include "mainwindow.h"
#include "referencelistmodel.h"
#include "report.h"
#include "resultspage.h"
#include "runspage.h"
#include "runtablemodel.h"
#include "speeduppage.h"
#include "warninglistmodel.h"

#include <QAreaSeries>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
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

} // namespace

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
    EXPECT_TRUE(w.window.statusText().contains(QStringLiteral("1 warnings")));
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
    const int row = refs->rowOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0");
    ASSERT_GE(row, 0);
    refs->setData(refs->index(row), Qt::Checked, Qt::CheckStateRole);
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
