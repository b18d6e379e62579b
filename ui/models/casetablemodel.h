#pragma once
// The Results table: one row per case of the group shown, the columns of DLPerf's tables plus
// spread, the median's 95 % interval, efficiency and the published reference; a case with a
// warning (high CV, superlinear, ...) carries an icon and says why on hover. Swapped whole on every
// new Analysis.

#include "core/stats/casestats.h"

#include <QAbstractTableModel>

#include <vector>

namespace sv::ui {

class CaseTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Model,
        Precision,
        Batch,
        Framework,
        Nodes,
        Gpus,
        RunsUsed,
        RunsExcluded,
        Median,
        MedianCi,
        Mean,
        Stdev,
        Cv,
        Speedup,
        Efficiency,
        Reference,
        Delta,
        Energy, // the GPUs' joules per image, where measured
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole; // numbers sort as numbers

    explicit CaseTableModel(QObject* parent = nullptr);
    // cpuRanks: the runs are the local workload's on CPU ranks, and the headers say "Ranks".
    // nodesUnstated: per case, whether no log states its nodes (core's nodesUnstated): its
    // Nodes is "?" (the Runs page's "8 GPUs"), not the 1 it is filed under. Empty: all stated.
    void setCases(std::vector<CaseStats> cases, bool cpuRanks = false,
                  std::vector<bool> nodesUnstated = {});
    const std::vector<CaseStats>& cases() const { return m_cases; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(const CaseStats& c, int column) const;
    bool nodesUnstated(const CaseStats& c) const; // c: one of m_cases
    QVariant sortValue(const CaseStats& c, int column) const;
    QString toolTip(const CaseStats& c, int column) const;
    static QString warningsText(const CaseStats& c);

    std::vector<CaseStats> m_cases;
    bool m_cpuRanks = false;
    std::vector<bool> m_nodesUnstated;
};

} // namespace sv::ui
