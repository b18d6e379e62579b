// MainWindow's results as they arrive: a run's or a campaign's results, a directory that did not
// open, and the measurement window chosen for what opens (the campaign's, the user's, an offer).

#include "ui/window/mainwindow.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/pagebanner.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

#include <utility>

namespace sv::ui {

void MainWindow::showRunResults(const QString& logRoot, int warmup, int iterations) {
    const QString root = QFileInfo(logRoot).absoluteFilePath();
    if (root == m_loader->root()) {
        // The campaign's directory is open: read what is new, as Live does, keeping the user's
        // warmup and window. A load under way reads it when it ends.
        if (m_loader->isLoading()) {
            m_runEndedWhileLoading = true;
            return;
        }
        LogSnapshot shown = m_analysis->snapshot();
        m_live->refreshNow(shown.root == root ? shown : m_loader->snapshot());
        return;
    }
    // The user opened another directory since the campaign started: theirs stays.
    if (m_loader->generation() != m_generationAtCampaignStart) {
        m_status->setText(tr("A run ended; its results are in %1 (not the directory shown).")
                              .arg(QDir::toNativeSeparators(root)));
        return;
    }
    // The first results of the campaign: show its directory, measured with the campaign's own
    // warmup and window unless the user chose others meanwhile.
    if (!m_measureEditedSinceCampaignStart)
        m_window.setNext(MeasureOptions{warmup, iterations}, WindowSource::Campaign);
    else
        m_window.setNext(m_analysis->options().measure, WindowSource::User);
    openDirectory(root);
}

void MainWindow::showCampaignResults(const QString& logRoot, int warmup, int iterations) {
    // The user opened a campaign: its results, measured as it was run.
    const QString root = QFileInfo(logRoot).absoluteFilePath();
    if (root == m_loader->root() && !m_loader->isLoading()) {
        applyWindow(m_window.useCampaign(MeasureOptions{warmup, iterations}));
        m_live->refreshNow(m_analysis->snapshot().root == root ? m_analysis->snapshot()
                                                               : m_loader->snapshot());
    } else {
        m_window.setNext(MeasureOptions{warmup, iterations}, WindowSource::Campaign);
        openDirectory(root);
    }
}

void MainWindow::chooseWindow(const QString& root) {
    const CampaignWindowLookup& found = m_loader->campaignWindow();
    const WindowChoice choice = m_window.open(root, found);
    applyWindow(choice);
    m_windowNote = found.error ? tr("%1 — so the window is %2…%3, not the campaign's.")
                                     .arg(QString::fromStdString(*found.error))
                                     .arg(choice.measure.warmup)
                                     .arg(choice.measure.iterations - 1)
                               : QString();
    if (!m_windowNote.isEmpty()) m_windowBanner->showMessage(m_windowNote, QString());
}

void MainWindow::rememberWindow(const MeasureOptions& measure) {
    applyWindow(m_window.set(measure));
    m_windowNote.clear(); // the user has chosen
    m_windowBanner->hide();
}

void MainWindow::showOpenFailure(const QString& root, const QString& error) {
    m_loadStatus->showIdle();
    m_window.dropNext();
    const AnalysisPtr shown = m_analysis->current();
    const bool showing = shown && !shown->summary.error && !shown->summary.root.empty();
    // With nothing shown before, the empty state stays (and names what failed); otherwise what
    // is shown stays as it is, under its own name, and the banner says what did not open.
    if (!showing) {
        m_analysis->showEmpty(root, error);
        setWindowTitle(QStringLiteral("ScaleView"));
    } else if (!shown->complete && m_loader->snapshot().root == m_analysis->snapshot().root) {
        // Its load was cut short by this open: shown as what it is, a cancelled partial load.
        m_analysis->setSnapshot(m_loader->snapshot());
    }
    const QString what = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(root), error);
    m_bannerAdds = false;
    m_openBanner->showMessage(
        what + QStringLiteral("\n") +
            tr("ScaleView reads DLPerf logs laid out as "
               "…/<N>n<G>g/<model>_b<B>_<precision>_<repeat>.log, e.g. 1n8g/r50_b128_fp32_1.log.") +
            (showing ? QStringLiteral(" ") + tr("Still showing %1.")
                                                 .arg(QDir::toNativeSeparators(
                                                     QString::fromStdString(shown->summary.root)))
                     : QString()),
        tr("Choose another…"));
    m_status->setText(what);
}

void MainWindow::offerWindowFor(const AnalysisPtr& a) {
    if (!a->complete || a->summary.cancelled || a->summary.runs.empty()) return;
    const auto n = commonShortIterations(a->summary.runs);
    const MeasureOptions window = a->summary.runs.front().window; // every run's, when n is
    if (!n) {
        // An offer no longer true goes; a note stays as the user left it.
        if (!m_windowBanner->actionButton()->isHidden()) {
            if (m_windowNote.isEmpty())
                m_windowBanner->hide();
            else
                m_windowBanner->showMessage(m_windowNote, QString());
        }
        m_lastOffer.clear();
        return;
    }
    // Offered once: a dismissed offer does not come back with each update of the same logs.
    const QString offer = QStringLiteral("%1|%2|%3|%4")
                              .arg(QString::fromStdString(a->summary.root))
                              .arg(window.warmup)
                              .arg(window.iterations)
                              .arg(*n);
    if (std::exchange(m_lastOffer, offer) == offer) return;
    disconnect(m_windowBanner, &PageBanner::actionTriggered, this, nullptr);
    connect(m_windowBanner, &PageBanner::actionTriggered, this, [this, window, n = *n] {
        rememberWindow(MeasureOptions{window.warmup, n});
    });
    m_windowBanner->showMessage(
        (m_windowNote.isEmpty() ? QString() : m_windowNote + QLatin1Char('\n')) +
            tr("These logs all have %1 iterations, fewer than the window's %2: none counts. "
               "Measure iterations %3…%4 instead?")
                .arg(*n)
                .arg(window.iterations)
                .arg(window.warmup)
                .arg(*n - 1),
        tr("Use %1 iterations").arg(*n));
}

} // namespace sv::ui
