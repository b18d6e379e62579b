#pragma once
// A message across the top of every page, with one or two action buttons and a close button: what
// failed or what is worth doing about the directory shown, where the user is looking.

#include <QFrame>

class QLabel;
class QPushButton;

namespace sv::ui {

class PageBanner : public QFrame {
    Q_OBJECT
  public:
    explicit PageBanner(QWidget* parent = nullptr);

    // Shows text with a button named action (none when empty), and a second one before it
    // (none when empty): "Teach ScaleView this log…" beside "Choose another…".
    void showMessage(const QString& text, const QString& action, const QString& second = {});
    QString text() const;
    QPushButton* actionButton() const { return m_action; }
    QPushButton* secondButton() const { return m_second; }

  signals:
    void actionTriggered();
    void secondTriggered();

  private:
    QLabel* m_text;
    QPushButton* m_second;
    QPushButton* m_action;
};

} // namespace sv::ui
