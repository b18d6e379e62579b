#include "referencelistmodel.h"

#include "analysis.h"

#include <algorithm>

namespace sv::ui {

ReferenceListModel::ReferenceListModel(const ReferenceCatalog& catalog, QObject* parent)
    : QAbstractListModel(parent) {
    for (const auto& t : catalog.tables())
        for (const auto& s : t.series) {
            Entry e;
            e.id = referenceId(t, s);
            // The full title is in the tooltip; the list shows what tells entries apart.
            const std::string shortTitle = t.title.substr(0, t.title.find(','));
            e.label = t.series.size() <= 1 ? QString::fromStdString(t.title)
                                           : QString::fromStdString(s.name + " — " + shortTitle);
            e.toolTip =
                QStringLiteral("%1\n%2\nSource: %3\nHardware: %4")
                    .arg(QString::fromStdString(e.id), QString::fromStdString(t.title),
                         QString::fromStdString(t.source), QString::fromStdString(t.hardware));
            m_entries.push_back(std::move(e));
        }
}

void ReferenceListModel::setChecked(const std::vector<std::string>& ids) {
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const bool on = std::find(ids.begin(), ids.end(), m_entries[i].id) != ids.end();
        if (on == m_entries[i].checked) continue;
        m_entries[i].checked = on;
        const QModelIndex idx = index(static_cast<int>(i));
        emit dataChanged(idx, idx, {Qt::CheckStateRole});
    }
}

std::vector<std::string> ReferenceListModel::checked() const {
    std::vector<std::string> out;
    for (const auto& e : m_entries)
        if (e.checked) out.push_back(e.id);
    return out;
}

int ReferenceListModel::rowOf(const std::string& id) const {
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].id == id) return static_cast<int>(i);
    return -1;
}

int ReferenceListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

QVariant ReferenceListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Entry& e = m_entries[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return e.label;
    case Qt::ToolTipRole:
        return e.toolTip;
    case Qt::CheckStateRole:
        return e.checked ? Qt::Checked : Qt::Unchecked;
    case IdRole:
        return QString::fromStdString(e.id);
    }
    return {};
}

bool ReferenceListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || index.row() >= rowCount() || role != Qt::CheckStateRole) return false;
    Entry& e = m_entries[static_cast<std::size_t>(index.row())];
    const bool on = value.toInt() == Qt::Checked;
    if (on == e.checked) return true;
    e.checked = on;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit checkedChanged();
    return true;
}

Qt::ItemFlags ReferenceListModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable;
}

} // namespace sv::ui
