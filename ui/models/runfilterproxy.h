#pragma once
// The Runs table's order and filter: by topology, then repeat as a number (1, 2, …, 10, never
// 1, 10, 100), ties in any sorted column broken the same way; "problems only" keeps the runs
// that need a look (left out, outliers, methods that disagree).

#include <QSortFilterProxyModel>

namespace sv::ui {

class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit RunFilterProxy(QObject* parent = nullptr);

    void setProblemsOnly(bool on);
    bool problemsOnly() const { return m_problemsOnly; }

  protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    bool m_problemsOnly = false;
};

} // namespace sv::ui
