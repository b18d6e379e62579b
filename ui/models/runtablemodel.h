#pragma once
// The Runs view: every log with its status and reason, both DLPerf methods and their difference,
// the outlier flag, per-rank spread, node clock offset, and whether the launcher's monitor saw
// the host busy (the evidence as tooltip). Row i is summary.runs[i]. Figures are in each run's own
// unit, and a figure that is the log's own reports is called so, not a DLPerf method.

// summary.h first: Qt 6.4's moc cannot parse <concepts> when runresult.h comes in on its own.
#include "core/stats/summary.h"

#include "ui/analysis/figurewords.h"

#include <QAbstractTableModel>

#include <vector>

namespace sv::ui {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Log,
        Topology,
        Repeat,
        Status,
        Disturbed, // beside the status: a run that counts, but was measured on a busy host
        Reason,    // next to the status: why a run does not count is read with it
        TimeMethod,
        SpeedMethod,
        MethodDifference,
        Outlier,
        RankSpread,
        ClockOffset,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int RunIndexRole =
        Qt::UserRole + 1; // index into summary.runs, through any proxy
    // True for a run that needs a look: not counted, an outlier, its two methods disagree, or
    // it was disturbed.
    static constexpr int ProblemRole = Qt::UserRole + 2;

    explicit RunTableModel(QObject* parent = nullptr);
    void setSummary(const Summary& summary);
    const RunResult& run(int row) const { return m_runs[static_cast<std::size_t>(row)]; }
    bool isOutlier(int row) const { return m_outlier[static_cast<std::size_t>(row)]; }
    // The units and kinds of figure of the runs shown (the headers say them).
    const FigureWords& figureWords() const { return m_words; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant display(int row, int column) const;
    QVariant sortValue(int row, int column) const;
    QVariant figureCell(const RunResult& r, const std::optional<double>& v) const;
    QString header(int section) const;
    QString headerTip(int section) const;

    std::vector<RunResult> m_runs;
    std::vector<bool> m_outlier;
    FigureWords m_words;
};

} // namespace sv::ui
