#include "ui/models/runfilterproxy.h"

#include "ui/models/runtablemodel.h"

#include <QPartialOrdering>

namespace sv::ui {

RunFilterProxy::RunFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(RunTableModel::SortRole);
}

void RunFilterProxy::setProblemsOnly(bool on) {
    if (on == m_problemsOnly) return;
    m_problemsOnly = on;
    invalidateFilter();
}

bool RunFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QAbstractItemModel* model = sourceModel();
    auto value = [&](const QModelIndex& i, int column) {
        return model->index(i.row(), column).data(RunTableModel::SortRole);
    };
    // The column sorted on first, then topology, repeat and path: a stable, readable order.
    for (int column : {left.column(), int(RunTableModel::Topology), int(RunTableModel::Repeat),
                       int(RunTableModel::Log)}) {
        const QVariant a = value(left, column), b = value(right, column);
        // An absent figure (a run that did not count) sorts after every number.
        if (!a.isValid() || !b.isValid()) {
            if (a.isValid() != b.isValid()) return a.isValid();
            continue;
        }
        const QPartialOrdering order = QVariant::compare(a, b);
        if (order == QPartialOrdering::Less) return true;
        if (order == QPartialOrdering::Greater) return false;
    }
    return false;
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (!m_problemsOnly) return true;
    return sourceModel()
        ->index(sourceRow, 0, sourceParent)
        .data(RunTableModel::ProblemRole)
        .toBool();
}

} // namespace sv::ui
