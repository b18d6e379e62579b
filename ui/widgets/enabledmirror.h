#pragma once
// Keeps an action enabled exactly when the button it presses is: Campaign › Cancel is not
// offered while nothing runs (and its shortcut does nothing then).

#include <QObject>

class QAction;
class QPushButton;

namespace sv::ui {

class EnabledMirror : public QObject {
  public:
    // Owned by action.
    EnabledMirror(QPushButton* button, QAction* action);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QAction* m_action;
};

} // namespace sv::ui
