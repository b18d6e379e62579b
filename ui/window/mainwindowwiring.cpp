// MainWindow's wiring: how the controllers, the pages and the Run page talk to each other (a
// step each, called in this order by the constructor), and the measurement window applied.

#include "ui/window/mainwindow.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/environmentpage.h"
#include "ui/history/historypage.h"
#include "ui/browse/referencetables.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/pagebanner.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/browse/chartpage.h"
#include "ui/compare/seriesset.h"
#include "ui/browse/speeduppage.h"
#include "ui/charts/lossbreakdownview.h"
#include "ui/run/campaignform.h"
#include "async/backgroundtask.h"
#include "launcher/campaign/campaign.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

#include <filesystem>
#include <utility>
#include <vector>

namespace sv::ui {

namespace {
void stampWindow(AnalysisOptions& options, const WindowChoice& choice) {
    options.measure = choice.measure;
    options.windowSource = windowSourceName(choice.source);
    options.campaignFile = choice.campaignFile.toStdString();
}
} // namespace

// The user's own and imported reference tables join the built-in ones in the controls.
void MainWindow::connectReferenceTables() {
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
}

// What the Run page does reaches the open view (see showRunResults).
void MainWindow::connectRunPanel() {
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
}

void MainWindow::connectLoader() {
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
        // Another tree: its own matching references and first group, not what was ticked or
        // shown for the last one (V100 batch-128 bars beside a CPU batch-32 campaign).
        if (const QString shown = m_series->roots().front();
            !shown.isEmpty() && QDir::cleanPath(shown) != QDir::cleanPath(root)) {
            AnalysisOptions o = m_analysis->options();
            if (!o.autoReferences || !o.references.empty() || o.group) {
                o.autoReferences = true;
                o.references.clear();
                o.group.reset();
                m_controls->setOptions(o);
                m_analysis->setOptions(o);
            }
        }
        m_analysis->clear();
        m_series->setMainRoot(root); // another directory ends the comparison
        setWindowTitle(QStringLiteral("ScaleView — %1").arg(QDir::toNativeSeparators(root)));
    });
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
}

void MainWindow::connectSeries() {
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
}

void MainWindow::connectOptions() {
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
    connect(m_runs, &RunsPage::keysSaved, this, [this](const QString& sidecar) {
        m_status->setText(tr("Keys saved in %1; reading the directory again…")
                              .arg(QDir::toNativeSeparators(sidecar)));
        reload();
    });
    connect(m_throughput, &ChartPage::whiskerChanged, m_export, &ExportController::setWhisker);
    connect(m_speedup, &SpeedupPage::efficiencyToggled, this,
            [this](bool on) { m_settings->setEfficiency(on); });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int page) {
        m_settings->setPage(page);
        updateDocks();
        updateExportActions();
    });
    connect(m_speedup, &SpeedupPage::efficiencyToggled, this, &MainWindow::updateExportActions);
    connect(m_speedup->lossView(), &LossBreakdownView::rerunWithout, this,
            &MainWindow::rerunWithout);
    connect(m_controlsDock->toggleViewAction(), &QAction::triggered, this,
            [this](bool on) { m_controlsWanted = on; });
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

namespace {

struct ReadCampaign {
    std::optional<launcher::Campaign> campaign;
    std::string error;
};

} // namespace

void MainWindow::rerunWithout(const QString& node, const QString& why) {
    const auto& found = m_loader->campaignWindow();
    if (!found.window) {
        m_status->setText(tr("No campaign.json holds these logs: there is no campaign to run again "
                             "without %1")
                              .arg(node));
        return;
    }
    const std::string file = found.window->file;
    async::runInBackground(
        this,
        [file] {
            ReadCampaign r;
            r.campaign = launcher::loadCampaign(file, &r.error);
            return r;
        },
        [this, node, why, file](ReadCampaign r) {
            std::optional<std::string> refused;
            if (r.campaign)
                refused = launcher::excludeNode(*r.campaign, node.toStdString(), why.toStdString());
            if (!r.campaign || refused) {
                m_status->setText(tr("Not rerun without %1: %2: %3")
                                      .arg(node, QString::fromStdString(file),
                                           QString::fromStdString(r.campaign ? *refused : r.error)));
                return;
            }
            r.campaign->outputDir = CampaignForm::freshOutputDir().toStdString();
            m_runPanel->form()->setCampaign(*r.campaign);
            showPage(Run);
            m_status->setText(tr("The campaign of %1 without %2, on the Run tab: check it, then "
                                 "Run")
                                  .arg(QDir::toNativeSeparators(QString::fromStdString(file)), node));
        },
        async::backgroundPool());
}

} // namespace sv::ui
