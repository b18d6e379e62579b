#include "ui/widgets/loadstatus.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

namespace sv::ui {

LoadStatus::LoadStatus(QWidget* parent)
    : QWidget(parent), m_bar(new QProgressBar(this)), m_eta(new QLabel(this)),
      m_cancel(new QToolButton(this)) {
    m_bar->setMaximumWidth(220);
    m_bar->setFormat(tr("%v / %m logs"));
    m_cancel->setText(tr("Cancel"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_eta);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, &LoadStatus::cancelRequested);
    showIdle();
}

void LoadStatus::showProgress(int done, int total, double etaSeconds) {
    setVisible(true);
    if (total <= 0) {
        // Still scanning: how many logs there are is not known, so no "0 / 0 logs".
        m_bar->setRange(0, 0);
        m_eta->setText(tr("Scanning…"));
        return;
    }
    m_bar->setRange(0, total);
    m_bar->setValue(done);
    if (etaSeconds < 0)
        m_eta->setText(tr("Loading…"));
    else if (etaSeconds < 60)
        m_eta->setText(tr("Loading, about %1 s left").arg(qMax(1, qRound(etaSeconds))));
    else
        m_eta->setText(tr("Loading, about %1 min left").arg(qRound(etaSeconds / 60)));
}

void LoadStatus::showIdle() {
    setVisible(false);
}

} // namespace sv::ui
