// MainWindow's menus and actions (File, View, Run, Help; the recent directories), kept apart
// from the window's layout and behaviour in mainwindow.cpp.
#include "ui/window/mainwindow.h"
#include "async/backgroundtask.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/export/imageexportdialog.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/widgets/loadstatus.h"
#include "ui/widgets/logactions.h"
#include "ui/window/methodologydialog.h"
#include "ui/widgets/plural.h"
#include "ui/export/reportexport.h"
#include "ui/widgets/pagebanner.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/window/startpage.h"
#include "ui/widgets/teachdialog.h"
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
#include <QPointer>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include "ui/history/historypage.h"
#include "ui/browse/referencetables.h"
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <functional>
#include <utility>

namespace sv::ui {

namespace {

// Keeps a menu action enabled exactly when the button it presses is: Campaign > Cancel is
// not offered while nothing runs (and its shortcut does nothing then).
class EnabledMirror : public QObject {
  public:
    EnabledMirror(QPushButton* button, QAction* action) : QObject(action), m_action(action) {
        button->installEventFilter(this);
        m_action->setEnabled(button->isEnabled());
    }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::EnabledChange)
            m_action->setEnabled(static_cast<QWidget*>(watched)->isEnabled());
        return false;
    }

  private:
    QAction* m_action;
};

} // namespace

namespace {

// One menu entry as data: its text, shortcut, object name (tests and shortcuts find actions by
// it; empty: unnamed) and what it does.
struct MenuItem {
    QString text;
    QKeySequence key;
    const char* name;
    std::function<void()> triggered;
};

QAction* addItem(QMenu* menu, QObject* context, const MenuItem& item) {
    QAction* action = menu->addAction(item.text, item.key, context, item.triggered);
    if (item.name && *item.name) action->setObjectName(QLatin1String(item.name));
    return action;
}

// A checkable action that starts as the setting says and writes the setting back.
QAction* addToggle(QMenu* menu, const QString& text, const char* name, bool on,
                   std::function<void(bool)> toggled) {
    QAction* action = menu->addAction(text);
    if (name) action->setObjectName(QLatin1String(name));
    action->setCheckable(true);
    action->setChecked(on);
    QObject::connect(action, &QAction::toggled, menu, std::move(toggled));
    return action;
}

} // namespace

void MainWindow::buildMenus() {
    buildFileMenu();
    buildViewMenu();
    buildCampaignMenu();
    buildHelpMenu();
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    const MenuItem opening[] = {
        {tr("&Open Log Directory…"), QKeySequence::Open, "", [this] { chooseDirectory(); }},
        // A single log, whatever its name: read as a run of its own.
        {tr("Open Log &File…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), "openLogFile",
         [this] {
             const QString f = QFileDialog::getOpenFileName(
                 this, tr("Open Log File"), m_settings->lastDirectory(), tr("All files (*)"));
             if (!f.isEmpty()) openDirectory(f);
         }},
        {tr("Add to &Comparison…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
         "addToComparison", [this] { chooseComparisonDirectory(); }},
    };
    for (const MenuItem& item : opening)
        addItem(file, this, item);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    addItem(file, this, {tr("Re&load"), QKeySequence(Qt::Key_F5), "reload", [this] { reload(); }});
    // A log no built-in format reads: the user teaches one (ui/widgets/teachdialog.h); a saved
    // format is registered and the directory shown read again.
    addItem(file, this, {tr("&Teach ScaleView a Log…"), {}, "teachLogMenu", [this] {
                             const QString log = QFileDialog::getOpenFileName(
                                 this, tr("Teach ScaleView a Log"), QString(),
                                 tr("Logs (*.log *.txt *.out);;All files (*)"));
                             if (!log.isEmpty()) openTeachDialog(this, log);
                         }});
    setAfterTeach([this](const QString&) { reload(); });
    addToggle(file, tr("Reopen the Last Directory at &Start"), "reopenLast",
              m_settings->reopenLast(), [this](bool on) { m_settings->setReopenLast(on); });
    file->addSeparator();
    buildExportMenu(file->addMenu(tr("&Export")));
    // The directory shown as a reference table of the user's own, a table from a file, and the
    // directory into the history.
    m_exportActions.push_back(
        addItem(file, this, {tr("Save as Reference &Table…"), {}, "saveReference", [this] {
                                 m_referenceTables->saveInteractive(this, m_analysis->current());
                             }}));
    addItem(file, this, {tr("&Import Reference Table…"), {}, "importReference", [this] {
                             m_referenceTables->importInteractive(this);
                         }});
    m_exportActions.push_back(addItem(
        file, this, {tr("Record in &History"), {}, "recordHistory", [this] {
                         if (const AnalysisPtr a = m_analysis->current())
                             m_history->recordDirectory(QString::fromStdString(a->summary.root));
                     }}));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

// File › Export: the chart shown, the Results table in four forms, the HTML report. Each is
// enabled only while there is something to export (m_exportActions).
void MainWindow::buildExportMenu(QMenu* exportMenu) {
    m_exportPng = addItem(exportMenu, this,
                          {QString(), QKeySequence(Qt::CTRL | Qt::Key_E), "exportPng",
                           [this] { exportChartInteractive(QStringLiteral("png")); }});
    m_exportSvg = addItem(exportMenu, this, {QString(), {}, "exportSvg", [this] {
                                                 exportChartInteractive(QStringLiteral("svg"));
                                             }});
    m_exportLossPng = addItem(exportMenu, this,
                              {tr("Scaling &Loss Chart as PNG…"), {}, "exportLossPng", [this] {
                                   exportChartInteractive(QStringLiteral("png"), ChartKind::Loss);
                               }});
    m_exportLossSvg = addItem(exportMenu, this,
                              {tr("Scaling Loss Chart as S&VG…"), {}, "exportLossSvg", [this] {
                                   exportChartInteractive(QStringLiteral("svg"), ChartKind::Loss);
                               }});
    exportMenu->addSeparator();
    const MenuItem tables[] = {
        {tr("Results Table as &CSV…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), "exportCsv",
         [this] { exportTableInteractive(TableFormat::Csv); }},
        {tr("Results Table as &Markdown…"),
         {},
         "",
         [this] { exportTableInteractive(TableFormat::Markdown); }},
        {tr("Results as &JSON…"), {}, "", [this] { exportTableInteractive(TableFormat::Json); }},
        {tr("Results as &DLPerf JSON…"),
         {},
         "",
         [this] { exportTableInteractive(TableFormat::DlperfJson); }},
    };
    m_exportActions = {m_exportPng, m_exportSvg};
    for (const MenuItem& item : tables)
        m_exportActions.push_back(addItem(exportMenu, this, item));
    exportMenu->addSeparator();
    m_exportActions.push_back(addItem(
        exportMenu, this,
        {tr("&Report (HTML)…"), {}, "exportReport", [this] { exportReportInteractive(); }}));
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Ctrl+1…5 go to a page, Ctrl+PgDn/PgUp to the next or previous one (window-wide).
    const QStringList pages{tr("&Results"), tr("&Throughput"), tr("&Speedup"), tr("R&uns"),
                            tr("Ru&n")};
    for (int i = 0; i < pages.size(); ++i)
        addItem(view, this,
                {pages[i], QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)), "page",
                 [this, i] { showPage(static_cast<Page>(i)); }});
    const auto step = [this](int by) {
        showPage(
            static_cast<Page>((m_tabs->currentIndex() + m_tabs->count() + by) % m_tabs->count()));
    };
    addItem(view, this,
            {tr("&Next Page"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), "", [step] { step(1); }});
    addItem(view, this, {tr("&Previous Page"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), "", [step] {
                             step(-1);
                         }});
    view->addSeparator();
    m_liveAction = addToggle(view, tr("&Live: follow new and growing logs"), nullptr,
                             m_settings->live(), [this](bool on) {
                                 m_settings->setLive(on);
                                 if (!on)
                                     m_live->stop();
                                 else if (!m_loader->isLoading() && !m_loader->root().isEmpty())
                                     m_live->start(m_loader->snapshot());
                             });
    // Where inotify sees nothing (another host writes the directory) only polling finds changes;
    // network and cluster mounts are polled anyway, this polls everywhere.
    const auto polling = [](bool on) {
        return on ? LiveController::Polling::Always : LiveController::Polling::Auto;
    };
    m_live->setPolling(polling(m_settings->livePolling()));
    addToggle(view, tr("Live: also &poll every few seconds"), nullptr, m_settings->livePolling(),
              [this, polling](bool on) {
                  m_settings->setLivePolling(on);
                  m_live->setPolling(polling(on));
              });
    view->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
}

void MainWindow::buildCampaignMenu() {
    QMenu* campaign = menuBar()->addMenu(tr("&Campaign"));
    campaign->addAction(tr("Run &Panel"), this, [this] { showPage(Run); });
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
            addItem(campaign, this, {p.text, p.key, p.name, [this, button = p.button] {
                                         showPage(Run);
                                         QPushButton* b = (m_runPanel->*button)();
                                         if (b->isEnabled()) b->click();
                                     }});
        new EnabledMirror((m_runPanel->*p.button)(), action);
    }
    campaign->addSeparator();
    addItem(campaign, this, {tr("&Open Campaign…"), {}, "", [this] {
                                 const QString f = QFileDialog::getOpenFileName(
                                     this, tr("Open campaign"), QString(), tr("Campaign (*.json)"));
                                 if (f.isEmpty()) return;
                                 // The Run page says "Reading campaign…", then the campaign or why
                                 // it cannot be opened.
                                 m_runPanel->openCampaign(f);
                                 showPage(Run);
                             }});
    addItem(campaign, this, {tr("&Save Campaign…"), QKeySequence::Save, "saveCampaign", [this] {
                                 const QString f = QFileDialog::getSaveFileName(
                                     this, tr("Save campaign"), QStringLiteral("campaign.json"),
                                     tr("Campaign (*.json)"));
                                 if (!f.isEmpty()) m_runPanel->saveCampaign(f);
                             }});
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addItem(help, this, {tr("&Methodology"), QKeySequence::HelpContents, "methodology", [this] {
                             auto* dialog = new MethodologyDialog(this);
                             dialog->setAttribute(Qt::WA_DeleteOnClose);
                             dialog->show();
                         }});
    help->addSeparator();
    help->addAction(tr("&About ScaleView"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::showAbout() {
    QMessageBox box(this);
    box.setWindowTitle(tr("About ScaleView"));
    box.setIconPixmap(windowIcon().pixmap(64, 64));
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

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& dir : m_settings->recent())
        m_recentMenu->addAction(QDir::toNativeSeparators(dir), this,
                                [this, dir] { openDirectory(dir); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::chooseDirectory() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Log Directory"),
                                                          m_settings->lastDirectory());
    if (!dir.isEmpty()) openDirectory(dir);
}

void MainWindow::chooseComparisonDirectory() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add to Comparison"),
                                                          m_settings->lastDirectory());
    if (!dir.isEmpty()) addToComparison(dir);
}

void MainWindow::exportReportInteractive() {
    const AnalysisPtr a = m_analysis->current();
    if (!a || !a->group) return;
    const QString root = QString::fromStdString(a->summary.root);
    // The open directory's series name (renamed or not), as the comparison calls it.
    const QString label =
        a->label.empty() ? QFileInfo(root).fileName() : QString::fromStdString(a->label);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Report"), exportPath(label + QStringLiteral("-report.html")),
        tr("HTML (*.html)"));
    if (path.isEmpty()) return;
    const QString target =
        QFileInfo(path).suffix().isEmpty() ? path + QStringLiteral(".html") : path;
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_status->setText(tr("Writing the report…"));
    // The campaign and environment files are read, the comparison computed and the report
    // written on a worker; only the charts are drawn here (Qt Charts live on the GUI thread).
    QPointer<MainWindow> self(this);
    async::workPool()->start([self, a, label, target] {
        auto content = ReportExport::gather(*a);
        QMetaObject::invokeMethod(
            self.data(),
            [self, a, label, target, content = std::move(content)]() mutable {
                if (!self) return;
                const std::string text = ReportExport::html(*a, std::move(content), label);
                async::workPool()->start([self, text, target] {
                    QString error;
                    const bool ok = ReportExport::write(text, target, &error);
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, ok, error, target] {
                            if (!self) return;
                            if (!ok) {
                                self->m_status->setText(error);
                                QMessageBox::warning(self, tr("Export Report"), error);
                                return;
                            }
                            self->m_status->setText(
                                tr("Exported %1").arg(QDir::toNativeSeparators(target)));
                            emit self->reportExported(target);
                        },
                        Qt::QueuedConnection);
                });
            },
            Qt::QueuedConnection);
    });
}

} // namespace sv::ui
