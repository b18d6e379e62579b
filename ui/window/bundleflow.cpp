#include "ui/window/bundleflow.h"

#include "async/backgroundtask.h"
#include "launcher/session/campaignbundle.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/export/exportcontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/bundlebanner.h"
#include "ui/widgets/loadstatus.h"
#include "ui/window/bundleopener.h"
#include "ui/window/exportmenu.h"
#include "ui/window/openingflow.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QProgressDialog>

namespace sv::ui {

BundleFlow::BundleFlow(QMainWindow* window, AppSettings* settings, Parts parts)
    : QObject(window), m_window(window), m_settings(settings), m_p(parts),
      m_opener(new BundleOpener(this)) {
    connect(m_opener, &BundleOpener::opened, this, &BundleFlow::showOpened);
    connect(m_opener, &BundleOpener::refused, this, &BundleFlow::showRefused);
    // After the opening flow's own slot (it titles the window by the folder): the title then
    // names the bundle and its verdict.
    connect(m_p.loader, &LoadController::scanned, this, &BundleFlow::followScan);
}

void BundleFlow::openBundle(const QString& bundle) {
    m_p.status->setText(tr("Checking the bundle %1: every file and every figure recomputed…")
                            .arg(QDir::toNativeSeparators(bundle)));
    m_p.loadStatus->showProgress(0, 0, -1);
    m_opener->open(bundle);
}

void BundleFlow::chooseBundle() {
    const QString f = QFileDialog::getOpenFileName(
        m_window, tr("Open Campaign Bundle"), m_settings->lastDirectory(),
        tr("ScaleView bundles (*.svbundle);;All files (*)"));
    if (!f.isEmpty()) openBundle(f);
}

void BundleFlow::showOpened(const BundleProvenance& p) {
    m_p.loadStatus->showIdle();
    m_p.exporter->setProvenance(p);
    m_p.banner->showProvenance(p);
    m_p.opening->openPrivateFolder(p.campaign);
}

void BundleFlow::showRefused(const QString& bundle, const QString& reason) {
    m_p.loadStatus->showIdle();
    const QString what =
        tr("Cannot open the bundle %1: refused: %2").arg(QDir::toNativeSeparators(bundle), reason);
    m_p.status->setText(what);
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Bundle refused"), what, QMessageBox::Ok,
                                m_window);
    box->setInformativeText(tr("Nothing of it is shown; nothing was written outside a private "
                               "temporary folder, which is removed."));
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_refusal = box;
    box->open(); // not exec(): the window goes on
    emit bundleRefused(bundle, reason);
}

void BundleFlow::followScan(const QString& root) {
    const BundleProvenance& p = m_opener->current();
    if (!p.isOpen()) return;
    if (QDir::cleanPath(root) != QDir::cleanPath(p.campaign)) {
        // Another folder is shown: the bundle is closed, its folder and words go with it.
        m_opener->close();
        m_p.exporter->setProvenance({});
        m_p.banner->showProvenance({});
        return;
    }
    m_window->setWindowTitle(
        QStringLiteral("ScaleView — %1 — %2")
            .arg(QFileInfo(p.bundle).fileName(), p.verified ? tr("verified") : tr("NOT VERIFIED")));
    emit bundleShown(p);
}

void BundleFlow::chooseExport() {
    const QString folder = m_p.loader->root();
    if (folder.isEmpty()) return;
    const QString name = QFileInfo(folder).fileName() + QStringLiteral(".svbundle");
    // The file chooser asks before a file there is replaced; only then is it.
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export Campaign Bundle"),
        QDir(ExportMenu::exportFolder(m_settings->lastExportDirectory())).filePath(name),
        tr("ScaleView bundles (*.svbundle)"));
    if (path.isEmpty()) return;
    const QString target =
        QFileInfo(path).suffix().isEmpty() ? path + QStringLiteral(".svbundle") : path;
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    exportBundle(folder, target, QFileInfo::exists(target));
}

void BundleFlow::exportBundle(const QString& folder, const QString& path, bool replace) {
    m_p.status->setText(tr("Bundling %1 into %2…")
                            .arg(QDir::toNativeSeparators(folder), QDir::toNativeSeparators(path)));
    if (!m_progress) {
        m_progress = new QProgressDialog(tr("Bundling the campaign: every log, its records and "
                                            "the figures computed from them…"),
                                         QString(), 0, 0, m_window);
        m_progress->setWindowTitle(tr("Export Campaign Bundle"));
        m_progress->setMinimumDuration(500);
        m_progress->setAutoClose(false);
    }
    m_progress->setValue(0);
    CampaignBundleOptions o;
    o.campaignDir = folder.toStdString();
    o.output = path.toStdString();
    o.replace = replace;
    o.scaleviewVersion = SCALEVIEW_UI_VERSION;
    async::runInBackground(
        this,
        [o] {
            const CampaignBundleWritten w = writeCampaignBundle(o);
            return QString::fromStdString(w.badWindow ? *w.badWindow : w.error.value_or(""));
        },
        [this, path](const QString& error) { exportEnded(path, error); }, async::workPool());
}

void BundleFlow::exportEnded(const QString& path, const QString& error) {
    if (m_progress) m_progress->deleteLater();
    if (!error.isEmpty()) {
        m_p.status->setText(tr("Bundle not written: %1").arg(error));
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Export Campaign Bundle"), error,
                                    QMessageBox::Ok, m_window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        emit bundleExportFailed(path, error);
        return;
    }
    m_p.status->setText(tr("Exported the campaign bundle %1").arg(QDir::toNativeSeparators(path)));
    emit bundleExported(path);
}

} // namespace sv::ui
