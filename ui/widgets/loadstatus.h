#pragma once
// The status bar's right side: what is loaded and how many warnings, or, while loading, a
// progress bar with the ETA and a Cancel button.

#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace sv::ui {

class LoadStatus : public QWidget {
    Q_OBJECT
  public:
    explicit LoadStatus(QWidget* parent = nullptr);

    void showProgress(int done, int total, double etaSeconds);
    void showIdle();
    QToolButton* cancelButton() const { return m_cancel; }
    QProgressBar* progressBar() const { return m_bar; }

  signals:
    void cancelRequested();

  private:
    QProgressBar* m_bar;
    QLabel* m_eta;
    QToolButton* m_cancel;
};

} // namespace sv::ui
