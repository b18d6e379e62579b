#pragma once
// One menu entry as data (its text, shortcut, object name and what it does), and the two ways
// the window's menus add one: an action, and a checkable action that writes a setting back.

#include <QAction>
#include <QKeySequence>
#include <QMenu>
#include <QString>

#include <functional>
#include <utility>

namespace sv::ui {

struct MenuItem {
    QString text;
    QKeySequence key;
    // Tests and shortcuts find actions by it; empty: unnamed.
    const char* name;
    std::function<void()> triggered;
};

inline QAction* addItem(QMenu* menu, QObject* context, const MenuItem& item) {
    QAction* action = menu->addAction(item.text, item.key, context, item.triggered);
    if (item.name && *item.name) action->setObjectName(QLatin1String(item.name));
    return action;
}

// Starts as the setting says (on) and tells toggled each change.
inline QAction* addToggle(QMenu* menu, const QString& text, const char* name, bool on,
                          std::function<void(bool)> toggled) {
    QAction* action = menu->addAction(text);
    if (name) action->setObjectName(QLatin1String(name));
    action->setCheckable(true);
    action->setChecked(on);
    QObject::connect(action, &QAction::toggled, menu, std::move(toggled));
    return action;
}

} // namespace sv::ui
