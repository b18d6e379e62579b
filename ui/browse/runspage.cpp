#include "ui/browse/runspage.h"

#include "ui/browse/runkeydialog.h"
#include "ui/analysis/figurewords.h"
#include "ui/widgets/logactions.h"
#include "ui/widgets/plural.h"
#include "ui/models/runfilterproxy.h"
#include "ui/models/runtablemodel.h"
#include "ui/charts/tracechart.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace sv::ui {

RunsPage::RunsPage(QWidget* parent)
    : QWidget(parent), m_model(new RunTableModel(this)), m_proxy(new RunFilterProxy(this)),
      m_view(new QTableView(this)), m_problemsOnly(new QCheckBox(tr("&Problems only"), this)),
      m_seriesBox(new QComboBox(this)), m_count(new QLabel(this)), m_trace(new QChartView(this)),
      m_hint(new QLabel(this)) {
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunTableModel::Topology, Qt::AscendingOrder); // then repeat, as numbers
    // Tab moves on to the next control; arrows move within the table.
    m_view->setTabKeyNavigation(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // The figures before the long notes, so that a wide note never hides them.
    for (int column :
         {RunTableModel::TimeMethod, RunTableModel::SpeedMethod, RunTableModel::MethodDifference})
        m_view->horizontalHeader()->moveSection(
            m_view->horizontalHeader()->visualIndex(column),
            m_view->horizontalHeader()->visualIndex(RunTableModel::Reason));
    m_trace->setRenderHint(QPainter::Antialiasing);
    m_trace->setVisible(false);
    m_hint->setText(tr("Select a run to see its throughput iteration by iteration."));
    m_hint->setAlignment(Qt::AlignCenter);
    m_problemsOnly->setToolTip(
        tr("Show only runs left out of the results, outliers and runs whose methods disagree"));
    connect(m_problemsOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setProblemsOnly(on);
        updateCount();
    });
    m_actions = new LogActions(m_view, [this](const QModelIndex& index) {
        const int run = index.data(RunTableModel::RunIndexRole).toInt();
        if (!m_analysis || run < 0 || run >= m_model->rowCount()) return LogActions::Target{};
        const QString path = QString::fromStdString(m_model->run(run).path);
        return LogActions::Target{path,
                                  QDir(QString::fromStdString(shownSummary().root)).filePath(path),
                                  m_model->run(run).status == RunStatus::Empty};
    });
    m_seriesBox->setToolTip(tr("Whose runs to show: each directory compared is a series"));
    m_seriesBox->setVisible(false);
    connect(m_seriesBox, &QComboBox::activated, this, &RunsPage::showSeries);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_seriesBox);
    bar->addWidget(m_problemsOnly);
    bar->addStretch(1);
    bar->addWidget(buildSetKeys());
    bar->addWidget(m_count);
    auto* upper = new QWidget(this);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addLayout(bar);
    upperLayout->addWidget(m_view, 1);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_hint);
    lowerLayout->addWidget(m_trace, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({280, 520}); // the trace is what the page is for
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                showTrace(current.isValid() ? current.data(RunTableModel::RunIndexRole).toInt()
                                            : -1);
            });
}

QToolButton* RunsPage::buildSetKeys() {
    m_setKeys = new QAction(tr("Set &batch, GPUs, precision… for this log"), m_view);
    m_setKeys->setObjectName(QStringLiteral("setRunKeys"));
    m_setKeys->setToolTip(tr("Write the keys the log does not say (\"?\") into a scaleview.json "
                             "beside it, then read the directory again"));
    m_setKeys->setEnabled(false);
    m_view->addAction(m_setKeys);
    connect(m_setKeys, &QAction::triggered, this, [this] { openKeyDialog(m_selected); });
    auto* button = new QToolButton(this);
    button->setDefaultAction(m_setKeys);
    return button;
}

const Summary& RunsPage::shownSummary() const {
    static const Summary none;
    if (!m_analysis) return none;
    if (m_series > 0 && static_cast<std::size_t>(m_series) <= m_analysis->others.size())
        return m_analysis->others[static_cast<std::size_t>(m_series - 1)].summary;
    return m_analysis->summary;
}

const std::vector<RunLogPtr>& RunsPage::shownLogs() const {
    static const std::vector<RunLogPtr> none;
    if (!m_analysis) return none;
    if (m_series > 0 && static_cast<std::size_t>(m_series) <= m_analysis->others.size())
        return m_analysis->others[static_cast<std::size_t>(m_series - 1)].logs;
    return m_analysis->logs;
}

void RunsPage::setAnalysis(const AnalysisPtr& analysis) {
    m_analysis = analysis;
    // A series removed since: back to the open directory's runs.
    if (!analysis || static_cast<std::size_t>(m_series) > analysis->others.size()) m_series = 0;
    m_seriesBox->clear();
    if (analysis && !analysis->others.empty()) {
        m_seriesBox->addItem(QString::fromStdString(analysis->label));
        for (const auto& o : analysis->others)
            m_seriesBox->addItem(QString::fromStdString(o.label));
        m_seriesBox->setCurrentIndex(m_series);
    }
    m_seriesBox->setVisible(analysis && !analysis->others.empty());
    m_model->setSummary(shownSummary());
    fitColumns();
    updateCount();
    // The same log stays selected after a recompute or a live update.
    int keep = -1;
    const Summary& shown = shownSummary();
    for (std::size_t i = 0; i < shown.runs.size(); ++i)
        if (shown.runs[i].path == m_selectedPath) keep = static_cast<int>(i);
    selectShown(keep);
}

void RunsPage::showSeries(int index) {
    if (!m_analysis || index < 0 || static_cast<std::size_t>(index) > m_analysis->others.size())
        return;
    if (index == m_series) return;
    m_series = index;
    m_seriesBox->setCurrentIndex(index);
    m_model->setSummary(shownSummary());
    fitColumns();
    updateCount();
    m_selectedPath.clear();
    selectShown(-1);
}

void RunsPage::fitColumns() {
    // Logs whose figure is their own reports have no speed method and no difference between
    // methods: no column of dashes for them.
    const bool methods = m_model->figureWords().dlperfMethods;
    m_view->setColumnHidden(RunTableModel::SpeedMethod, !methods);
    m_view->setColumnHidden(RunTableModel::MethodDifference, !methods);
    m_view->resizeColumnsToContents();
    // A long path (logs from elsewhere keep their folders) or note (a log read by its own rule
    // says how) would push the columns after it off the page; the whole of each is in its
    // tooltip.
    const int em = m_view->fontMetrics().horizontalAdvance(QLatin1Char('m'));
    for (const auto& [column, widest] :
         {std::pair{RunTableModel::Log, 26 * em}, std::pair{RunTableModel::Reason, 30 * em}})
        if (m_view->columnWidth(column) > widest) m_view->setColumnWidth(column, widest);
}

void RunsPage::updateCount() {
    const int all = m_model->rowCount(), shown = m_proxy->rowCount();
    const QString runs = countOf(all, tr("run"), tr("runs"));
    m_count->setText(shown == all ? runs : tr("%1 of %2").arg(shown).arg(runs));
}

void RunsPage::selectRun(int index) {
    // Indexes are the open directory's runs (a warning, --run).
    if (m_series != 0) showSeries(0);
    selectShown(index);
}

void RunsPage::selectShown(int index) {
    // A run hidden by "problems only" is shown when asked for (a warning about it, --run).
    if (index >= 0 && index < m_model->rowCount() &&
        !m_proxy->mapFromSource(m_model->index(index, 0)).isValid())
        m_problemsOnly->setChecked(false);
    if (index < 0 || index >= m_model->rowCount()) {
        m_view->selectionModel()->clearSelection();
        showTrace(-1);
        return;
    }
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(index, 0));
    m_view->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                              QItemSelectionModel::Rows);
    m_view->scrollTo(proxyIndex);
    showTrace(index); // also when the current row did not change (a recompute)
}

void RunsPage::showTrace(int index) {
    const bool valid =
        m_analysis && index >= 0 && static_cast<std::size_t>(index) < shownLogs().size();
    m_selected = valid ? index : -1;
    m_setKeys->setEnabled(valid && m_series == 0); // the open directory is the one read again
    m_trace->setVisible(valid);
    m_hint->setVisible(!valid);
    if (!valid) {
        emit runSelected(-1);
        return;
    }
    const auto& run = shownSummary().runs[static_cast<std::size_t>(index)];
    m_selectedPath = run.path;
    QString title = QString::fromStdString(run.path) + QStringLiteral(" — ") +
                    QString::fromStdString(std::string(statusName(run.status)));
    if (m_series > 0) title = m_seriesBox->currentText() + QStringLiteral(": ") + title;
    const TraceFigure figure{runUnit(run), runReadsOwnReports(run)};
    if (auto v = run.throughput(m_analysis->summary.options.method))
        title += QStringLiteral(", %1 %2").arg(*v, 0, 'f', 2).arg(figure.unit);
    if (run.disturbed) title += tr(" — disturbed");
    // One run's samples: thousands of values, cheap enough for the GUI thread.
    QChart* chart = TraceChart::build(traceRunLog(*shownLogs()[static_cast<std::size_t>(index)]),
                                      run.window, title, run.monitor, figure);
    QChart* old = m_trace->chart();
    m_trace->setChart(chart);
    delete old;
    emit runSelected(index);
}

RunKeyDialog* RunsPage::openKeyDialog(int index) {
    if (!m_analysis || m_series != 0 || index < 0 ||
        static_cast<std::size_t>(index) >= m_analysis->summary.runs.size())
        return nullptr;
    const auto& run = m_analysis->summary.runs[static_cast<std::size_t>(index)];
    const QString root = QString::fromStdString(m_analysis->summary.root);
    const QString log = QDir(root).filePath(QString::fromStdString(run.path));
    auto* dialog = new RunKeyDialog(log, root, run.key, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RunKeyDialog::saved, this, &RunsPage::keysSaved);
    dialog->open(); // not exec(): the window goes on
    return dialog;
}

} // namespace sv::ui
