#pragma once
// The window: the pages in tabs, the controls and warnings in docks, the menus and the status
// bar. It owns the controllers and a few parts with one job each (the pages, the docks, what a
// new analysis does to them, the opening flow and its measurement window, the menus) and wires
// them; the work is in those parts, the controllers and the core.

#include "ui/analysis/analysis.h"
#include "ui/window/pagestack.h"

#include <QMainWindow>

#include <functional>

class QDockWidget;
class QLabel;
class QListView;

namespace sv::ui {

class AnalysisController;
class AnalysisPresenter;
class AppSettings;
class BundleBanner;
class BundleFlow;
class ControlPanel;
class ExportController;
class LiveController;
class LoadController;
class LoadStatus;
class MeasureWindowFlow;
class OpeningFlow;
class PageBanner;
class ReferenceTables;
class SavedReferences;
class SeriesSet;
class SlowNodeRerun;
class WarningListModel;
class WindowDocks;
class WindowMenus;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    using Page = PageStack::Page;
    using enum PageStack::Page;

    explicit MainWindow(AppSettings* settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Asked when the window closes during a campaign: true cancels it and quits, false keeps it
    // running. The default asks in a message box; tests answer it themselves.
    using CloseQuestion = std::function<bool()>;

    void openDirectory(const QString& directory);
    // Adds a directory to the comparison as another series (opens it when none is open).
    void addToComparison(const QString& directory);
    // What a drop on the window does: opens the folder (a log: its folder), or with Ctrl adds it
    // to the comparison.
    void openDropped(const QString& path, Qt::KeyboardModifiers modifiers);
    // A .svbundle: checked off the GUI thread, then its campaign shown with its verdict.
    void openBundle(const QString& bundle);
    // Reads the directory shown again (F5).
    void reload();
    void showPage(Page page) { m_pages->showPage(page); }
    Page currentPage() const { return m_pages->currentPage(); }
    // The directory to open at start when none is given: the last one, unless File › Reopen
    // the Last Directory at Start is off or it is gone; empty for the start page.
    QString directoryToReopen() const;
    // The first-start page, until a directory, campaign or page is opened.
    void showStartPage() { m_pages->showStartPage(); }
    bool isStartPageShown() const { return m_pages->isStartPageShown(); }
    void setCloseQuestion(CloseQuestion question) { m_closeQuestion = std::move(question); }
    // Closes as SIGTERM asks: a running campaign is cancelled without a question.
    void closeWithoutAsking();
    // The chart of the page shown (the trace on the Runs page).
    ChartKind currentChartKind() const { return m_pages->currentChartKind(); }
    QString statusText() const;

    LoadController* loader() const { return m_loader; }
    AnalysisController* analysis() const { return m_analysis; }
    LiveController* live() const { return m_live; }
    ExportController* exporter() const { return m_export; }
    SeriesSet* series() const { return m_series; }
    ReferenceTables* referenceTables() const { return m_referenceTables; }
    ControlPanel* controls() const { return m_controls; }
    // Above every page: why an open failed; a window that fits the logs better.
    PageBanner* openBanner() const { return m_openBanner; }
    PageBanner* windowBanner() const { return m_windowBanner; }
    // Above every page while a bundle's campaign is shown: verified, or not and why.
    BundleBanner* bundleBanner() const { return m_bundleBanner; }
    BundleFlow* bundles() const { return m_bundles; }
    PageStack* pages() const { return m_pages; }
    ResultsPage* resultsPage() const { return m_pages->results(); }
    ChartPage* throughputPage() const { return m_pages->throughput(); }
    SpeedupPage* speedupPage() const { return m_pages->speedup(); }
    RunsPage* runsPage() const { return m_pages->runs(); }
    RunPanel* runPanel() const { return m_pages->runPanel(); }
    StartPage* startPage() const { return m_pages->start(); }
    EnvironmentPage* environmentPage() const { return m_pages->environment(); }
    HistoryPage* historyPage() const { return m_pages->history(); }
    NodesPage* nodesPage() const { return m_pages->nodes(); }
    WarningListModel* warnings() const { return m_warnings; }
    QListView* warningView() const;
    QDockWidget* controlsDock() const;
    QDockWidget* warningsDock() const;

  signals:
    // A new analysis is on every page (tests and --screenshot wait for this).
    void analysisShown(sv::ui::AnalysisPtr analysis);
    // File › Export › Report finished writing this file.
    void reportExported(const QString& path);

  protected:
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    // The constructor's steps, in its order: the window's frame (banners over the pages, the
    // status bar), the docks, the reference tables, the parts with a job each, the pages wired to
    // the controllers, the Run tab wired to the rest, the menus; then the layout the user left.
    void buildFrame();
    void connectReferenceTables();
    void buildParts();
    void connectPages();
    void connectCampaigns();
    void buildMenus();
    void restoreLayout();
    // A new analysis is on every page: what follows it, in this order.
    void analysisPresented(const AnalysisPtr& analysis);
    bool askCancelAndQuit();

    AppSettings* m_settings;
    LoadController* m_loader;
    AnalysisController* m_analysis;
    LiveController* m_live;
    ExportController* m_export;
    SeriesSet* m_series;
    ReferenceTables* m_referenceTables;
    PageStack* m_pages;
    ControlPanel* m_controls;
    WarningListModel* m_warnings;
    PageBanner* m_openBanner;
    PageBanner* m_windowBanner;
    BundleBanner* m_bundleBanner;
    QLabel* m_status;
    LoadStatus* m_loadStatus;
    WindowDocks* m_docks = nullptr;
    MeasureWindowFlow* m_windows = nullptr;
    OpeningFlow* m_opening = nullptr;
    BundleFlow* m_bundles = nullptr;
    AnalysisPresenter* m_presenter = nullptr;
    SavedReferences* m_savedReferences = nullptr;
    SlowNodeRerun* m_rerun = nullptr;
    WindowMenus* m_menus = nullptr;
    CloseQuestion m_closeQuestion;
    bool m_closeWithoutAsking = false;
    bool m_closeWhenIdle = false; // a close waits for the campaign's cancel to end
};

} // namespace sv::ui
