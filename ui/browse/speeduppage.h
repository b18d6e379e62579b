#pragma once
// The speedup chart with its toggle to scaling efficiency, and below it (when the group has
// multi-device cases) where each topology's lost throughput goes (issue 28).

#include "ui/browse/chartpage.h"

class QCheckBox;
class QSplitter;

namespace sv::ui {

class LossBreakdownView;

class SpeedupPage : public ChartPage {
    Q_OBJECT
  public:
    explicit SpeedupPage(QWidget* parent = nullptr);
    ChartKind kind() const override;
    bool efficiency() const;
    void setEfficiency(bool on);
    void setAnalysis(AnalysisPtr analysis) override;
    LossBreakdownView* lossView() const { return m_loss; }

  signals:
    void efficiencyToggled(bool on);

  private:
    QCheckBox* m_efficiency;
    QSplitter* m_split;
    LossBreakdownView* m_loss;
};

} // namespace sv::ui
