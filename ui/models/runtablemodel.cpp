#include "ui/models/runtablemodel.h"

#include "ui/models/cellvalues.h"

#include "core/report/report.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace sv::ui {

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunTableModel::setSummary(const Summary& summary) {
    beginResetModel();
    m_runs = summary.runs;
    m_words = figureWordsOf(m_runs);
    m_outlier.assign(m_runs.size(), false);
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const RunKey& k = m_runs[i].key;
        for (const auto& c : summary.cases)
            if (c.key.model == k.model && c.key.precision == k.precision &&
                c.key.batchPerDevice == k.batchPerDevice && c.key.topology == k.topology &&
                std::find(c.outlierRepeats.begin(), c.outlierRepeats.end(), k.repeat) !=
                    c.outlierRepeats.end())
                m_outlier[i] = true;
    }
    endResetModel();
}

int RunTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return header(section);
    if (role == Qt::ToolTipRole) return headerTip(section);
    return {};
}

// The figure columns say the runs' unit, or that each run has its own (then every cell says
// it), and "the log's own reports" where no DLPerf method applied: never images/s or "time
// method" for a log that reports tokens/s itself.
QString RunTableModel::header(int section) const {
    const QString unit = QStringLiteral(" (%1)").arg(m_words.unitWords());
    switch (section) {
    case TimeMethod:
        return (!m_words.ownReports      ? tr("Time method")
                : !m_words.dlperfMethods ? tr("Log's own reports")
                                         : tr("Time method or log's own reports")) +
               unit;
    case SpeedMethod:
        return tr("Speed method") + unit;
    case MethodDifference:
        return tr("Methods Δ %");
    }
    static const char* const names[ColumnCount] = {
        "Log", "Topology", "Repeat", "Status",  "Disturbed",     "Reason / notes",
        "",    "",         "",       "Outlier", "Rank spread %", "Clock offset (ms)"};
    return QString::fromUtf8(names[section]);
}

QString RunTableModel::headerTip(int section) const {
    const QString own = tr("the log's own throughput reports (median after the first tenth, or "
                           "over the window given): no DLPerf method applies to them");
    switch (section) {
    case TimeMethod:
        return !m_words.ownReports
                   ? tr("DLPerf's time method: samples over the wall time of the measured window")
               : !m_words.dlperfMethods
                   ? tr("The figure: %1").arg(own)
                   : tr("DLPerf's time method for DLPerf's logs; for the others, %1").arg(own);
    case SpeedMethod:
        return tr("DLPerf's speed method: the mean of the per-iteration speeds in the window "
                  "(none for a log whose figure is its own reports)");
    case MethodDifference:
        return tr("|speed − time| / time; flagged (⚠) above 2 %");
    }
    static const char* const tips[ColumnCount] = {
        "The log file, relative to the directory opened",
        "Nodes × GPUs per node (n: nodes, g: GPUs per node)",
        "Which repeat of its topology this log is",
        "complete: counts; otherwise the run is left out of the results (red rows)",
        "The launcher's monitor saw the host busy during the run (hover for the evidence); "
        "Controls › Exclude disturbed runs leaves such runs out",
        "Why a run is left out, and notes on runs that count",
        "",
        "",
        "",
        "A repeat far from its topology's median (yellow rows); still counted",
        "How far the slowest rank's speed is below the fastest's",
        "Clock difference between this run's nodes, as seen in the log"};
    return QString::fromUtf8(tips[section]);
}

// A figure in the header's unit, or with its own where the runs shown differ.
QVariant RunTableModel::figureCell(const RunResult& r, const std::optional<double>& v) const {
    const QVariant cell = fixedCell(v, 2);
    if (!v || m_words.oneUnit()) return cell;
    return cell.toString() + QLatin1Char(' ') + runUnit(r);
}

QVariant RunTableModel::display(int row, int column) const {
    const RunResult& r = m_runs[static_cast<std::size_t>(row)];
    switch (column) {
    case Log:
        return QString::fromStdString(r.path);
    case Topology: // "?" where the log states no GPUs, as on every other page
        return QString::fromStdString(topologyText(r.key));
    case Repeat:
        // A log that names no repeat (one run of a job found as it was): none, not "0".
        return r.key.repeat > 0 ? QVariant(r.key.repeat) : QVariant(QStringLiteral("–"));
    case Status:
        return r.inProgress ? tr("running")
                            : QString::fromStdString(std::string(statusName(r.status)));
    case TimeMethod:
        return figureCell(r, r.timeThroughput);
    case SpeedMethod:
        // The log's own reports are one figure: no speed method, no difference between methods.
        return runReadsOwnReports(r) ? QVariant(QStringLiteral("–"))
                                     : figureCell(r, r.speedThroughput);
    case MethodDifference:
        return r.methodDifferencePct && !runReadsOwnReports(r)
                   ? QVariant(QString::fromStdString(formatFixed(*r.methodDifferencePct, 2)) +
                              (r.methodsDisagree ? QStringLiteral(" ⚠") : QString()))
                   : QVariant(QStringLiteral("–"));
    case Outlier:
        return m_outlier[static_cast<std::size_t>(row)] ? QStringLiteral("outlier") : QString();
    case RankSpread:
        return fixedCell(r.rankSpreadPct, 1);
    case ClockOffset:
        return fixedCell(r.clockOffsetMs, 0);
    case Disturbed:
        return r.disturbed ? tr("disturbed ⚠") : QString();
    case Reason: {
        QStringList parts;
        if (!r.reason.empty()) parts << QString::fromStdString(r.reason);
        if (r.disturbed) parts << tr("disturbed: %1").arg(QString::fromStdString(r.disturbance));
        if (m_outlier[static_cast<std::size_t>(row)])
            parts << tr("an outlier: more than 3.5 robust deviations (from the median absolute "
                        "deviation) away from its topology's median; still counted");
        for (const auto& n : r.notes)
            parts << QString::fromStdString(n);
        return parts.join(QStringLiteral("; "));
    }
    }
    return {};
}

QVariant RunTableModel::sortValue(int row, int column) const {
    const RunResult& r = m_runs[static_cast<std::size_t>(row)];
    switch (column) {
    case Topology:
        return r.key.topology.ranks() * 1000 + r.key.topology.nodes;
    case TimeMethod:
        return numberCell(r.timeThroughput);
    case SpeedMethod:
        return runReadsOwnReports(r) ? QVariant() : numberCell(r.speedThroughput);
    case MethodDifference:
        return runReadsOwnReports(r) ? QVariant() : numberCell(r.methodDifferencePct);
    case RankSpread:
        return numberCell(r.rankSpreadPct);
    case ClockOffset:
        return numberCell(r.clockOffsetMs);
    default:
        return display(row, column);
    }
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const int row = index.row(), col = index.column();
    const RunResult& r = m_runs[static_cast<std::size_t>(row)];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, col);
    case SortRole:
        return sortValue(row, col);
    case RunIndexRole:
        return row;
    case ProblemRole:
        return (!r.usable() && !r.inProgress) || m_outlier[static_cast<std::size_t>(row)] ||
               r.methodsDisagree || r.disturbed;
    case Qt::ToolTipRole: {
        if (col == Disturbed && r.disturbed)
            return tr("Disturbed: %1").arg(QString::fromStdString(r.disturbance));
        const QString t = display(row, Reason).toString();
        return t.isEmpty() ? QVariant()
                           : QVariant(QString::fromStdString(r.path) + QLatin1Char('\n') + t);
    }
    case Qt::TextAlignmentRole:
        return static_cast<int>(col == Log || col == Reason || col == Status || col == Disturbed
                                    ? Qt::AlignLeft | Qt::AlignVCenter
                                    : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        // A run that does not count must stand out, not hide in a log.
        if (!r.usable() && !r.inProgress) return QBrush(tintedBase(QColor(0xe0, 0x30, 0x30)));
        if (m_outlier[static_cast<std::size_t>(row)] || r.methodsDisagree || r.disturbed)
            return QBrush(tintedBase(QColor(0xf0, 0xb0, 0x20)));
        return {};
    }
    return {};
}

} // namespace sv::ui
