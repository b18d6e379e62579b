#pragma once
// The speedup chart with its toggle to scaling efficiency.

#include "ui/browse/chartpage.h"

class QCheckBox;

namespace sv::ui {

class SpeedupPage : public ChartPage {
    Q_OBJECT
  public:
    explicit SpeedupPage(QWidget* parent = nullptr);
    ChartKind kind() const override;
    bool efficiency() const;
    void setEfficiency(bool on);

  signals:
    void efficiencyToggled(bool on);

  private:
    QCheckBox* m_efficiency;
};

} // namespace sv::ui
