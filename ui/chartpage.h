#pragma once
// A page that shows one chart of the current Analysis in a QChartView, rebuilt whole when the
// analysis changes (charts are cheap to build; the data behind them is already computed).

#include "analysis.h"
#include "exportcontroller.h"

#include <QWidget>

class QChartView;
class QHBoxLayout;
class QLabel;

namespace sv::ui {

class ChartPage : public QWidget {
    Q_OBJECT
  public:
    explicit ChartPage(ChartKind kind, QWidget* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis);
    virtual ChartKind kind() const { return m_kind; }
    QChartView* view() const { return m_view; }

  protected:
    QHBoxLayout* header() const { return m_header; }
    void rebuild();

  private:
    ChartKind m_kind;
    AnalysisPtr m_analysis;
    QChartView* m_view;
    QHBoxLayout* m_header;
    QLabel* m_hint;
};

} // namespace sv::ui
