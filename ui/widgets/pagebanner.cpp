#include "ui/widgets/pagebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace sv::ui {

PageBanner::PageBanner(QWidget* parent)
    : QFrame(parent), m_text(new QLabel(this)), m_second(new QPushButton(this)),
      m_action(new QPushButton(this)) {
    m_second->setObjectName(QStringLiteral("bannerSecond"));
    setFrameShape(QFrame::StyledPanel);
    // Palette roles, not fixed colours, so a dark theme stays readable.
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    setForegroundRole(QPalette::ToolTipText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_second);
    layout->addWidget(m_action);
    layout->addWidget(close);
    connect(m_action, &QPushButton::clicked, this, &PageBanner::actionTriggered);
    connect(m_second, &QPushButton::clicked, this, &PageBanner::secondTriggered);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void PageBanner::showMessage(const QString& text, const QString& action, const QString& second) {
    m_text->setText(text);
    m_action->setText(action);
    m_action->setVisible(!action.isEmpty());
    m_second->setText(second);
    m_second->setVisible(!second.isEmpty());
    show();
}

QString PageBanner::text() const {
    return m_text->text();
}

} // namespace sv::ui
