#include "ui/browse/speeduppage.h"

#include "ui/charts/lossbreakdownview.h"

#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QSplitter>
#include <QVBoxLayout>

namespace sv::ui {

SpeedupPage::SpeedupPage(QWidget* parent)
    : ChartPage(ChartKind::Speedup, parent), m_efficiency(new QCheckBox(this)),
      m_split(new QSplitter(Qt::Vertical, this)), m_loss(new LossBreakdownView(this)) {
    m_efficiency->setText(tr("Show scaling efficiency"));
    m_efficiency->setToolTip(
        tr("Speedup divided by the GPU count: 100 % is perfect linear scaling"));
    header()->addWidget(m_efficiency);
    connect(m_efficiency, &QCheckBox::toggled, this, [this](bool on) {
        rebuild();
        emit efficiencyToggled(on);
    });
    // The speedup chart above, where its loss goes below, the user sharing the height.
    auto* box = static_cast<QVBoxLayout*>(layout());
    const int at = box->indexOf(view());
    box->removeWidget(view());
    m_split->addWidget(view());
    m_split->addWidget(m_loss);
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 2);
    m_split->setChildrenCollapsible(false);
    // The speedup chart keeps room for its axes and titles whatever the breakdown below holds.
    view()->setMinimumHeight(260);
    box->insertWidget(at, m_split, 1);
    m_loss->setVisible(false);
}

void SpeedupPage::setAnalysis(AnalysisPtr analysis) {
    m_loss->setAnalysis(analysis);
    ChartPage::setAnalysis(std::move(analysis));
    m_loss->setVisible(m_loss->hasBars() && view()->isVisibleTo(this));
}

ChartKind SpeedupPage::kind() const {
    return m_efficiency->isChecked() ? ChartKind::Efficiency : ChartKind::Speedup;
}
bool SpeedupPage::efficiency() const {
    return m_efficiency->isChecked();
}
void SpeedupPage::setEfficiency(bool on) {
    m_efficiency->setChecked(on);
}

} // namespace sv::ui
