#pragma once
// The warnings panel: every file the scan skipped and every run that does not count, with why.

#include "core/model/warning.h"

#include <QAbstractListModel>

#include <vector>

namespace sv::ui {

class WarningListModel : public QAbstractListModel {
    Q_OBJECT
  public:
    explicit WarningListModel(QObject* parent = nullptr);
    void setWarnings(std::vector<Warning> warnings);
    const std::vector<Warning>& warnings() const { return m_warnings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    std::vector<Warning> m_warnings;
};

} // namespace sv::ui
