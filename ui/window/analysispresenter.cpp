#include "ui/window/analysispresenter.h"

#include "core/formats/formatregistry.h"
#include "core/load/runmeter.h"
#include "core/measure/steadystateanalyzer.h"
#include "core/report/casenotes.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/figurewords.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/environmentpage.h"
#include "ui/browse/resultspage.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/compare/seriesset.h"
#include "ui/export/exportcontroller.h"
#include "ui/history/historypage.h"
#include "ui/models/warninglistmodel.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/logactions.h"
#include "ui/widgets/plural.h"
#include "ui/window/pagestack.h"
#include "ui/window/windowdocks.h"

#include <QDir>
#include <QLabel>
#include <QListView>

#include <algorithm>

namespace sv::ui {

AnalysisPresenter::AnalysisPresenter(AnalysisController* analysis, AppSettings* settings,
                                     Targets targets, QObject* parent)
    : QObject(parent), m_analysis(analysis), m_settings(settings), m_to(targets) {
    QListView* view = m_to.docks->warningView();
    connect(view, &QListView::activated, this, &AnalysisPresenter::openWarning);
    new LogActions(view, [this](const QModelIndex& index) {
        const auto& w = m_to.warnings->warnings()[static_cast<std::size_t>(index.row())];
        const AnalysisPtr a = m_analysis->current();
        const QString file = QString::fromStdString(w.file);
        return LogActions::Target{
            QString::fromStdString(w.text()),
            file.isEmpty() || !a ? QString()
                                 : QDir(QString::fromStdString(a->summary.root)).filePath(file),
            // A log no format reads: the user may teach one (ui/widgets/teachdialog.h), from
            // the candidate line the scan names.
            w.message.find("of a known format") != std::string::npos ||
                w.message.find("no speed line") != std::string::npos ||
                w.message.rfind("not read:", 0) == 0,
            w.message.rfind("not read:", 0) == 0 ? static_cast<int>(w.line) : 0};
    });
    m_to.status->setText(openHint());
}

void AnalysisPresenter::present(const AnalysisPtr& a) {
    // The open directory's frameworks: compared series of one name are named after them.
    std::vector<std::string> formats;
    for (const auto& r : a->summary.runs)
        if (std::find(formats.begin(), formats.end(), r.key.format) == formats.end())
            formats.push_back(r.key.format);
    m_to.series->setMainFormats(formats);
    m_to.exporter->setAnalysis(a);
    m_to.controls->setAnalysis(a);
    m_to.pages->results()->setAnalysis(a);
    m_to.pages->throughput()->setAnalysis(a);
    m_to.pages->speedup()->setAnalysis(a);
    m_to.pages->runs()->setAnalysis(a);
    // What the open directory's campaign ran on; the directory Record in History records.
    const QString root = QString::fromStdString(a->summary.root);
    m_to.pages->environment()->showDirectory(root);
    m_to.pages->history()->setCurrentDirectory(a->complete && !a->summary.runs.empty() ? root
                                                                                       : QString());
    std::vector<Warning> shown = shownWarnings(*a);
    const std::size_t count = shown.size();
    m_to.warnings->setWarnings(std::move(shown));
    m_to.docks->showWarningCount(count);
    m_settings->setAnalysisOptions(m_analysis->options());
    m_to.status->setText(statusText());
    emit presented(a);
}

void AnalysisPresenter::openWarning(const QModelIndex& index) {
    const AnalysisPtr a = m_analysis->current();
    if (!a || !index.isValid()) return;
    const std::string& file = m_to.warnings->warnings()[static_cast<std::size_t>(index.row())].file;
    for (std::size_t i = 0; i < a->summary.runs.size(); ++i)
        if (!file.empty() && a->summary.runs[i].path == file) {
            m_to.pages->showPage(PageStack::Runs);
            m_to.pages->runs()->selectRun(static_cast<int>(i));
            return;
        }
    // A case's warning is about its figures: its row on Results carries it.
    if (file.empty()) {
        m_to.pages->showPage(PageStack::Results);
        m_to.status->setText(
            tr("A case's warning: its row on Results carries the icon and reason."));
        return;
    }
    // A file the scan skipped has no run: say so rather than do nothing.
    m_to.status->setText(
        tr("%1 was not read as a run; use Open Log to see it.").arg(QString::fromStdString(file)));
}

QString AnalysisPresenter::openHint() {
    return tr("Open a DLPerf log directory: File › Open (Ctrl+O), or drop it here.");
}

// What is wrong with the figures (each case's warnings, the reason in words: the message says
// what it is, no kind tag), then what is wrong
// with the files. "Warnings (0)" beside a disturbed case would read as clean. The status line
// counts what the panel lists (set from the same analysis just before).
std::vector<Warning> AnalysisPresenter::shownWarnings(const Analysis& a) {
    std::vector<Warning> out;
    for (const auto& c : a.summary.cases)
        for (const auto& w : c.warnings)
            out.push_back(Warning{"", 0, caseWhere(c, a.summary.runs) + ": " + w.message});
    out.insert(out.end(), a.summary.warnings.begin(), a.summary.warnings.end());
    return out;
}

QString AnalysisPresenter::statusText() const {
    const AnalysisPtr a = m_analysis->current();
    if (!a) return m_to.status->text();
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
    // What the figures are and in which unit: a log that reports tokens/s itself is neither
    // "time method" nor images/s, and runs of two units are said to be two.
    const FigureWords figures = figureWordsOf(a->summary.runs);
    text += tr(" · %1, %2 used · %3 · %4 · %5")
                .arg(countOf(qsizetype(a->summary.runs.size()), tr("run"), tr("runs")))
                .arg(used)
                .arg(figures.methodWords(a->summary.options.method))
                .arg(figures.oneUnit() ? tr("throughput in %1").arg(figures.units.front())
                                       : tr("throughput in %1 units: %2")
                                             .arg(figures.units.size())
                                             .arg(figures.units.join(QStringLiteral(", "))))
                .arg(countOf(qsizetype(m_to.warnings->warnings().size()), tr("warning"),
                             tr("warnings")));
    // A window other than DLPerf's changes every figure: the status line names it and whose.
    // A log whose figure is its own reports has no DLPerf window: its words say which reports.
    const auto windows = a->groupWindows();
    if (windows.size() > 1 || (windows.size() == 1 && !sameMeasure(windows[0].window, {}))) {
        QStringList ranges;
        int own = 0;
        for (const auto& u : windows) {
            const bool ownReports =
                isSteadyStateWindow(u.window) ||
                (!u.formats.empty() &&
                 std::all_of(u.formats.begin(), u.formats.end(),
                             [](const std::string& f) { return readsOwnReports(logFormatOf(f)); }));
            own += ownReports ? 1 : 0;
            ranges
                << (!ownReports
                        ? QStringLiteral("%1…%2").arg(u.window.warmup).arg(u.window.iterations - 1)
                    : isSteadyStateWindow(u.window)
                        ? tr("the log's own reports after the first tenth")
                    : u.window.warmup < 0 || u.window.iterations <= u.window.warmup
                        ? tr("the log's own reports by its format's rule")
                        : tr("the log's own reports %1…%2")
                              .arg(u.window.warmup)
                              .arg(u.window.iterations - 1));
        }
        const QString window = ranges.join(QStringLiteral(", "));
        if (a->summary.windowSource == "campaign")
            text += tr(" · the campaign's window %1").arg(window);
        else if (a->summary.windowSource == "user")
            text += tr(" · your window %1").arg(window);
        else if (a->summary.load.measure.formatDefaults && own == ranges.size())
            text += tr(" · window: %1").arg(window);
        else if (a->summary.load.measure.formatDefaults && own > 0)
            text += tr(" · windows: %1").arg(window);
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
