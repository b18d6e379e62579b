#include "ui/history/historypage.h"
#include "ui/history/historylocationdialog.h"
#include "async/backgroundtask.h"

#include "history/campaignorigin.h"
#include "history/campaignrecord.h"
#include "ui/history/historychart.h"
#include "history/historydatabase.h"
#include "history/bundlecampaign.h"
#include "launcher/session/campaignbundle.h"
#include "core/model/wording.h"

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sv::ui {

namespace {

struct HistoryRead {
    std::vector<history::CaseTrend> trends;
    QString status; // what was read, or why nothing was
};

HistoryRead readHistory(const std::filesystem::path& path) {
    HistoryRead out;
    history::HistoryDatabase db(path, history::HistoryDatabase::Access::Read);
    if (!db.isOpen()) {
        out.status = QString::fromStdString(db.error());
        return out;
    }
    std::string error;
    const auto campaigns = db.campaigns(&error);
    if (!campaigns) {
        out.status = QString::fromStdString(error);
        return out;
    }
    history::TrendOptions options;
    if (auto marks = db.expectations(&error)) options.expectations = std::move(*marks);
    out.trends = history::computeTrends(*campaigns, options);
    out.status = QObject::tr("%1 in %2")
                     .arg(QString::fromStdString(
                              countOf(static_cast<long long>(campaigns->size()), "campaign")),
                          QDir::toNativeSeparators(QString::fromStdString(path.string()))) +
                 QStringLiteral("; ") +
                 QString::fromStdString(
                     history::describeCheck(history::summarizeCheck(out.trends, options.fdr)));
    return out;
}

QString recordDirectoryInto(const std::filesystem::path& path, const QString& directory) {
    history::HistoryDatabase db(path);
    QString aside = QString::fromStdString(db.setAsideNotice());
    if (!db.isOpen()) return QString::fromStdString(db.error());
    const auto read = history::readCampaign(directory.toStdString());
    if (!read.record) return QString::fromStdString(read.error);
    const auto result = db.record(*read.record);
    const QString message = QString::fromStdString(result.message);
    return aside.isEmpty() ? message : aside + QStringLiteral("\n") + message;
}

// Another site's bundle into the history at path: verified (every file, every figure, the
// signature where signed), then recorded with its origin; or why not.
QString importBundleInto(const std::filesystem::path& path, const QString& bundle,
                         const std::string& version) {
    const history::CampaignReading read = history::readBundleCampaign(
        bundle.toStdString(), version,
        [](const std::string& manifest, const std::string& signature, std::string* why) {
            return bundleSigner(manifest, signature, {}, why);
        });
    if (!read.record)
        return QObject::tr("Not imported: %1").arg(QString::fromStdString(read.error));
    history::HistoryDatabase db(path);
    if (!db.isOpen()) return QString::fromStdString(db.error());
    const auto result = db.record(*read.record);
    const history::CampaignOrigin& o = *read.record->origin;
    return QObject::tr("%1 (bundled by %2 on %3)")
        .arg(QString::fromStdString(result.message), QString::fromStdString(o.bundledBy),
             QString::fromStdString(o.bundledAt));
}

QString markExpectedIn(const std::filesystem::path& path,
                       const history::HistoryDatabase::Expectation& mark, const QString& name) {
    history::HistoryDatabase db(path);
    if (!db.isOpen()) return QString::fromStdString(db.error());
    if (const std::string failed = db.expect(mark); !failed.empty())
        return QObject::tr("Not marked expected: %1").arg(QString::fromStdString(failed));
    return QObject::tr("Marked %1 expected at its latest campaign, by %2: %3")
        .arg(name, QString::fromStdString(mark.who), QString::fromStdString(mark.why));
}

QString number(double v) {
    return QString::number(v, 'f', 2);
}

// Where the case's baseline starts: the campaign an earlier expectation accepted, else the first.
std::size_t baselineIndex(const history::CaseTrend& t) {
    for (std::size_t i = 0; i < t.points.size(); ++i)
        if (!t.baselineFrom.empty() && t.points[i].label == t.baselineFrom) return i;
    return 0;
}

// The latest step that no expectation accepted (a step at or before the baseline's start was
// accepted with it): the level the case has run at since is another, whatever the latest
// campaign says against it. Null when there is none.
const history::CaseStep* unmarkedStep(const history::CaseTrend& t) {
    const history::CaseStep* found = nullptr;
    for (const auto& s : t.steps)
        if (s.point.index > baselineIndex(t)) found = &s;
    return found;
}

// The campaign *Mark expected…* marks: the latest when it fails the check, else the campaign
// of an unmarked step; none otherwise.
const history::TrendPoint* campaignToMark(const history::CaseTrend& t) {
    if (t.points.empty()) return nullptr;
    if (t.failsCheck()) return &t.points.back();
    if (const auto* step = unmarkedStep(t)) return &t.points[step->point.index];
    return nullptr;
}

// The verdict on the latest campaign without its "no change: " (under a step's headline, "no
// change" would read as if the case had not moved), its first letter as a sentence's.
QString verdictUnderStep(const std::string& note) {
    QString v = QString::fromStdString(note);
    if (v.startsWith(QLatin1String("no change: "))) v = v.mid(11);
    if (!v.isEmpty()) v[0] = v[0].toUpper();
    return v;
}

} // namespace

HistoryPage::HistoryPage(QWidget* parent)
    : QWidget(parent), m_path(history::HistoryDatabase::defaultPath()), m_case(new QComboBox(this)),
      m_reload(new QPushButton(tr("Reload"), this)),
      m_database(new QPushButton(tr("Database…"), this)),
      m_record(new QPushButton(tr("Record in History"), this)),
      m_importBundle(new QPushButton(tr("Import Bundle…"), this)),
      m_expect(new QPushButton(tr("Mark expected…"), this)), m_flag(new QLabel(this)),
      m_status(new QLabel(this)), m_chart(new QChartView(this)), m_table(new QTableWidget(this)) {
    m_case->setObjectName(QStringLiteral("historyCase"));
    m_case->setMinimumContentsLength(28);
    m_case->setToolTip(tr("The case whose history is shown"));
    m_record->setToolTip(tr("Add the directory shown to the history (once: the same logs are "
                            "one entry)"));
    m_record->setEnabled(false);
    m_flag->setWordWrap(true);
    m_flag->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart->setRenderHint(QPainter::Antialiasing);
    m_chart->setMinimumHeight(260);
    const QStringList headers{tr("Ran (UTC)"),
                              tr("Campaign"),
                              tr("Runs"),
                              tr("Median"),
                              tr("Min"),
                              tr("Max"),
                              tr("Hosts"),
                              tr("GPU"),
                              tr("Driver"),
                              tr("CUDA"),
                              tr("Container image"),
                              tr("Origin"),
                              tr("Directory")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Case"), this));
    top->addWidget(m_case, 1);
    top->addWidget(m_reload);
    top->addWidget(m_database);
    top->addWidget(m_record);
    top->addWidget(m_importBundle);
    top->addWidget(m_expect);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chart);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_flag);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_case, &QComboBox::currentIndexChanged, this, &HistoryPage::showCase);
    connect(m_reload, &QPushButton::clicked, this, &HistoryPage::reload);
    m_database->setObjectName(QStringLiteral("historyDatabaseButton"));
    m_database->setToolTip(tr("Where the history lives: a file, or a shared PostgreSQL database"));
    m_database->setEnabled(false); // until the window hands the page its settings
    connect(m_database, &QPushButton::clicked, this, [this] {
        auto* dialog = new HistoryLocationDialog(m_settings, this, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    connect(m_record, &QPushButton::clicked, this, [this] { recordDirectory(m_directory); });
    m_importBundle->setObjectName(QStringLiteral("historyImportBundleButton"));
    m_importBundle->setToolTip(tr("Another site's campaign from its .svbundle: verified (every "
                                  "file, every figure recomputed), then recorded with where it "
                                  "came from"));
    connect(m_importBundle, &QPushButton::clicked, this, [this] {
        const QString file =
            QFileDialog::getOpenFileName(this, tr("Import Campaign Bundle into History"), QString(),
                                         tr("Campaign bundles (*.svbundle)"));
        importBundle(file);
    });
    m_expect->setObjectName(QStringLiteral("historyExpectButton"));
    m_expect->setToolTip(tr("The regression, or the unmarked step down, of the case shown is "
                            "expected (an upgrade that costs speed, a new setting): recorded "
                            "with who and why, it no longer fails the check, and later "
                            "campaigns are judged from it on"));
    m_expect->setEnabled(false);
    connect(m_expect, &QPushButton::clicked, this, &HistoryPage::askWhyExpected);
    showTrends({}, tr("Reading the history…"));
}

void HistoryPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (!m_readOnce) reload();
}

void HistoryPage::setDatabasePath(const std::filesystem::path& path) {
    m_path = path;
    reload();
}

void HistoryPage::useSettings(AppSettings* settings) {
    m_settings = settings;
    m_database->setEnabled(settings != nullptr);
    if (!settings) return;
    // Read when the page is first shown, as before, unless it has been read already.
    const std::filesystem::path chosen = effectiveHistoryDatabase(*settings);
    if (chosen == m_path) return;
    m_path = chosen;
    if (m_readOnce) reload();
}

void HistoryPage::setCurrentDirectory(const QString& directory) {
    m_directory = directory;
    m_record->setEnabled(!directory.isEmpty());
}

void HistoryPage::reload() {
    m_readOnce = true;
    const quint64 generation = ++m_generation;
    ++m_loading;
    async::runInBackground(
        this, [path = m_path] { return readHistory(path); },
        [this, generation](HistoryRead read) {
            --m_loading;
            if (generation != m_generation) return; // a newer read is on its way
            showTrends(std::move(read.trends), read.status);
            emit loaded();
        },
        async::backgroundPool());
}

void HistoryPage::recordDirectory(const QString& directory) {
    if (directory.isEmpty()) return;
    writeThenReload(tr("Recording %1…").arg(QDir::toNativeSeparators(directory)),
                    [path = m_path, directory] { return recordDirectoryInto(path, directory); });
}

void HistoryPage::importBundle(const QString& bundle) {
    if (bundle.isEmpty()) return;
    writeThenReload(
        tr("Verifying and importing %1…").arg(QDir::toNativeSeparators(bundle)),
        [path = m_path, bundle, version = QCoreApplication::applicationVersion().toStdString()] {
            return importBundleInto(path, bundle, version);
        });
}

void HistoryPage::importHistory(const std::filesystem::path& from) {
    if (from.empty() || m_path.empty()) return;
    writeThenReload(tr("Copying the campaigns of %1…")
                        .arg(QDir::toNativeSeparators(QString::fromStdString(from.string()))),
                    [path = m_path, from] { return importHistoryInto(path, from); });
}

void HistoryPage::writeThenReload(const QString& doing, std::function<QString()> write) {
    ++m_loading;
    m_status->setText(doing);
    async::runInBackground(
        this, std::move(write),
        [this](const QString& message) {
            --m_loading;
            // Said on the page after the reload too: a refusal (a read-only
            // role, a full disk) must not vanish behind the reloaded
            // listing's status.
            m_recordNote = message;
            emit recorded(message);
            reload();
        },
        async::workPool());
}

void HistoryPage::askWhyExpected() {
    const int index = m_case->currentIndex();
    if (index < 0 || index >= static_cast<int>(m_trends.size())) return;
    const history::CaseTrend& t = m_trends[static_cast<std::size_t>(index)];
    const history::TrendPoint* at = campaignToMark(t);
    if (!at) return;
    auto* dialog = new QInputDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Mark expected"));
    dialog->setLabelText(tr("Why is the change of %1 at campaign %2 expected? (recorded with "
                            "your name, %3)")
                             .arg(QString::fromStdString(history::caseName(t.key)),
                                  QString::fromStdString(at->label),
                                  QString::fromStdString(history::whoAmI())));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, index](const QString& why) {
        if (!why.trimmed().isEmpty()) markExpected(index, why.trimmed());
    });
    dialog->open();
}

void HistoryPage::markExpected(int index, const QString& why) {
    if (index < 0 || index >= static_cast<int>(m_trends.size())) return;
    const history::CaseTrend& t = m_trends[static_cast<std::size_t>(index)];
    const history::TrendPoint* at = campaignToMark(t);
    if (!at) return;
    history::HistoryDatabase::Expectation mark{history::caseKeyText(t.key, t.method),
                                               at->identity,
                                               history::whoAmI(),
                                               why.toStdString(),
                                               {}};
    const QString name = QString::fromStdString(history::caseName(t.key));
    ++m_loading;
    async::runInBackground(
        this, [path = m_path, mark, name] { return markExpectedIn(path, mark, name); },
        [this](const QString& message) {
            --m_loading;
            m_recordNote = message;
            reload();
        },
        async::workPool());
}

void HistoryPage::showTrends(std::vector<history::CaseTrend> trends, const QString& status) {
    // Where the user was, by the case itself: its name in the box changes with its verdict
    // (marking a regression expected once made the page jump to another case).
    const int was = m_case->currentIndex();
    const std::string previous =
        was >= 0 && was < static_cast<int>(m_trends.size())
            ? history::caseKeyText(m_trends[static_cast<std::size_t>(was)].key,
                                   m_trends[static_cast<std::size_t>(was)].method)
            : std::string();
    m_trends = std::move(trends);
    m_status->setText(m_recordNote.isEmpty() ? status : status + QLatin1Char('\n') + m_recordNote);
    m_recordNote.clear();
    {
        QSignalBlocker block(m_case);
        m_case->clear();
        for (const auto& t : m_trends)
            m_case->addItem(QString::fromStdString(history::caseName(t.key)) +
                            (t.failsCheck() ? tr("  — regression") : QString()));
        // Where the user was, else the first flagged case, else the first.
        int index = -1;
        for (std::size_t i = 0; index < 0 && !previous.empty() && i < m_trends.size(); ++i)
            if (history::caseKeyText(m_trends[i].key, m_trends[i].method) == previous)
                index = static_cast<int>(i);
        for (std::size_t i = 0; index < 0 && i < m_trends.size(); ++i)
            if (m_trends[i].failsCheck()) index = static_cast<int>(i);
        m_case->setCurrentIndex(index < 0 && !m_trends.empty() ? 0 : index);
    }
    showCase(m_case->currentIndex());
}

void HistoryPage::showCase(int index) {
    QChart* old = m_chart->chart();
    m_table->setRowCount(0);
    if (index < 0 || index >= static_cast<int>(m_trends.size())) {
        m_chart->setChart(new QChart());
        delete old;
        m_expect->setEnabled(false);
        m_flag->setText(m_trends.empty()
                            ? tr("No campaign in the history yet. Every campaign run from the Run "
                                 "tab goes in when it finishes; Record in History adds the "
                                 "directory shown.")
                            : QString());
        m_flag->setStyleSheet(QString());
        return;
    }
    const auto& t = m_trends[static_cast<std::size_t>(index)];
    const history::TrendPoint* mark = campaignToMark(t);
    m_expect->setEnabled(mark != nullptr);
    // The button names what it marks: the campaign, not a guess at it.
    m_expect->setText(mark ? tr("Mark %1 expected…").arg(QString::fromStdString(mark->label))
                           : tr("Mark expected…"));
    m_chart->setChart(HistoryChart::build(t));
    delete old;
    QString note = QString::fromStdString(t.note);
    if (!note.isEmpty()) note[0] = note[0].toUpper();
    // "No change" against the campaigns since is not the whole truth when the case stepped on
    // the way and nobody accepted the new level: the headline says the step first, and never
    // "no change" under it.
    const history::CaseStep* unmarked = t.failsCheck() ? nullptr : unmarkedStep(t);
    const history::CaseStep* drop = unmarked && unmarked->point.stepPct < 0 ? unmarked : nullptr;
    if (unmarked)
        note = (drop ? tr("Stepped down at %1 (%2 %), not marked expected: the case has run at "
                          "the lower level since. Against the campaigns before the latest: %3")
                     : tr("Stepped up at %1 (+%2 %), not marked expected: the case has run at "
                          "the higher level since. Against the campaigns before the latest: %3"))
                   .arg(QString::fromStdString(t.points[unmarked->point.index].label))
                   .arg(QString::number(unmarked->point.stepPct, 'f', 1))
                   .arg(verdictUnderStep(t.note));
    // What changed with the verdict, and each change point with what changed there.
    if (t.points.size() >= 2)
        note += QStringLiteral("\n") + tr("Changed at the latest campaign: %1")
                                           .arg(QString::fromStdString(describeChanges(t.changed)));
    for (const auto& step : t.steps)
        note +=
            QStringLiteral("\n") +
            tr("Stepped at %1: %2 % (%3 → %4); %5")
                .arg(QString::fromStdString(t.points[step.point.index].label))
                .arg(QString::number(step.point.stepPct, 'f', 1))
                .arg(number(step.point.before), number(step.point.after),
                     QString::fromStdString(describeChanges(step.changed))) +
            (step.point.index <= baselineIndex(t) && baselineIndex(t) > 0 ? tr("; marked expected")
                                                                          : QString());
    m_flag->setText(note);
    m_flag->setStyleSheet(t.failsCheck() || drop
                              ? QStringLiteral("QLabel { color: #b00020; font-weight: bold }")
                              : QString());
    m_table->setRowCount(static_cast<int>(t.points.size()));
    // Newest first: the campaign a reader looks for.
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto& p = t.points[t.points.size() - 1 - static_cast<std::size_t>(row)];
        QStringList hosts;
        for (const auto& h : p.environment.hosts)
            hosts << QString::fromStdString(h);
        const QStringList cells{
            QString::fromStdString(p.time).replace(QLatin1Char('T'), QLatin1Char(' ')),
            QString::fromStdString(p.label),
            QString::number(p.runs),
            number(p.median),
            number(p.min),
            number(p.max),
            hosts.join(QStringLiteral(", ")),
            QString::fromStdString(p.environment.gpuModel),
            QString::fromStdString(p.environment.driver),
            QString::fromStdString(p.environment.cuda),
            QString::fromStdString(p.environment.containerImage),
            p.origin ? QString::fromStdString(history::describeOrigin(*p.origin)) : QString(),
            QDir::toNativeSeparators(QString::fromStdString(p.path))};
        // A change point's campaign is marked: its label says the step, the row is tinted,
        // and its tooltip says what changed there.
        const std::size_t at = t.points.size() - 1 - static_cast<std::size_t>(row);
        const history::CaseStep* step = nullptr;
        for (const auto& s : t.steps)
            if (s.point.index == at) step = &s;
        for (int c = 0; c < cells.size(); ++c) {
            QString text = cells[c].isEmpty() && c >= 6 ? tr("—") : cells[c];
            if (step && c == 1)
                text += tr("  ◆ step %1 %").arg(QString::number(step->point.stepPct, 'f', 1));
            auto* item = new QTableWidgetItem(text);
            if (c >= 2 && c <= 5) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (step) {
                item->setBackground(QColor(255, 236, 179));
                item->setToolTip(tr("Change point: %1")
                                     .arg(QString::fromStdString(describeChanges(step->changed))));
            } else if (p.origin && c == 1) {
                // Another site's campaign says whose it is where the eye goes first.
                item->setToolTip(cells[11]);
            }
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
}

QString HistoryPage::flagText() const {
    return m_flag->text();
}
QString HistoryPage::statusText() const {
    return m_status->text();
}

} // namespace sv::ui
