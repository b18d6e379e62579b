#pragma once
// The Runs view: every log with status, reason, both methods and flags; selecting one shows its
// per-iteration trace below (warmup and measured window shaded, per-rank band).

#include "analysis.h"

#include <QWidget>

class QChartView;
class QCheckBox;
class QLabel;
class QTableView;

namespace sv::ui {

class LogActions;
class RunFilterProxy;
class RunTableModel;

class RunsPage : public QWidget {
    Q_OBJECT
  public:
    explicit RunsPage(QWidget* parent = nullptr);

    void setAnalysis(const AnalysisPtr& analysis);
    RunTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QChartView* traceView() const { return m_trace; }
    RunFilterProxy* proxy() const { return m_proxy; }
    QCheckBox* problemsOnlyBox() const { return m_problemsOnly; }
    LogActions* logActions() const { return m_actions; }
    // Selects the run at summary.runs[index]; -1 clears.
    void selectRun(int index);
    int selectedRun() const { return m_selected; }

  signals:
    void runSelected(int index);

  private:
    void showTrace(int index);
    void updateCount();

    AnalysisPtr m_analysis;
    RunTableModel* m_model;
    RunFilterProxy* m_proxy;
    QTableView* m_view;
    QCheckBox* m_problemsOnly;
    QLabel* m_count;
    LogActions* m_actions;
    QChartView* m_trace;
    QLabel* m_hint;
    int m_selected = -1;
    std::string m_selectedPath; // kept across recomputes
};

} // namespace sv::ui
