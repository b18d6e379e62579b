#include "ui/window/mainwindow.h"

#include "core/measure/steadystateanalyzer.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/environmentpage.h"
#include "ui/history/historypage.h"
#include "ui/history/nodespage.h"
#include "ui/browse/referencetables.h"
#include "ui/export/imageexportdialog.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/logactions.h"
#include "ui/window/methodologydialog.h"
#include "ui/widgets/plural.h"
#include "ui/widgets/pagebanner.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "core/measure/runmeter.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/compare/seriesset.h"
#include "ui/browse/speeduppage.h"
#include "ui/window/startpage.h"
#include "ui/widgets/wheelguard.h"
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

#include <algorithm>
#include <utility>

namespace sv::ui {

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
    buildPages();
    connectReferenceTables();
    connectRunPanel();
    buildCentral();
    buildDocks();
    connectLoader();
    connectSeries();
    connectOptions();
    buildMenus();
    restoreLayout();
}

// The pages, each in its tab (the Run page launches campaigns, Environment and History follow
// what is open and what ran).
void MainWindow::buildPages() {
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
    m_history->useSettings(m_settings); // the database chosen in its Database… dialog
    m_tabs->addTab(m_history, tr("History"));
    // Every campaign the Run page finishes with some run ok goes into the history.
    connect(m_runPanel, &RunPanel::resultsReady, m_history,
            [this](const QString& root, int, int) { m_history->campaignResultsAt(root); });
    connect(m_runPanel, &RunPanel::campaignFinished, m_history,
            [this](bool cancelled, int ok, int) { m_history->campaignEnded(cancelled, ok); });
    // Each node's probe figures across the recorded campaigns (the same database).
    m_nodes = new NodesPage(this);
    m_nodes->useSettings(m_settings);
    m_tabs->addTab(m_nodes, tr("Nodes"));
}

// The banners above the pages, the start page and the tabs in one stack.
void MainWindow::buildCentral() {
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
}

// The Controls and Warnings docks, and the status bar.
void MainWindow::buildDocks() {
    // A wheel turned over a field the user has not chosen scrolls, never edits (everywhere).
    installWheelGuard();
    m_controlsDock = new QDockWidget(tr("Controls"), this);
    m_controlsDock->setObjectName(QStringLiteral("controls"));
    m_controlsDock->setWidget(m_controls);
    // On the right: hidden on the Run, Environment and History pages, a dock on the left took
    // the tab bar with it, and the tabs jumped sideways under the pointer.
    addDockWidget(Qt::RightDockWidgetArea, m_controlsDock);
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
            // A log no format reads: the user may teach one (ui/widgets/teachdialog.h).
            w.message.find("of a known format") != std::string::npos ||
                w.message.find("no speed line") != std::string::npos};
    });
    m_warningsDock->setObjectName(QStringLiteral("warnings"));
    m_warningsDock->setWidget(m_warningView);
    addDockWidget(Qt::BottomDockWidgetArea, m_warningsDock);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_loadStatus);
    m_status->setText(openHint());
}

// The window as the user left it: page, efficiency, geometry and docks.
void MainWindow::restoreLayout() {
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
    // The analysis' warnings say nothing under the start page, the Run panel or the history;
    // they come back with the pages they are about.
    const bool warningsApart = isStartPageShown() || m_tabs->currentIndex() == Run ||
                               m_tabs->currentIndex() >= History;
    if (warningsApart && !m_warningsDock->isHidden()) {
        m_warningsDock->hide();
        m_warningsHiddenByStart = true;
    } else if (!warningsApart && m_warningsHiddenByStart) {
        m_warningsDock->show();
        m_warningsHiddenByStart = false;
        const int fewLines = fontMetrics().lineSpacing() * 6;
        if (m_warnings->rowCount() > 0 && m_warningsDock->height() < fewLines)
            resizeDocks({m_warningsDock}, {fewLines}, Qt::Vertical);
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
    // The open directory's frameworks: compared series of one name are named after them.
    std::vector<std::string> formats;
    for (const auto& r : a->summary.runs)
        if (std::find(formats.begin(), formats.end(), r.key.format) == formats.end())
            formats.push_back(r.key.format);
    m_series->setMainFormats(formats);
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
    // None: a strip, the pages get the room. Some: a few of them readable at once, not the
    // one line the empty strip left.
    const int fewLines = fontMetrics().lineSpacing() * 6;
    if (none)
        resizeDocks({m_warningsDock}, {1}, Qt::Vertical);
    else if (m_warningsDock->height() < fewLines)
        resizeDocks({m_warningsDock}, {fewLines}, Qt::Vertical);
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
    // The runs the cases use: not those left out as disturbed, as the tables count them.
    const std::size_t used = runsUsed(a->summary);
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
