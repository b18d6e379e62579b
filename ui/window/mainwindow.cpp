#include "ui/window/mainwindow.h"

#include "core/measure/steadystateanalyzer.h"

#include "ui/browse/analysiscontroller.h"
#include "ui/window/appsettings.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/environmentpage.h"
#include "ui/history/historypage.h"
#include "ui/browse/referencetables.h"
#include "ui/window/imageexportdialog.h"
#include "ui/browse/livecontroller.h"
#include "ui/browse/loadcontroller.h"
#include "ui/browse/loadstatus.h"
#include "ui/window/logactions.h"
#include "ui/window/methodologydialog.h"
#include "ui/window/plural.h"
#include "ui/window/pagebanner.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "core/measure/runmeter.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/compare/seriesset.h"
#include "ui/browse/speeduppage.h"
#include "ui/window/startpage.h"
#include "ui/models/warninglistmodel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace sv::ui {

namespace {
void stampWindow(AnalysisOptions& options, const WindowChoice& choice) {
    options.measure = choice.measure;
    options.windowSource = windowSourceName(choice.source);
    options.campaignFile = choice.campaignFile.toStdString();
}
} // namespace

MainWindow::MainWindow(AppSettings* settings, QWidget* parent)
    : QMainWindow(parent), m_settings(settings), m_loader(new LoadController(this)),
      m_analysis(new AnalysisController(this)), m_live(new LiveController(this)),
      m_export(new ExportController(this)), m_series(new SeriesSet(this)),
      m_stack(new QStackedWidget(this)), m_start(new StartPage(this)), m_tabs(new QTabWidget(this)),
      m_results(new ResultsPage(this)), m_throughput(new ChartPage(ChartKind::Throughput, this)),
      m_speedup(new SpeedupPage(this)), m_runs(new RunsPage(this)),
      m_controls(new ControlPanel(this)), m_warnings(new WarningListModel(this)),
      m_warningsDock(new QDockWidget(tr("Warnings"), this)), m_loadStatus(new LoadStatus(this)),
      m_status(new QLabel(this)), m_openBanner(new PageBanner(this)),
      m_windowBanner(new PageBanner(this)), m_window(settings) {
    setWindowTitle(QStringLiteral("ScaleView"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/scaleview.svg")));
    setAcceptDrops(true);
    m_tabs->addTab(m_results, tr("Results"));
    m_tabs->addTab(m_throughput, tr("Throughput"));
    m_tabs->addTab(m_speedup, tr("Speedup"));
    m_tabs->addTab(m_runs, tr("Runs"));
    // The Run page launches campaigns; each run that ends updates the open view (see
    // showRunResults), and opening a campaign shows its results.
    m_runPanel = new RunPanel(m_settings, this);
    m_tabs->addTab(m_runPanel, tr("Run"));
    // What the open directory's campaign ran on, and every recorded campaign over time (each
    // campaign the Run page finishes goes in).
    m_environment = new EnvironmentPage(this);
    m_tabs->addTab(m_environment, tr("Environment"));
    m_history = new HistoryPage(this);
    m_tabs->addTab(m_history, tr("History"));
    m_history->followCampaigns(m_runPanel);
    // The user's own and imported reference tables join the built-in ones in the controls.
    m_referenceTables = new ReferenceTables(this);
    connect(m_referenceTables, &ReferenceTables::catalogChanged, m_controls,
            &ControlPanel::setCatalog);
    connect(m_referenceTables, &ReferenceTables::finished, this,
            [this](bool ok, const QString& message) {
                m_status->setText(message);
                if (ok) return;
                auto* box = new QMessageBox(QMessageBox::Warning, tr("Reference table refused"),
                                            message, QMessageBox::Ok, this);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open(); // not exec(): the window goes on
            });
    m_savedReferences = m_settings->checkedReferences();
    m_startReferences = m_settings->analysisOptions().references;
    connect(m_referenceTables, &ReferenceTables::userTablesLoaded, this,
            &MainWindow::restoreReferences);
    m_referenceTables->loadUserTables();
    connect(this, &MainWindow::analysisShown, this, [this](const AnalysisPtr& a) {
        const QString root = QString::fromStdString(a->summary.root);
        m_environment->showDirectory(root);
        m_history->setCurrentDirectory(a->complete && !a->summary.runs.empty() ? root : QString());
    });
    connect(m_runPanel->controller(), &RunController::started, this, [this] {
        m_generationAtCampaignStart = m_loader->generation();
        m_measureEditedSinceCampaignStart = false;
    });
    connect(m_runPanel, &RunPanel::resultsReady, this, &MainWindow::showRunResults);
    connect(m_runPanel, &RunPanel::campaignOpened, this, &MainWindow::showCampaignResults);
    // Closing mid-campaign cancelled it first (closeEvent); now the window may go.
    connect(m_runPanel, &RunPanel::campaignFinished, this, [this] {
        if (m_closeWhenIdle) close();
    });
    connect(m_runPanel, &RunPanel::logInProgress, this, [this](const QString& path) {
        std::vector<std::filesystem::path> paths;
        if (!path.isEmpty()) paths.emplace_back(path.toStdString());
        m_analysis->setLogsInProgress(std::move(paths));
    });
    m_tabs->setDocumentMode(true);
    m_stack->addWidget(m_start);
    m_stack->addWidget(m_tabs);
    m_stack->setCurrentWidget(m_tabs);
    // The banners sit above the pages, so every page (the start page too) shows them.
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_openBanner);
    centralLayout->addWidget(m_windowBanner);
    centralLayout->addWidget(m_stack, 1);
    setCentralWidget(central);
    m_openBanner->setObjectName(QStringLiteral("openBanner"));
    m_windowBanner->setObjectName(QStringLiteral("windowBanner"));
    // The banner says what did not open, or what could not be added; its button chooses again.
    connect(m_openBanner, &PageBanner::actionTriggered, this,
            [this] { m_bannerAdds ? chooseComparisonDirectory() : chooseDirectory(); });
    connect(m_start, &StartPage::openRequested, this, &MainWindow::chooseDirectory);
    connect(m_start, &StartPage::samplesRequested, this, &MainWindow::openDirectory);
    connect(m_start, &StartPage::runRequested, this, [this] { showPage(Run); });

    m_controlsDock = new QDockWidget(tr("Controls"), this);
    m_controlsDock->setObjectName(QStringLiteral("controls"));
    m_controlsDock->setWidget(m_controls);
    addDockWidget(Qt::LeftDockWidgetArea, m_controlsDock);
    m_warningView = new QListView(m_warningsDock);
    m_warningView->setModel(m_warnings);
    m_warningView->setWordWrap(true);
    // Without warnings the panel may shrink to a line or two; the pages get the room.
    m_warningView->setMinimumHeight(fontMetrics().lineSpacing() * 2);
    connect(m_warningView, &QListView::activated, this, &MainWindow::openWarning);
    new LogActions(m_warningView, [this](const QModelIndex& index) {
        const auto& w = m_warnings->warnings()[static_cast<std::size_t>(index.row())];
        const AnalysisPtr a = m_analysis->current();
        const QString file = QString::fromStdString(w.file);
        return LogActions::Target{
            QString::fromStdString(w.text()),
            file.isEmpty() || !a ? QString()
                                 : QDir(QString::fromStdString(a->summary.root)).filePath(file),
            // A log no format reads: the user may teach one (ui/window/teachdialog.h).
            w.message.find("of a known format") != std::string::npos ||
                w.message.find("no speed line") != std::string::npos};
    });
    m_warningsDock->setObjectName(QStringLiteral("warnings"));
    m_warningsDock->setWidget(m_warningView);
    addDockWidget(Qt::BottomDockWidgetArea, m_warningsDock);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_loadStatus);
    m_status->setText(openHint());

    // Loading: progress in the status bar; snapshots (partial, then complete) to the analysis.
    // What is shown stays, titled and followed as it is, until the new directory turns out to
    // hold logs: a failed open changes nothing but the banner.
    connect(m_loader, &LoadController::started, this, [this](const QString& root) {
        m_status->setText(tr("Scanning %1…").arg(QDir::toNativeSeparators(root)));
        m_loadStatus->showProgress(0, 0, -1);
    });
    connect(m_loader, &LoadController::scanned, this, [this](const QString& root) {
        if (isStartPageShown()) m_stack->setCurrentWidget(m_tabs);
        updateDocks();
        m_live->stop();
        m_openBanner->hide();
        m_windowBanner->hide();
        m_lastOffer.clear();
        // The window first: a recompute it starts for what was shown is dropped by clear().
        chooseWindow(root);
        m_loader->setMeasure(m_analysis->options().measure); // its logs are read for it
        m_analysis->clear();
        m_series->setMainRoot(root); // another directory ends the comparison
        setWindowTitle(QStringLiteral("ScaleView — %1").arg(QDir::toNativeSeparators(root)));
    });
    // A comparison: every series is measured by the open directory's method, each over its own
    // window (the added ones' from their campaign.json, as `compare` does), on the worker.
    connect(m_series, &SeriesSet::changed, this,
            [this] { m_analysis->setSeries(m_series->mainLabel(), m_series->inputs()); });
    // On the banner, not the status line alone: removing the series recomputes, and each
    // recompute rewrites the status line.
    connect(m_series, &SeriesSet::failed, this, [this](const QString& root, const QString& error) {
        const QString what =
            tr("Cannot add %1 to the comparison: %2").arg(QDir::toNativeSeparators(root), error);
        m_bannerAdds = true;
        m_openBanner->showMessage(what + QStringLiteral("\n") +
                                      tr("It is left out; everything else stays as it was."),
                                  tr("Add another…"));
        m_status->setText(what);
    });
    connect(m_series, &SeriesSet::windowUnreadable, this,
            [this](const QString& root, const QString& error) {
                const MeasureOptions dlperf;
                // A message of its own: the status line is rewritten by each recompute.
                statusBar()->showMessage(tr("%1: %2 — so it is measured over DLPerf's window %3…%4")
                                             .arg(QDir::toNativeSeparators(root), error)
                                             .arg(dlperf.warmup)
                                             .arg(dlperf.iterations - 1),
                                         60000);
            });
    connect(m_controls, &ControlPanel::seriesRenamed, m_series, &SeriesSet::rename);
    connect(m_controls, &ControlPanel::seriesRemoveRequested, m_series, &SeriesSet::remove);
    connect(m_controls, &ControlPanel::addSeriesRequested, this,
            &MainWindow::chooseComparisonDirectory);
    connect(m_loader, &LoadController::progress, m_loadStatus, &LoadStatus::showProgress);
    connect(m_loadStatus, &LoadStatus::cancelRequested, m_loader, &LoadController::cancel);
    connect(m_loader, &LoadController::snapshotReady, m_analysis, &AnalysisController::setSnapshot);
    connect(m_loader, &LoadController::finished, this, [this](const QString& root, bool cancelled) {
        m_loadStatus->showIdle();
        if (!root.isEmpty()) m_settings->addRecent(root);
        rebuildRecentMenu();
        const bool runEnded = std::exchange(m_runEndedWhileLoading, false);
        if (cancelled) return;
        // Live's first look reads what was written during the load; without Live, a run that
        // ended meanwhile is read by one look.
        if (m_liveAction->isChecked())
            m_live->start(m_loader->snapshot());
        else if (runEnded)
            m_live->refreshNow(m_loader->snapshot());
    });
    connect(m_loader, &LoadController::failed, this,
            [this](const QString& root, const QString& error) { showOpenFailure(root, error); });
    connect(m_live, &LiveController::snapshotReady, m_analysis, &AnalysisController::setSnapshot);

    // Options: the control panel edits, the analysis recomputes, every page follows.
    m_controls->setOptions(m_settings->analysisOptions());
    m_analysis->setOptions(m_settings->analysisOptions());
    connect(m_controls, &ControlPanel::optionsEdited, this, [this](AnalysisOptions o) {
        const AnalysisOptions& now = m_analysis->options();
        const bool windowEdited = !sameMeasure(o.measure, now.measure);
        if (windowEdited) m_measureEditedSinceCampaignStart = true;
        // Whose window it is, the controls do not know: the directory's policy does.
        o.windowSource = now.windowSource;
        o.campaignFile = now.campaignFile;
        if (windowEdited && !validateMeasureOptions(o.measure)) {
            const WindowChoice choice = m_window.set(o.measure);
            stampWindow(o, choice);
            m_controls->setWindowSource(choice.source, choice.campaignFile);
            m_windowNote.clear(); // the user has chosen
            m_windowBanner->hide();
        }
        m_analysis->setOptions(o);
    });
    connect(m_analysis, &AnalysisController::invalidOptions, this,
            [this](const QString& why) { m_status->setText(tr("Not recomputed: %1").arg(why)); });
    connect(m_analysis, &AnalysisController::analysisReady, this, &MainWindow::present);
    connect(m_runs, &RunsPage::runSelected, m_export, &ExportController::setSelectedRun);
    connect(m_throughput, &ChartPage::whiskerChanged, m_export, &ExportController::setWhisker);
    connect(m_speedup, &SpeedupPage::efficiencyToggled, this,
            [this](bool on) { m_settings->setEfficiency(on); });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int page) {
        m_settings->setPage(page);
        updateDocks();
        updateExportActions();
    });
    connect(m_speedup, &SpeedupPage::efficiencyToggled, this, &MainWindow::updateExportActions);
    connect(m_controlsDock->toggleViewAction(), &QAction::triggered, this,
            [this](bool on) { m_controlsWanted = on; });

    buildMenus();
    m_speedup->setEfficiency(m_settings->efficiency());
    m_tabs->setCurrentIndex(m_settings->page());
    resize(1400, 900);
    if (!restoreGeometry(m_settings->geometry())) resize(1400, 900);
    // The warnings panel is a strip, the controls a column: the pages get the room.
    m_restoredDocks = restoreState(m_settings->windowState());
    m_controlsWanted = !m_controlsDock->isHidden();
    updateExportActions();
    updateDocks();
}

MainWindow::~MainWindow() = default;

void MainWindow::openDirectory(const QString& directory) {
    m_loader->open(QFileInfo(directory).absoluteFilePath());
}

void MainWindow::addToComparison(const QString& directory) {
    if (m_loader->root().isEmpty() && !m_loader->isLoading()) {
        openDirectory(directory); // nothing to compare with yet: it is the first series
        return;
    }
    if (m_bannerAdds) m_openBanner->hide(); // the last add's failure: this one replaces it
    m_series->add(QFileInfo(directory).absoluteFilePath());
    m_status->setText(tr("Adding %1 to the comparison…").arg(QDir::toNativeSeparators(directory)));
}

void MainWindow::applyWindow(const WindowChoice& choice) {
    m_controls->setWindowSource(choice.source, choice.campaignFile);
    AnalysisOptions options = m_analysis->options();
    const AnalysisOptions before = options;
    stampWindow(options, choice);
    if (sameMeasure(options.measure, before.measure) &&
        options.windowSource == before.windowSource && options.campaignFile == before.campaignFile)
        return;
    m_controls->setOptions(options);
    m_analysis->setOptions(options);
}

void MainWindow::reload() {
    if (!m_loader->root().isEmpty() && !m_loader->isLoading()) openDirectory(m_loader->root());
}

void MainWindow::showPage(Page page) {
    m_stack->setCurrentWidget(m_tabs);
    m_tabs->setCurrentIndex(page);
    updateDocks();
}

QString MainWindow::openHint() {
    return tr("Open a DLPerf log directory: File › Open (Ctrl+O), or drop it here.");
}

MainWindow::Page MainWindow::currentPage() const {
    return static_cast<Page>(m_tabs->currentIndex());
}

QString MainWindow::directoryToReopen() const {
    const QStringList recent = m_settings->recent();
    if (!m_settings->reopenLast() || recent.isEmpty() || !QFileInfo(recent.first()).isDir())
        return {};
    return recent.first();
}

void MainWindow::showStartPage() {
    m_stack->setCurrentWidget(m_start);
    updateDocks();
}

bool MainWindow::isStartPageShown() const {
    return m_stack->currentWidget() == m_start;
}

void MainWindow::updateDocks() {
    // The controls shape the analysis pages only (those before Run).
    const bool analysisPage = !isStartPageShown() && m_tabs->currentIndex() < Run;
    m_controlsDock->setVisible(analysisPage && m_controlsWanted);
    // An empty warnings strip under the start page says nothing; it comes back with the pages.
    if (isStartPageShown() && !m_warningsDock->isHidden()) {
        m_warningsDock->hide();
        m_warningsHiddenByStart = true;
    } else if (!isStartPageShown() && m_warningsHiddenByStart) {
        m_warningsDock->show();
        m_warningsHiddenByStart = false;
    }
}

void MainWindow::openWarning(const QModelIndex& index) {
    const AnalysisPtr a = m_analysis->current();
    if (!a || !index.isValid()) return;
    const std::string& file = m_warnings->warnings()[static_cast<std::size_t>(index.row())].file;
    for (std::size_t i = 0; i < a->summary.runs.size(); ++i)
        if (!file.empty() && a->summary.runs[i].path == file) {
            showPage(Runs);
            m_runs->selectRun(static_cast<int>(i));
            return;
        }
    // A case's warning is about its figures: its row on Results carries it.
    if (file.empty()) {
        showPage(Results);
        m_status->setText(tr("A case's warning: its row on Results carries the icon and reason."));
        return;
    }
    // A file the scan skipped has no run: say so rather than do nothing.
    m_status->setText(
        tr("%1 was not read as a run; use Open Log to see it.").arg(QString::fromStdString(file)));
}

ChartKind MainWindow::currentChartKind() const {
    switch (m_tabs->currentIndex()) {
    case Speedup:
        return m_speedup->kind();
    case Runs:
        return ChartKind::Trace;
    default:
        return ChartKind::Throughput;
    }
}

void MainWindow::present(const AnalysisPtr& a) {
    m_export->setAnalysis(a);
    m_controls->setAnalysis(a);
    m_results->setAnalysis(a);
    m_throughput->setAnalysis(a);
    m_speedup->setAnalysis(a);
    m_runs->setAnalysis(a);
    std::vector<Warning> shown = shownWarnings(*a);
    const bool none = shown.empty();
    m_warningsDock->setWindowTitle(tr("Warnings (%1)").arg(shown.size()));
    m_warnings->setWarnings(std::move(shown));
    if (none) resizeDocks({m_warningsDock}, {1}, Qt::Vertical);
    updateExportActions();
    m_settings->setAnalysisOptions(m_analysis->options());
    m_status->setText(statusText());
    offerWindowFor(a);
    emit analysisShown(a);
}

// The panel's list: what is wrong with the figures (each case's warnings, the reason in words),
// then what is wrong with the files. "Warnings (0)" beside a disturbed case would read as clean.
// The status line counts what the panel lists (set from the same analysis just before).
std::vector<Warning> MainWindow::shownWarnings(const Analysis& a) {
    std::vector<Warning> out;
    for (const auto& c : a.summary.cases)
        for (const auto& w : c.warnings)
            out.push_back(Warning{
                "", 0,
                c.key.model + " " + c.key.precision + " b" + std::to_string(c.key.batchPerDevice) +
                    " " + c.key.topology.name() + ": " + w.message + " [" + w.kind + "]"});
    out.insert(out.end(), a.summary.warnings.begin(), a.summary.warnings.end());
    return out;
}

QString MainWindow::statusText() const {
    const AnalysisPtr a = m_analysis->current();
    if (!a) return m_status->text();
    // Nothing opened yet: say how to open, not "0 runs".
    if (a->summary.root.empty() && a->summary.runs.empty()) return openHint();
    if (a->summary.error)
        return tr("Cannot open %1: %2")
            .arg(QDir::toNativeSeparators(QString::fromStdString(a->summary.root)),
                 QString::fromStdString(*a->summary.error));
    std::size_t used = 0;
    for (const auto& r : a->summary.runs)
        used += r.usable() ? 1 : 0;
    QString text = QDir::toNativeSeparators(QString::fromStdString(a->summary.root));
    if (a->group) text += QStringLiteral(" — ") + QString::fromStdString(a->group->label());
    text +=
        tr(" · %1, %2 used · %3 method · %4")
            .arg(countOf(qsizetype(a->summary.runs.size()), tr("run"), tr("runs")))
            .arg(used)
            .arg(QString::fromStdString(std::string(methodName(a->summary.options.method))))
            .arg(countOf(qsizetype(m_warnings->warnings().size()), tr("warning"), tr("warnings")));
    // A window other than DLPerf's changes every figure: the status line names it and whose.
    const auto windows = a->groupWindows();
    if (windows.size() > 1 || (windows.size() == 1 && !sameMeasure(windows[0].window, {}))) {
        QStringList ranges;
        for (const auto& u : windows)
            ranges << (isSteadyStateWindow(u.window)
                           ? tr("the log's own reports after the first tenth")
                           : QStringLiteral("%1…%2")
                                 .arg(u.window.warmup)
                                 .arg(u.window.iterations - 1));
        const QString window = ranges.join(QStringLiteral(", "));
        if (a->summary.windowSource == "campaign")
            text += tr(" · the campaign's window %1").arg(window);
        else if (a->summary.windowSource == "user")
            text += tr(" · your window %1").arg(window);
        else if (a->summary.load.measure.formatDefaults &&
                 std::all_of(windows.begin(), windows.end(),
                             [](const auto& u) { return isSteadyStateWindow(u.window); }))
            text += tr(" · window: %1").arg(window);
        else if (a->summary.load.measure.formatDefaults)
            text += tr(" · DLPerf's window %1").arg(window);
        else
            text += tr(" · window %1").arg(window);
    }
    if (!a->others.empty()) {
        QStringList names;
        bool loading = false;
        for (const auto& o : a->others) {
            names << QString::fromStdString(o.label);
            loading = loading || !o.complete;
        }
        text += tr(" · compared with %1").arg(names.join(QStringLiteral(", ")));
        if (loading) text += tr(" (loading)");
    }
    // "loading (0 of 0)" would say nothing: a scan that found no logs is not loading any.
    if (!a->complete && a->expected > 0)
        text += tr(" · loading (%1 of %2 logs read)").arg(a->summary.runs.size()).arg(a->expected);
    else if (a->summary.cancelled)
        text += tr(" · load cancelled: partial");
    return text;
}

} // namespace sv::ui
