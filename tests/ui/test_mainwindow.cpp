// The window as a user drives it (offscreen): open a directory, switch method, toggle a
// reference, select a run, export PNG, SVG and CSV; settings that survive, and break, safely.

#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/export/exportcontroller.h"
#include "ui/models/casetablemodel.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/window/mainwindow.h"
#include "ui/widgets/pagebanner.h"
#include "ui/widgets/plural.h"
#include "ui/models/referencelistmodel.h"
#include "core/report/report.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/models/runtablemodel.h"
#include "ui/browse/speeduppage.h"
#include "ui/models/warninglistmodel.h"

#include <QAction>
#include <QAreaSeries>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QCoreApplication>

#include <cstdint>
#include <sys/stat.h>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
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

// A campaign as the Run page leaves it: campaign.json with its window in OUT, logs of that many
// iterations in OUT/logs.
struct CampaignDir {
    TempDir dir;
    CampaignSpec spec;
    CampaignDir(int warmup, int iterations) {
        spec.iterations = iterations;
        writeFile(dir.path() / "campaign.json",
                  "{\"profile\": \"pytorch-resnet50\", \"warmup\": " + std::to_string(warmup) +
                      ", \"iterations\": " + std::to_string(iterations) + "}\n");
        writeCampaign(dir.path() / "logs", spec);
    }
    QString root() const { return QString::fromStdString(dir.path().string()); }
    QString logs() const { return QString::fromStdString((dir.path() / "logs").string()); }
};

std::size_t usedRuns(const ui::Analysis& a) {
    return static_cast<std::size_t>(std::count_if(a.summary.runs.begin(), a.summary.runs.end(),
                                                  [](const RunResult& r) { return r.usable(); }));
}

bool sameWindow(const MeasureOptions& a, const MeasureOptions& b) {
    return a.warmup == b.warmup && a.iterations == b.iterations;
}

} // namespace

// Issue 15: a failed open relabelled the old results with the new name, and said why only in
// the status bar. What is shown stays, under its own name, in the pages, Export and Live; a
// banner above every page says what failed, the layout expected, and offers another choice.
TEST(MainWindow, AFailedOpenKeepsWhatIsShownUnderItsOwnNameAndSaysWhy) {
    Campaign c;
    TempDir notLogs;
    writeFile(notLogs / "notes.txt", "hello\n");
    Window w;
    w.window.show();
    QSignalSpy failed(w.window.loader(), &ui::LoadController::failed);
    w.window.openDirectory(c.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    const QString title = w.window.windowTitle();
    ASSERT_TRUE(title.contains(c.root())) << title.toStdString();
    ASSERT_TRUE(w.window.live()->isActive());
    int runs = 9;
    for (const QString& bad : {QStringLiteral("/nonexistent/scaleview"),
                               QString::fromStdString(notLogs.path().string())}) {
        const int failures = failed.count();
        w.window.openDirectory(bad);
        ASSERT_TRUE(waitUntil([&] { return failed.count() > failures; }));
        const auto a = w.window.analysis()->current();
        ASSERT_TRUE(a) << bad.toStdString();
        EXPECT_EQ(a->summary.root, c.dir.path().string());
        EXPECT_EQ(a->summary.runs.size(), static_cast<std::size_t>(runs));
        EXPECT_EQ(w.window.windowTitle(), title);
        EXPECT_EQ(w.window.loader()->root(), c.root());
        EXPECT_EQ(w.window.resultsPage()->model()->rowCount(), 3);
        EXPECT_EQ(w.window.runsPage()->model()->rowCount(), runs);
        QString error;
        const auto csv = w.window.exporter()->tableText(ui::TableFormat::Json, &error);
        ASSERT_TRUE(csv) << error.toStdString();
        EXPECT_NE(csv->find(c.dir.path().string()), std::string::npos);
        // The banner, whatever the page, names what failed and what is expected.
        for (auto page : {ui::MainWindow::Results, ui::MainWindow::Runs, ui::MainWindow::Run}) {
            w.window.showPage(page);
            EXPECT_TRUE(w.window.openBanner()->isVisible());
        }
        const QString text = w.window.openBanner()->text();
        EXPECT_TRUE(text.contains(QStringLiteral("Cannot open ") + bad)) << text.toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral("<N>n<G>g/<model>_b<B>_<precision>_<repeat>.log")))
            << text.toStdString();
        EXPECT_TRUE(text.contains(QStringLiteral("Still showing ") + c.root()))
            << text.toStdString();
        EXPECT_EQ(w.window.openBanner()->actionButton()->text(), QStringLiteral("Choose another…"));
        EXPECT_TRUE(w.window.openBanner()->actionButton()->isVisible());
        // Live still follows the directory shown: a new log there comes into view.
        EXPECT_TRUE(w.window.live()->isActive());
        const int repeat = runs - 5; // 4, then 5: new in 1n2g
        writeFile(logPath(c.dir.path(), c.spec, 1, 2, repeat), runText(c.spec, 2, repeat));
        ++runs;
        ASSERT_TRUE(w.waitFor([&](const ui::Analysis& now) {
            return now.summary.runs.size() == static_cast<std::size_t>(runs);
        })) << bad.toStdString();
        EXPECT_EQ(w.window.analysis()->current()->summary.root, c.dir.path().string());
    }
    // A good open puts the banner away.
    Campaign other;
    w.window.openDirectory(other.root());
    ASSERT_TRUE(w.waitFor(
        [&](const ui::Analysis& a) { return a.summary.root == other.dir.path().string(); }));
    EXPECT_FALSE(w.window.openBanner()->isVisible());
    EXPECT_TRUE(w.window.windowTitle().contains(other.root()));
}

// With nothing shown before, a failed open leaves the empty state, nothing to export, and the
// banner saying why.
TEST(MainWindow, AFailedFirstOpenKeepsTheEmptyStateAndSaysWhy) {
    Window w;
    w.window.show();
    QSignalSpy failed(w.window.loader(), &ui::LoadController::failed);
    w.window.openDirectory(QStringLiteral("/nonexistent/scaleview"));
    ASSERT_TRUE(failed.wait(10000));
    const auto a = w.window.analysis()->current();
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->summary.runs.empty());
    EXPECT_EQ(w.window.windowTitle(), QStringLiteral("ScaleView"));
    EXPECT_EQ(w.window.resultsPage()->model()->rowCount(), 0);
    EXPECT_FALSE(w.window.throughputPage()->view()->isVisible());
    QString error;
    EXPECT_FALSE(w.window.exporter()->tableText(ui::TableFormat::Csv, &error));
    EXPECT_EQ(error, QStringLiteral("nothing loaded"));
    EXPECT_TRUE(w.window.openBanner()->isVisible());
    EXPECT_TRUE(w.window.openBanner()->text().contains(QStringLiteral("/nonexistent/scaleview")));
    EXPECT_TRUE(w.window.statusText().startsWith(QStringLiteral("Cannot open")))
        << w.window.statusText().toStdString();
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
    // One log format: named in the caption, not repeated on every row.
    EXPECT_TRUE(w.window.resultsPage()->view()->isColumnHidden(ui::CaseTableModel::Framework));
    EXPECT_TRUE(w.window.resultsPage()->caption().contains(
        QStringLiteral("logs in NGC MXNet format — throughput in images/s")))
        << w.window.resultsPage()->caption().toStdString();
    // Its cases have the published table's figures: the caption says what Δ is.
    EXPECT_TRUE(w.window.resultsPage()->caption().contains(QStringLiteral("Δ compares the median")))
        << w.window.resultsPage()->caption().toStdString();
    // The panel lists each case's warnings (about the figures) before the files' (the input).
    std::size_t caseWarnings = 0;
    for (const auto& k : time.cases)
        caseWarnings += k.warnings.size();
    ASSERT_EQ(time.warnings.size(), 1u);
    const int shown = w.window.warnings()->rowCount();
    EXPECT_EQ(shown, static_cast<int>(caseWarnings + 1));
    EXPECT_EQ(w.window.warnings()->index(shown - 1).data().toString().toStdString(),
              time.warnings[0].text());
    EXPECT_TRUE(w.window.statusText().contains(
        ui::countOf(shown, QStringLiteral("warning"), QStringLiteral("warnings"))));
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
    const std::string svgText = readWhole(svg.toStdString());
    EXPECT_NE(svgText.find("Speedup over 1 GPU — r50 fp32, batch 128"), std::string::npos);
    EXPECT_NE(svgText.find("OneFlow 0.2.0"), std::string::npos);
    const QString trc = out.filePath(QStringLiteral("trace.png"));
    w.window.showPage(ui::MainWindow::Runs);
    ASSERT_TRUE(w.window.exporter()->exportChart(w.window.currentChartKind(), trc, QSize(600, 300),
                                                 1.0, &error));
    EXPECT_EQ(QImage(trc).size(), QSize(600, 300));
    const QString csv = out.filePath(QStringLiteral("results.csv"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::Csv, csv, &error));
    const std::string csvText = readWhole(csv.toStdString());
    EXPECT_NE(csvText.find(",speed,"), std::string::npos);
    EXPECT_NE(csvText.find(formatFixed(*core.cases[0].median, 2)), std::string::npos);
    EXPECT_NE(csvText.find("dlperf-ngc-mxnet-fp32-bs128"),
              std::string::npos); // first overlay is the reference
    EXPECT_EQ(std::count(csvText.begin(), csvText.end(), '\n'), 4); // header + 3 cases
    const QString md = out.filePath(QStringLiteral("results.md"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::Markdown, md, &error));
    EXPECT_NE(readWhole(md.toStdString()).find("| node_num | gpu_num | samples/s | speedup |"),
              std::string::npos);
    const QString dl = out.filePath(QStringLiteral("dlperf.json"));
    ASSERT_TRUE(w.window.exporter()->exportTable(ui::TableFormat::DlperfJson, dl, &error));
    EXPECT_NE(readWhole(dl.toStdString()).find("\"1n8g\": {\"average_speed\""), std::string::npos);
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

namespace {
// Opens root in window and waits until its complete analysis is shown and nothing is computing.
bool openAndWait(ui::MainWindow& window, const QString& root) {
    window.openDirectory(root);
    return waitUntil([&] {
        auto a = window.analysis()->current();
        return a && a->complete && !window.analysis()->isBusy();
    });
}

// A campaign to open and a settings file of the test's own.
struct CampaignAndSettings {
    Campaign c;
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
};
} // namespace

TEST(MainWindow, SettingsPersistSelections) {
    const CampaignAndSettings f;
    {
        ui::AppSettings settings(f.ini);
        ui::MainWindow window(&settings);
        ASSERT_TRUE(openAndWait(window, f.c.root()));
        window.controls()->methodBox()->setCurrentIndex(1);
        ASSERT_TRUE(waitUntil(
            [&] { return window.analysis()->current()->summary.options.method == Method::Speed; }));
        window.close();
    }
    ui::AppSettings settings(f.ini);
    EXPECT_EQ(settings.lastDirectory(), f.c.root());
    EXPECT_EQ(settings.recent(), QStringList{f.c.root()});
    EXPECT_EQ(settings.analysisOptions().method, Method::Speed);
    EXPECT_FALSE(settings.geometry().isEmpty());
    ui::MainWindow window(&settings);
    EXPECT_EQ(window.controls()->methodBox()->currentIndex(), 1);
}

namespace {
// The settings file's identity: Qt rewrites it as a new file (a temporary copy renamed over it).
std::pair<ino_t, std::int64_t> fileIdentity(const QString& path) {
    struct stat st {};
    if (::stat(path.toLocal8Bit().constData(), &st) != 0) return {0, -1};
    return {st.st_ino,
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}
} // namespace

// Each analysis shown stores the window's options, and a load shows many: an unchanged value is
// not written, since each write has Qt rewrite and fdatasync the file on the GUI thread (about
// 10 ms each on this machine's idle disk, far more on a busy one).
TEST(MainWindow, ShowingAnalysesDoesNotRewriteUnchangedSettings) {
    const CampaignAndSettings f;
    ui::AppSettings settings(f.ini);
    ui::MainWindow window(&settings);
    ASSERT_TRUE(openAndWait(window, f.c.root()));
    settings.setPage(2);
    settings.sync();
    const auto before = fileIdentity(f.ini);
    ASSERT_NE(before.second, -1);
    // The same options again: recomputed and shown three times, the same directory added to
    // the recent list again, the same page chosen.
    for (int i = 0; i < 3; ++i) {
        const auto shown = window.analysis()->current();
        window.analysis()->setOptions(window.analysis()->options());
        ASSERT_TRUE(waitUntil(
            [&] { return window.analysis()->current() != shown && !window.analysis()->isBusy(); }));
    }
    settings.addRecent(f.c.root());
    settings.setPage(settings.page());
    QCoreApplication::processEvents(); // Qt's own deferred write, were anything pending
    settings.sync();
    EXPECT_EQ(fileIdentity(f.ini), before) << "the settings file was rewritten";
    // A real change is written.
    settings.setPage(3);
    settings.sync();
    EXPECT_NE(fileIdentity(f.ini), before);
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

// Issue 15: `scaleview DIR`, File › Open and a drop on a 60-iteration campaign showed "9 runs,
// 0 used" and an "incomplete" warning per run. The campaign's window measures it, and says so.
TEST(MainWindow, ACampaignDirectoryOpenedPlainlyIsMeasuredWithTheCampaignsWindow) {
    CampaignDir campaign(5, 60);
    for (const QString& root : {campaign.root(), campaign.logs()}) {
        Window w;
        w.window.show();
        w.window.openDirectory(root);
        ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
        const auto a = w.window.analysis()->current();
        EXPECT_EQ(usedRuns(*a), 9u) << root.toStdString();
        EXPECT_EQ(w.window.warnings()->rowCount(), 0);
        EXPECT_TRUE(sameWindow(a->summary.load.measure, {5, 60}));
        EXPECT_TRUE(sameWindow(measureShown(w.window), {5, 60}));
        EXPECT_EQ(w.window.controls()->windowSource(), ui::WindowSource::Campaign);
        EXPECT_TRUE(w.window.controls()->windowBadge()->isVisible());
        EXPECT_TRUE(w.window.controls()->windowBadge()->text().contains(
            QStringLiteral("the campaign's window")))
            << w.window.controls()->windowBadge()->text().toStdString();
        EXPECT_TRUE(w.window.statusText().contains(QStringLiteral("9 runs, 9 used")))
            << w.window.statusText().toStdString();
        EXPECT_TRUE(w.window.statusText().endsWith(QStringLiteral(" · the campaign's window 5…59")))
            << w.window.statusText().toStdString();
        // An export says whose window measured it.
        QString error;
        const auto json = w.window.exporter()->tableText(ui::TableFormat::Json, &error);
        ASSERT_TRUE(json) << error.toStdString();
        const auto options = nlohmann::json::parse(*json)["options"];
        EXPECT_EQ(options["window_source"], "campaign");
        EXPECT_EQ(options["campaign_file"], (campaign.dir.path() / "campaign.json").string());
        EXPECT_EQ(options["iterations"], 60);
    }
}

// Issue 27: the Run tab's own campaign keeps its logs four levels under campaign.json
// (OUT/logs/local/pytorch-cpu/resnet50), the directory the app shows and remembers. Reopened,
// it read "9 runs, 0 used": every run incomplete against DLPerf's 120 iterations.
TEST(MainWindow, ACampaignsDeepLogRootOpensWithTheCampaignsWindow) {
    TempDir dir;
    CampaignSpec spec;
    spec.iterations = 40;
    writeFile(dir.path() / "campaign.json",
              "{\"profile\": \"local-cpu-rn50\", \"warmup\": 10, \"iterations\": 40}\n");
    const auto logs = dir.path() / "logs" / "local" / "pytorch-cpu" / "resnet50";
    writeCampaign(logs, spec);
    Window w;
    w.window.show();
    w.window.openDirectory(QString::fromStdString(logs.string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    const auto a = w.window.analysis()->current();
    EXPECT_EQ(usedRuns(*a), 9u);
    EXPECT_TRUE(sameWindow(a->summary.load.measure, {10, 40}));
    EXPECT_TRUE(sameWindow(measureShown(w.window), {10, 40}));
    EXPECT_EQ(w.window.controls()->windowSource(), ui::WindowSource::Campaign);
    EXPECT_TRUE(w.window.statusText().contains(QStringLiteral("9 runs, 9 used")))
        << w.window.statusText().toStdString();
}

// Issue 15: after a tiny campaign (warmup 5, 20 iterations), plain DLPerf logs opened later were
// measured over iterations 5–19, and a truncated log counted as complete. The window belongs to
// the directory, across opens and restarts; the user's choice is remembered for that directory
// only, and one click resets it.
TEST(MainWindow, AWindowBelongsToItsDirectoryAcrossOpensAndRestarts) {
    CampaignDir tiny(5, 20);
    Campaign plain; // one 1n8g log stops at 30 iterations
    Campaign another;
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    auto open = [](ui::MainWindow& window, const QString& root) {
        window.openDirectory(root);
        return waitUntil(
            [&] {
                auto a = window.analysis()->current();
                return a && a->complete && !window.analysis()->isBusy() &&
                       a->summary.root == root.toStdString();
            },
            20000);
    };
    {
        ui::AppSettings settings(ini);
        ui::MainWindow window(&settings);
        window.show();
        ASSERT_TRUE(open(window, tiny.root()));
        EXPECT_TRUE(sameWindow(measureShown(window), {5, 20}));
        ASSERT_TRUE(open(window, plain.root()));
        EXPECT_TRUE(sameWindow(measureShown(window), {20, 120}));
        EXPECT_TRUE(sameWindow(window.analysis()->current()->summary.load.measure, {20, 120}));
        // The truncated log does not count (the panel also lists the cases' warnings).
        EXPECT_EQ(window.analysis()->current()->summary.warnings.size(), 1u);
        EXPECT_FALSE(window.controls()->windowBadge()->isVisible());
        EXPECT_FALSE(window.controls()->resetWindowButton()->isVisible());
        // The user's window for this directory: named, and kept for it alone.
        window.controls()->warmupBox()->setValue(10);
        window.controls()->iterationsBox()->setValue(30);
        EXPECT_EQ(window.controls()->windowSource(), ui::WindowSource::User);
        EXPECT_TRUE(window.controls()->windowBadge()->text().contains(
            QStringLiteral("your choice for this directory")));
        ASSERT_TRUE(open(window, another.root()));
        EXPECT_TRUE(sameWindow(measureShown(window), {20, 120}));
        ASSERT_TRUE(open(window, plain.root()));
        EXPECT_TRUE(sameWindow(measureShown(window), {10, 30}));
        EXPECT_TRUE(sameWindow(window.analysis()->current()->summary.load.measure, {10, 30}));
        window.close();
    }
    ui::AppSettings settings(ini);
    ui::MainWindow window(&settings);
    window.show();
    EXPECT_TRUE(sameWindow(measureShown(window), {20, 120})); // nothing open: DLPerf's
    ASSERT_TRUE(open(window, another.root()));
    EXPECT_TRUE(sameWindow(measureShown(window), {20, 120}));
    ASSERT_TRUE(open(window, plain.root()));
    EXPECT_TRUE(sameWindow(measureShown(window), {10, 30}));
    EXPECT_TRUE(window.controls()->windowBadge()->isVisible());
    ASSERT_TRUE(window.controls()->resetWindowButton()->isVisible());
    window.controls()->resetWindowButton()->click();
    ASSERT_TRUE(waitUntil([&] {
        auto a = window.analysis()->current();
        return a && !window.analysis()->isBusy() && sameWindow(a->summary.load.measure, {20, 120});
    }));
    EXPECT_TRUE(sameWindow(measureShown(window), {20, 120}));
    EXPECT_FALSE(window.controls()->windowBadge()->isVisible());
    EXPECT_FALSE(settings.windowFor(plain.root()));
    ASSERT_TRUE(open(window, tiny.root()));
    EXPECT_TRUE(sameWindow(measureShown(window), {5, 20}));
    ASSERT_TRUE(open(window, plain.root()));
    EXPECT_TRUE(sameWindow(measureShown(window), {20, 120}));
}

// A plain tree whose logs all stop at 60: the banner offers their length, one click applies it
// to this directory.
TEST(MainWindow, LogsThatAllStopShortOfTheWindowOfferTheirLength) {
    TempDir dir;
    CampaignSpec spec;
    spec.iterations = 60;
    writeCampaign(dir.path(), spec);
    Window w;
    w.window.show();
    w.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    EXPECT_EQ(usedRuns(*w.window.analysis()->current()), 0u);
    ASSERT_TRUE(w.window.windowBanner()->isVisible());
    EXPECT_TRUE(w.window.windowBanner()->text().contains(QStringLiteral("60 iterations")))
        << w.window.windowBanner()->text().toStdString();
    EXPECT_EQ(w.window.windowBanner()->actionButton()->text(), QStringLiteral("Use 60 iterations"));
    w.window.windowBanner()->actionButton()->click();
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return usedRuns(a) == 9u; }));
    EXPECT_TRUE(sameWindow(measureShown(w.window), {20, 60}));
    EXPECT_EQ(w.window.controls()->windowSource(), ui::WindowSource::User);
    EXPECT_FALSE(w.window.windowBanner()->isVisible());
}

// A campaign.json that cannot be read measures with DLPerf's window, and the banner says why,
// naming the file.
TEST(MainWindow, ABrokenCampaignFileIsSaidAndDlperfsWindowUsed) {
    CampaignDir campaign(5, 60);
    writeFile(campaign.dir.path() / "campaign.json", "{\"warmup\": \"five\"}");
    Window w;
    w.window.show();
    w.window.openDirectory(campaign.logs());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    EXPECT_TRUE(sameWindow(measureShown(w.window), {20, 120}));
    EXPECT_EQ(w.window.controls()->windowSource(), ui::WindowSource::Dlperf);
    ASSERT_TRUE(w.window.windowBanner()->isVisible());
    const QString text = w.window.windowBanner()->text();
    EXPECT_TRUE(text.contains(QString::fromStdString(
        (campaign.dir.path() / "campaign.json").string() + ": \"warmup\" is not a whole number")))
        << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("not the campaign's"))) << text.toStdString();
    // The logs' own length is still offered, below the note.
    EXPECT_TRUE(text.contains(QStringLiteral("These logs all have 60 iterations")))
        << text.toStdString();
    w.window.windowBanner()->actionButton()->click();
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return usedRuns(a) == 9u; }));
    EXPECT_FALSE(w.window.windowBanner()->isVisible());
}

// Issue 27: at 1024x700 Speedup and Efficiency scrolled off the right edge of Results, and
// Campaign > Cancel was offered while nothing ran.
TEST(MainWindow, At1024x700ResultsShowSpeedupAndEfficiencyWithoutScrolling) {
    Campaign c;
    Window w;
    w.window.resize(1024, 700);
    w.window.show();
    w.window.openDirectory(c.root());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    w.window.showPage(ui::MainWindow::Results);
    QTableView* view = w.window.resultsPage()->view();
    ASSERT_TRUE(waitUntil([&] { return view->isVisible() && view->viewport()->width() > 0; }));
    QCoreApplication::processEvents();
    QHeaderView* header = view->horizontalHeader();
    for (int column : {ui::CaseTableModel::Nodes, ui::CaseTableModel::Gpus,
                       ui::CaseTableModel::Median, ui::CaseTableModel::Speedup,
                       ui::CaseTableModel::Efficiency}) {
        const int at = header->sectionViewportPosition(column);
        EXPECT_GE(at, 0) << column;
        EXPECT_LE(at + header->sectionSize(column), view->viewport()->width())
            << "column " << column << " ends past the visible width";
    }
    QAction* cancel = w.window.findChild<QAction*>(QStringLiteral("cancel"));
    ASSERT_TRUE(cancel);
    EXPECT_FALSE(cancel->isEnabled()) << "Cancel offered while nothing runs";
    QAction* run = w.window.findChild<QAction*>(QStringLiteral("run"));
    ASSERT_TRUE(run);
    EXPECT_TRUE(run->isEnabled());
}
