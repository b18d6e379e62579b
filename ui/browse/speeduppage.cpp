#include "ui/browse/speeduppage.h"

#include <QCheckBox>
#include <QHBoxLayout>

namespace sv::ui {

SpeedupPage::SpeedupPage(QWidget* parent)
    : ChartPage(ChartKind::Speedup, parent), m_efficiency(new QCheckBox(this)) {
    m_efficiency->setText(tr("Show scaling efficiency"));
    m_efficiency->setToolTip(
        tr("Speedup divided by the GPU count: 100 % is perfect linear scaling"));
    header()->addWidget(m_efficiency);
    connect(m_efficiency, &QCheckBox::toggled, this, [this](bool on) {
        rebuild();
        emit efficiencyToggled(on);
    });
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
