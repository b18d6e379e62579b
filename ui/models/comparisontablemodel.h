#pragma once
// The Results page's comparison: per case of the group shown, each series' median and, for each
// series after the first, the ratio of medians (B over A) with its 95 % interval, the verdict
// of core/comparison (the figures `scaleview-cli compare` prints) and, beside it, what changed
// between the two sides' records. Swapped whole per Analysis.

#include "core/compare/comparison.h"

#include <QAbstractTableModel>
#include <QFont>

#include <vector>

namespace sv::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole;
    // The verdict's id ("faster", "no-difference", "only-in-A", …), on a verdict cell.
    static constexpr int VerdictRole = Qt::UserRole + 1;
    // Fixed columns, then one median per series, then ratio, interval, verdict and what
    // changed (core's CaseComparison::changed, in words) per pair.
    enum FixedColumn { Nodes, Gpus, FixedColumns };
    static constexpr int PairColumns = 4;

    explicit ComparisonTableModel(QObject* parent = nullptr);
    // cpuRanks: the local workload's CPU ranks, no GPUs; the device column says "Ranks", as the
    // case table beside it does.
    void setComparison(Comparison comparison, bool cpuRanks = false);
    const Comparison& comparison() const { return m_comparison; }
    // The width each column is shown at (pixels, by column; 0: as wide as it needs) and the
    // header's font: a series' name that does not fit is cut at the left ("…12-04"), keeping the
    // end that tells the series apart; Qt's header would clip it at both ends ("-2026-12-0").
    void setShownWidths(std::vector<int> widths, const QFont& font);

    int medianColumn(int series) const { return FixedColumns + series; }
    // pair: the series compared with the first (1, 2, …).
    int ratioColumn(int pair) const;
    int intervalColumn(int pair) const { return ratioColumn(pair) + 1; }
    int verdictColumn(int pair) const { return ratioColumn(pair) + 2; }
    int changedColumn(int pair) const { return ratioColumn(pair) + 3; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "no measurable difference", "only in A-label": the verdict of series pair against the first,
    // in words.
    QString verdictText(const CaseComparison& c, const CaseContrast& contrast, int pair) const;

  private:
    int seriesCount() const { return static_cast<int>(m_comparison.labels.size()); }
    QVariant display(const CaseComparison& c, int column) const;
    QVariant sortValue(const CaseComparison& c, int column) const;
    QString toolTip(const CaseComparison& c, int column) const;

    // A header's text cut at the left to its column's shown width (setShownWidths).
    QString fitted(const QString& label, int column) const;
    // The ratio's header "B / A", on two lines where one is too wide for its column.
    QString fittedRatio(const QString& b, const QString& a, int column) const;

    Comparison m_comparison;
    bool m_cpuRanks = false;
    std::vector<int> m_shownWidths;
    QFont m_headerFont;
};

} // namespace sv::ui
