// MainWindow's window events: docks sized once shown, a close that waits for a running
// campaign to be cancelled, and directories dropped on the window.

#include "ui/window/mainwindow.h"

#include "core/load/runkey.h"

#include "ui/settings/appsettings.h"
#include "ui/run/runpanel.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>

namespace sv::ui {

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // Docks can only be sized once the window is laid out: the warnings panel a strip, the
    // controls a column, the pages the rest.
    if (m_restoredDocks) return;
    m_restoredDocks = true;
    // On a small screen (1024×700) the Results table needs the width more than the controls do.
    resizeDocks({m_warningsDock}, {qMin(100, height() / 8)}, Qt::Vertical);
    resizeDocks({m_controlsDock}, {qBound(220, width() / 5, 300)}, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // A running campaign is cancelled before the window goes, or mpirun's children would
    // outlive the app; the window closes once the Run panel says the campaign has ended.
    if (!m_runPanel->mayClose()) {
        event->ignore();
        if (m_closeWhenIdle) return; // already cancelling
        // The user may have closed by mistake: the campaign keeps running unless they say so.
        if (!m_closeWithoutAsking && !askCancelAndQuit()) return;
        m_closeWhenIdle = true;
        m_runPanel->cancelBeforeClosing();
        return;
    }
    // The docks as the user left them, not as the page shown at exit has them.
    m_controlsDock->setVisible(m_controlsWanted);
    if (m_warningsHiddenByStart) m_warningsDock->show();
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

void MainWindow::openDropped(const QString& path, Qt::KeyboardModifiers modifiers) {
    const QFileInfo dropped(path);
    // A dropped DLPerf log stands for its directory tree; any other file is read as the single
    // log it is (issue 26); with Ctrl it joins the comparison.
    const bool dlperfLog =
        dropped.isFile() && sv::parseLogName(dropped.fileName().toStdString()).has_value();
    const QString dir = dropped.isDir() || !dlperfLog ? dropped.absoluteFilePath()
                                                      : dropped.absolutePath();
    if (modifiers & Qt::ControlModifier)
        addToComparison(dir);
    else
        openDirectory(dir);
}

} // namespace sv::ui
