#include "ui/models/hosttablemodel.h"

#include "launcher/campaign/identifiers.h"

#include <QBrush>
#include <QColor>

namespace sv::ui {

HostTableModel::HostTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void HostTableModel::setHosts(std::vector<launcher::Host> hosts) {
    beginResetModel();
    m_hosts = std::move(hosts);
    endResetModel();
    emit hostsEdited();
}

void HostTableModel::addHost(const launcher::Host& host) {
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_hosts.push_back(host);
    endInsertRows();
    emit hostsEdited();
}

void HostTableModel::removeHost(int row) {
    if (row < 0 || row >= rowCount()) return;
    beginRemoveRows({}, row, row);
    m_hosts.erase(m_hosts.begin() + row);
    endRemoveRows();
    emit hostsEdited();
}

int HostTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_hosts.size());
}

int HostTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HostTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const launcher::Host& h = m_hosts[static_cast<std::size_t>(index.row())];
    // A name the launcher would refuse is shown red here, before Run says so.
    const bool bad =
        (index.column() == Name && !launcher::isValidHostName(h.name)) ||
        (index.column() == Address && !h.address.empty() &&
         !launcher::isValidHostName(h.address)) ||
        (index.column() == User && !h.user.empty() && !launcher::isValidUserName(h.user));
    if (role == Qt::ForegroundRole && bad) return QBrush(QColor(0xc0, 0x20, 0x20));
    if (role == Qt::ToolTipRole && bad)
        return tr("Not a valid name: letters, digits, '.', '-', '_' only");
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
    case Name:
        return QString::fromStdString(h.name);
    case Address:
        return QString::fromStdString(h.address);
    case Port:
        return role == Qt::EditRole ? QVariant(h.port)
                                    : (h.port ? QVariant(h.port) : QVariant(tr("default")));
    case User:
        return QString::fromStdString(h.user);
    case Gpus:
        return h.gpus;
    default:
        return {};
    }
}

bool HostTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!index.isValid() || role != Qt::EditRole || index.row() >= rowCount()) return false;
    launcher::Host& h = m_hosts[static_cast<std::size_t>(index.row())];
    const std::string text = value.toString().trimmed().toStdString();
    switch (index.column()) {
    case Name:
        h.name = text;
        break;
    case Address:
        h.address = text;
        break;
    case Port:
        h.port = qBound(0, value.toInt(), 65535);
        break;
    case User:
        h.user = text;
        break;
    case Gpus:
        h.gpus = qBound(1, value.toInt(), 1024);
        break;
    default:
        return false;
    }
    emit dataChanged(index, index);
    emit hostsEdited();
    return true;
}

Qt::ItemFlags HostTableModel::flags(const QModelIndex& index) const {
    return QAbstractTableModel::flags(index) |
           (index.isValid() ? Qt::ItemIsEditable : Qt::NoItemFlags);
}

QVariant HostTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[] = {"Host / alias", "Address", "Port", "User", "GPUs"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sv::ui
