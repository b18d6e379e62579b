#pragma once
// The scaling-loss breakdown chart of the current Analysis (LossBreakdownChart) with its notes
// under it (negative parts, an unread probes.json, what "not measured" means), and hover text
// that stays while the mouse rests on a segment: the part's points, 95 % interval and evidence.

#include "ui/analysis/analysis.h"
#include "ui/charts/hovertip.h"
#include "ui/charts/lossbreakdownchart.h"

#include <QWidget>

class QChartView;
class QLabel;
class QPushButton;
class QScrollArea;

namespace sv::ui {

class LossBreakdownView : public QWidget {
    Q_OBJECT
  public:
    explicit LossBreakdownView(QWidget* parent = nullptr);

    void setAnalysis(const AnalysisPtr& analysis);
    // What the chart shown was drawn from (no bars: nothing to show, the view hides).
    const LossBreakdown& breakdown() const { return m_data; }
    bool hasBars() const { return !m_data.bars.empty(); }
    QChartView* view() const { return m_view; }
    QLabel* noteLabel() const { return m_notes; }
    QString hoverText() const { return m_tip->text(); }
    // Shown when the probes name a slow node: "Rerun without node3…".
    QPushButton* rerunButton() const { return m_rerun; }

  signals:
    // The user asks for the campaign again without node (why: the probes' evidence).
    void rerunWithout(const QString& node, const QString& why);

  private:
    void offerRerun();

    void hover(const QString& text);

    LossBreakdown m_data;
    HoverTip* m_tip = nullptr;
    QChartView* m_view;
    QLabel* m_notes;
    QScrollArea* m_notesArea; // holds m_notes: shown with it
    QPushButton* m_rerun;
    QString m_slowNode, m_slowWhy;
};

} // namespace sv::ui
