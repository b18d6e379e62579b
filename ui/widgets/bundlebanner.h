#pragma once
// Above every page while a campaign opened from a bundle is shown: "NOT VERIFIED" in red with its
// first reasons (all of them in the tooltip and behind All Reasons…), or "verified" with who
// bundled it, when, and the key that signed it. No close button: it lasts as long as the bundle.

#include "ui/analysis/bundleprovenance.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace sv::ui {

class BundleBanner : public QFrame {
    Q_OBJECT
  public:
    explicit BundleBanner(QWidget* parent = nullptr);

    void showProvenance(const BundleProvenance& provenance);
    QString text() const;
    bool showsNotVerified() const { return m_notVerified; }
    QPushButton* reasonsButton() const { return m_reasons; }

  private:
    void showReasons();

    QLabel* m_text;
    QPushButton* m_reasons;
    QString m_details;
    bool m_notVerified = false;
};

} // namespace sv::ui
