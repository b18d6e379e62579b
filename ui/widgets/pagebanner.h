#pragma once
// A message across the top of every page, with one action button and a close button: what
// failed or what is worth doing about the directory shown, where the user is looking.

#include <QFrame>

class QLabel;
class QPushButton;

namespace sv::ui {

class PageBanner : public QFrame {
    Q_OBJECT
  public:
    explicit PageBanner(QWidget* parent = nullptr);

    // Shows text with a button named action (none when empty).
    void showMessage(const QString& text, const QString& action);
    QString text() const;
    QPushButton* actionButton() const { return m_action; }

  signals:
    void actionTriggered();

  private:
    QLabel* m_text;
    QPushButton* m_action;
};

} // namespace sv::ui
