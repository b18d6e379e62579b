#pragma once
// The Runs view: every log with status, reason, both methods and flags; selecting one shows its
// per-iteration trace below (warmup and measured window shaded, per-rank band).

#include "ui/analysis/analysis.h"

#include <QWidget>

class QChartView;
class QCheckBox;
class QComboBox;
class QAction;
class QLabel;
class QTableView;
class QToolButton;

namespace sv::ui {

class LogActions;
class RunFilterProxy;
class RunKeyDialog;
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
    // With several directories compared: whose runs the table shows (0: the open directory).
    QComboBox* seriesBox() const { return m_seriesBox; }
    void showSeries(int index);
    int shownSeries() const { return m_series; }
    LogActions* logActions() const { return m_actions; }
    // Selects the run at summary.runs[index] of the open directory (the series shown becomes
    // it); -1 clears.
    void selectRun(int index);
    int selectedRun() const { return m_selected; }
    // "Set batch, GPUs, precision… for this log": the selected run of the open directory.
    QAction* setKeysAction() const { return m_setKeys; }
    // The dialog for summary.runs[index] of the open directory, shown (null: no such run).
    RunKeyDialog* openKeyDialog(int index);

  signals:
    void runSelected(int index);
    // The user's keys were written into sidecar: the directory is to be read again.
    void keysSaved(const QString& sidecar);

  private:
    QToolButton* buildSetKeys();
    void showTrace(int index);
    void selectShown(int index); // a row of the series shown
    // The runs and logs of the series shown.
    const Summary& shownSummary() const;
    const std::vector<RunLogPtr>& shownLogs() const;
    void updateCount();
    void fitColumns(); // hides the columns the runs shown have no figure in

    AnalysisPtr m_analysis;
    RunTableModel* m_model;
    RunFilterProxy* m_proxy;
    QTableView* m_view;
    QCheckBox* m_problemsOnly;
    QComboBox* m_seriesBox;
    int m_series = 0;
    QLabel* m_count;
    LogActions* m_actions;
    QAction* m_setKeys;
    QChartView* m_trace;
    QLabel* m_hint;
    int m_selected = -1;
    std::string m_selectedPath; // kept across recomputes
};

} // namespace sv::ui
