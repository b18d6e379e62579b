#pragma once
// Item text that wraps at the view's width instead of eliding: the reference tree's names
// ("DLPerf TensorFlow 2.3.0 (FP16 AMP, bs 256)") elided into look-alikes in a narrow dock.
// QTreeView paints wrapped text with wordWrap on, but sizes each row as one line; this delegate
// sizes the row for the lines the text takes at the width its column has.

#include <QStyledItemDelegate>

class QTreeView;

namespace sv::ui {

class WrappingDelegate : public QStyledItemDelegate {
  public:
    // Sets the view's word wrap and relays its rows out when its width changes.
    explicit WrappingDelegate(QTreeView* view);
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QTreeView* m_view;
    int m_width = -1;
};

} // namespace sv::ui
