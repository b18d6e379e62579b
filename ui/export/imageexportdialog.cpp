#include "ui/export/imageexportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSpinBox>

namespace sv::ui {

ImageExportDialog::ImageExportDialog(QSize size, double scale, QWidget* parent)
    : QDialog(parent), m_width(new QSpinBox(this)), m_height(new QSpinBox(this)),
      m_scale(new QComboBox(this)) {
    setWindowTitle(tr("Export chart as PNG"));
    for (QSpinBox* s : {m_width, m_height}) {
        s->setRange(100, 10000);
        s->setSuffix(tr(" px"));
    }
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    for (double s : {1.0, 2.0, 3.0})
        m_scale->addItem(QStringLiteral("%1×").arg(s), s);
    m_scale->setCurrentIndex(qBound(0, m_scale->findData(scale), 2));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Width"), m_width);
    form->addRow(tr("Height"), m_height);
    form->addRow(tr("Scale"), m_scale);
    form->addRow(buttons);
}

QSize ImageExportDialog::chartSize() const {
    return QSize(m_width->value(), m_height->value());
}
double ImageExportDialog::scale() const {
    return m_scale->currentData().toDouble();
}

} // namespace sv::ui
