#pragma once
// The window: pages in tabs, controls and warnings in docks, menus and the status bar. It only
// wires pages to controllers; the work is in the controllers and the core.

#include "ui/analysis/analysis.h"
#include "ui/settings/directorywindow.h"
#include "ui/export/exportcontroller.h"

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <optional>

class QLabel;
class QListView;
class QMenu;
class QStackedWidget;
class QTabWidget;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class ChartPage;
class ControlPanel;
class EnvironmentPage;
class HistoryPage;
class NodesPage;
class ReferenceTables;
class LiveController;
class LoadController;
class LoadStatus;
class PageBanner;
class ResultsPage;
class RunPanel;
class RunsPage;
class SeriesSet;
class SpeedupPage;
class StartPage;
class WarningListModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    enum Page { Results, Throughput, Speedup, Runs, Run, Environment, History, Nodes };

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
    // Reads the directory shown again (F5).
    void reload();
    void showPage(Page page);
    Page currentPage() const;
    // The directory to open at start when none is given: the last one, unless File › Reopen
    // the Last Directory at Start is off or it is gone; empty for the start page.
    QString directoryToReopen() const;
    // The first-start page, until a directory, campaign or page is opened.
    void showStartPage();
    bool isStartPageShown() const;
    void setCloseQuestion(CloseQuestion question) { m_closeQuestion = std::move(question); }
    // Closes as SIGTERM asks: a running campaign is cancelled without a question.
    void closeWithoutAsking();
    // The chart of the page shown (the trace on the Runs page).
    ChartKind currentChartKind() const;

    LoadController* loader() const { return m_loader; }
    AnalysisController* analysis() const { return m_analysis; }
    LiveController* live() const { return m_live; }
    ExportController* exporter() const { return m_export; }
    SeriesSet* series() const { return m_series; }
    ControlPanel* controls() const { return m_controls; }
    // Above every page: why an open failed; a window that fits the logs better.
    PageBanner* openBanner() const { return m_openBanner; }
    PageBanner* windowBanner() const { return m_windowBanner; }
    ResultsPage* resultsPage() const { return m_results; }
    ChartPage* throughputPage() const { return m_throughput; }
    SpeedupPage* speedupPage() const { return m_speedup; }
    RunsPage* runsPage() const { return m_runs; }
    RunPanel* runPanel() const { return m_runPanel; }
    StartPage* startPage() const { return m_start; }
    EnvironmentPage* environmentPage() const { return m_environment; }
    HistoryPage* historyPage() const { return m_history; }
    NodesPage* nodesPage() const { return m_nodes; }
    ReferenceTables* referenceTables() const { return m_referenceTables; }
    QListView* warningView() const { return m_warningView; }
    QDockWidget* controlsDock() const { return m_controlsDock; }
    QDockWidget* warningsDock() const { return m_warningsDock; }
    WarningListModel* warnings() const { return m_warnings; }
    QString statusText() const;
    static std::vector<Warning> shownWarnings(const Analysis& a);

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
    // The constructor's steps, in its order: the pages, the reference tables, the Run page's
    // signals, the banners and the stack, the docks, loading, the comparison, the options; then
    // the menus and the layout the user left.
    void buildPages();
    void connectReferenceTables();
    void connectRunPanel();
    void buildCentral();
    void buildDocks();
    void connectLoader();
    void connectSeries();
    void connectOptions();
    void restoreLayout();
    void buildMenus();
    void buildFileMenu();
    void buildExportMenu(QMenu* exportMenu);
    void buildViewMenu();
    void buildCampaignMenu();
    void buildHelpMenu();
    void rebuildRecentMenu();
    void present(const AnalysisPtr& analysis);
    // A run of a campaign ended: update the open view, never replace what the user opened.
    void showRunResults(const QString& logRoot, int warmup, int iterations);
    // The user opened a campaign: show its directory, measured as it was run.
    void showCampaignResults(const QString& logRoot, int warmup, int iterations);
    // Measures the directory open with choice's window, and says whose it is.
    void applyWindow(const WindowChoice& choice);
    // A directory's logs have been found: measure them with its window.
    void chooseWindow(const QString& root);
    // The user set the window: it becomes this directory's, remembered.
    void rememberWindow(const MeasureOptions& measure);
    void showOpenFailure(const QString& root, const QString& error);
    // The probes named a slow node: the campaign of the directory shown, read off the GUI
    // thread, goes to the Run tab without it (the reason kept), into a fresh output directory.
    void rerunWithout(const QString& node, const QString& why);
    void offerWindowFor(const AnalysisPtr& analysis);
    void chooseDirectory();
    void chooseComparisonDirectory();
    // kind: the chart shown when absent.
    void exportChartInteractive(const QString& suffix, std::optional<ChartKind> kind = {});
    void exportTableInteractive(TableFormat format);
    // File › Export › Report: the directory shown as one self-contained HTML page.
    void exportReportInteractive();
    // Where an export is suggested: the last export's folder, else the directory shown.
    QString exportPath(const QString& fileName) const;
    void updateExportActions();
    // The Controls dock belongs to the analysis pages: hidden on the Run tab (its form has its
    // own warmup and iterations) and on the start page, back as the user left it elsewhere.
    void updateDocks();
    bool askCancelAndQuit();
    // The user's tables are read: the references checked last time that are among them are
    // checked again, those gone (file deleted, now malformed) said once and dropped.
    void restoreReferences(const QStringList& problems);
    static QString openHint();
    void openWarning(const QModelIndex& index);
    void showAbout();

    AppSettings* m_settings;
    LoadController* m_loader;
    AnalysisController* m_analysis;
    LiveController* m_live;
    ExportController* m_export;
    SeriesSet* m_series;
    QStackedWidget* m_stack;
    StartPage* m_start;
    QTabWidget* m_tabs;
    ResultsPage* m_results;
    ChartPage* m_throughput;
    SpeedupPage* m_speedup;
    RunsPage* m_runs;
    ControlPanel* m_controls;
    WarningListModel* m_warnings;
    QDockWidget* m_warningsDock;
    QDockWidget* m_controlsDock = nullptr;
    QListView* m_warningView = nullptr;
    bool m_controlsWanted = true; // the user's choice for the Controls dock on analysis pages
    bool m_warningsHiddenByStart = false;
    QList<QAction*> m_exportActions;
    QAction* m_exportPng = nullptr;
    QAction* m_exportSvg = nullptr;
    QAction* m_exportLossPng = nullptr; // Where the scaling goes, from any page
    QAction* m_exportLossSvg = nullptr;
    CloseQuestion m_closeQuestion;
    bool m_closeWithoutAsking = false;
    LoadStatus* m_loadStatus;
    QLabel* m_status;
    PageBanner* m_openBanner;
    PageBanner* m_windowBanner;
    bool m_bannerAdds = false; // m_openBanner says an added directory failed, not an open
    DirectoryWindow m_window;
    QString m_windowNote; // why the directory's campaign window is not used, if it is not
    QString m_lastOffer;  // the window offered last (directory, window, N)
    QMenu* m_recentMenu = nullptr;
    QAction* m_liveAction = nullptr;
    RunPanel* m_runPanel = nullptr;
    EnvironmentPage* m_environment = nullptr;
    HistoryPage* m_history = nullptr;
    NodesPage* m_nodes = nullptr;
    ReferenceTables* m_referenceTables = nullptr;
    // The references checked when the settings were last saved (with the user's tables' ids,
    // which the settings cannot check before those tables are read), until they are.
    std::optional<QStringList> m_savedReferences;
    std::vector<std::string> m_startReferences; // what the window started with (built-in ones)
    bool m_restoredDocks = false;
    // How run ends reach the view: the open directory when the campaign started, whether the
    // user chose another warmup or window since, and a run end during a load.
    quint64 m_generationAtCampaignStart = 0;
    bool m_measureEditedSinceCampaignStart = false;
    bool m_runEndedWhileLoading = false;
    bool m_closeWhenIdle = false; // a close waits for the campaign's cancel to end
};

} // namespace sv::ui
