#pragma once
// The Runs view: every log with status, reason, both methods and flags; selecting one shows its
// per-iteration trace below (warmup and measured window shaded, per-rank band).

#include "analysis.h"

#include <QWidget>

class QChartView;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace sv::ui {

class RunTableModel;

class RunsPage : public QWidget {
    Q_OBJECT
  public:
    explicit RunsPage(QWidget* parent = nullptr);

    void setAnalysis(const AnalysisPtr& analysis);
    RunTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QChartView* traceView() const { return m_trace; }
    // Selects the run at summary.runs[index]; -1 clears.
    void selectRun(int index);
    int selectedRun() const { return m_selected; }

  signals:
    void runSelected(int index);

  private:
    void showTrace(int index);

    AnalysisPtr m_analysis;
    RunTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QChartView* m_trace;
    QLabel* m_hint;
    int m_selected = -1;
    std::string m_selectedPath; // kept across recomputes
};

} // namespace sv::ui
