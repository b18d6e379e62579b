#pragma once
// A page that shows one chart of the current Analysis in a QChartView, rebuilt whole when the
// analysis changes (charts are cheap to build; the data behind them is already computed), with
// hover text that stays while the mouse rests on a bar or point.

#include "ui/analysis/analysis.h"
#include "ui/charts/chartkind.h"
#include "ui/charts/hovertip.h"
#include "ui/charts/throughputchart.h"

#include <QWidget>

class QChartView;
class QComboBox;
class QHBoxLayout;
class QLabel;

namespace sv::ui {

class ChartPage : public QWidget {
    Q_OBJECT
  public:
    explicit ChartPage(ChartKind kind, QWidget* parent = nullptr);

    virtual void setAnalysis(AnalysisPtr analysis);
    virtual ChartKind kind() const { return m_kind; }
    QChartView* view() const { return m_view; }
    // The throughput chart's whisker (the page offers the choice only there).
    Whisker whisker() const { return m_whisker; }
    void setWhisker(Whisker whisker);
    QComboBox* whiskerBox() const { return m_whiskerBox; }
    // The throughput chart's scale: samples/s or percent of the hardware's peak.
    ThroughputScale scale() const { return m_scale; }
    void setScale(ThroughputScale scale);
    QComboBox* scaleBox() const { return m_scaleBox; }
    // What the tooltip says while the mouse rests on the bar or point it last entered.
    QString hoverText() const { return m_tip->text(); }

  signals:
    void whiskerChanged(sv::ui::Whisker whisker);
    void scaleChanged(sv::ui::ThroughputScale scale);

  protected:
    QHBoxLayout* header() const { return m_header; }
    void rebuild();

  private:
    void connectHover(QChart* chart, bool efficiency);
    void hover(const QString& text);

    ChartKind m_kind;
    AnalysisPtr m_analysis;
    ScalingData m_data; // what the chart shown was drawn from
    Whisker m_whisker = Whisker::MinMax;
    ThroughputScale m_scale = ThroughputScale::Throughput;
    HoverTip* m_tip = nullptr;
    QChartView* m_view;
    QHBoxLayout* m_header;
    QLabel* m_hint;
    QComboBox* m_whiskerBox = nullptr;
    QComboBox* m_scaleBox = nullptr;
};

} // namespace sv::ui
