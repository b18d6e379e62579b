#pragma once
// The window's menu bar: File (open, recent, reload, teach, export, reference tables, history),
// View (pages, Live, docks), Campaign (the Run panel's buttons as shortcuts, open and save) and
// Help (methodology, About).

#include <QObject>

class QLabel;
class QMainWindow;
class QMenu;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class BundleFlow;
class ExportController;
class ExportMenu;
class LiveController;
class LoadController;
class OpeningFlow;
class PageStack;
class ReferenceTables;
class WindowDocks;

class WindowMenus : public QObject {
    Q_OBJECT
  public:
    struct Parts {
        OpeningFlow* opening;
        BundleFlow* bundles; // File › Open Campaign Bundle…, Export › Campaign Bundle…
        PageStack* pages;
        WindowDocks* docks;
        AnalysisController* analysis;
        ExportController* exporter;
        LoadController* loader;
        LiveController* live;
        ReferenceTables* references;
        QLabel* status;
    };

    WindowMenus(QMainWindow* window, AppSettings* settings, Parts parts);

    ExportMenu* exportMenu() const { return m_export; }
    // File › Open Recent, as the settings list them now.
    void rebuildRecent();

  private:
    void buildFile();
    void buildView();
    void buildCampaign();
    void buildHelp();
    void showAbout();

    QMainWindow* m_window;
    AppSettings* m_settings;
    Parts m_p;
    QMenu* m_recent = nullptr;
    ExportMenu* m_export = nullptr;
    QMenu* m_exportMenu = nullptr;
};

} // namespace sv::ui
