#pragma once
// The Run panel's hosts, editable in place: SSH name or alias, the address ranks meet at, port,
// user and GPUs per node. Empty means "this machine, no SSH".

// moc trips over the C++20 standard headers behind the launcher types; it needs only names.
#ifndef Q_MOC_RUN
#include "launcher/campaign/campaign.h"
#endif

#include <QAbstractTableModel>

#include <vector>

namespace sv::ui {

class HostTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Name, Address, Port, User, Gpus, ColumnCount };

    explicit HostTableModel(QObject* parent = nullptr);
    const std::vector<launcher::Host>& hosts() const { return m_hosts; }
    void setHosts(std::vector<launcher::Host> hosts);
    void addHost(const launcher::Host& host);
    void removeHost(int row);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  signals:
    void hostsEdited();

  private:
    std::vector<launcher::Host> m_hosts;
};

} // namespace sv::ui
