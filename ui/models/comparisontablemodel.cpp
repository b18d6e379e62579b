#include "ui/models/comparisontablemodel.h"

#include "ui/models/cellvalues.h"
#include "core/model/wording.h"

#include <QBrush>
#include <QFont>
#include <QFontMetrics>

namespace sv::ui {

namespace {
QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// A series' name in a column's header: less the trailing folders every series' name ends with.
// Two campaigns opened at their logs folders ("nightly-2026-12-04/logs", "nightly-2026-12-05/logs")
// head their columns "nightly-2026-12-04" and "nightly-2026-12-05", and a capped column cuts it at
// the left (setShownWidths): "…12-04" and "…12-05", the part that tells them apart. The header's
// tooltip and the caption name each in full.
QString headerLabel(const std::vector<std::string>& labels, std::size_t series) {
    std::vector<QStringList> parts;
    for (const auto& l : labels)
        parts.push_back(text(l).split(QLatin1Char('/')));
    auto sameLast = [&] {
        for (const auto& p : parts)
            if (p.size() < 2 || p.back() != parts.front().back()) return false;
        return parts.size() > 1;
    };
    while (sameLast())
        for (auto& p : parts)
            p.removeLast();
    return parts[series].join(QLatin1Char('/'));
}
} // namespace

ComparisonTableModel::ComparisonTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonTableModel::setComparison(Comparison comparison, bool cpuRanks) {
    beginResetModel();
    m_comparison = std::move(comparison);
    m_cpuRanks = cpuRanks;
    endResetModel();
}

void ComparisonTableModel::setShownWidths(std::vector<int> widths, const QFont& font) {
    m_shownWidths = std::move(widths);
    m_headerFont = font;
    if (columnCount() > 0) emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

QString ComparisonTableModel::fitted(const QString& label, int column) const {
    if (column < 0 || static_cast<std::size_t>(column) >= m_shownWidths.size()) return label;
    const int width = m_shownWidths[static_cast<std::size_t>(column)];
    // The header's own margins, about a character each side.
    const QFontMetrics metrics(m_headerFont);
    const int room = width - 2 * metrics.horizontalAdvance(QLatin1Char('0'));
    if (width <= 0 || metrics.horizontalAdvance(label) <= room) return label;
    return metrics.elidedText(label, Qt::ElideLeft, room);
}

QString ComparisonTableModel::fittedRatio(const QString& b, const QString& a, int column) const {
    const QString line = tr("%1 / %2").arg(b, a);
    if (fitted(line, column) == line) return line;
    // Too wide for one line: B over A on two, each cut at the left where it must be, so that
    // neither side is lost.
    return tr("%1 /\n%2")
        .arg(fitted(b + QStringLiteral(" /"), column).chopped(2), fitted(a, column));
}

int ComparisonTableModel::ratioColumn(int pair) const {
    return FixedColumns + seriesCount() + PairColumns * (pair - 1);
}

int ComparisonTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_comparison.cases.size());
}

int ComparisonTableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || seriesCount() == 0) return 0;
    return FixedColumns + seriesCount() + PairColumns * (seriesCount() - 1);
}

namespace {

// Whether either side's runs of the case were disturbed (the verdict is over them).
bool disturbedPair(const CaseComparison& c, std::size_t pair) {
    const auto said = [&](std::size_t s) {
        return s < c.disturbed.size() && !c.disturbed[s].empty();
    };
    return said(0) || said(pair);
}

} // namespace

QString ComparisonTableModel::verdictText(const CaseComparison& c, const CaseContrast& k,
                                          int pair) const {
    const QString a = seriesCount() > 0 ? text(m_comparison.labels[0]) : QString();
    const QString b = pair < seriesCount()
                          ? text(m_comparison.labels[static_cast<std::size_t>(pair)])
                          : QString();
    const QString disturbed =
        disturbedPair(c, static_cast<std::size_t>(pair)) ? tr(" (runs disturbed)") : QString();
    switch (k.verdict) {
    case Verdict::Faster:
        return tr("faster") + disturbed;
    case Verdict::Slower:
        return tr("slower") + disturbed;
    case Verdict::NoDifference:
        return tr("no measurable difference") + disturbed;
    case Verdict::OnlyInA:
        return tr("only in %1").arg(a);
    case Verdict::OnlyInB:
        return tr("only in %1").arg(b);
    case Verdict::Absent:
        return QStringLiteral("–");
    }
    return {};
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const int n = seriesCount();
    const QString a = text(m_comparison.labels[0]);
    if (section < FixedColumns) {
        if (role == Qt::DisplayRole)
            return section == Nodes ? tr("Nodes") : m_cpuRanks ? tr("Ranks") : tr("GPUs");
        return {};
    }
    if (section < FixedColumns + n) {
        const int s = section - FixedColumns;
        if (role == Qt::DisplayRole)
            return fitted(headerLabel(m_comparison.labels, static_cast<std::size_t>(s)), section);
        if (role == Qt::ToolTipRole)
            return tr("Median throughput of %1 (%2 method)\n%3")
                .arg(text(m_comparison.labels[static_cast<std::size_t>(s)]),
                     text(std::string(
                         methodName(m_comparison.methods[static_cast<std::size_t>(s)]))),
                     text(m_comparison.sources[static_cast<std::size_t>(s)]));
        return {};
    }
    const int offset = section - FixedColumns - n;
    const int pair = offset / PairColumns + 1;
    const QString b = text(m_comparison.labels[static_cast<std::size_t>(pair)]);
    if (role == Qt::DisplayRole) {
        switch (offset % PairColumns) {
        case 0:
            return fittedRatio(headerLabel(m_comparison.labels, static_cast<std::size_t>(pair)),
                               headerLabel(m_comparison.labels, 0), section);
        case 1:
            return tr("95 % CI");
        case 2:
            return n > 2 ? tr("Verdict (%1)").arg(b) : tr("Verdict");
        default:
            return n > 2 ? tr("What changed (%1)").arg(b) : tr("What changed");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (offset % PairColumns) {
        case 0:
            return tr("Median of %1 over median of %2: above 1, %1 is faster").arg(b, a);
        case 1:
            return tr("95 % bootstrap interval of the ratio (each series' repeats resampled on "
                      "their own, 10 000 times, seeded from the case)");
        case 2:
            return tr("faster or slower only when the interval excludes 1 and the change is "
                      "beyond %1 %; else no measurable difference")
                .arg(m_comparison.options.thresholdPct);
        default:
            return tr("What %1 recorded differently from %2: the environment the launcher "
                      "captured (driver, CUDA, GPU, container image, framework, MPI, hosts), the "
                      "campaign's settings, the case's log format and window")
                .arg(b, a);
        }
    }
    return {};
}

QVariant ComparisonTableModel::display(const CaseComparison& c, int column) const {
    const int n = seriesCount();
    if (column == Nodes) return c.key.topology.nodes;
    if (column == Gpus) return c.key.topology.ranks();
    if (column < FixedColumns + n)
        return fixedCell(c.medians[static_cast<std::size_t>(column - FixedColumns)], 2);
    const int offset = column - FixedColumns - n;
    const CaseContrast& k = c.contrasts[static_cast<std::size_t>(offset / PairColumns)];
    switch (offset % PairColumns) {
    case 0:
        return k.ratio ? QVariant(QString::fromStdString(formatFixed(*k.ratio, 4)))
                       : QVariant(QStringLiteral("–"));
    case 1:
        if (!k.ratioCi95) return QStringLiteral("–");
        return QString::fromStdString(formatFixed(k.ratioCi95->lo, 4) + " – " +
                                      formatFixed(k.ratioCi95->hi, 4));
    case 2:
        return verdictText(c, k, offset / PairColumns + 1);
    default:
        return text(describeChanges(c.changed[static_cast<std::size_t>(offset / PairColumns)]));
    }
}

QVariant ComparisonTableModel::sortValue(const CaseComparison& c, int column) const {
    const int n = seriesCount();
    if (column == Nodes || column == Gpus) return display(c, column);
    if (column < FixedColumns + n)
        return numberCell(c.medians[static_cast<std::size_t>(column - FixedColumns)]);
    const int offset = column - FixedColumns - n;
    const CaseContrast& k = c.contrasts[static_cast<std::size_t>(offset / PairColumns)];
    if (offset % PairColumns == 0) return numberCell(k.ratio);
    if (offset % PairColumns == 1)
        return k.ratioCi95 ? QVariant(k.ratioCi95->hi - k.ratioCi95->lo) : QVariant();
    if (offset % PairColumns == 3)
        return static_cast<int>(c.changed[static_cast<std::size_t>(offset / PairColumns)].size());
    return static_cast<int>(k.verdict);
}

QString ComparisonTableModel::toolTip(const CaseComparison& c, int column) const {
    const int n = seriesCount();
    if (column >= FixedColumns && column < FixedColumns + n) {
        const auto s = static_cast<std::size_t>(column - FixedColumns);
        return tr("%1: %2").arg(text(m_comparison.labels[s]),
                                QString::fromStdString(countOf(c.repeats[s], "usable repeat")));
    }
    if (column >= FixedColumns + n) {
        const auto pair = static_cast<std::size_t>((column - FixedColumns - n) / PairColumns);
        if ((column - FixedColumns - n) % PairColumns == 3) {
            // One line per change, "what: A -> B"; what only one side records is said as that
            // side's ("only in B: what = value"), never as a change from "(none)".
            const QString a = text(m_comparison.labels[0]);
            const QString b = text(m_comparison.labels[pair + 1]);
            QStringList lines;
            for (const auto& change : c.changed[pair])
                lines << (change.a.empty()
                              ? tr("only in %1: %2 = %3").arg(b, text(change.what), text(change.b))
                          : change.b.empty()
                              ? tr("only in %1: %2 = %3").arg(a, text(change.what), text(change.a))
                              : tr("%1: %2 -> %3")
                                    .arg(text(change.what), text(change.a), text(change.b)));
            return lines.isEmpty() ? tr("nothing recorded changed") : lines.join('\n');
        }
        const CaseContrast& k = c.contrasts[pair];
        QStringList lines;
        if (!k.note.empty()) lines << text(k.note);
        // The verdict is over disturbed runs: which, on which side.
        if ((column - FixedColumns - n) % PairColumns == 2)
            for (const std::size_t s : {std::size_t{0}, pair + 1})
                if (s < c.disturbed.size() && !c.disturbed[s].empty())
                    lines << tr("Disturbed in %1: %2")
                                 .arg(text(m_comparison.labels[s]), text(c.disturbed[s]));
        return lines.join('\n');
    }
    return {};
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const CaseComparison& c = m_comparison.cases[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    const int n = seriesCount();
    const bool verdictCell = col >= FixedColumns + n && (col - FixedColumns - n) % PairColumns == 2;
    const bool changedCell = col >= FixedColumns + n && (col - FixedColumns - n) % PairColumns == 3;
    const CaseContrast* k =
        col >= FixedColumns + n
            ? &c.contrasts[static_cast<std::size_t>((col - FixedColumns - n) / PairColumns)]
            : nullptr;
    switch (role) {
    case Qt::DisplayRole:
        return display(c, col);
    case SortRole:
        return sortValue(c, col);
    case VerdictRole:
        return verdictCell ? QVariant(text(std::string(verdictName(k->verdict)))) : QVariant();
    case Qt::ToolTipRole: {
        const QString t = toolTip(c, col);
        return t.isEmpty() ? QVariant() : QVariant(t);
    }
    case Qt::TextAlignmentRole:
        return static_cast<int>(verdictCell || changedCell ? Qt::AlignLeft | Qt::AlignVCenter
                                                           : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // A change called is a finding: green when faster, red when slower; noise stays plain.
        if (verdictCell && k->verdict == Verdict::Faster)
            return QBrush(tintedText(QColor(0x20, 0xa0, 0x3a)));
        if (verdictCell && k->verdict == Verdict::Slower)
            return QBrush(tintedText(QColor(0xe0, 0x25, 0x25)));
        if (verdictCell && (k->verdict == Verdict::OnlyInA || k->verdict == Verdict::OnlyInB))
            return QBrush(tintedText(QColor(0xd0, 0x85, 0x00)));
        return {};
    case Qt::FontRole:
        if (verdictCell && (k->verdict == Verdict::Faster || k->verdict == Verdict::Slower)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    }
    return {};
}

} // namespace sv::ui
