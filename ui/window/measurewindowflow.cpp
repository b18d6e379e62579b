#include "ui/window/measurewindowflow.h"

#include "core/load/runmeter.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/widgets/pagebanner.h"

#include <QPushButton>

#include <utility>

namespace sv::ui {

namespace {
void stampWindow(AnalysisOptions& options, const WindowChoice& choice) {
    options.measure = choice.measure;
    options.windowSource = windowSourceName(choice.source);
    options.campaignFile = choice.campaignFile.toStdString();
}
} // namespace

MeasureWindowFlow::MeasureWindowFlow(AppSettings* settings, LoadController* loader,
                                     AnalysisController* analysis, ControlPanel* controls,
                                     PageBanner* banner, QObject* parent)
    : QObject(parent), m_loader(loader), m_analysis(analysis), m_controls(controls),
      m_banner(banner), m_window(settings) {}

void MeasureWindowFlow::choose(const QString& root) {
    m_banner->hide();
    m_lastOffer.clear();
    const CampaignWindowLookup& found = m_loader->campaignWindow();
    const WindowChoice choice = m_window.open(root, found);
    apply(choice);
    m_note = found.error ? tr("%1 — so the window is %2…%3, not the campaign's.")
                               .arg(QString::fromStdString(*found.error))
                               .arg(choice.measure.warmup)
                               .arg(choice.measure.iterations - 1)
                         : QString();
    if (!m_note.isEmpty()) m_banner->showMessage(m_note, QString());
    m_loader->setMeasure(m_analysis->options().measure); // its logs are read for it
}

void MeasureWindowFlow::edit(AnalysisOptions o) {
    const AnalysisOptions& now = m_analysis->options();
    const bool windowEdited = !sameMeasure(o.measure, now.measure);
    if (windowEdited) m_editedSinceCampaignStart = true;
    // Whose window it is, the controls do not know: the directory's policy does.
    o.windowSource = now.windowSource;
    o.campaignFile = now.campaignFile;
    if (windowEdited && !validateMeasureOptions(o.measure)) {
        const WindowChoice choice = m_window.set(o.measure);
        stampWindow(o, choice);
        m_controls->setWindowSource(choice.source, choice.campaignFile);
        m_note.clear(); // the user has chosen
        m_banner->hide();
    }
    m_analysis->setOptions(o);
}

void MeasureWindowFlow::setNextForRunEnd(const MeasureOptions& campaign) {
    if (!m_editedSinceCampaignStart)
        m_window.setNext(campaign, WindowSource::Campaign);
    else
        m_window.setNext(m_analysis->options().measure, WindowSource::User);
}

void MeasureWindowFlow::setNextForCampaign(const MeasureOptions& campaign) {
    m_window.setNext(campaign, WindowSource::Campaign);
}

void MeasureWindowFlow::useCampaign(const MeasureOptions& campaign) {
    apply(m_window.useCampaign(campaign));
}

void MeasureWindowFlow::apply(const WindowChoice& choice) {
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

void MeasureWindowFlow::remember(const MeasureOptions& measure) {
    apply(m_window.set(measure));
    m_note.clear(); // the user has chosen
    m_banner->hide();
}

void MeasureWindowFlow::offerFor(const AnalysisPtr& a) {
    if (!a->complete || a->summary.cancelled || a->summary.runs.empty()) return;
    const auto n = commonShortIterations(a->summary.runs);
    const MeasureOptions window = a->summary.runs.front().window; // every run's, when n is
    if (!n) {
        // An offer no longer true goes; a note stays as the user left it.
        if (!m_banner->actionButton()->isHidden()) {
            if (m_note.isEmpty())
                m_banner->hide();
            else
                m_banner->showMessage(m_note, QString());
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
    disconnect(m_banner, &PageBanner::actionTriggered, this, nullptr);
    connect(m_banner, &PageBanner::actionTriggered, this, [this, window, n = *n] {
        remember(MeasureOptions{window.warmup, n});
    });
    m_banner->showMessage(
        (m_note.isEmpty() ? QString() : m_note + QLatin1Char('\n')) +
            tr("These logs all have %1 iterations, fewer than the window's %2: none counts. "
               "Measure iterations %3…%4 instead?")
                .arg(*n)
                .arg(window.iterations)
                .arg(window.warmup)
                .arg(*n - 1),
        tr("Use %1 iterations").arg(*n));
}

} // namespace sv::ui
