#pragma once
// The published figures a user can overlay: one checkable row per table (or per series of a
// comparison table), with its source and hardware as tooltip.

#include "referencecatalog.h"

#include <QAbstractListModel>

#include <string>
#include <vector>

namespace sv::ui {

class ReferenceListModel : public QAbstractListModel {
    Q_OBJECT
  public:
    static constexpr int IdRole = Qt::UserRole;

    explicit ReferenceListModel(const ReferenceCatalog& catalog = ReferenceCatalog::builtin(),
                                QObject* parent = nullptr);

    // Sets the checks without emitting checkedChanged (it reflects an Analysis, not the user).
    void setChecked(const std::vector<std::string>& ids);
    std::vector<std::string> checked() const; // in list order
    int rowOf(const std::string& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

  signals:
    void checkedChanged(); // the user toggled a reference

  private:
    struct Entry {
        std::string id;
        QString label, toolTip;
        bool checked = false;
    };
    std::vector<Entry> m_entries;
};

} // namespace sv::ui
