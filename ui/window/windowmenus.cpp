#include "ui/window/windowmenus.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/browse/livecontroller.h"
#include "ui/browse/referencetables.h"
#include "ui/history/historypage.h"
#include "ui/run/runpanel.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/enabledmirror.h"
#include "ui/widgets/menuitem.h"
#include "ui/widgets/teachdialog.h"
#include "ui/window/bundleflow.h"
#include "ui/window/bundleopener.h"
#include "ui/window/exportmenu.h"
#include "ui/window/methodologydialog.h"
#include "ui/window/openingflow.h"
#include "ui/window/pagestack.h"
#include "ui/window/windowdocks.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>

namespace sv::ui {

WindowMenus::WindowMenus(QMainWindow* window, AppSettings* settings, Parts parts)
    : QObject(window), m_window(window), m_settings(settings), m_p(parts) {
    buildFile();
    buildView();
    buildCampaign();
    buildHelp();
}

void WindowMenus::buildFile() {
    QMenu* file = m_window->menuBar()->addMenu(tr("&File"));
    OpeningFlow* opening = m_p.opening;
    const MenuItem opens[] = {
        {tr("&Open Log Directory…"), QKeySequence::Open, "",
         [opening] { opening->chooseDirectory(); }},
        // A single log, whatever its name: read as a run of its own.
        {tr("Open Log &File…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), "openLogFile",
         [this] {
             const QString f = QFileDialog::getOpenFileName(
                 m_window, tr("Open Log File"), m_settings->lastDirectory(),
                 tr("All files (*);;ScaleView bundles (*.svbundle)"));
             // A bundle chosen here opens as a bundle, never as a log.
             if (BundleOpener::isBundle(f))
                 m_p.bundles->openBundle(f);
             else if (!f.isEmpty())
                 m_p.opening->openDirectory(f);
         }},
        // A campaign shared as one file: checked, then shown with its verdict.
        {tr("Open Campaign &Bundle…"), {}, "openBundle", [this] { m_p.bundles->chooseBundle(); }},
        {tr("Add to &Comparison…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
         "addToComparison", [opening] { opening->chooseComparisonDirectory(); }},
    };
    for (const MenuItem& item : opens)
        addItem(file, this, item);
    m_recent = file->addMenu(tr("Open &Recent"));
    rebuildRecent();
    addItem(file, this,
            {tr("Re&load"), QKeySequence(Qt::Key_F5), "reload", [opening] { opening->reload(); }});
    // A log no built-in format reads: the user teaches one (ui/widgets/teachdialog.h); a saved
    // format is registered and the directory shown read again.
    addItem(file, this, {tr("&Teach ScaleView a Log…"), {}, "teachLogMenu", [this, opening] {
                             // In the folder open (or the last one), not its parent.
                             const QString log = QFileDialog::getOpenFileName(
                                 m_window, tr("Teach ScaleView a Log"), opening->teachFolder(),
                                 tr("Logs (*.log *.txt *.out);;All files (*)"));
                             if (!log.isEmpty()) openTeachDialog(m_window, log);
                         }});
    setAfterTeach([opening](const QString&) { opening->reload(); });
    addToggle(file, tr("Reopen the Last Directory at &Start"), "reopenLast",
              m_settings->reopenLast(), [this](bool on) { m_settings->setReopenLast(on); });
    file->addSeparator();
    m_exportMenu = file->addMenu(tr("&Export"));
    m_export = new ExportMenu(m_exportMenu, m_window, m_settings,
                              {m_p.analysis, m_p.exporter, m_p.loader, m_p.pages, m_p.status});
    m_export->addNeedsAnalysis(addItem(
        m_exportMenu, this,
        {tr("Campaign &Bundle…"), {}, "exportBundle", [this] { m_p.bundles->chooseExport(); }}));
    // The directory shown as a reference table of the user's own, a table from a file, and the
    // directory into the history.
    m_export->addNeedsAnalysis(
        addItem(file, this, {tr("Save as Reference &Table…"), {}, "saveReference", [this] {
                                 m_p.references->saveInteractive(m_window, m_p.analysis->current());
                             }}));
    addItem(file, this, {tr("&Import Reference Table…"), {}, "importReference", [this] {
                             m_p.references->importInteractive(m_window);
                         }});
    m_export->addNeedsAnalysis(
        addItem(file, this, {tr("Record in &History"), {}, "recordHistory", [this] {
                                 if (const AnalysisPtr a = m_p.analysis->current())
                                     m_p.pages->history()->recordDirectory(
                                         QString::fromStdString(a->summary.root));
                             }}));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, m_window, &QWidget::close);
}

void WindowMenus::buildView() {
    QMenu* view = m_window->menuBar()->addMenu(tr("&View"));
    PageStack* pages = m_p.pages;
    // Ctrl+1…5 go to a page, Ctrl+PgDn/PgUp to the next or previous one (window-wide).
    const QStringList names{tr("&Results"), tr("&Throughput"), tr("&Speedup"), tr("R&uns"),
                            tr("Ru&n")};
    for (int i = 0; i < names.size(); ++i)
        addItem(view, this,
                {names[i], QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)), "page",
                 [this, i] { m_p.pages->showPage(static_cast<PageStack::Page>(i)); }});
    addItem(view, this, {tr("&Next Page"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), "", [pages] {
                             pages->step(1);
                         }});
    addItem(view, this,
            {tr("&Previous Page"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), "",
             [pages] { pages->step(-1); }});
    view->addSeparator();
    addToggle(view, tr("&Live: follow new and growing logs"), nullptr, m_settings->live(),
              [this](bool on) {
                  m_settings->setLive(on);
                  if (!on)
                      m_p.live->stop();
                  else if (!m_p.loader->isLoading() && !m_p.loader->root().isEmpty())
                      m_p.live->start(m_p.loader->snapshot());
              });
    // Where inotify sees nothing (another host writes the directory) only polling finds changes;
    // network and cluster mounts are polled anyway, this polls everywhere.
    const auto polling = [](bool on) {
        return on ? LiveController::Polling::Always : LiveController::Polling::Auto;
    };
    m_p.live->setPolling(polling(m_settings->livePolling()));
    addToggle(view, tr("Live: also &poll every few seconds"), nullptr, m_settings->livePolling(),
              [this, polling](bool on) {
                  m_settings->setLivePolling(on);
                  m_p.live->setPolling(polling(on));
              });
    view->addSeparator();
    view->addAction(m_p.docks->warnings()->toggleViewAction());
    view->addAction(m_p.docks->controls()->toggleViewAction());
}

void WindowMenus::buildCampaign() {
    QMenu* campaign = m_window->menuBar()->addMenu(tr("&Campaign"));
    RunPanel* panel = m_p.pages->runPanel();
    campaign->addAction(tr("Run &Panel"), this, [this] { m_p.pages->showPage(PageStack::Run); });
    // The Run panel's buttons know when each step is possible; the shortcuts press them, and each
    // action is enabled exactly when its button is.
    struct Press {
        QString text;
        QKeySequence key;
        const char* name;
        QPushButton* (RunPanel::*button)() const;
    };
    const Press presses[] = {
        {tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R), "run", &RunPanel::runButton},
        {tr("&Cancel"), QKeySequence(Qt::CTRL | Qt::Key_Period), "cancel", &RunPanel::cancelButton},
        {tr("Pre&flight"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), "preflight",
         &RunPanel::preflightButton},
    };
    for (const Press& p : presses) {
        QAction* action =
            addItem(campaign, this, {p.text, p.key, p.name, [this, panel, button = p.button] {
                                         m_p.pages->showPage(PageStack::Run);
                                         QPushButton* b = (panel->*button)();
                                         if (b->isEnabled()) b->click();
                                     }});
        new EnabledMirror((panel->*p.button)(), action);
    }
    campaign->addSeparator();
    addItem(campaign, this,
            {tr("&Open Campaign…"), {}, "", [this, panel] {
                 const QString f = QFileDialog::getOpenFileName(m_window, tr("Open campaign"),
                                                                QString(), tr("Campaign (*.json)"));
                 if (f.isEmpty()) return;
                 // The Run page says "Reading campaign…", then the campaign or why
                 // it cannot be opened.
                 panel->openCampaign(f);
                 m_p.pages->showPage(PageStack::Run);
             }});
    addItem(campaign, this,
            {tr("&Save Campaign…"), QKeySequence::Save, "saveCampaign", [this, panel] {
                 const QString f = QFileDialog::getSaveFileName(m_window, tr("Save campaign"),
                                                                QStringLiteral("campaign.json"),
                                                                tr("Campaign (*.json)"));
                 if (!f.isEmpty()) panel->saveCampaign(f);
             }});
}

void WindowMenus::buildHelp() {
    QMenu* help = m_window->menuBar()->addMenu(tr("&Help"));
    addItem(help, this, {tr("&Methodology"), QKeySequence::HelpContents, "methodology", [this] {
                             auto* dialog = new MethodologyDialog(m_window);
                             dialog->setAttribute(Qt::WA_DeleteOnClose);
                             dialog->show();
                         }});
    help->addSeparator();
    help->addAction(tr("&About ScaleView"), this, &WindowMenus::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void WindowMenus::showAbout() {
    QMessageBox box(m_window);
    box.setWindowTitle(tr("About ScaleView"));
    box.setIconPixmap(m_window->windowIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<h3>ScaleView %1</h3>"
           "<p>Distributed deep-learning training throughput, measured as "
           "<a href=\"https://github.com/Oneflow-Inc/DLPerf\">DLPerf</a> does and compared with "
           "the published tables.</p>"
           "<p>MIT licence. Built with Qt %2 (running on Qt %3).</p>")
            .arg(QApplication::applicationVersion().toHtmlEscaped(), QStringLiteral(QT_VERSION_STR),
                 QString::fromLatin1(qVersion())));
    box.exec();
}

void WindowMenus::rebuildRecent() {
    m_recent->clear();
    for (const QString& dir : m_settings->recent())
        m_recent->addAction(QDir::toNativeSeparators(dir), this,
                            [this, dir] { m_p.opening->openDirectory(dir); });
    m_recent->setEnabled(!m_recent->isEmpty());
}

} // namespace sv::ui
