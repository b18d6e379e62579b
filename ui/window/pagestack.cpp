#include "ui/window/pagestack.h"

#include "ui/browse/chartpage.h"
#include "ui/browse/environmentpage.h"
#include "ui/browse/resultspage.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/history/historypage.h"
#include "ui/history/nodespage.h"
#include "ui/run/runpanel.h"
#include "ui/settings/appsettings.h"
#include "ui/window/startpage.h"

#include <QTabWidget>

namespace sv::ui {

PageStack::PageStack(AppSettings* settings, QWidget* parent)
    : QStackedWidget(parent), m_settings(settings), m_start(new StartPage(this)),
      m_tabs(new QTabWidget(this)), m_results(new ResultsPage(this)),
      m_throughput(new ChartPage(ChartKind::Throughput, this)), m_speedup(new SpeedupPage(this)),
      m_runs(new RunsPage(this)),
      // The Run page launches campaigns; each run that ends updates the open view.
      m_runPanel(new RunPanel(settings, this)),
      // What the open directory's campaign ran on, and every recorded campaign over time (each
      // campaign the Run page finishes goes in); each node's probe figures across them.
      m_environment(new EnvironmentPage(this)), m_history(new HistoryPage(this)),
      m_nodes(new NodesPage(this)) {
    m_tabs->addTab(m_results, tr("Results"));
    m_tabs->addTab(m_throughput, tr("Throughput"));
    m_tabs->addTab(m_speedup, tr("Speedup"));
    m_tabs->addTab(m_runs, tr("Runs"));
    m_tabs->addTab(m_runPanel, tr("Run"));
    m_tabs->addTab(m_environment, tr("Environment"));
    m_history->useSettings(settings); // the database chosen in its Database… dialog
    m_tabs->addTab(m_history, tr("History"));
    m_nodes->useSettings(settings); // the same database
    m_tabs->addTab(m_nodes, tr("Nodes"));
    m_tabs->setDocumentMode(true);
    addWidget(m_start);
    addWidget(m_tabs);
    setCurrentWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int page) {
        m_settings->setPage(page);
        if (!m_showing) emit pageShown(); // the user chose a tab
    });
}

void PageStack::show(QWidget* widget, int tab) {
    m_showing = true;
    setCurrentWidget(widget);
    if (tab >= 0) m_tabs->setCurrentIndex(tab);
    m_showing = false;
    emit pageShown();
}

void PageStack::showPage(Page page) {
    show(m_tabs, page);
}

PageStack::Page PageStack::currentPage() const {
    return static_cast<Page>(m_tabs->currentIndex());
}

void PageStack::step(int by) {
    showPage(static_cast<Page>((m_tabs->currentIndex() + m_tabs->count() + by) % m_tabs->count()));
}

void PageStack::showStartPage() {
    show(m_start, -1);
}

bool PageStack::isStartPageShown() const {
    return currentWidget() == m_start;
}

void PageStack::showTabs() {
    show(m_tabs, -1);
}

bool PageStack::isAnalysisPageShown() const {
    return !isStartPageShown() && m_tabs->currentIndex() < Run;
}

bool PageStack::isWarningsPageShown() const {
    return !isStartPageShown() && m_tabs->currentIndex() != Run && m_tabs->currentIndex() < History;
}

ChartKind PageStack::currentChartKind() const {
    switch (m_tabs->currentIndex()) {
    case Speedup:
        return m_speedup->kind();
    case Runs:
        return ChartKind::Trace;
    default:
        return ChartKind::Throughput;
    }
}

void PageStack::restorePage() {
    m_tabs->setCurrentIndex(m_settings->page());
}

} // namespace sv::ui
