#pragma once
// Asks the size and scale of a PNG export (2× draws every line at twice the resolution).

#include <QDialog>

class QComboBox;
class QSpinBox;

namespace sv::ui {

class ImageExportDialog : public QDialog {
    Q_OBJECT
  public:
    ImageExportDialog(QSize size, double scale, QWidget* parent = nullptr);
    QSize chartSize() const;
    double scale() const;

  private:
    QSpinBox* m_width;
    QSpinBox* m_height;
    QComboBox* m_scale;
};

} // namespace sv::ui
