#include "ui/widgets/enabledmirror.h"

#include <QAction>
#include <QEvent>
#include <QPushButton>

namespace sv::ui {

EnabledMirror::EnabledMirror(QPushButton* button, QAction* action)
    : QObject(action), m_action(action) {
    button->installEventFilter(this);
    m_action->setEnabled(button->isEnabled());
}

bool EnabledMirror::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::EnabledChange)
        m_action->setEnabled(static_cast<QWidget*>(watched)->isEnabled());
    return false;
}

} // namespace sv::ui
