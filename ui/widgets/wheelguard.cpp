#include "ui/widgets/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QSlider>
#include <QWheelEvent>
#include <QWidget>

namespace sv::ui {

namespace {

const char* const kGuardName = "sv-wheel-guard";

// A field the wheel would change: spin boxes, combo boxes, sliders (never a scroll bar).
bool isField(const QObject* o) {
    return qobject_cast<const QAbstractSpinBox*>(o) || qobject_cast<const QComboBox*>(o) ||
           qobject_cast<const QSlider*>(o);
}

// The field an event to `o` goes to: o itself, or the field whose line edit o is.
QWidget* fieldOf(QObject* o) {
    if (isField(o)) return static_cast<QWidget*>(o);
    if (auto* w = qobject_cast<QWidget*>(o); w && w->parentWidget() && isField(w->parentWidget()))
        return w->parentWidget();
    return nullptr;
}

void guardFocus(QWidget* w) {
    if (isField(w) && w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
}

class WheelGuard : public QObject {
  public:
    explicit WheelGuard(QObject* parent) : QObject(parent) { setObjectName(kGuardName); }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Polish) {
            if (watched->isWidgetType()) guardFocus(static_cast<QWidget*>(watched));
            return false;
        }
        if (event->type() != QEvent::Wheel) return false;
        QWidget* field = fieldOf(watched);
        if (!field || field->hasFocus()) return false;
        auto* wheel = static_cast<QWheelEvent*>(event);
        // The scroll area that holds the field scrolls instead; with none, the wheel goes on
        // to the field's parents as any ignored wheel does.
        for (QWidget* p = field->parentWidget(); p; p = p->parentWidget()) {
            auto* area = qobject_cast<QAbstractScrollArea*>(p);
            if (!area) continue;
            QWidget* viewport = area->viewport();
            QWheelEvent forwarded(viewport->mapFromGlobal(wheel->globalPosition()),
                                  wheel->globalPosition(), wheel->pixelDelta(),
                                  wheel->angleDelta(), wheel->buttons(), wheel->modifiers(),
                                  wheel->phase(), wheel->inverted(), wheel->source(),
                                  wheel->pointingDevice());
            QCoreApplication::sendEvent(viewport, &forwarded);
            wheel->setAccepted(true);
            return true;
        }
        wheel->ignore();
        return true;
    }
};

} // namespace

bool wheelGuardInstalled() {
    return qApp && qApp->findChild<QObject*>(QLatin1String(kGuardName), Qt::FindDirectChildrenOnly);
}

void installWheelGuard() {
    if (!qApp || wheelGuardInstalled()) return;
    qApp->installEventFilter(new WheelGuard(qApp));
    for (QWidget* w : QApplication::allWidgets())
        guardFocus(w);
}

} // namespace sv::ui
