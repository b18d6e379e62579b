#pragma once
// The words about what the mouse is on in a chart, as a tooltip that stays. A QGraphicsScene
// answers every tooltip event itself and, with no item tooltip under the mouse, hides any tooltip
// shown: hover text would vanish at the first rest (~0.7 s). A HoverTip filters its viewport's
// events and answers them while something is hovered.

#include <QObject>
#include <QString>

class QWidget;

namespace sv::ui {

class HoverTip : public QObject {
  public:
    // Filters viewport's events from now on; lives as long as viewport (its child).
    explicit HoverTip(QWidget* viewport);

    // Shows text at the cursor; empty hides the tooltip.
    void show(const QString& text);
    const QString& text() const { return m_text; }

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QWidget* m_viewport;
    QString m_text;
};

} // namespace sv::ui
