#pragma once
// Help › Methodology (F1): how ScaleView measures, in words — DLPerf's two methods, the median
// over repeats, speedup, efficiency, the 95 % interval, and what each case warning means.

#include <QDialog>

namespace sv::ui {

class MethodologyDialog : public QDialog {
    Q_OBJECT
  public:
    explicit MethodologyDialog(QWidget* parent = nullptr);
    // The page's text (HTML); tests read it.
    static QString html();
};

} // namespace sv::ui
