#include "ui/browse/resultspage.h"

#include "ui/models/casetablemodel.h"
#include "ui/models/comparisontablemodel.h"
#include "core/measure/steadystateanalyzer.h"
#include "core/formats/formatregistry.h"
#include "core/report/casenotes.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace sv::ui {

ResultsPage::ResultsPage(QWidget* parent)
    : QWidget(parent), m_model(new CaseTableModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)), m_caption(new QLabel(this)),
      m_comparisonModel(new ComparisonTableModel(this)),
      m_comparisonProxy(new QSortFilterProxyModel(this)), m_comparisonView(new QTableView(this)),
      m_comparisonCaption(new QLabel(this)), m_comparisonBox(new QWidget(this)) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CaseTableModel::SortRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(-1, Qt::AscendingOrder); // the core's order until the user sorts
    m_view->setAlternatingRowColors(true);
    // Tab moves on to the next control; arrows move within the table.
    m_view->setTabKeyNavigation(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Model, precision and batch are the same on every row of a group, and the caption names
    // them: hidden, the figures fit the window. A copy still carries them.
    for (int c : {CaseTableModel::Model, CaseTableModel::Precision, CaseTableModel::Batch})
        m_view->setColumnHidden(c, true);
    // The comparison with the published figure sits next to the median, so that a narrow window
    // (1024 px) shows it without scrolling; the model's order (exports, copies) is unchanged.
    QHeaderView* header = m_view->horizontalHeader();
    header->moveSection(header->visualIndex(CaseTableModel::Reference),
                        header->visualIndex(CaseTableModel::Median) + 1);
    header->moveSection(header->visualIndex(CaseTableModel::Delta),
                        header->visualIndex(CaseTableModel::Reference) + 1);
    // Speedup and efficiency, what a scaling study is read for, come next: at 1024 px they
    // scrolled off the right edge behind the spread columns.
    header->moveSection(header->visualIndex(CaseTableModel::Speedup),
                        header->visualIndex(CaseTableModel::Delta) + 1);
    header->moveSection(header->visualIndex(CaseTableModel::Efficiency),
                        header->visualIndex(CaseTableModel::Speedup) + 1);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(tr("Copy"), m_view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ResultsPage::copySelection);
    m_view->addAction(copy);
    m_caption->setWordWrap(true);

    m_comparisonProxy->setSourceModel(m_comparisonModel);
    m_comparisonProxy->setSortRole(ComparisonTableModel::SortRole);
    m_comparisonView->setObjectName(QStringLiteral("comparison"));
    m_comparisonView->setModel(m_comparisonProxy);
    m_comparisonView->setSortingEnabled(true);
    m_comparisonView->sortByColumn(-1, Qt::AscendingOrder);
    m_comparisonView->setAlternatingRowColors(true);
    m_comparisonView->setTabKeyNavigation(false);
    m_comparisonView->verticalHeader()->setVisible(false);
    m_comparisonView->horizontalHeader()->setStretchLastSection(true);
    m_comparisonCaption->setWordWrap(true);
    auto* comparisonLayout = new QVBoxLayout(m_comparisonBox);
    comparisonLayout->setContentsMargins(0, 0, 0, 0);
    comparisonLayout->addWidget(m_comparisonCaption);
    comparisonLayout->addWidget(m_comparisonView, 1);
    m_comparisonBox->setVisible(false);

    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_caption);
    lowerLayout->addWidget(m_view, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_comparisonBox);
    split->addWidget(lower);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split, 1);
}

// Long series names (a campaign's folder) once pushed Verdict and What changed off a 1024 px
// window: the figures' columns are capped (their header's tooltip names the series in full) and
// the last What changed takes what is left.
void ResultsPage::fitComparisonColumns() {
    const int columns = m_comparisonModel->columnCount();
    const auto& labels = m_comparisonModel->comparison().labels;
    const int pairs = labels.empty() ? 0 : static_cast<int>(labels.size()) - 1;
    // The widest an interval reads; a figure takes two thirds of it, a verdict one and a half.
    const int cap = fontMetrics().horizontalAdvance(QStringLiteral("0.0000 – 0.0000  "));
    std::vector<int> widest(static_cast<std::size_t>(columns), cap * 2 / 3);
    for (int p = 1; p <= pairs; ++p) {
        widest[static_cast<std::size_t>(m_comparisonModel->intervalColumn(p))] = cap;
        widest[static_cast<std::size_t>(m_comparisonModel->verdictColumn(p))] = cap * 3 / 2;
        widest[static_cast<std::size_t>(m_comparisonModel->changedColumn(p))] = cap * 3 / 2;
    }
    for (int c = 0; c + 1 < columns; ++c)
        m_comparisonView->setColumnWidth(
            c, std::min(m_comparisonView->columnWidth(c), widest[static_cast<std::size_t>(c)]));
    // A capped column's header is cut at the left, not clipped at both ends: two campaigns opened
    // at "nightly-2026-12-04/logs" and "nightly-2026-12-05/logs" read "…12-04" and "…12-05", not
    // "-2026-12-0" twice.
    std::vector<int> shown(static_cast<std::size_t>(columns), 0);
    for (int c = 0; c + 1 < columns; ++c)
        shown[static_cast<std::size_t>(c)] = m_comparisonView->columnWidth(c);
    m_comparisonModel->setShownWidths(std::move(shown),
                                      m_comparisonView->horizontalHeader()->font());
    // A verdict wrapped in its capped column ("no measurable difference (runs disturbed)") is
    // read whole: each row as tall as its cells need.
    m_comparisonView->resizeRowsToContents();
}

QString ResultsPage::comparisonCaption() const {
    return m_comparisonCaption->text();
}

void ResultsPage::setAnalysis(const AnalysisPtr& analysis) {
    std::vector<CaseStats> cases;
    std::vector<bool> nodesUnknown;
    std::set<std::string> formats;
    if (analysis)
        for (const auto* c : analysis->groupCases()) {
            cases.push_back(*c);
            nodesUnknown.push_back(nodesUnstated(*c, analysis->summary.runs));
            formats.insert(c->key.format);
        }
    const DeviceWords words = analysis ? deviceWords(*analysis) : DeviceWords{};
    m_model->setCases(std::move(cases), words.cpu(), std::move(nodesUnknown));
    // Several series: the comparison first, since it is what the user asked for.
    const bool compared = analysis && analysis->comparison;
    m_comparisonModel->setComparison(compared ? *analysis->comparison : Comparison{}, words.cpu());
    m_comparisonBox->setVisible(compared);
    if (compared) {
        m_comparisonView->resizeColumnsToContents();
        fitComparisonColumns();
        const auto& labels = analysis->comparison->labels;
        QStringList names;
        for (const auto& l : labels)
            names << QStringLiteral("<b>%1</b>").arg(QString::fromStdString(l).toHtmlEscaped());
        m_comparisonCaption->setText(
            (analysis->comparesFrameworks ? tr("Frameworks compared: %1, each against %2.")
                                          : tr("Series compared: %1, each against %2."))
                .arg(names.join(QStringLiteral(", ")), names.front()) +
            QStringLiteral(" ") +
            tr("Ratio of medians with its 95 % bootstrap interval; faster or slower only when the "
               "interval excludes 1 and the change is beyond %1 %.")
                .arg(analysis->comparison->options.thresholdPct));
    }
    // One log format: the caption names it and the column would repeat it on every row.
    m_view->setColumnHidden(CaseTableModel::Framework, formats.size() <= 1);
    m_view->resizeColumnsToContents();
    if (!analysis || !analysis->group) {
        m_caption->setText(tr("No results yet."));
        return;
    }
    setCaption(*analysis, formats, words);
}

void ResultsPage::setCaption(const Analysis& a, const std::set<std::string>& formats,
                             const DeviceWords& words) {
    const Analysis* analysis = &a;
    const auto& s = analysis->summary;
    // The format names the lines the logs hold (the local CPU workload writes NGC MXNet's), so
    // the caption says "logs in … format", not which framework trained.
    const LogFormat& format = logFormatOf(formats.empty() ? std::string() : *formats.begin());
    const auto text = [](std::string_view v) {
        return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
    };
    // Compared directories: the detail table below is the open directory's.
    const QString whose = analysis->others.empty()
                              ? QString()
                              : tr("Details of <b>%1</b>: ")
                                    .arg(QString::fromStdString(analysis->label).toHtmlEscaped());
    // A figure that is the log's own reports is no time or speed method over a window: the
    // window's words say what it is.
    const bool ownReports = std::all_of(formats.begin(), formats.end(), [](const std::string& f) {
        return readsOwnReports(logFormatOf(f));
    });
    const QString window =
        QString::fromStdString(windowText(analysis->groupWindows())).toHtmlEscaped();
    const QString how =
        ownReports
            ? tr("from <b>%1</b>").arg(window)
            : tr("by the <b>%1 method</b> (%2)")
                  .arg(QString::fromStdString(std::string(methodName(s.options.method))), window);
    // What Δ is, where a case has a published figure to compare with (else its column is "–").
    const auto cases = analysis->groupCases();
    const bool referenced = std::any_of(
        cases.begin(), cases.end(), [](const CaseStats* c) { return c->reference.has_value(); });
    m_caption->setText(
        whose + (referenced
                     ? tr("<b>%1</b>, %2 — throughput in %3 %4; Δ compares the median, measured as "
                          "the published table measures, with its figure (hover a Δ for how and "
                          "for the source).")
                     : tr("<b>%1</b>, %2 — throughput in %3 %4; no published figure for these "
                          "cases, so no Δ (tick a published reference to compare with one)."))
                    .arg(QString::fromStdString(analysis->group->label()).toHtmlEscaped(),
                         formats.size() > 1
                             ? tr("logs of %1 formats (the Framework column)").arg(formats.size())
                         : words.workload
                             ? workloadCaption(words, text(format.framework)).toHtmlEscaped()
                             : tr("logs in %1 format").arg(text(format.framework).toHtmlEscaped()),
                         text(format.unit), how));
}

QString ResultsPage::caption() const {
    return m_caption->text();
}

QString ResultsPage::selectionText() const {
    const auto indexes =
        m_view->selectionModel() ? m_view->selectionModel()->selectedIndexes() : QModelIndexList{};
    if (indexes.isEmpty()) return {};
    std::map<int, std::map<int, QString>> cells; // view row -> column -> text
    std::map<int, bool> columns;
    for (const auto& i : indexes) {
        cells[i.row()][i.column()] = i.data().toString();
        columns[i.column()] = true;
    }
    for (auto& [r, row] : cells)
        for (int c = 0; c < CaseTableModel::ColumnCount; ++c)
            if (m_view->isColumnHidden(c)) {
                row[c] = m_proxy->index(r, c).data().toString();
                columns[c] = true;
            }
    QStringList lines, header;
    for (const auto& [c, _] : columns)
        header << m_proxy->headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (const auto& [r, row] : cells) {
        QStringList fields;
        for (const auto& [c, _] : columns)
            fields << (row.count(c) ? row.at(c) : QString());
        lines << fields.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void ResultsPage::copySelection() const {
    const QString text = selectionText();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

} // namespace sv::ui
