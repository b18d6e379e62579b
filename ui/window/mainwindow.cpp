#include "ui/window/mainwindow.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/livecontroller.h"
#include "ui/browse/referencetables.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/charts/lossbreakdownview.h"
#include "ui/compare/seriesset.h"
#include "ui/export/exportcontroller.h"
#include "ui/history/historypage.h"
#include "ui/models/warninglistmodel.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runpanel.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/bundlebanner.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/pagebanner.h"
#include "ui/widgets/wheelguard.h"
#include "ui/window/analysispresenter.h"
#include "ui/window/bundleflow.h"
#include "ui/window/bundleopener.h"
#include "ui/window/exportmenu.h"
#include "ui/window/measurewindowflow.h"
#include "ui/window/openingflow.h"
#include "ui/window/savedreferences.h"
#include "ui/window/slownodererun.h"
#include "ui/window/startpage.h"
#include "ui/window/windowdocks.h"
#include "ui/window/windowmenus.h"

#include <QPointer>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QIcon>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

#include <filesystem>
#include <vector>

namespace sv::ui {

MainWindow::MainWindow(AppSettings* settings, QWidget* parent)
    : QMainWindow(parent), m_settings(settings), m_loader(new LoadController(this)),
      m_analysis(new AnalysisController(this)), m_live(new LiveController(this)),
      m_export(new ExportController(this)), m_series(new SeriesSet(this)),
      m_referenceTables(new ReferenceTables(this)), m_pages(new PageStack(settings, this)),
      m_controls(new ControlPanel(this)), m_warnings(new WarningListModel(this)),
      m_openBanner(new PageBanner(this)), m_windowBanner(new PageBanner(this)),
      m_bundleBanner(new BundleBanner(this)), m_status(new QLabel(this)),
      m_loadStatus(new LoadStatus(this)) {
    buildFrame();
    connectReferenceTables();
    buildParts();
    connectPages();
    connectCampaigns();
    buildMenus();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

// The banners above the pages (so every page, the start page too, shows them), the status bar.
void MainWindow::buildFrame() {
    setWindowTitle(QStringLiteral("ScaleView"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/scaleview.svg")));
    setAcceptDrops(true);
    // A wheel turned over a field the user has not chosen scrolls, never edits (everywhere).
    installWheelGuard();
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_bundleBanner);
    layout->addWidget(m_openBanner);
    layout->addWidget(m_windowBanner);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    m_openBanner->setObjectName(QStringLiteral("openBanner"));
    m_windowBanner->setObjectName(QStringLiteral("windowBanner"));
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_loadStatus);
}

// The user's own and imported reference tables join the built-in ones in the controls; the
// references checked last time come back once they are read.
void MainWindow::connectReferenceTables() {
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
    m_savedReferences = new SavedReferences(m_settings, m_analysis, m_controls, statusBar(), this);
    connect(m_referenceTables, &ReferenceTables::userTablesLoaded, m_savedReferences,
            [this](const QStringList& problems) {
                m_savedReferences->restore(*m_referenceTables, problems);
            });
    m_referenceTables->loadUserTables();
}

// The parts with a job each: the docks, the measurement window, the opening flow, what a new
// analysis does to the window, the rerun without a slow node.
void MainWindow::buildParts() {
    m_docks = new WindowDocks(this, m_pages, m_controls, m_warnings);
    m_windows =
        new MeasureWindowFlow(m_settings, m_loader, m_analysis, m_controls, m_windowBanner, this);
    m_opening = new OpeningFlow(this, m_settings,
                                {m_loader, m_analysis, m_live, m_series, m_controls, m_windows,
                                 m_pages, m_openBanner, m_loadStatus, m_status});
    m_bundles = new BundleFlow(
        this, m_settings, {m_opening, m_loader, m_export, m_bundleBanner, m_loadStatus, m_status});
    m_presenter = new AnalysisPresenter(
        m_analysis, m_settings,
        {m_pages, m_controls, m_export, m_series, m_warnings, m_docks, m_status}, this);
    m_rerun = new SlowNodeRerun(m_loader, m_pages, m_status, this);
}

// Options: the control panel edits, the analysis recomputes, every page follows; what each page
// asks of the window.
void MainWindow::connectPages() {
    m_controls->setOptions(m_settings->analysisOptions());
    m_analysis->setOptions(m_settings->analysisOptions());
    connect(m_controls, &ControlPanel::optionsEdited, m_windows, &MeasureWindowFlow::edit);
    connect(m_analysis, &AnalysisController::invalidOptions, this,
            [this](const QString& why) { m_status->setText(tr("Not recomputed: %1").arg(why)); });
    connect(m_analysis, &AnalysisController::analysisReady, m_presenter,
            &AnalysisPresenter::present);
    connect(m_presenter, &AnalysisPresenter::presented, this, &MainWindow::analysisPresented);
    connect(m_pages, &PageStack::pageShown, m_docks, &WindowDocks::followPage);
    StartPage* start = m_pages->start();
    connect(start, &StartPage::openRequested, m_opening, &OpeningFlow::chooseDirectory);
    connect(start, &StartPage::samplesRequested, m_opening, &OpeningFlow::openDirectory);
    connect(start, &StartPage::runRequested, this, [this] { showPage(Run); });
    connect(runsPage(), &RunsPage::runSelected, m_export, &ExportController::setSelectedRun);
    connect(runsPage(), &RunsPage::keysSaved, this, [this](const QString& sidecar) {
        m_status->setText(tr("Keys saved in %1; reading the directory again…")
                              .arg(QDir::toNativeSeparators(sidecar)));
        reload();
    });
    connect(throughputPage(), &ChartPage::whiskerChanged, m_export, &ExportController::setWhisker);
    connect(throughputPage(), &ChartPage::scaleChanged, m_export, &ExportController::setScale);
    connect(speedupPage(), &SpeedupPage::efficiencyToggled, this,
            [this](bool on) { m_settings->setEfficiency(on); });
    connect(speedupPage()->lossView(), &LossBreakdownView::rerunWithout, m_rerun,
            &SlowNodeRerun::rerunWithout);
}

// What the Run tab does reaches the open view, the history and the analysis; closing
// mid-campaign waits for its cancel.
void MainWindow::connectCampaigns() {
    RunPanel* panel = runPanel();
    HistoryPage* history = historyPage();
    // The campaign session decides when a campaign goes into the history; the History page is
    // the recording step it is handed (none while no history is set).
    panel->controller()->setRecorder(
        [history = QPointer<HistoryPage>(history)](const QString& dir) {
            if (history && !history->databasePath().empty()) history->recordDirectory(dir);
        });
    connect(panel->controller(), &RunController::started, m_opening, &OpeningFlow::campaignStarted);
    connect(panel, &RunPanel::resultsReady, m_opening, &OpeningFlow::showRunResults);
    connect(panel, &RunPanel::campaignOpened, m_opening, &OpeningFlow::showCampaignResults);
    // Closing mid-campaign cancelled it first (closeEvent); now the window may go.
    connect(panel, &RunPanel::campaignFinished, this, [this] {
        if (m_closeWhenIdle) close();
    });
    connect(panel, &RunPanel::logInProgress, this, [this](const QString& path) {
        std::vector<std::filesystem::path> paths;
        if (!path.isEmpty()) paths.emplace_back(path.toStdString());
        m_analysis->setLogsInProgress(std::move(paths));
    });
}

void MainWindow::buildMenus() {
    m_menus = new WindowMenus(this, m_settings,
                              {m_opening, m_bundles, m_pages, m_docks, m_analysis, m_export,
                               m_loader, m_live, m_referenceTables, m_status});
    ExportMenu* exports = m_menus->exportMenu();
    connect(m_pages, &PageStack::pageShown, exports, &ExportMenu::update);
    connect(speedupPage(), &SpeedupPage::efficiencyToggled, exports, &ExportMenu::update);
    connect(exports, &ExportMenu::reportExported, this, &MainWindow::reportExported);
    connect(m_opening, &OpeningFlow::loadEnded, m_menus, &WindowMenus::rebuildRecent);
}

// The window as the user left it: page, efficiency, geometry and docks.
void MainWindow::restoreLayout() {
    speedupPage()->setEfficiency(m_settings->efficiency());
    m_pages->restorePage();
    resize(1400, 900);
    if (!restoreGeometry(m_settings->geometry())) resize(1400, 900);
    // The warnings panel is a strip, the controls a column: the pages get the room.
    m_docks->restored(restoreState(m_settings->windowState()));
    m_menus->exportMenu()->update();
    m_docks->followPage();
}

void MainWindow::analysisPresented(const AnalysisPtr& analysis) {
    m_menus->exportMenu()->update();
    m_windows->offerFor(analysis);
    emit analysisShown(analysis);
}

void MainWindow::openDirectory(const QString& directory) {
    if (BundleOpener::isBundle(directory))
        openBundle(directory);
    else
        m_opening->openDirectory(directory);
}

void MainWindow::openBundle(const QString& bundle) {
    m_bundles->openBundle(bundle);
}

void MainWindow::addToComparison(const QString& directory) {
    m_opening->addToComparison(directory);
}

void MainWindow::openDropped(const QString& path, Qt::KeyboardModifiers modifiers) {
    // A bundle dropped opens (into its private folder), whatever the modifiers.
    if (BundleOpener::isBundle(path))
        openBundle(path);
    else
        m_opening->openDropped(path, modifiers);
}

void MainWindow::reload() {
    m_opening->reload();
}

QString MainWindow::directoryToReopen() const {
    return m_opening->directoryToReopen();
}

QString MainWindow::statusText() const {
    return m_presenter->statusText();
}

QListView* MainWindow::warningView() const {
    return m_docks->warningView();
}

QDockWidget* MainWindow::controlsDock() const {
    return m_docks->controls();
}

QDockWidget* MainWindow::warningsDock() const {
    return m_docks->warnings();
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    m_docks->sizeOnFirstShow();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // A running campaign is cancelled before the window goes, or mpirun's children would
    // outlive the app; the window closes once the Run panel says the campaign has ended.
    if (!runPanel()->mayClose()) {
        event->ignore();
        if (m_closeWhenIdle) return; // already cancelling
        // The user may have closed by mistake: the campaign keeps running unless they say so.
        if (!m_closeWithoutAsking && !askCancelAndQuit()) return;
        m_closeWhenIdle = true;
        runPanel()->cancelBeforeClosing();
        return;
    }
    m_docks->restoreUsersChoice();
    m_settings->setWindow(saveGeometry(), saveState());
    m_settings->sync();
    QMainWindow::closeEvent(event);
}

void MainWindow::closeWithoutAsking() {
    m_closeWithoutAsking = true;
    close();
}

bool MainWindow::askCancelAndQuit() {
    if (m_closeQuestion) return m_closeQuestion();
    QMessageBox box(QMessageBox::Question, tr("A campaign is running"),
                    tr("A benchmark campaign is running. Cancel it and quit?"),
                    QMessageBox::NoButton, this);
    box.setInformativeText(tr("Cancelling stops every rank; the logs written so far are kept."));
    QPushButton* quit = box.addButton(tr("Cancel It and &Quit"), QMessageBox::DestructiveRole);
    QPushButton* keep = box.addButton(tr("&Keep Running"), QMessageBox::RejectRole);
    box.setDefaultButton(keep);
    box.exec();
    return box.clickedButton() == quit;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    openDropped(event->mimeData()->urls().first().toLocalFile(), event->modifiers());
    event->acceptProposedAction();
}

} // namespace sv::ui
