#pragma once
// The window's pages: the start page in front of the tabbed pages (Results … Nodes), and which
// one is shown. The page the user was on is remembered in AppSettings.

#include "ui/charts/chartkind.h"

#include <QStackedWidget>

class QTabWidget;

namespace sv::ui {

class AppSettings;
class ChartPage;
class EnvironmentPage;
class HistoryPage;
class NodesPage;
class ResultsPage;
class RunPanel;
class RunsPage;
class SpeedupPage;
class StartPage;

class PageStack : public QStackedWidget {
    Q_OBJECT
  public:
    // The tabs, in their order (View › Ctrl+1… follows it).
    enum Page { Results, Throughput, Speedup, Runs, Run, Environment, History, Nodes };

    explicit PageStack(AppSettings* settings, QWidget* parent = nullptr);

    void showPage(Page page);
    Page currentPage() const;
    // The next or previous tab, round the end (Ctrl+PgDn, Ctrl+PgUp).
    void step(int by);
    void showStartPage();
    bool isStartPageShown() const;
    // The tabs in front, on the page they were on (a directory's logs have been found).
    void showTabs();
    // The pages that the analysis shapes and the Controls dock edits (those before Run).
    bool isAnalysisPageShown() const;
    // The pages whose warnings the Warnings dock lists (not Run, History or Nodes).
    bool isWarningsPageShown() const;
    // The chart of the page shown (the trace on the Runs page), as File › Export writes it.
    ChartKind currentChartKind() const;
    // The tab the user was on in the last session.
    void restorePage();

    StartPage* start() const { return m_start; }
    QTabWidget* tabs() const { return m_tabs; }
    ResultsPage* results() const { return m_results; }
    ChartPage* throughput() const { return m_throughput; }
    SpeedupPage* speedup() const { return m_speedup; }
    RunsPage* runs() const { return m_runs; }
    RunPanel* runPanel() const { return m_runPanel; }
    EnvironmentPage* environment() const { return m_environment; }
    HistoryPage* history() const { return m_history; }
    NodesPage* nodes() const { return m_nodes; }

  signals:
    // A page was shown: another tab, the start page in front or gone, or the same page again
    // (what follows the page shown, the docks and the export actions, is brought in line).
    void pageShown();

  private:
    // widget in front, on tab (-1: the tab it is on).
    void show(QWidget* widget, int tab);

    AppSettings* m_settings;
    StartPage* m_start;
    QTabWidget* m_tabs;
    ResultsPage* m_results;
    ChartPage* m_throughput;
    SpeedupPage* m_speedup;
    RunsPage* m_runs;
    RunPanel* m_runPanel;
    EnvironmentPage* m_environment;
    HistoryPage* m_history;
    NodesPage* m_nodes;
    bool m_showing = false; // in showPage and the like, which say pageShown once
};

} // namespace sv::ui
