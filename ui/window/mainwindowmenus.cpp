// MainWindow's menus and actions (File, View, Run, Help; the recent directories), kept apart
// from the window's layout and behaviour in mainwindow.cpp.
#include "ui/window/mainwindow.h"
#include "async/backgroundtask.h"

#include "ui/browse/analysiscontroller.h"
#include "ui/window/appsettings.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/window/imageexportdialog.h"
#include "ui/browse/livecontroller.h"
#include "ui/browse/loadcontroller.h"
#include "ui/browse/loadstatus.h"
#include "ui/window/logactions.h"
#include "ui/window/methodologydialog.h"
#include "ui/window/plural.h"
#include "ui/window/reportexport.h"
#include "ui/window/pagebanner.h"
#include "ui/browse/resultspage.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/window/startpage.h"
#include "ui/window/teachdialog.h"
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

void MainWindow::buildMenus() {
    // Actions are named (objectName) so that tests and shortcuts find the same ones.
    auto named = [](QAction* action, const char* name) {
        action->setObjectName(QLatin1String(name));
        return action;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Log Directory…"), QKeySequence::Open, this,
                    &MainWindow::chooseDirectory);
    // A single log, whatever its name (issue 26): read as a run of its own.
    named(file->addAction(tr("Open Log &File…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O),
                          this,
                          [this] {
                              const QString f = QFileDialog::getOpenFileName(
                                  this, tr("Open Log File"), m_settings->lastDirectory(),
                                  tr("All files (*)"));
                              if (!f.isEmpty()) openDirectory(f);
                          }),
          "openLogFile");
    named(file->addAction(tr("Add to &Comparison…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
                          this, &MainWindow::chooseComparisonDirectory),
          "addToComparison");
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    named(file->addAction(tr("Re&load"), QKeySequence(Qt::Key_F5), this, &MainWindow::reload),
          "reload");
    // A log no built-in format reads: the user teaches one (ui/window/teachdialog.h); a saved
    // format is registered and the directory shown read again.
    named(file->addAction(tr("&Teach ScaleView a Log…"), this,
                          [this] {
                              const QString log = QFileDialog::getOpenFileName(
                                  this, tr("Teach ScaleView a Log"), QString(),
                                  tr("Logs (*.log *.txt *.out);;All files (*)"));
                              if (!log.isEmpty()) openTeachDialog(this, log);
                          }),
          "teachLogMenu");
    setAfterTeach([this](const QString&) { reload(); });
    QAction* reopen =
        named(file->addAction(tr("Reopen the Last Directory at &Start")), "reopenLast");
    reopen->setCheckable(true);
    reopen->setChecked(m_settings->reopenLast());
    connect(reopen, &QAction::toggled, this, [this](bool on) { m_settings->setReopenLast(on); });
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    m_exportPng =
        named(exportMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                                    [this] { exportChartInteractive(QStringLiteral("png")); }),
              "exportPng");
    m_exportSvg =
        named(exportMenu->addAction(QString(), this,
                                    [this] { exportChartInteractive(QStringLiteral("svg")); }),
              "exportSvg");
    exportMenu->addSeparator();
    QAction* csv =
        named(exportMenu->addAction(tr("Results Table as &CSV…"),
                                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                                    [this] { exportTableInteractive(TableFormat::Csv); }),
              "exportCsv");
    QAction* md = exportMenu->addAction(tr("Results Table as &Markdown…"), this,
                                        [this] { exportTableInteractive(TableFormat::Markdown); });
    QAction* json = exportMenu->addAction(tr("Results as &JSON…"), this,
                                          [this] { exportTableInteractive(TableFormat::Json); });
    QAction* dlperf = exportMenu->addAction(tr("Results as &DLPerf JSON…"), this, [this] {
        exportTableInteractive(TableFormat::DlperfJson);
    });
    exportMenu->addSeparator();
    QAction* report = named(
        exportMenu->addAction(tr("&Report (HTML)…"), this, [this] { exportReportInteractive(); }),
        "exportReport");
    // The directory shown as a reference table of the user's own, a table from a file, and the
    // directory into the history.
    QAction* saveReference =
        named(file->addAction(
                  tr("Save as Reference &Table…"), this,
                  [this] { m_referenceTables->saveInteractive(this, m_analysis->current()); }),
              "saveReference");
    named(file->addAction(tr("&Import Reference Table…"), this,
                          [this] { m_referenceTables->importInteractive(this); }),
          "importReference");
    QAction* recordHistory = named(
        file->addAction(tr("Record in &History"), this,
                        [this] {
                            if (const AnalysisPtr a = m_analysis->current())
                                m_history->recordDirectory(QString::fromStdString(a->summary.root));
                        }),
        "recordHistory");
    m_exportActions = {m_exportPng, m_exportSvg, csv,           md,           json,
                       dlperf,      report,      saveReference, recordHistory};
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    // Ctrl+1…5 go to a page, Ctrl+PgDn/PgUp to the next or previous one (window-wide).
    const QStringList pages{tr("&Results"), tr("&Throughput"), tr("&Speedup"), tr("R&uns"),
                            tr("Ru&n")};
    for (int i = 0; i < pages.size(); ++i)
        named(view->addAction(pages[i],
                              QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)), this,
                              [this, i] { showPage(static_cast<Page>(i)); }),
              "page");
    view->addAction(tr("&Next Page"), QKeySequence(Qt::CTRL | Qt::Key_PageDown), this, [this] {
        showPage(static_cast<Page>((m_tabs->currentIndex() + 1) % m_tabs->count()));
    });
    view->addAction(tr("&Previous Page"), QKeySequence(Qt::CTRL | Qt::Key_PageUp), this, [this] {
        showPage(
            static_cast<Page>((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count()));
    });
    view->addSeparator();
    m_liveAction = view->addAction(tr("&Live: follow new and growing logs"));
    m_liveAction->setCheckable(true);
    m_liveAction->setChecked(m_settings->live());
    connect(m_liveAction, &QAction::toggled, this, [this](bool on) {
        m_settings->setLive(on);
        if (!on)
            m_live->stop();
        else if (!m_loader->isLoading() && !m_loader->root().isEmpty())
            m_live->start(m_loader->snapshot());
    });
    // Where inotify sees nothing (another host writes the directory) only polling finds changes;
    // network and cluster mounts are polled anyway, this polls everywhere.
    QAction* poll = view->addAction(tr("Live: also &poll every few seconds"));
    poll->setCheckable(true);
    poll->setChecked(m_settings->livePolling());
    m_live->setPolling(poll->isChecked() ? LiveController::Polling::Always
                                         : LiveController::Polling::Auto);
    connect(poll, &QAction::toggled, this, [this](bool on) {
        m_settings->setLivePolling(on);
        m_live->setPolling(on ? LiveController::Polling::Always : LiveController::Polling::Auto);
    });
    view->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* campaign = menuBar()->addMenu(tr("&Campaign"));
    campaign->addAction(tr("Run &Panel"), this, [this] { showPage(Run); });
    // The Run panel's buttons know when each step is possible; the shortcuts press them.
    auto press = [this](QPushButton* (RunPanel::*button)() const) {
        return [this, button] {
            showPage(Run);
            QPushButton* b = (m_runPanel->*button)();
            if (b->isEnabled()) b->click();
        };
    };
    new EnabledMirror(m_runPanel->runButton(),
                      named(campaign->addAction(tr("&Run"), QKeySequence(Qt::CTRL | Qt::Key_R),
                                                this, press(&RunPanel::runButton)),
                            "run"));
    new EnabledMirror(m_runPanel->cancelButton(),
                      named(campaign->addAction(tr("&Cancel"),
                                                QKeySequence(Qt::CTRL | Qt::Key_Period), this,
                                                press(&RunPanel::cancelButton)),
                            "cancel"));
    new EnabledMirror(m_runPanel->preflightButton(),
                      named(campaign->addAction(tr("Pre&flight"),
                                                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
                                                this, press(&RunPanel::preflightButton)),
                            "preflight"));
    campaign->addSeparator();
    campaign->addAction(tr("&Open Campaign…"), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open campaign"), QString(),
                                                       tr("Campaign (*.json)"));
        if (f.isEmpty()) return;
        // The Run page says "Reading campaign…", then the campaign or why it cannot be opened.
        m_runPanel->openCampaign(f);
        showPage(Run);
    });
    named(campaign->addAction(tr("&Save Campaign…"), QKeySequence::Save, this,
                              [this] {
                                  const QString f = QFileDialog::getSaveFileName(
                                      this, tr("Save campaign"), QStringLiteral("campaign.json"),
                                      tr("Campaign (*.json)"));
                                  if (!f.isEmpty()) m_runPanel->saveCampaign(f);
                              }),
          "saveCampaign");

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    named(help->addAction(tr("&Methodology"), QKeySequence::HelpContents, this,
                          [this] {
                              auto* dialog = new MethodologyDialog(this);
                              dialog->setAttribute(Qt::WA_DeleteOnClose);
                              dialog->show();
                          }),
          "methodology");
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
