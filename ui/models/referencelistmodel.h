#pragma once
// The published figures a user can overlay, as a tree by table (as `scaleview-cli references`
// prints them): a one-series table is itself a checkable row, a comparison table holds a
// checkable row per series. Tables matching the shown case (precision, batch and, where the logs
// name it, framework) come first.

#include "core/reference/referencecatalog.h"

#include <QAbstractItemModel>

#include <optional>
#include <string>
#include <vector>

namespace sv::ui {

class ReferenceListModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    static constexpr int IdRole = Qt::UserRole;          // "TABLE_ID[:SERIES]" of a checkable row
    static constexpr int MatchesRole = Qt::UserRole + 1; // the case's precision, batch, framework

    explicit ReferenceListModel(const ReferenceCatalog& catalog = ReferenceCatalog::builtin(),
                                QObject* parent = nullptr);

    // Another catalog (the user saved or imported a table): the rows are rebuilt (a model
    // reset), the checks and the match kept where their ids still exist.
    void setCatalog(const ReferenceCatalog& catalog);
    // Sets the checks without emitting checkedChanged (it reflects an Analysis, not the user).
    void setChecked(const std::vector<std::string>& ids);
    std::vector<std::string> checked() const; // in catalog order, whatever the rows' order
    QModelIndex indexOf(const std::string& id) const;
    // The case shown: tables with a series of this precision and batch move first, marked
    // (a model reset, only when the match changes: views keep what the user expanded). With
    // frameworks (the case's logs'), only series that stand for one of them match: a TensorFlow
    // 2 tree is not matched with NGC MXNet's table (ReferenceCatalog::standsFor, as the
    // references checked by default). With a model, the tables of other models (BERT's,
    // InsightFace's beside a ResNet-50 case) are not listed, unless checked.
    void setMatch(const std::string& precision, int batchPerDevice, const std::string& model = {},
                  const std::vector<std::string>& frameworks = {});
    std::vector<QModelIndex> matchingTables() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

  signals:
    void checkedChanged(); // the user toggled a reference

  private:
    struct Entry {
        std::string id; // empty for a comparison table's own row
        QString label, toolTip;
        std::optional<std::string> precision;
        std::optional<int> batch;
        bool checked = false, matches = false;
        std::size_t series = 0; // in the catalog's table
    };
    struct Table {
        Entry row;                 // checkable when the table has one series
        std::vector<Entry> series; // a comparison table's series
        std::size_t catalogIndex = 0;
        std::string family; // modelFamily of the table's model
    };
    void build(const ReferenceCatalog& catalog);
    Entry* entry(const QModelIndex& index);
    const Entry* entry(const QModelIndex& index) const;

    ReferenceCatalog m_catalog;  // what the rows stand for
    std::vector<Table> m_tables; // in display order
    std::vector<Table> m_hidden; // of another model than the case's
    struct Match {
        std::string precision;
        int batch = 0;
        std::string model;
        std::vector<std::string> frameworks;
        bool operator==(const Match&) const = default;
    };
    std::optional<Match> m_match;
};

} // namespace sv::ui
