#include "ui/models/warninglistmodel.h"

#include <QApplication>
#include <QStyle>

namespace sv::ui {

WarningListModel::WarningListModel(QObject* parent) : QAbstractListModel(parent) {}

void WarningListModel::setWarnings(std::vector<Warning> warnings) {
    beginResetModel();
    m_warnings = std::move(warnings);
    endResetModel();
}

int WarningListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_warnings.size());
}

QVariant WarningListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Warning& w = m_warnings[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return QString::fromStdString(w.text());
    case Qt::DecorationRole:
        return qApp ? QVariant(qApp->style()->standardIcon(QStyle::SP_MessageBoxWarning))
                    : QVariant();
    }
    return {};
}

} // namespace sv::ui
