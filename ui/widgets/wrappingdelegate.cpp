#include "ui/widgets/wrappingdelegate.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>
#include <QTreeView>

#include <algorithm>

namespace sv::ui {

WrappingDelegate::WrappingDelegate(QTreeView* view) : QStyledItemDelegate(view), m_view(view) {
    view->setWordWrap(true);
    view->setTextElideMode(Qt::ElideNone);
    view->setUniformRowHeights(false);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->header()->setStretchLastSection(true);
    view->viewport()->installEventFilter(this);
}

QSize WrappingDelegate::sizeHint(const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    int depth = 0;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
        ++depth;
    // The column's width less the indentation of this row (the root's children are indented
    // once when the tree decorates its root).
    const int indent = m_view->indentation() * (depth + (m_view->rootIsDecorated() ? 1 : 0));
    // One column: the viewport's width (the hidden header's section may be wider than it).
    const int width = std::min(m_view->columnWidth(index.column()), m_view->viewport()->width()) -
                      indent;
    if (width <= 0) return QStyledItemDelegate::sizeHint(option, index);
    // A valid rectangle (the style wraps only into one), as tall as any text needs.
    opt.rect = QRect(0, 0, width, 1 << 16);
    opt.features |= QStyleOptionViewItem::WrapText;
    const QWidget* widget = opt.widget ? opt.widget : m_view;
    return widget->style()->sizeFromContents(QStyle::CT_ItemViewItem, &opt, QSize(), widget);
}

bool WrappingDelegate::eventFilter(QObject* watched, QEvent* event) {
    // Another width wraps the text into other lines: the rows are measured again.
    if (event->type() == QEvent::Resize && m_view->viewport()->width() != m_width) {
        m_width = m_view->viewport()->width();
        m_view->doItemsLayout();
    }
    return QStyledItemDelegate::eventFilter(watched, event);
}

} // namespace sv::ui
