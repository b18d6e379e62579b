#include "ui/models/referencelistmodel.h"

#include "ui/analysis/analysis.h"
#include "ui/analysis/scalingdata.h"

#include <QFont>

#include <algorithm>
#include <map>
#include <utility>

namespace sv::ui {

namespace {
// A child's internal id is its table's row + 1; a table row's is 0.
constexpr quintptr kTableRow = 0;
} // namespace

ReferenceListModel::ReferenceListModel(const ReferenceCatalog& catalog, QObject* parent)
    : QAbstractItemModel(parent) {
    build(catalog);
}

void ReferenceListModel::setCatalog(const ReferenceCatalog& catalog) {
    const std::vector<std::string> wasChecked = checked();
    const auto match = m_match;
    beginResetModel();
    m_tables.clear();
    m_hidden.clear();
    m_match.reset();
    build(catalog);
    endResetModel();
    if (match) setMatch(match->precision, match->batch, match->model, match->frameworks);
    setChecked(wasChecked);
}

void ReferenceListModel::build(const ReferenceCatalog& catalog) {
    m_catalog = catalog;
    const auto& tables = m_catalog.tables();
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const ReferenceTable& t = tables[i];
        Table table;
        table.catalogIndex = i;
        table.family = modelFamily(t.model);
        // Short enough for the dock, and what tells tables apart kept: precision and batch, or
        // the hardware where the series carry those. The full title is in the tooltip.
        std::string label = t.title.substr(0, t.title.find_first_of(",("));
        while (!label.empty() && label.back() == ' ')
            label.pop_back();
        const std::string pb = precisionBatchLabel(t.precision, t.batchPerDevice);
        const std::string which = pb.empty() ? t.hardware.substr(0, t.hardware.find(',')) : pb;
        if (!which.empty()) label += " (" + which + ")";
        table.row.label = QString::fromStdString(label);
        table.row.toolTip =
            QStringLiteral("%1\n%2\nSource: %3\nHardware: %4")
                .arg(QString::fromStdString(t.id), QString::fromStdString(t.title),
                     QString::fromStdString(t.source), QString::fromStdString(t.hardware));
        for (std::size_t si = 0; si < t.series.size(); ++si) {
            const ReferenceSeries& s = t.series[si];
            Entry e;
            e.series = si;
            e.id = referenceId(t, s);
            e.precision = s.precision ? s.precision : t.precision;
            e.batch = s.batchPerDevice ? s.batchPerDevice : t.batchPerDevice;
            if (t.series.size() <= 1) {
                table.row.id = e.id;
                table.row.precision = e.precision;
                table.row.batch = e.batch;
                table.row.series = si;
                continue;
            }
            e.label = QString::fromStdString(s.name);
            e.toolTip = QStringLiteral("%1\n%2 — %3\nSource: %4")
                            .arg(QString::fromStdString(e.id), QString::fromStdString(s.name),
                                 QString::fromStdString(precisionBatchLabel(e.precision, e.batch)),
                                 QString::fromStdString(t.source));
            table.series.push_back(std::move(e));
        }
        m_tables.push_back(std::move(table));
    }
    // Tables whose short labels coincide (one framework's tables with and without XLA, at one
    // precision and batch) would be look-alikes: those are named by their whole titles.
    std::map<QString, int> uses;
    for (const Table& t : m_tables)
        ++uses[t.row.label];
    for (Table& t : m_tables)
        if (uses[t.row.label] > 1)
            t.row.label = QString::fromStdString(tables[t.catalogIndex].title);
}

ReferenceListModel::Entry* ReferenceListModel::entry(const QModelIndex& index) {
    return const_cast<Entry*>(std::as_const(*this).entry(index));
}

const ReferenceListModel::Entry* ReferenceListModel::entry(const QModelIndex& index) const {
    if (!index.isValid() || index.model() != this) return nullptr;
    const auto row = static_cast<std::size_t>(index.row());
    if (index.internalId() == kTableRow)
        return row < m_tables.size() ? &m_tables[row].row : nullptr;
    const Table& t = m_tables[index.internalId() - 1];
    return row < t.series.size() ? &t.series[row] : nullptr;
}

void ReferenceListModel::setChecked(const std::vector<std::string>& ids) {
    for (std::size_t ti = 0; ti < m_tables.size(); ++ti) {
        auto update = [&](Entry& e, const QModelIndex& idx) {
            if (e.id.empty()) return;
            const bool on = std::find(ids.begin(), ids.end(), e.id) != ids.end();
            if (on == e.checked) return;
            e.checked = on;
            emit dataChanged(idx, idx, {Qt::CheckStateRole});
        };
        const QModelIndex tableIndex = index(static_cast<int>(ti), 0);
        update(m_tables[ti].row, tableIndex);
        for (std::size_t si = 0; si < m_tables[ti].series.size(); ++si)
            update(m_tables[ti].series[si], index(static_cast<int>(si), 0, tableIndex));
    }
    // Tables not listed for this case keep their checks too (no row to update).
    for (auto& t : m_hidden) {
        t.row.checked =
            !t.row.id.empty() && std::find(ids.begin(), ids.end(), t.row.id) != ids.end();
        for (auto& e : t.series)
            e.checked = std::find(ids.begin(), ids.end(), e.id) != ids.end();
    }
}

std::vector<std::string> ReferenceListModel::checked() const {
    std::vector<const Table*> byCatalog;
    for (const auto& t : m_tables)
        byCatalog.push_back(&t);
    for (const auto& t : m_hidden)
        byCatalog.push_back(&t);
    std::sort(byCatalog.begin(), byCatalog.end(),
              [](const Table* a, const Table* b) { return a->catalogIndex < b->catalogIndex; });
    std::vector<std::string> out;
    for (const Table* t : byCatalog) {
        if (t->row.checked) out.push_back(t->row.id);
        for (const auto& s : t->series)
            if (s.checked) out.push_back(s.id);
    }
    return out;
}

QModelIndex ReferenceListModel::indexOf(const std::string& id) const {
    for (std::size_t ti = 0; ti < m_tables.size(); ++ti) {
        const QModelIndex tableIndex = index(static_cast<int>(ti), 0);
        if (m_tables[ti].row.id == id) return tableIndex;
        for (std::size_t si = 0; si < m_tables[ti].series.size(); ++si)
            if (m_tables[ti].series[si].id == id) return index(static_cast<int>(si), 0, tableIndex);
    }
    return {};
}

void ReferenceListModel::setMatch(const std::string& precision, int batchPerDevice,
                                  const std::string& model,
                                  const std::vector<std::string>& frameworks) {
    const Match match{precision, batchPerDevice, model, frameworks};
    if (m_match && *m_match == match) return;
    m_match = match;
    auto matches = [&](const Table& t, const Entry& e) {
        if (e.precision != precision || e.batch != batchPerDevice) return false;
        if (frameworks.empty()) return true;
        const ReferenceTable& table = m_catalog.tables()[t.catalogIndex];
        return std::any_of(frameworks.begin(), frameworks.end(), [&](const std::string& f) {
            return ReferenceCatalog::standsFor(table, table.series[e.series], f);
        });
    };
    auto anyChecked = [](const Table& t) {
        return t.row.checked || std::any_of(t.series.begin(), t.series.end(),
                                            [](const Entry& e) { return e.checked; });
    };
    std::vector<Table> all = m_tables;
    all.insert(all.end(), m_hidden.begin(), m_hidden.end());
    std::vector<Table> next, hidden;
    const std::string family = model.empty() ? std::string() : modelFamily(model);
    for (auto& t : all) {
        t.row.matches = !t.row.id.empty() && matches(t, t.row);
        for (auto& s : t.series) {
            s.matches = matches(t, s);
            t.row.matches = t.row.matches || s.matches;
        }
        (family.empty() || t.family == family || anyChecked(t) ? next : hidden)
            .push_back(std::move(t));
    }
    // Matching tables first, each part in catalog order.
    std::stable_sort(next.begin(), next.end(), [](const Table& a, const Table& b) {
        if (a.row.matches != b.row.matches) return a.row.matches;
        return a.catalogIndex < b.catalogIndex;
    });
    beginResetModel();
    m_tables = std::move(next);
    m_hidden = std::move(hidden);
    endResetModel();
}

std::vector<QModelIndex> ReferenceListModel::matchingTables() const {
    std::vector<QModelIndex> out;
    for (std::size_t ti = 0; ti < m_tables.size(); ++ti)
        if (m_tables[ti].row.matches) out.push_back(index(static_cast<int>(ti), 0));
    return out;
}

QModelIndex ReferenceListModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column != 0) return {};
    if (!parent.isValid())
        return static_cast<std::size_t>(row) < m_tables.size() ? createIndex(row, 0, kTableRow)
                                                               : QModelIndex();
    if (parent.internalId() != kTableRow || parent.row() < 0 ||
        static_cast<std::size_t>(parent.row()) >= m_tables.size())
        return {};
    const Table& t = m_tables[static_cast<std::size_t>(parent.row())];
    if (static_cast<std::size_t>(row) >= t.series.size()) return {};
    return createIndex(row, 0, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex ReferenceListModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kTableRow) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTableRow);
}

int ReferenceListModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(m_tables.size());
    if (parent.column() != 0 || parent.internalId() != kTableRow) return 0;
    return static_cast<int>(m_tables[static_cast<std::size_t>(parent.row())].series.size());
}

int ReferenceListModel::columnCount(const QModelIndex&) const {
    return 1;
}

QVariant ReferenceListModel::data(const QModelIndex& index, int role) const {
    const Entry* e = entry(index);
    if (!e) return {};
    switch (role) {
    case Qt::DisplayRole:
        return e->label;
    case Qt::ToolTipRole:
        return e->matches ? e->toolTip + QStringLiteral("\nMatches the case shown") : e->toolTip;
    case Qt::CheckStateRole:
        if (e->id.empty()) return {};
        return e->checked ? Qt::Checked : Qt::Unchecked;
    case Qt::FontRole:
        if (e->matches) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case IdRole:
        return e->id.empty() ? QVariant() : QVariant(QString::fromStdString(e->id));
    case MatchesRole:
        return e->matches;
    }
    return {};
}

bool ReferenceListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    Entry* e = entry(index);
    if (!e || e->id.empty() || role != Qt::CheckStateRole) return false;
    const bool on = value.toInt() == Qt::Checked;
    if (on == e->checked) return true;
    e->checked = on;
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit checkedChanged();
    return true;
}

Qt::ItemFlags ReferenceListModel::flags(const QModelIndex& index) const {
    const Entry* e = entry(index);
    if (!e) return Qt::NoItemFlags;
    if (e->id.empty()) return Qt::ItemIsEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable |
           Qt::ItemNeverHasChildren;
}

} // namespace sv::ui
