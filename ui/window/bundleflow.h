#pragma once
// A campaign shared as a .svbundle, in the window: opened (File › Open Campaign Bundle…, a drop,
// the command line) through the BundleOpener and shown as its extracted folder would be, with
// its verdict on the banner above every page, in the window's title and in every export; a
// refused bundle is an error dialog and nothing shown. File › Export › Campaign Bundle… writes the
// folder shown as a bundle, off the GUI thread.

#include "ui/analysis/bundleprovenance.h"

#include <QObject>
#include <QPointer>

class QLabel;
class QMainWindow;
class QProgressDialog;

namespace sv::ui {

class AppSettings;
class BundleBanner;
class BundleOpener;
class ExportController;
class LoadController;
class LoadStatus;
class OpeningFlow;

class BundleFlow : public QObject {
    Q_OBJECT
  public:
    struct Parts {
        OpeningFlow* opening;
        LoadController* loader;
        ExportController* exporter;
        BundleBanner* banner;
        LoadStatus* loadStatus;
        QLabel* status;
    };

    BundleFlow(QMainWindow* window, AppSettings* settings, Parts parts);

    void openBundle(const QString& bundle);
    void chooseBundle();
    // The folder shown, written as a bundle at path (asked when absent: a file there is replaced
    // only when the user says so in the file chooser).
    void chooseExport();
    void exportBundle(const QString& folder, const QString& path, bool replace = false);
    BundleOpener* opener() const { return m_opener; }
    // The refusal's dialog, while it is up (tests read it).
    QWidget* refusalDialog() const { return m_refusal; }

  signals:
    // The bundle's campaign is scanned and on its way to every page, its verdict on the banner.
    void bundleShown(const sv::ui::BundleProvenance& provenance);
    void bundleRefused(const QString& bundle, const QString& reason);
    void bundleExported(const QString& path);
    void bundleExportFailed(const QString& path, const QString& error);

  private:
    void showOpened(const BundleProvenance& provenance);
    void showRefused(const QString& bundle, const QString& reason);
    // The loader has switched to root: the bundle's campaign, or another folder that ends it.
    void followScan(const QString& root);
    void exportEnded(const QString& path, const QString& error);

    QMainWindow* m_window;
    AppSettings* m_settings;
    Parts m_p;
    BundleOpener* m_opener;
    QPointer<QWidget> m_refusal;
    QPointer<QProgressDialog> m_progress;
};

} // namespace sv::ui
