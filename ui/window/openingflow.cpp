#include "ui/window/openingflow.h"

#include "core/model/runkey.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/livecontroller.h"
#include "ui/compare/seriesset.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/pagebanner.h"
#include "ui/widgets/teachdialog.h"
#include "ui/window/measurewindowflow.h"
#include "ui/window/pagestack.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>

#include <utility>

namespace sv::ui {

OpeningFlow::OpeningFlow(QMainWindow* window, AppSettings* settings, Parts parts)
    : QObject(window), m_window(window), m_settings(settings), m_p(parts) {
    // The banner says what did not open, or what could not be added; its button chooses again.
    connect(m_p.banner, &PageBanner::actionTriggered, this,
            [this] { m_bannerAdds ? chooseComparisonDirectory() : chooseDirectory(); });
    connectLoader();
    connectSeries();
}

void OpeningFlow::openDirectory(const QString& directory) {
    m_p.loader->open(QFileInfo(directory).absoluteFilePath());
}

void OpeningFlow::openPrivateFolder(const QString& directory) {
    m_private = QFileInfo(directory).absoluteFilePath();
    m_p.loader->open(m_private);
}

void OpeningFlow::addToComparison(const QString& directory) {
    if (m_p.loader->root().isEmpty() && !m_p.loader->isLoading()) {
        openDirectory(directory); // nothing to compare with yet: it is the first series
        return;
    }
    if (m_bannerAdds) m_p.banner->hide(); // the last add's failure: this one replaces it
    m_p.series->add(QFileInfo(directory).absoluteFilePath());
    m_p.status->setText(
        tr("Adding %1 to the comparison…").arg(QDir::toNativeSeparators(directory)));
}

void OpeningFlow::openDropped(const QString& path, Qt::KeyboardModifiers modifiers) {
    const QFileInfo dropped(path);
    // A dropped DLPerf log stands for its directory tree; any other file is read as the single
    // log it is (issue 26).
    const bool dlperfLog =
        dropped.isFile() && sv::parseLogName(dropped.fileName().toStdString()).has_value();
    const QString dir =
        dropped.isDir() || !dlperfLog ? dropped.absoluteFilePath() : dropped.absolutePath();
    if (modifiers & Qt::ControlModifier)
        addToComparison(dir);
    else
        openDirectory(dir);
}

QString OpeningFlow::teachFolder() const {
    return !m_retryRoot.isEmpty() ? m_retryRoot : m_p.loader->root();
}

void OpeningFlow::reload() {
    if (m_p.loader->isLoading()) return;
    // After a format was taught from a folder that had opened with no log: that folder.
    const QString root =
        !m_retryRoot.isEmpty() ? std::exchange(m_retryRoot, QString()) : m_p.loader->root();
    if (!root.isEmpty()) openDirectory(root);
}

void OpeningFlow::chooseDirectory() {
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Open Log Directory"),
                                                          m_settings->lastDirectory());
    if (!dir.isEmpty()) openDirectory(dir);
}

void OpeningFlow::chooseComparisonDirectory() {
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Add to Comparison"),
                                                          m_settings->lastDirectory());
    if (!dir.isEmpty()) addToComparison(dir);
}

QString OpeningFlow::directoryToReopen() const {
    const QStringList recent = m_settings->recent();
    if (!m_settings->reopenLast() || recent.isEmpty() || !QFileInfo(recent.first()).isDir())
        return {};
    return recent.first();
}

// Loading: progress in the status bar; snapshots (partial, then complete) to the analysis. What
// is shown stays, titled and followed as it is, until the new directory turns out to hold logs:
// a failed open changes nothing but the banner.
void OpeningFlow::connectLoader() {
    LoadController* loader = m_p.loader;
    connect(loader, &LoadController::started, this, [this](const QString& root) {
        m_teachLog.clear(); // what the last open found to teach from is not this one's
        m_teachFiles = 0;
        m_p.status->setText(tr("Scanning %1…").arg(QDir::toNativeSeparators(root)));
        m_p.loadStatus->showProgress(0, 0, -1);
    });
    connect(loader, &LoadController::scanned, this, &OpeningFlow::switchTo);
    connect(loader, &LoadController::progress, m_p.loadStatus, &LoadStatus::showProgress);
    connect(m_p.loadStatus, &LoadStatus::cancelRequested, loader, &LoadController::cancel);
    connect(loader, &LoadController::snapshotReady, m_p.analysis, &AnalysisController::setSnapshot);
    connect(loader, &LoadController::finished, this, &OpeningFlow::finishLoad);
    connect(loader, &LoadController::failed, this, &OpeningFlow::showOpenFailure);
    connect(loader, &LoadController::teachable, this,
            [this](const QString& log, int line, int files) {
                m_teachLog = log;
                m_teachLine = line;
                m_teachFiles = files;
            });
    connect(m_p.banner, &PageBanner::secondTriggered, this, [this] {
        if (!m_teachLog.isEmpty()) openTeachDialog(m_window, m_teachLog, m_teachLine);
    });
    connect(m_p.live, &LiveController::snapshotReady, m_p.analysis,
            &AnalysisController::setSnapshot);
}

void OpeningFlow::switchTo(const QString& root) {
    m_p.pages->showTabs();
    m_p.live->stop();
    m_p.banner->hide();
    // The window first: a recompute it starts for what was shown is dropped by clear().
    m_p.windows->choose(root);
    // Another tree: its own matching references and first group, not what was ticked or shown
    // for the last one (V100 batch-128 bars beside a CPU batch-32 campaign).
    if (const QString shown = m_p.series->roots().front();
        !shown.isEmpty() && QDir::cleanPath(shown) != QDir::cleanPath(root)) {
        AnalysisOptions o = m_p.analysis->options();
        if (!o.autoReferences || !o.references.empty() || o.group) {
            o.autoReferences = true;
            o.references.clear();
            o.group.reset();
            m_p.controls->setOptions(o);
            m_p.analysis->setOptions(o);
        }
    }
    m_p.analysis->clear();
    m_p.series->setMainRoot(root); // another directory ends the comparison
    m_window->setWindowTitle(QStringLiteral("ScaleView — %1").arg(QDir::toNativeSeparators(root)));
}

void OpeningFlow::finishLoad(const QString& root, bool cancelled) {
    m_p.loadStatus->showIdle();
    if (!root.isEmpty() && root != m_private) m_settings->addRecent(root);
    emit loadEnded();
    const bool runEnded = std::exchange(m_runEndedWhileLoading, false);
    if (cancelled) return;
    // Live's first look reads what was written during the load; without Live, a run that ended
    // meanwhile is read by one look.
    if (m_settings->live())
        m_p.live->start(m_p.loader->snapshot());
    else if (runEnded)
        m_p.live->refreshNow(m_p.loader->snapshot());
}

void OpeningFlow::showOpenFailure(const QString& root, const QString& error) {
    m_p.loadStatus->showIdle();
    m_p.windows->dropNext();
    const AnalysisPtr shown = m_p.analysis->current();
    const bool showing = shown && !shown->summary.error && !shown->summary.root.empty();
    // With nothing shown before, the empty state stays (and names what failed); otherwise what
    // is shown stays as it is, under its own name, and the banner says what did not open.
    if (!showing) {
        m_p.analysis->showEmpty(root, error);
        m_window->setWindowTitle(QStringLiteral("ScaleView"));
    } else if (!shown->complete && m_p.loader->snapshot().root == m_p.analysis->snapshot().root) {
        // Its load was cut short by this open: shown as what it is, a cancelled partial load.
        m_p.analysis->setSnapshot(m_p.loader->snapshot());
    }
    const QString what = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(root), error);
    m_bannerAdds = false;
    // Files with rate lines that nothing read: one dialog from "skipped" to "read".
    const bool teach = !m_teachLog.isEmpty() && m_teachFiles > 0;
    m_retryRoot = teach ? root : QString();
    const QString teachWhat =
        teach ? QStringLiteral("\n") +
                    tr("%n file(s) hold throughput-like lines that no format reads, e.g. %1, "
                       "line %2. Teach ScaleView this log, and the folder is read again.",
                       nullptr, m_teachFiles)
                        .arg(QDir::toNativeSeparators(m_teachLog))
                        .arg(m_teachLine)
              : QString();
    m_p.banner->showMessage(
        what + QStringLiteral("\n") +
            tr("ScaleView reads DLPerf logs laid out as "
               "…/<N>n<G>g/<model>_b<B>_<precision>_<repeat>.log, e.g. 1n8g/r50_b128_fp32_1.log, "
               "and any log whose lines a known format or the general reader reads.") +
            teachWhat +
            (showing ? QStringLiteral(" ") + tr("Still showing %1.")
                                                 .arg(QDir::toNativeSeparators(
                                                     QString::fromStdString(shown->summary.root)))
                     : QString()),
        tr("Choose another…"), teach ? tr("Teach ScaleView this Log…") : QString());
    if (!teach) m_teachLog.clear();
    m_p.status->setText(what);
}

// A comparison: every series is measured by the open directory's method, each over its own
// window (the added ones' from their campaign.json, as `compare` does), on the worker.
void OpeningFlow::connectSeries() {
    SeriesSet* series = m_p.series;
    connect(series, &SeriesSet::changed, this,
            [this] { m_p.analysis->setSeries(m_p.series->mainLabel(), m_p.series->inputs()); });
    connect(series, &SeriesSet::failed, this, &OpeningFlow::showAddFailure);
    connect(series, &SeriesSet::windowUnreadable, this,
            [this](const QString& root, const QString& error) {
                const MeasureOptions dlperf;
                // A message of its own: the status line is rewritten by each recompute.
                m_window->statusBar()->showMessage(
                    tr("%1: %2 — so it is measured over DLPerf's window %3…%4")
                        .arg(QDir::toNativeSeparators(root), error)
                        .arg(dlperf.warmup)
                        .arg(dlperf.iterations - 1),
                    60000);
            });
    connect(m_p.controls, &ControlPanel::seriesRenamed, series, &SeriesSet::rename);
    connect(m_p.controls, &ControlPanel::seriesRemoveRequested, series, &SeriesSet::remove);
    connect(m_p.controls, &ControlPanel::addSeriesRequested, this,
            &OpeningFlow::chooseComparisonDirectory);
}

// On the banner, not the status line alone: removing the series recomputes, and each recompute
// rewrites the status line.
void OpeningFlow::showAddFailure(const QString& root, const QString& error) {
    const QString what =
        tr("Cannot add %1 to the comparison: %2").arg(QDir::toNativeSeparators(root), error);
    m_bannerAdds = true;
    m_p.banner->showMessage(what + QStringLiteral("\n") +
                                tr("It is left out; everything else stays as it was."),
                            tr("Add another…"));
    m_p.status->setText(what);
}

void OpeningFlow::campaignStarted() {
    m_generationAtCampaignStart = m_p.loader->generation();
    m_p.windows->campaignStarted();
}

void OpeningFlow::showRunResults(const QString& logRoot, int warmup, int iterations) {
    const QString root = QFileInfo(logRoot).absoluteFilePath();
    if (root == m_p.loader->root()) {
        // The campaign's directory is open: read what is new, as Live does, keeping the user's
        // warmup and window. A load under way reads it when it ends.
        if (m_p.loader->isLoading()) {
            m_runEndedWhileLoading = true;
            return;
        }
        LogSnapshot shown = m_p.analysis->snapshot();
        m_p.live->refreshNow(shown.root == root ? shown : m_p.loader->snapshot());
        return;
    }
    // The user opened another directory since the campaign started: theirs stays.
    if (m_p.loader->generation() != m_generationAtCampaignStart) {
        m_p.status->setText(tr("A run ended; its results are in %1 (not the directory shown).")
                                .arg(QDir::toNativeSeparators(root)));
        return;
    }
    // The first results of the campaign: its directory, measured with the campaign's own warmup
    // and window unless the user chose others meanwhile.
    m_p.windows->setNextForRunEnd(MeasureOptions{warmup, iterations});
    openDirectory(root);
}

void OpeningFlow::showCampaignResults(const QString& logRoot, int warmup, int iterations) {
    const QString root = QFileInfo(logRoot).absoluteFilePath();
    if (root == m_p.loader->root() && !m_p.loader->isLoading()) {
        m_p.windows->useCampaign(MeasureOptions{warmup, iterations});
        m_p.live->refreshNow(m_p.analysis->snapshot().root == root ? m_p.analysis->snapshot()
                                                                   : m_p.loader->snapshot());
    } else {
        m_p.windows->setNextForCampaign(MeasureOptions{warmup, iterations});
        openDirectory(root);
    }
}

} // namespace sv::ui
