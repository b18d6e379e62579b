#include "ui/charts/hovertip.h"

#include <QCursor>
#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace sv::ui {

HoverTip::HoverTip(QWidget* viewport) : QObject(viewport), m_viewport(viewport) {
    viewport->installEventFilter(this);
}

void HoverTip::show(const QString& text) {
    m_text = text;
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text, m_viewport);
}

bool HoverTip::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_viewport && event->type() == QEvent::ToolTip && !m_text.isEmpty()) {
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), m_text, m_viewport);
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace sv::ui
