#include "ui/models/casetablemodel.h"

#include "ui/models/cellvalues.h"

#include "core/formats/formatregistry.h"
#include "core/report/casenotes.h"
#include "core/report/energytext.h"
#include "core/report/report.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace sv::ui {
namespace {

// A note of core/report/casenotes.h as a tooltip's sentence: its first letter capital.
QString sentence(const std::string& note) {
    QString s = QString::fromStdString(note);
    if (!s.isEmpty()) s[0] = s[0].toUpper();
    return s;
}

} // namespace

CaseTableModel::CaseTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CaseTableModel::setCases(std::vector<CaseStats> cases, bool cpuRanks,
                              std::vector<bool> nodesUnstated) {
    beginResetModel();
    m_cases = std::move(cases);
    m_cpuRanks = cpuRanks;
    m_nodesUnstated = std::move(nodesUnstated);
    m_nodesUnstated.resize(m_cases.size(), false);
    endResetModel();
}

int CaseTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_cases.size());
}

int CaseTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CaseTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const names[ColumnCount] = {
        "Model", "Precision", "Batch",      "Framework", "Nodes",     "GPUs",
        "Runs",  "Excluded",  "Median",     "95 % CI",   "Mean",      "Stdev",
        "CV %",  "Speedup",   "Efficiency", "Reference", "Δ vs ref.", "J/image"};
    static const char* const tips[ColumnCount] = {
        "The network the logs ran",
        "Arithmetic precision (fp32, amp, fp16)",
        "Batch size per GPU",
        "The framework whose logs these are (the log format, detected from each log's lines)",
        "Nodes in the run",
        "GPUs per node",
        "Repeats counted for this topology",
        "Repeats left out (incomplete, failed); hover a cell for which and why",
        "The median over the repeats used (DLPerf's median_speed), in the unit the caption "
        "names",
        "95 % bootstrap interval of the median (10 000 resamples of the repeats, seeded: the "
        "same runs give the same interval)",
        "Mean throughput over the repeats used, in the unit the caption names",
        "Standard deviation over the repeats used, in the unit the caption names",
        "Coefficient of variation: stdev / mean; amber when the repeats disagree",
        "Median / median of 1n1g, rounded as DLPerf does",
        "Speedup / GPU count: 100 % is perfect linear scaling",
        "The published figure, in the unit the caption names; hover a cell for its source",
        "Median vs the published figure: green within 2 %, amber 2–5 % below, red more than 5 % "
        "below",
        "The GPUs' energy per image (their own energy counters, else nvidia-smi's power "
        "samples), over the measured window: the GPUs' only, a lower bound on the nodes'; hover a "
        "cell for its source, interval and images/s/W"};
    if (section < 0 || section >= ColumnCount) return {};
    if (m_cpuRanks && section == Gpus) // a CPU rank is no GPU
        return role == Qt::DisplayRole   ? tr("Ranks")
               : role == Qt::ToolTipRole ? tr("CPU ranks in the run: processes of the local "
                                              "workload, each on its own share of the cores")
                                         : QVariant();
    if (m_cpuRanks && section == Batch && role == Qt::ToolTipRole) return tr("Batch size per rank");
    if (role == Qt::DisplayRole) return QString::fromUtf8(names[section]);
    if (role == Qt::ToolTipRole) return QString::fromUtf8(tips[section]);
    return {};
}

bool CaseTableModel::nodesUnstated(const CaseStats& c) const {
    const auto row = static_cast<std::size_t>(&c - m_cases.data());
    return row < m_nodesUnstated.size() && m_nodesUnstated[row];
}

QVariant CaseTableModel::display(const CaseStats& c, int column) const {
    switch (column) {
    case Model:
        return QString::fromStdString(c.key.model);
    case Precision:
        return QString::fromStdString(c.key.precision);
    case Batch:
        // A batch nobody states (a log outside DLPerf's layout): "?", its source on hover.
        if (c.key.batchPerDevice <= 0) return QStringLiteral("?");
        return c.key.batchPerDevice;
    case Framework:
        return QString::fromUtf8(
            logFormatOf(c.key.format).framework.data(),
            static_cast<qsizetype>(logFormatOf(c.key.format).framework.size()));
    case Nodes:
        if (c.key.topology.ranks() <= 0 || nodesUnstated(c)) return QStringLiteral("?");
        return c.key.topology.nodes;
    case Gpus:
        if (c.key.topology.ranks() <= 0) return QStringLiteral("?");
        return c.gpus();
    case RunsUsed:
        return static_cast<int>(c.values.size());
    case RunsExcluded:
        return static_cast<int>(c.excluded.size());
    case Median:
        return fixedCell(c.median, 2);
    case MedianCi:
        if (!c.medianCi95) return QStringLiteral("–");
        // With a few repeats the bootstrap's interval is their min–max: said as what it is.
        return QString::fromStdString(formatFixed(c.medianCi95->lo, 2) + " – " +
                                      formatFixed(c.medianCi95->hi, 2)) +
               (c.medianCiIsMinMax() ? QStringLiteral(" (min–max)") : QString());
    case Mean:
        return fixedCell(c.mean, 2);
    case Stdev:
        return fixedCell(c.stdev, 2);
    case Cv:
        return fixedCell(c.cvPct, 1);
    case Speedup:
        return fixedCell(c.speedup, 2);
    case Efficiency:
        return c.efficiency ? QVariant(QString::fromStdString(formatFixed(*c.efficiency * 100, 1)) +
                                       QStringLiteral(" %"))
                            : QVariant(QStringLiteral("–"));
    case Reference:
        return c.reference ? fixedCell(c.reference->throughput, 2) : QVariant(QStringLiteral("–"));
    case Delta:
        if (!c.deltaPct) return QStringLiteral("–");
        return signedPercent(*c.deltaPct, 1);
    case Energy:
        return c.energy ? QString::fromStdString(energyCell(c)) : QStringLiteral("–");
    }
    return {};
}

QVariant CaseTableModel::sortValue(const CaseStats& c, int column) const {
    switch (column) {
    case Median:
        return numberCell(c.median);
    case MedianCi: // the narrower interval first
        return c.medianCi95 ? QVariant(c.medianCi95->hi - c.medianCi95->lo) : QVariant();
    case Mean:
        return numberCell(c.mean);
    case Stdev:
        return numberCell(c.stdev);
    case Cv:
        return numberCell(c.cvPct);
    case Speedup:
        return numberCell(c.speedup);
    case Efficiency:
        return numberCell(c.efficiency);
    case Reference:
        return c.reference ? QVariant(c.reference->throughput) : QVariant();
    case Delta:
        return numberCell(c.deltaPct);
    case Energy:
        return c.energy ? QVariant(c.energy->joulesPerImage) : QVariant();
    default:
        return display(c, column);
    }
}

QString CaseTableModel::warningsText(const CaseStats& c) {
    QStringList lines;
    for (const auto& w : c.warnings)
        lines << QStringLiteral("⚠ %1").arg(QString::fromStdString(w.message));
    return lines.join(QLatin1Char('\n'));
}

QString CaseTableModel::toolTip(const CaseStats& c, int column) const {
    if (column == MedianCi && c.medianCiIsMinMax())
        return QStringLiteral("With %1 repeats the bootstrap's 95 % interval of the median is "
                              "the repeats' own min–max: so few cannot tell a tighter one.")
            .arg(c.values.size());
    // Measured or not, the energy cell says its source or why it is empty.
    if (column == Energy) return QString::fromStdString(energyText(c));
    // Where the keys of runs outside DLPerf's layout came from: log, path, scaleview.json, user.
    if ((column == Model || column == Precision || column == Batch || column == Gpus ||
         (column == Nodes && c.warnings.empty())) &&
        !c.keySources.empty()) {
        QStringList lines{QStringLiteral("Where this case's keys came from:")};
        for (const auto& k : c.keySources)
            lines << QString::fromStdString(k);
        return lines.join(QLatin1Char('\n'));
    }
    if ((column == Nodes || column == Median) && !c.warnings.empty()) return warningsText(c);
    if (column == Speedup && c.speedupCi95)
        return QStringLiteral("95 % interval: %1 – %2 (from both cases' median intervals)")
            .arg(QString::fromStdString(formatFixed(c.speedupCi95->lo, 2)),
                 QString::fromStdString(formatFixed(c.speedupCi95->hi, 2)));
    if ((column == Reference || column == Delta) && c.reference && c.reference->table) {
        const auto& t = *c.reference->table;
        QString tip =
            QStringLiteral("%1\n%2\nSource: %3\nHardware: %4")
                .arg(QString::fromStdString(c.reference->label()), QString::fromStdString(t.title),
                     QString::fromStdString(t.source), QString::fromStdString(t.hardware));
        if (!c.deltaNote.empty())
            tip = QString::fromStdString(c.deltaNote) + QStringLiteral("\n\n") + tip;
        // The delta is by the table's own method, which need not be the view's; the A/B against
        // the table's repeats in words (core/report/casenotes.h, as the reports say it).
        if (c.referenceMedian)
            tip += QStringLiteral("\nCompared by the %1 method (this case's median by it: %2)")
                       .arg(QString::fromStdString(c.referenceMethod),
                            QString::fromStdString(formatFixed(*c.referenceMedian, 2)));
        if (const std::string k = referenceContrastNote(c); !k.empty())
            tip += QStringLiteral("\n") + sentence(k);
        return tip;
    }
    if (column == RunsExcluded && !c.excluded.empty()) {
        QStringList lines;
        for (const auto& e : c.excluded)
            lines << sentence(excludedNote(e));
        return lines.join(QLatin1Char('\n'));
    }
    if (column == Speedup && !c.speedup && !c.speedupNote.empty())
        return QString::fromStdString(c.speedupNote);
    if ((column == Median || column == Cv) && !c.outlierRepeats.empty()) {
        return sentence(outlierNote(c));
    }
    return {};
}

QVariant CaseTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
    const CaseStats& c = m_cases[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return display(c, col);
    case SortRole:
        return sortValue(c, col);
    case Qt::ToolTipRole: {
        const QString t = toolTip(c, col);
        return t.isEmpty() ? QVariant() : QVariant(t);
    }
    case Qt::DecorationRole:
        if (col == Nodes && !c.warnings.empty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::TextAlignmentRole:
        return static_cast<int>(col <= Precision ? Qt::AlignLeft | Qt::AlignVCenter
                                                 : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Within 2 % of the published figure is a match; 2–5 % below is worth a look; more is a
        // finding.
        if (col == Delta && c.deltaPct) {
            if (*c.deltaPct >= -2.0) return QBrush(tintedText(QColor(0x20, 0xa0, 0x3a)));
            if (*c.deltaPct >= -5.0) return QBrush(tintedText(QColor(0xd0, 0x85, 0x00)));
            return QBrush(tintedText(QColor(0xe0, 0x25, 0x25)));
        }
        if (col == RunsExcluded && !c.excluded.empty())
            return QBrush(tintedText(QColor(0xe0, 0x25, 0x25)));
        // A figure a warning is about: amber, so it is not read as plainly true.
        for (const auto& w : c.warnings)
            if ((col == Cv && w.kind == "high-cv") ||
                ((col == Efficiency || col == Speedup) && w.kind == "superlinear"))
                return QBrush(tintedText(QColor(0xd0, 0x85, 0x00)));
        return {};
    }
    return {};
}

} // namespace sv::ui
