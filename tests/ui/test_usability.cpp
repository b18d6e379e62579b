// What a user touches before any number: the start page, keyboard paths (pages, shortcuts, Tab
// out of tables), Export's state and names, warnings that open their run, the Runs table's order
// and filter, headers that explain themselves, plurals and no "-0.0 %", the Run form's messages
// and the monitor's headline. The real window, offscreen.

#include "tests/support/files.h"
#include "tests/support/realworldwriter.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/run/campaignform.h"
#include "ui/models/casetablemodel.h"
#include "ui/models/cellvalues.h"
#include "ui/export/exportcontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/widgets/logactions.h"
#include "ui/window/methodologydialog.h"
#include "ui/widgets/pagebanner.h"
#include "ui/widgets/plural.h"
#include "launcher/campaign/journal.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "ui/models/runfilterproxy.h"
#include "ui/run/runprogressview.h"
#include "ui/run/runpanel.h"
#include "launcher/campaign/runprogress.h"
#include "ui/browse/runspage.h"
#include "ui/models/runtablemodel.h"
#include "ui/window/startpage.h"
#include "ui/models/warninglistmodel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPalette>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
    Window() {
        window.resize(1024, 700);
        window.show();
        window.activateWindow();
        // Shortcuts with a window context need the window active.
        EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
    }
    bool waitLoaded(std::size_t runs) {
        return waitUntil([&] {
            auto a = window.analysis()->current();
            return a && a->complete && !window.analysis()->isBusy() &&
                   a->summary.runs.size() == runs;
        });
    }
    QAction* action(const char* name) {
        for (auto* a : window.findChildren<QAction*>())
            if (a->objectName() == QLatin1String(name)) return a;
        return nullptr;
    }
};

// Three topologies, three repeats, one log cut short (a warning and a run left out).
struct Logs {
    TempDir dir;
    CampaignSpec spec;
    Logs() {
        spec.batch = 128;
        writeCampaign(dir.path(), spec);
        writeFile(logPath(dir.path(), spec, 1, 4, 2), runText(spec, 4, 2, 30));
    }
    QString root() const { return QString::fromStdString(dir.path().string()); }
};

// Collects what QDesktopServices would open, instead of starting a file manager.
class UrlCatcher : public QObject {
    Q_OBJECT
  public:
    UrlCatcher() { QDesktopServices::setUrlHandler(QStringLiteral("file"), this, "open"); }
    ~UrlCatcher() override { QDesktopServices::unsetUrlHandler(QStringLiteral("file")); }
    QList<QUrl> opened;
  public slots:
    void open(const QUrl& url) { opened << url; }
};

} // namespace

TEST(Keyboard, CtrlNumbersAndPageKeysSwitchPagesAndTheControlsDockLeavesTheRunTab) {
    Window w;
    w.window.showPage(ui::MainWindow::Results);
    ASSERT_TRUE(w.window.controlsDock()->isVisible());
    QTest::keyClick(&w.window, Qt::Key_3, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Speedup);
    QTest::keyClick(&w.window, Qt::Key_PageDown, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Runs);
    QTest::keyClick(&w.window, Qt::Key_PageUp, Qt::ControlModifier);
    QTest::keyClick(&w.window, Qt::Key_PageUp, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Throughput);
    QTest::keyClick(&w.window, Qt::Key_5, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Run);
    // The Run form has its own warmup and iterations: the analysis Controls are not beside it.
    EXPECT_FALSE(w.window.controlsDock()->isVisible());
    QTest::keyClick(&w.window, Qt::Key_1, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Results);
    EXPECT_TRUE(w.window.controlsDock()->isVisible());
    // Closed by the user, it stays closed on the analysis pages.
    w.window.controlsDock()->toggleViewAction()->trigger();
    QTest::keyClick(&w.window, Qt::Key_5, Qt::ControlModifier);
    QTest::keyClick(&w.window, Qt::Key_2, Qt::ControlModifier);
    EXPECT_FALSE(w.window.controlsDock()->isVisible());
}

TEST(Keyboard, EveryCommandHasItsShortcut) {
    Window w;
    const std::vector<std::pair<const char*, QKeySequence>> expected = {
        {"reload", QKeySequence(Qt::Key_F5)},
        {"methodology", QKeySequence(QKeySequence::HelpContents)},
        {"run", QKeySequence(Qt::CTRL | Qt::Key_R)},
        {"cancel", QKeySequence(Qt::CTRL | Qt::Key_Period)},
        {"preflight", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)},
        {"saveCampaign", QKeySequence(QKeySequence::Save)},
        {"exportPng", QKeySequence(Qt::CTRL | Qt::Key_E)},
        {"exportCsv", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)}};
    for (const auto& [name, keys] : expected) {
        QAction* a = w.action(name);
        ASSERT_TRUE(a) << name;
        EXPECT_EQ(a->shortcut(), keys) << name;
    }
    // Each shortcut is taken once in the window, or Qt would call it ambiguous and do nothing.
    std::map<QString, int> uses;
    for (auto* a : w.window.findChildren<QAction*>())
        if (!a->shortcut().isEmpty() && a->shortcutContext() != Qt::WidgetShortcut)
            ++uses[a->shortcut().toString()];
    for (const auto& [keys, n] : uses)
        EXPECT_EQ(n, 1) << keys.toStdString();
}

TEST(Keyboard, F5ReadsTheDirectoryAgainAndF1ExplainsTheMethod) {
    Logs logs;
    Window w;
    w.window.openDirectory(logs.root());
    ASSERT_TRUE(w.waitLoaded(9));
    QSignalSpy started(w.window.loader(), &ui::LoadController::started);
    QTest::keyClick(&w.window, Qt::Key_F5);
    ASSERT_EQ(started.count(), 1);
    EXPECT_EQ(started.at(0).at(0).toString(), logs.root());
    ASSERT_TRUE(w.waitLoaded(9));
    QTest::keyClick(&w.window, Qt::Key_F1);
    auto* dialog = w.window.findChild<ui::MethodologyDialog*>();
    ASSERT_TRUE(dialog);
    EXPECT_TRUE(dialog->isVisible());
    const QString text = ui::MethodologyDialog::html();
    for (const char* word : {"Time method", "Speed method", "median", "95 % interval", "Speedup",
                             "Efficiency", "high-cv", "superlinear", "methods-disagree",
                             "slow-rank", "drift", "few-repeats", "outlier"})
        EXPECT_TRUE(text.contains(QLatin1String(word))) << word;
    // Escape closes it, the focus in its text (issue 37: it did not).
    auto* browser = dialog->findChild<QTextBrowser*>();
    ASSERT_TRUE(browser);
    browser->setFocus();
    QTest::keyClick(browser, Qt::Key_Escape);
    EXPECT_TRUE(waitUntil([&] { return !dialog->isVisible(); }, 3000));
}

TEST(Keyboard, CtrlRPressesRunOnlyWhenRunIsPossible) {
    Window w;
    w.window.showPage(ui::MainWindow::Results);
    QSignalSpy started(w.window.runPanel()->controller(), &ui::RunController::started);
    // An impossible campaign: a topology no machine here has. Run is disabled; Ctrl+R shows the
    // Run page and starts nothing.
    w.window.runPanel()->form()->customTopologies()->setText(QStringLiteral("64n8g"));
    QTest::keyClick(&w.window, Qt::Key_R, Qt::ControlModifier);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Run);
    EXPECT_EQ(started.count(), 0);
}

TEST(Keyboard, TabLeavesTheTables) {
    Logs logs;
    Window w;
    w.window.openDirectory(logs.root());
    ASSERT_TRUE(w.waitLoaded(9));
    for (auto page : {ui::MainWindow::Results, ui::MainWindow::Runs}) {
        w.window.showPage(page);
        QTableView* table = page == ui::MainWindow::Results ? w.window.resultsPage()->view()
                                                            : w.window.runsPage()->view();
        table->setFocus();
        table->setCurrentIndex(table->model()->index(0, 3));
        ASSERT_TRUE(waitUntil([&] { return table->hasFocus(); }, 2000));
        QTest::keyClick(table, Qt::Key_Tab);
        EXPECT_FALSE(table->hasFocus()) << page;
        EXPECT_EQ(table->currentIndex().column(), 3) << page; // not moved to the next cell
    }
}

TEST(StartPage, AFirstStartSaysWhatTheAppIsForAndOpensTheSamples) {
    Window w;
    EXPECT_TRUE(w.window.directoryToReopen().isEmpty()); // nothing opened before
    w.window.showStartPage();
    ASSERT_TRUE(w.window.isStartPageShown());
    EXPECT_FALSE(w.window.controlsDock()->isVisible());
    EXPECT_FALSE(w.window.warningsDock()->isVisible());
    ui::StartPage* start = w.window.startPage();
    EXPECT_TRUE(start->isVisible());
    EXPECT_EQ(ui::StartPage::samplesDirectory(), QStringLiteral(SCALEVIEW_SAMPLES));
    // Export has nothing to write yet.
    EXPECT_FALSE(w.action("exportPng")->isEnabled());
    EXPECT_FALSE(w.action("exportCsv")->isEnabled());
    QSignalSpy started(w.window.loader(), &ui::LoadController::started);
    start->samplesButton()->click();
    ASSERT_EQ(started.count(), 1);
    EXPECT_EQ(started.at(0).at(0).toString(), QStringLiteral(SCALEVIEW_SAMPLES));
    // The pages replace the start page once the samples turn out to hold logs.
    ASSERT_TRUE(waitUntil([&] { return !w.window.isStartPageShown(); }));
    ASSERT_TRUE(waitUntil([&] {
        auto a = w.window.analysis()->current();
        return a && a->complete && !w.window.analysis()->isBusy();
    }));
    EXPECT_TRUE(w.window.controlsDock()->isVisible());
    // Opened once, it is what the next start shows, unless the setting says not to.
    EXPECT_EQ(w.window.directoryToReopen(), QStringLiteral(SCALEVIEW_SAMPLES));
    w.action("reopenLast")->setChecked(false);
    EXPECT_TRUE(w.window.directoryToReopen().isEmpty());
    // "Run a Benchmark…" goes to the Run page.
    w.window.showStartPage();
    start->runButton()->click();
    EXPECT_FALSE(w.window.isStartPageShown());
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Run);
}

TEST(Export, EnabledOnceLoadedNamedAfterTheChartWithASuggestedFileName) {
    Logs logs;
    Window w;
    w.window.showPage(ui::MainWindow::Speedup);
    EXPECT_FALSE(w.action("exportPng")->isEnabled());
    w.window.openDirectory(logs.root());
    ASSERT_TRUE(w.waitLoaded(9));
    EXPECT_TRUE(w.action("exportPng")->isEnabled());
    EXPECT_TRUE(w.action("exportCsv")->isEnabled());
    EXPECT_EQ(w.action("exportPng")->text(), QStringLiteral("Speedup Chart as &PNG…"));
    w.window.showPage(ui::MainWindow::Throughput);
    EXPECT_EQ(w.action("exportSvg")->text(), QStringLiteral("Throughput Chart as &SVG…"));
    const ui::ExportController* e = w.window.exporter();
    EXPECT_EQ(e->suggestedFileName(ui::ChartKind::Speedup, QStringLiteral("png")),
              QStringLiteral("r50_fp32_bs128_speedup.png"));
    EXPECT_EQ(e->suggestedFileName(ui::ChartKind::Efficiency, QStringLiteral("svg")),
              QStringLiteral("r50_fp32_bs128_efficiency.svg"));
    EXPECT_EQ(e->suggestedFileName(ui::TableFormat::Csv),
              QStringLiteral("r50_fp32_bs128_results.csv"));
    EXPECT_EQ(e->suggestedFileName(ui::TableFormat::Markdown),
              QStringLiteral("r50_fp32_bs128_results.md"));
    EXPECT_EQ(e->suggestedFileName(ui::TableFormat::DlperfJson),
              QStringLiteral("r50_fp32_bs128_dlperf.json"));
    // A failed open keeps what is shown, and so what Export writes; the banner says what failed.
    w.window.openDirectory(logs.root() + QStringLiteral("/missing"));
    ASSERT_TRUE(waitUntil([&] { return !w.window.openBanner()->isHidden(); }));
    EXPECT_TRUE(w.action("exportPng")->isEnabled());
    EXPECT_EQ(e->suggestedFileName(ui::TableFormat::Csv),
              QStringLiteral("r50_fp32_bs128_results.csv"));
}

TEST(Warnings, ActivatingAWarningOpensItsRunAndItsActionsOpenTheLog) {
    Logs logs;
    Window w;
    UrlCatcher urls;
    w.window.openDirectory(logs.root());
    ASSERT_TRUE(w.waitLoaded(9));
    const auto& warnings = w.window.warnings()->warnings();
    const auto it = std::find_if(warnings.begin(), warnings.end(), [](const Warning& x) {
        return x.file.find("1n4g") != std::string::npos;
    });
    ASSERT_NE(it, warnings.end());
    const int row = static_cast<int>(it - warnings.begin());
    QListView* view = w.window.warningView();
    view->setFocus();
    view->setCurrentIndex(w.window.warnings()->index(row));
    QTest::keyClick(view, Qt::Key_Return);
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Runs);
    const int run = w.window.runsPage()->selectedRun();
    ASSERT_GE(run, 0);
    EXPECT_EQ(w.window.analysis()->current()->summary.runs[static_cast<std::size_t>(run)].path,
              it->file);
    // Open Log and Show in File Manager hand the log, and its folder, to the desktop.
    auto* actions = view->findChild<ui::LogActions*>();
    ASSERT_TRUE(actions);
    actions->openLogAction()->trigger();
    actions->showInFolderAction()->trigger();
    const QString log = QDir(logs.root()).filePath(QString::fromStdString(it->file));
    ASSERT_EQ(urls.opened.size(), 2);
    EXPECT_EQ(urls.opened[0], QUrl::fromLocalFile(log));
    EXPECT_EQ(urls.opened[1], QUrl::fromLocalFile(QFileInfo(log).absolutePath()));
    actions->copyAction()->trigger();
    EXPECT_EQ(QApplication::clipboard()->text(), QString::fromStdString(it->text()));
    // The Runs table's own actions name the same log.
    QTableView* runs = w.window.runsPage()->view();
    ASSERT_TRUE(runs->currentIndex().isValid());
    w.window.runsPage()->logActions()->openLogAction()->trigger();
    ASSERT_EQ(urls.opened.size(), 3);
    EXPECT_EQ(urls.opened[2], QUrl::fromLocalFile(log));
}

// 12 repeats a topology: a text sort would read 1, 10, 11, 12, 2, … .
TEST(Runs, SortedByTopologyThenRepeatAsNumbersWithAProblemsOnlyFilter) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 2}, {1, 1}};
    spec.repeats = 12;
    writeCampaign(dir.path(), spec);
    writeFile(logPath(dir.path(), spec, 1, 2, 10), runText(spec, 2, 10, 10)); // cut short
    Window w;
    ui::RunsPage* page = w.window.runsPage();
    QAbstractItemModelTester tester(page->proxy(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    w.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(w.waitLoaded(24));
    QAbstractItemModel* shown = page->view()->model();
    ASSERT_EQ(shown->rowCount(), 24);
    for (int r = 0; r < 24; ++r) {
        EXPECT_EQ(shown->index(r, ui::RunTableModel::Topology).data().toString(),
                  r < 12 ? QStringLiteral("1n1g") : QStringLiteral("1n2g"))
            << r;
        EXPECT_EQ(shown->index(r, ui::RunTableModel::Repeat).data().toInt(), r % 12 + 1) << r;
    }
    // The reason sits next to the status, with only the disturbed mark between them.
    EXPECT_EQ(ui::RunTableModel::Disturbed, ui::RunTableModel::Status + 1);
    EXPECT_EQ(ui::RunTableModel::Reason, ui::RunTableModel::Disturbed + 1);
    EXPECT_TRUE(shown->index(12 + 9, ui::RunTableModel::Reason)
                    .data()
                    .toString()
                    .contains(QLatin1String("found")));
    page->problemsOnlyBox()->setChecked(true);
    ASSERT_EQ(shown->rowCount(), 1);
    EXPECT_EQ(shown->index(0, ui::RunTableModel::Repeat).data().toInt(), 10);
    bool counted = false;
    for (auto* label : page->findChildren<QLabel*>())
        counted = counted || label->text() == QLatin1String("1 of 24 runs");
    EXPECT_TRUE(counted);
    // Asking for a run the filter hides shows it.
    page->selectRun(0);
    EXPECT_FALSE(page->problemsOnlyBox()->isChecked());
    EXPECT_EQ(shown->rowCount(), 24);
}

TEST(Headers, EveryColumnExplainsItselfAndDeltaItsColours) {
    ui::RunTableModel runs;
    ui::CaseTableModel cases;
    for (const QAbstractItemModel* m :
         {static_cast<QAbstractItemModel*>(&runs), static_cast<QAbstractItemModel*>(&cases)}) {
        EXPECT_GT(m->columnCount(), 0); // no column would pass the loop
        for (int c = 0; c < m->columnCount(); ++c)
            EXPECT_FALSE(m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty())
                << m->headerData(c, Qt::Horizontal).toString().toStdString();
    }
    const QString delta =
        cases.headerData(ui::CaseTableModel::Delta, Qt::Horizontal, Qt::ToolTipRole).toString();
    for (const char* colour : {"green", "amber", "red"})
        EXPECT_TRUE(delta.contains(QLatin1String(colour))) << colour;
}

TEST(Wording, PluralsAndNoNegativeZero) {
    EXPECT_EQ(ui::countOf(1, QStringLiteral("run"), QStringLiteral("runs")),
              QStringLiteral("1 run"));
    EXPECT_EQ(ui::countOf(0, QStringLiteral("warning"), QStringLiteral("warnings")),
              QStringLiteral("0 warnings"));
    EXPECT_EQ(ui::signedPercent(-0.04, 1), QStringLiteral("0.0 %"));
    EXPECT_EQ(ui::signedPercent(0.04, 1), QStringLiteral("0.0 %"));
    EXPECT_EQ(ui::signedPercent(-0.26, 1), QStringLiteral("-0.3 %"));
    EXPECT_EQ(ui::signedPercent(1.25, 1), QStringLiteral("+1.2 %"));
    // The Results table's Δ cell.
    CaseStats c;
    c.key = {"r50", "fp32", 128, Topology{1, 1}};
    c.deltaPct = -0.03;
    ui::CaseTableModel model;
    model.setCases({c});
    EXPECT_EQ(model.index(0, ui::CaseTableModel::Delta).data().toString(), QStringLiteral("0.0 %"));
}

// A dark theme: the Δ colours and row tints come from the palette, so text stays readable (light
// red on dark, dark red on light; tints dark under dark text's opposite).
TEST(Colours, FollowThePaletteSoADarkThemeStaysReadable) {
    const QPalette light = QApplication::palette();
    CaseStats c;
    c.key = {"r50", "fp32", 128, Topology{1, 1}};
    c.deltaPct = -12.0;
    ui::CaseTableModel model;
    model.setCases({c});
    auto deltaColour = [&] {
        return model.index(0, ui::CaseTableModel::Delta)
            .data(Qt::ForegroundRole)
            .value<QBrush>()
            .color();
    };
    const QColor onLight = deltaColour();
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Text, QColor(0xf0, 0xf0, 0xf0));
    QApplication::setPalette(dark);
    const QColor onDark = deltaColour();
    const QColor tint = ui::tintedBase(QColor(0xe0, 0x30, 0x30));
    QApplication::setPalette(light);
    EXPECT_GT(onDark.lightness(), onLight.lightness());
    EXPECT_GT(onDark.lightness(), 120) << onDark.name().toStdString();
    // A row tint on a dark base stays dark, so the light text on it reads.
    EXPECT_LT(tint.lightness(), 90) << tint.name().toStdString();
}

// Issue 37: the warnings listed a case whose batch no log states as "bert_12_768_12 fp16 b0
// 1n2g: …", a batch of 0 nobody wrote. It is "b?", as the command line's table and the reports
// name it.
TEST(Wording, AWarningsCaseWithAnUnstatedBatchIsQuestionMarkNotZero) {
    TempDir dir;
    writeFile(dir / "bert.log", gluonnlpLog(
                                    "0,1", 40, [](int k) { return 100000.0 + k; }, false));
    Window w;
    w.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(w.waitLoaded(1));
    ASSERT_GE(w.window.warnings()->rowCount(), 1);
    const QString shown = w.window.warnings()->index(0).data().toString();
    EXPECT_TRUE(shown.startsWith(QLatin1String("bert_12_768_12 fp16 b? 1n2g: ")))
        << shown.toStdString();
    EXPECT_FALSE(shown.contains(QLatin1String(" b0 "))) << shown.toStdString();
}

TEST(Wording, TheStatusLineCountsInWords) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    spec.repeats = 1;
    writeCampaign(dir.path(), spec);
    Window w;
    w.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(w.waitLoaded(1));
    const QString status = w.window.statusText();
    EXPECT_TRUE(status.contains(QLatin1String(" 1 run, 1 used"))) << status.toStdString();
    // One repeat: the case's few-repeats warning is counted and listed, as the Results icon is.
    EXPECT_TRUE(status.contains(QStringLiteral("· 1 warning"))) << status.toStdString();
    ASSERT_EQ(w.window.warnings()->rowCount(), 1);
    EXPECT_TRUE(w.window.warnings()->index(0).data().toString().contains(
        QLatin1String("r50 fp32 b64 1n1g: ")));
    // The message says which warning it is, in words; no kind tag ("[few-repeats]") after it.
    const QString shown = w.window.warnings()->index(0).data().toString();
    EXPECT_TRUE(shown.contains(QLatin1String(": only 1 usable repeat: at least 3 are needed")))
        << shown.toStdString();
    EXPECT_FALSE(shown.contains(QLatin1Char('['))) << shown.toStdString();
    // Opening it shows the case's row on Results.
    w.window.showPage(ui::MainWindow::Runs);
    emit w.window.warningView()->activated(w.window.warningView()->model()->index(0, 0));
    EXPECT_EQ(w.window.currentPage(), ui::MainWindow::Results);
    EXPECT_FALSE(status.contains(QLatin1String("loading"))) << status.toStdString();
}

TEST(RunForm, HostProblemsNameTheRowAndTheImportSaysWhatItDid) {
    ui::CampaignForm form;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    launcher::Host good, bad;
    good.name = "node1";
    bad.name = "bad name";
    c.hosts = {good, bad};
    form.setCampaign(c);
    const QString problems = form.problems().join(QLatin1Char('\n'));
    EXPECT_TRUE(problems.contains(QLatin1String("Host 2 name: 'bad name'")))
        << problems.toStdString();
    EXPECT_FALSE(problems.contains(QLatin1String("hosts["))) << problems.toStdString();

    TempDir dir;
    writeFile(dir.path() / "config", "Host gpu-a\n  HostName 10.0.0.1\nHost gpu-b\n  User me\n"
                                     "Host *\n  ForwardAgent no\n");
    form.setCampaign(ui::CampaignForm::defaultCampaign());
    form.importSshConfig(QString::fromStdString((dir.path() / "config").string()));
    const QString note = form.importNote();
    EXPECT_TRUE(note.startsWith(QLatin1String("Imported 2 hosts"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QLatin1String("gpu-a, gpu-b"))) << note.toStdString();
    EXPECT_TRUE(note.contains(QLatin1String("8 GPUs"))) << note.toStdString();
    form.importSshConfig(QString::fromStdString((dir.path() / "missing").string()));
    EXPECT_TRUE(form.importNote().startsWith(QLatin1String("Nothing imported: cannot read")));
}

TEST(RunProgressView, TheHeadlineIsTheIterationWhileRunningAndTheTimeMethodAfter) {
    ui::RunProgressView monitor;
    monitor.setPlan({QStringLiteral("1n1g_r1")}, {}, 40);
    monitor.runStarted(0, QStringLiteral("1n1g_r1"));
    launcher::RunProgress p;
    p.total = 1;
    p.id = "1n1g_r1";
    p.iteration = 12;
    p.iterations = 40;
    p.speed = 98.765;
    monitor.showProgress(p);
    EXPECT_EQ(monitor.speedText(), QStringLiteral("98.77 images/s (current iteration)"));
    launcher::RunEnd end;
    end.state = launcher::RunState::Ok;
    end.timeThroughput = 101.234;
    end.speedThroughput = 99.0;
    monitor.runFinished(0, end);
    EXPECT_EQ(monitor.speedText(),
              QStringLiteral("1n1g_r1: 101.23 images/s (time method, whole window)"));
}

#include "test_usability.moc"
