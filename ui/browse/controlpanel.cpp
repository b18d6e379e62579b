#include "ui/browse/controlpanel.h"

#include "core/measure/steadystateanalyzer.h"

#include "core/formats/formatregistry.h"
#include "ui/models/referencelistmodel.h"
#include "ui/widgets/wrappingdelegate.h"
#include "core/load/runmeter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QDir>
#include <QListView>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace sv::ui {

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent), m_method(new QComboBox(this)), m_warmup(new QSpinBox(this)),
      m_iterations(new QSpinBox(this)), m_windowBadge(new QLabel(this)),
      m_resetWindow(new QPushButton(tr("Reset to DLPerf defaults"), this)),
      m_group(new QComboBox(this)),
      m_excludeDisturbed(new QCheckBox(tr("Exclude disturbed runs"), this)),
      m_references(new ReferenceListModel(ReferenceCatalog::builtin(), this)),
      m_referenceView(new QTreeView(this)), m_seriesBox(new QWidget(this)),
      m_seriesList(new QListWidget(this)), m_removeSeries(new QPushButton(tr("&Remove"), this)) {
    setUpFields();
    setUpWindowBadge();
    QFormLayout* form = buildForm();
    buildSeriesBox();
    layOut(form);
    connectEdits();
    setOptions(m_options);
}

void ControlPanel::setUpFields() {
    m_method->addItem(tr("time (DLPerf default)"), QStringLiteral("time"));
    m_method->addItem(tr("speed"), QStringLiteral("speed"));
    m_method->setToolTip(
        tr("time: timestamps of lines W×R and I×R (extract_mxnet_logs_time.py)\n"
           "speed: mean over W…I−1 of each iteration's median Speed (extract_mxnet_logs.py)"));
    for (QSpinBox* s : {m_warmup, m_iterations}) {
        s->setRange(1, 1000000);
        s->setKeyboardTracking(false); // recompute on Enter or arrows, not on every digit
    }
    m_warmup->setToolTip(tr("Iterations left out at the start (W)"));
    m_iterations->setToolTip(tr("End of the measured window (I): throughput is over W…I−1"));
    m_group->setToolTip(tr("Which model, precision and batch size the tables and charts show"));
    m_excludeDisturbed->setToolTip(
        tr("Leave out of the statistics the runs the launcher's monitor saw disturbed (a busy "
           "host, another process using the CPU).\nUnchecked (default), they count and their "
           "case is warned about"));
    m_referenceView->setModel(m_references);
    m_referenceView->setHeaderHidden(true);
    // Names wrap rather than elide: "DLPerf NGC MXN…(FP32, bs 128)" and "DLPerf NGC MXNet…P16
    // AMP, bs 256)" looked alike in a narrow dock.
    m_referenceView->setItemDelegate(new WrappingDelegate(m_referenceView));
    m_referenceView->setToolTip(
        tr("Published figures to overlay, by table; the tables in bold match the case's "
           "precision, batch and framework.\nThe first checked is the Results table's reference"));
    // A new match reorders the tables: open the matching ones, the rest stay closed.
    connect(m_references, &QAbstractItemModel::modelReset, this, [this] {
        const auto matching = m_references->matchingTables();
        for (const QModelIndex& i : matching)
            m_referenceView->expand(i);
        if (!matching.empty()) m_referenceView->scrollTo(matching.front());
    });
}

void ControlPanel::setUpWindowBadge() {
    m_windowBadge->setWordWrap(true);
    m_windowBadge->setFrameShape(QFrame::StyledPanel);
    m_windowBadge->setAutoFillBackground(true);
    m_windowBadge->setBackgroundRole(QPalette::ToolTipBase);
    m_windowBadge->setForegroundRole(QPalette::ToolTipText);
    m_resetWindow->setToolTip(tr("Measure each log over the window DLPerf's script for its format "
                                 "uses (20…119 for NGC MXNet, 100…599 for TF2 ResNet-50…)"));
    connect(m_resetWindow, &QPushButton::clicked, this, [this] {
        m_options.measure = MeasureOptions{};
        m_options.measure.formatDefaults = true;
        showWindow();
        updateBadge();
        emit optionsEdited(m_options);
    });
}

QFormLayout* ControlPanel::buildForm() {
    auto* form = new QFormLayout;
    form->addRow(tr("Method"), m_method);
    form->addRow(tr("Warmup"), m_warmup);
    form->addRow(tr("Iterations"), m_iterations);
    form->addRow(m_windowBadge);
    form->addRow(m_resetWindow);
    form->addRow(tr("Show"), m_group);
    form->addRow(m_excludeDisturbed);
    return form;
}

// The series of a comparison: renamed in place, removed with the button (not the first: it
// is the directory open).
void ControlPanel::buildSeriesBox() {
    m_seriesList->setObjectName(QStringLiteral("series"));
    m_seriesList->setToolTip(tr("The directories compared, each a series; double-click a name to "
                                "rename it. Each is compared with the first"));
    m_seriesList->setEditTriggers(QAbstractItemView::DoubleClicked |
                                  QAbstractItemView::EditKeyPressed);
    m_seriesList->setMaximumHeight(fontMetrics().lineSpacing() * 5);
    connect(m_seriesList, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
        if (m_updating) return;
        const int row = m_seriesList->row(item);
        if (row >= 0 && row < m_seriesLabels.size() && item->text() != m_seriesLabels[row])
            emit seriesRenamed(row, item->text());
    });
    connect(m_seriesList, &QListWidget::currentRowChanged, this,
            [this](int row) { m_removeSeries->setEnabled(row > 0); });
    connect(m_removeSeries, &QPushButton::clicked, this, [this] {
        if (m_seriesList->currentRow() > 0) emit seriesRemoveRequested(m_seriesList->currentRow());
    });
    auto* add = new QPushButton(tr("&Add…"), this);
    add->setToolTip(tr("Add another log directory to the comparison (File › Add to Comparison)"));
    connect(add, &QPushButton::clicked, this, &ControlPanel::addSeriesRequested);
    auto* seriesButtons = new QHBoxLayout;
    seriesButtons->addWidget(add);
    seriesButtons->addWidget(m_removeSeries);
    seriesButtons->addStretch(1);
    auto* seriesLayout = new QVBoxLayout(m_seriesBox);
    seriesLayout->setContentsMargins(0, 0, 0, 0);
    seriesLayout->addWidget(new QLabel(tr("Compared series"), this));
    seriesLayout->addWidget(m_seriesList);
    seriesLayout->addLayout(seriesButtons);
    m_seriesBox->setVisible(false);
    m_removeSeries->setEnabled(false);
}

void ControlPanel::layOut(QFormLayout* form) {
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_seriesBox);
    layout->addWidget(new QLabel(tr("Published references"), this));
    layout->addWidget(m_referenceView, 1);
}

void ControlPanel::connectEdits() {
    connect(m_method, &QComboBox::currentIndexChanged, this, &ControlPanel::edited);
    connect(m_warmup, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    connect(m_iterations, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    connect(m_group, &QComboBox::currentIndexChanged, this, &ControlPanel::edited);
    connect(m_excludeDisturbed, &QCheckBox::toggled, this, &ControlPanel::edited);
    connect(m_references, &ReferenceListModel::checkedChanged, this, [this] {
        if (m_updating) return;
        m_options.autoReferences = false;
        m_options.references = m_references->checked();
        emit optionsEdited(m_options);
    });
}

void ControlPanel::setOptions(const AnalysisOptions& options) {
    m_updating = true;
    // Options from elsewhere (settings, the directory's window) do not carry the tables.
    auto catalog = m_options.catalog;
    m_options = options;
    if (!m_options.catalog) m_options.catalog = std::move(catalog);
    m_method->setCurrentIndex(options.method == Method::Speed ? 1 : 0);
    showWindow();
    m_excludeDisturbed->setChecked(options.excludeDisturbed);
    if (!options.autoReferences) m_references->setChecked(options.references);
    m_updating = false;
    updateBadge();
}

void ControlPanel::setCatalog(std::shared_ptr<const ReferenceCatalog> catalog) {
    if (!catalog) return;
    m_options.catalog = std::move(catalog);
    m_references->setCatalog(*m_options.catalog);
    emit optionsEdited(m_options);
}

void ControlPanel::setWindowSource(WindowSource source, const QString& campaignFile) {
    m_source = source;
    m_campaignFile = campaignFile;
    updateBadge();
}

namespace {
// How many of the shown logs' formats give their own reports as the figure, of how many.
std::pair<int, int> ownFormats(const std::vector<WindowUse>& shown) {
    int own = 0, all = 0;
    for (const auto& u : shown)
        for (const auto& f : u.formats) {
            ++all;
            own += readsOwnReports(logFormatOf(f)) ? 1 : 0;
        }
    return {own, all};
}
} // namespace

void ControlPanel::showWindow() {
    MeasureOptions m = m_options.measure;
    if (m.formatDefaults && !m_shownWindows.empty()) m = m_shownWindows.front().window;
    const bool updating = std::exchange(m_updating, true);
    // Logs that report their own throughput (issue 26): no W and I of iterations, their rule.
    // A format file's rule is resolved per log (reports left out, reports read): one log's
    // count is no window of the others, so the boxes say whose rule it is.
    const auto [ownCount, all] = ownFormats(m_shownWindows);
    const bool formatRule =
        m_options.measure.formatDefaults && all > 0 && ownCount == all && !isSteadyStateWindow(m);
    const bool own = isSteadyStateWindow(m) || formatRule;
    m_warmup->setSpecialValueText(formatRule ? tr("format's rule")
                                  : own      ? tr("first tenth")
                                             : QString());
    m_iterations->setSpecialValueText(formatRule ? tr("format's rule")
                                      : own      ? tr("all reports")
                                                 : QString());
    m_warmup->setValue(own ? m_warmup->minimum() : m.warmup);
    m_iterations->setValue(own ? m_iterations->minimum() : m.iterations);
    m_updating = updating;
}

namespace {
QString windowRange(const MeasureOptions& m, bool own = false) {
    // Logs that report their own throughput (issue 26): their rule, not a range; a format
    // file's own rule (no window: -1) is never "-1…-2".
    if (isSteadyStateWindow(m)) return QStringLiteral("own reports after the first tenth");
    if (own && (m.warmup < 0 || m.iterations <= m.warmup))
        return QStringLiteral("own reports by its format's rule");
    if (own) return QStringLiteral("own reports %1…%2").arg(m.warmup).arg(m.iterations - 1);
    return QStringLiteral("%1…%2").arg(m.warmup).arg(m.iterations - 1);
}
QString frameworkOf(const std::string& format) {
    const auto f = logFormatOf(format).framework;
    return QString::fromUtf8(f.data(), static_cast<qsizetype>(f.size()));
}
} // namespace

void ControlPanel::markEmptyWindow(bool empty) {
    // Red text on the fields that make the window empty, with why in their tooltips; the
    // usual look and tooltips otherwise.
    const QString red = QStringLiteral("color: #c62828; font-weight: bold;");
    m_warmup->setStyleSheet(empty ? QStringLiteral("QSpinBox { %1 }").arg(red) : QString());
    m_iterations->setStyleSheet(empty ? QStringLiteral("QSpinBox { %1 }").arg(red) : QString());
    m_windowBadge->setStyleSheet(empty ? QStringLiteral("QLabel { %1 }").arg(red) : QString());
    m_warmup->setProperty("invalid", empty);
    m_iterations->setProperty("invalid", empty);
    if (empty) {
        const QString why =
            tr("Warmup %1 is not below iterations %2: the window W…I−1 holds no iteration, so "
               "no run is measured. Lower the warmup or raise the iterations")
                .arg(m_options.measure.warmup)
                .arg(m_options.measure.iterations);
        m_warmup->setToolTip(why);
        m_iterations->setToolTip(why);
    } else {
        m_warmup->setToolTip(tr("Iterations left out at the start (W)"));
        m_iterations->setToolTip(tr("End of the measured window (I): throughput is over W…I−1"));
    }
}

void ControlPanel::updateBadge() {
    // The shown formats' DLPerf windows, and whether the window measured is theirs.
    const MeasureOptions& m = m_options.measure;
    // A warmup at or above the iterations leaves nothing to measure: said on the fields and the
    // note, never as a range running backwards ("Window 130…119").
    const bool empty = !m.formatDefaults && m.warmup >= m.iterations;
    markEmptyWindow(empty);
    if (empty) {
        m_windowBadge->setVisible(true);
        m_resetWindow->setVisible(true);
        m_windowBadge->setText(tr("No window: warmup %1 is not below iterations %2, so no "
                                  "iteration is measured")
                                   .arg(m.warmup)
                                   .arg(m.iterations));
        m_windowBadge->setToolTip(m_warmup->toolTip());
        return;
    }
    std::vector<std::pair<QString, MeasureOptions>> dlperf; // framework, its script's window
    std::vector<QString> ownFrameworks; // those whose figure is the log's own reports
    for (const auto& u : m_shownWindows)
        for (const auto& f : u.formats) {
            const LogFormat& format = logFormatOf(f);
            const QString framework = frameworkOf(f);
            if (std::none_of(dlperf.begin(), dlperf.end(),
                             [&](const auto& d) { return d.first == framework; }))
                dlperf.emplace_back(framework,
                                    MeasureOptions{format.defaultWarmup, format.defaultIterations});
            if (readsOwnReports(format)) ownFrameworks.push_back(framework);
        }
    if (dlperf.empty()) dlperf.emplace_back(QString(), MeasureOptions{});
    const auto ownOf = [&](const QString& framework) {
        return std::find(ownFrameworks.begin(), ownFrameworks.end(), framework) !=
               ownFrameworks.end();
    };
    const bool isDlperf =
        m.formatDefaults || std::all_of(dlperf.begin(), dlperf.end(),
                                        [&](const auto& d) { return sameMeasure(d.second, m); });
    // DLPerf's 20…119 needs no word; any other window changes every figure, so it is named.
    const bool plain = std::all_of(dlperf.begin(), dlperf.end(), [](const auto& d) {
        return sameMeasure(d.second, MeasureOptions{});
    });
    m_windowBadge->setVisible(!isDlperf || !plain);
    m_resetWindow->setVisible(!isDlperf);
    QString theirs;
    for (const auto& [framework, window] : dlperf)
        theirs += (theirs.isEmpty() ? QString() : QStringLiteral(", ")) +
                  (framework.isEmpty() ? QString() : framework + QLatin1Char(' ')) +
                  windowRange(window, ownOf(framework));
    const bool allOwn =
        ownFrameworks.size() > 0 &&
        std::all_of(dlperf.begin(), dlperf.end(), [&](const auto& d) { return ownOf(d.first); });
    if (isDlperf) {
        const auto& [framework, window] = dlperf.front();
        m_windowBadge->setText(
            dlperf.size() == 1 && isSteadyStateWindow(window)
                ? tr("Window: %1's own reports, the first tenth left out, median of the rest")
                      .arg(framework)
            : dlperf.size() == 1 && allOwn
                // A format file's rule (drop the first part, or the steps it names).
                ? tr("Window: %1's own reports, by its format file's rule").arg(framework)
                : dlperf.size() == 1
                      ? tr("Window %1: DLPerf's default for %2").arg(windowRange(window), framework)
                  : allOwn ? tr("Each format over its own reports: %1").arg(theirs)
                  : ownFrameworks.empty()
                      ? tr("Each framework over its DLPerf default window: %1").arg(theirs)
                      : tr("Each framework over its default window: %1").arg(theirs));
        m_windowBadge->setToolTip(allOwn ? tr("How these logs' own reports are read")
                                         : tr("What DLPerf's extraction script for these logs "
                                              "measures"));
        return;
    }
    const QString window = allOwn ? tr("Reports %1…%2 of each log, not its default (%3)")
                                        .arg(m.warmup)
                                        .arg(m.iterations - 1)
                                        .arg(theirs)
                                  : tr("Window %1, not DLPerf's %2").arg(windowRange(m), theirs);
    switch (m_source) {
    case WindowSource::Campaign:
        m_windowBadge->setText(tr("%1: the campaign's window").arg(window));
        m_windowBadge->setToolTip(tr("From %1").arg(QDir::toNativeSeparators(m_campaignFile)));
        break;
    case WindowSource::User:
        m_windowBadge->setText(tr("%1: your choice for this directory").arg(window));
        m_windowBadge->setToolTip(tr("Remembered for this directory only"));
        break;
    case WindowSource::Dlperf:
        m_windowBadge->setText(window);
        m_windowBadge->setToolTip({});
        break;
    }
}

void ControlPanel::setAnalysis(const AnalysisPtr& analysis) {
    if (!analysis) return;
    m_updating = true;
    if (analysis->groups != m_groups) {
        m_groups = analysis->groups;
        m_group->clear();
        for (const auto& g : m_groups)
            m_group->addItem(groupText(g, m_groups));
    }
    QStringList labels;
    if (!analysis->others.empty()) {
        labels << QString::fromStdString(analysis->label);
        for (const auto& o : analysis->others)
            labels << QString::fromStdString(o.label);
    }
    if (labels != m_seriesLabels) {
        const int current = m_seriesList->currentRow();
        m_seriesLabels = labels;
        m_seriesList->clear();
        for (const QString& l : labels) {
            auto* item = new QListWidgetItem(l, m_seriesList);
            item->setFlags(item->flags() | Qt::ItemIsEditable);
        }
        if (current >= 0 && current < labels.size()) m_seriesList->setCurrentRow(current);
        m_removeSeries->setEnabled(m_seriesList->currentRow() > 0);
    }
    // Each series' window where it is listed: added directories are measured over their own.
    if (m_seriesList->count() == labels.size() && !labels.isEmpty()) {
        m_seriesList->item(0)->setToolTip(seriesToolTip(analysis->summary));
        for (std::size_t i = 0; i < analysis->others.size(); ++i)
            m_seriesList->item(static_cast<int>(i) + 1)
                ->setToolTip(seriesToolTip(analysis->others[i].summary));
    }
    m_seriesBox->setVisible(!labels.isEmpty());
    if (analysis->group)
        for (std::size_t i = 0; i < m_groups.size(); ++i)
            if (m_groups[i] == *analysis->group) m_group->setCurrentIndex(static_cast<int>(i));
    m_group->setEnabled(m_groups.size() > 1);
    if (analysis->group)
        m_references->setMatch(analysis->group->precision, analysis->group->batchPerDevice,
                               analysis->group->model, analysis->frameworks);
    m_references->setChecked(analysis->references);
    m_shownWindows = analysis->groupWindows();
    m_updating = false;
    showMethod();
    showWindow();
    updateBadge();
}

void ControlPanel::showMethod() {
    // Logs that report their own throughput have no time or speed method: the box says what
    // their figure is instead of "time (DLPerf default)", and cannot pick a method that does
    // not apply (the choice stays for the logs that have one).
    const auto [own, all] = ownFormats(m_shownWindows);
    const bool onlyOwn = all > 0 && own == all;
    const QString ownWords = tr("the log's own reports");
    m_method->setItemText(0, onlyOwn ? ownWords : tr("time (DLPerf default)"));
    m_method->setItemText(1, onlyOwn ? ownWords : tr("speed"));
    m_method->setEnabled(!onlyOwn);
    const QString methods =
        tr("time: timestamps of lines W×R and I×R (extract_mxnet_logs_time.py)\n"
           "speed: mean over W…I−1 of each iteration's median Speed (extract_mxnet_logs.py)");
    m_method->setToolTip(onlyOwn   ? tr("These logs' figures are their own throughput reports: "
                                          "DLPerf's time and speed methods do not apply to them")
                         : own > 0 ? methods + tr("\nLogs whose format reports its own "
                                                  "throughput are their own reports either way")
                                   : methods);
}

QString ControlPanel::seriesToolTip(const Summary& s) {
    QString from;
    if (s.windowSource == "campaign")
        from = tr("its campaign's, %1")
                   .arg(QDir::toNativeSeparators(QString::fromStdString(s.campaignFile)));
    else if (s.windowSource == "user")
        from = tr("your choice for this directory");
    else
        from = tr("DLPerf's default for each format");
    return tr("%1\nWindow: %2 (%3)")
        .arg(QDir::toNativeSeparators(QString::fromStdString(s.root)),
             QString::fromStdString(windowText(s)), from);
}

QString ControlPanel::groupText(const CaseGroup& g, const std::vector<CaseGroup>& all) {
    const QString label = QString::fromStdString(g.label());
    if (!g.format.empty()) {
        const auto framework = logFormatOf(g.format).framework;
        return QString::fromUtf8(framework.data(), static_cast<qsizetype>(framework.size())) +
               QStringLiteral(" · ") + label;
    }
    for (const auto& o : all)
        if (!o.format.empty() && o.model == g.model && o.precision == g.precision &&
            o.batchPerDevice == g.batchPerDevice)
            return tr("Compare frameworks") + QStringLiteral(" · ") + label;
    return label;
}

void ControlPanel::edited() {
    if (m_updating) return;
    m_options.method = m_method->currentIndex() == 1 ? Method::Speed : Method::Time;
    // Typed in: that window for every log (not each format's default any more).
    if (sender() == m_warmup || sender() == m_iterations)
        m_options.measure = MeasureOptions{m_warmup->value(), m_iterations->value()};
    m_options.excludeDisturbed = m_excludeDisturbed->isChecked();
    updateBadge();
    const int g = m_group->currentIndex();
    if (g >= 0 && static_cast<std::size_t>(g) < m_groups.size()) {
        const bool changed =
            !m_options.group || !(*m_options.group == m_groups[static_cast<std::size_t>(g)]);
        m_options.group = m_groups[static_cast<std::size_t>(g)];
        // Another precision or batch size has other matching tables.
        if (changed && sender() == m_group) m_options.autoReferences = true;
    }
    emit optionsEdited(m_options);
}

} // namespace sv::ui
