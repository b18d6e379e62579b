#include "runpanel.h"

#include "campaignform.h"
#include "plannedrun.h"
#include "recentcampaigns.h"
#include "runcontroller.h"
#include "runmonitor.h"
#include "runner.h"
#include "workloadprofile.h"

#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace sv::ui {
namespace {

// Runs not yet final in a journal: what Resume would run.
int leftToRun(const launcher::Campaign& c,
              const std::map<std::string, launcher::JournalEntry>& journal) {
    std::string why;
    const auto profile = launcher::loadProfile(c.profile, &why);
    if (!profile) return 0;
    int left = 0;
    for (const auto& run : launcher::planRuns(c, *profile)) {
        auto it = journal.find(run.id);
        left += it == journal.end() || !launcher::isFinal(it->second.state()) ? 1 : 0;
    }
    return left;
}

QStringList plannedIds(const launcher::Campaign& c) {
    std::string why;
    const auto profile = launcher::loadProfile(c.profile, &why);
    QStringList ids;
    if (profile)
        for (const auto& run : launcher::planRuns(c, *profile))
            ids << QString::fromStdString(run.id);
    return ids;
}

} // namespace

RunPanel::RunPanel(const QString& settingsFile, QWidget* parent)
    : QWidget(parent), m_settingsFile(settingsFile), m_form(new CampaignForm(this)),
      m_monitor(new RunMonitor(this)), m_controller(new RunController(this)),
      m_recent(new RecentCampaigns(settingsFile)), m_banner(new QLabel(this)),
      m_command(new QPlainTextEdit(this)), m_commandCaption(new QLabel(this)),
      m_preflight(new QPushButton(tr("Preflight"), this)),
      m_run(new QPushButton(tr("▶  Run"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_resume(new QPushButton(tr("Resume"), this)), m_recentMenu(new QMenu(this)),
      m_commandTimer(new QTimer(this)) {
    m_run->setDefault(true);
    m_run->setToolTip(tr("Start the campaign in the output directory"));
    m_preflight->setToolTip(
        tr("Check the hosts, the container, the launcher and the workload before running"));
    m_cancel->setToolTip(
        tr("Stop the current run (TERM, then KILL after the grace period) and run nothing more"));
    m_resume->setToolTip(tr("Run what this campaign's journal says is not finished"));
    auto* newButton = new QPushButton(tr("New"), this);
    newButton->setToolTip(tr("Keep these settings, with a fresh output directory"));
    auto* open = new QPushButton(tr("Open…"), this);
    auto* save = new QPushButton(tr("Save…"), this);
    auto* recent = new QPushButton(tr("Recent"), this);
    recent->setMenu(m_recentMenu);
    auto* buttons = new QHBoxLayout;
    for (auto* b : {m_preflight, m_run, m_cancel, m_resume})
        buttons->addWidget(b);
    buttons->addStretch(1);
    for (auto* b : {newButton, open, save, recent})
        buttons->addWidget(b);

    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_command->setMaximumHeight(150);
    m_commandCaption->setWordWrap(true);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(m_commandCaption);
    leftLayout->addWidget(m_command);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(m_monitor);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_banner);
    layout->addWidget(split, 1);

    m_commandTimer->setSingleShot(true);
    m_commandTimer->setInterval(150);
    connect(m_commandTimer, &QTimer::timeout, this, &RunPanel::updateCommand);
    connect(m_form, &CampaignForm::edited, m_commandTimer, qOverload<>(&QTimer::start));
    connect(m_preflight, &QPushButton::clicked, this, &RunPanel::preflight);
    connect(m_run, &QPushButton::clicked, this, &RunPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancel);
    connect(m_resume, &QPushButton::clicked, this, &RunPanel::resume);
    connect(newButton, &QPushButton::clicked, this, [this] {
        m_form->setOutputDir(CampaignForm::freshOutputDir());
        m_canResume = false;
        m_banner->hide();
        updateButtons();
    });
    connect(open, &QPushButton::clicked, this, &RunPanel::chooseOpen);
    connect(save, &QPushButton::clicked, this, &RunPanel::chooseSave);

    connect(m_controller, &RunController::runStarted, this,
            [this](int index, int, const QString& id, const QString&) {
                m_monitor->runStarted(index, id);
                if (const auto* runner = m_controller->runner())
                    emit logInProgress(QString::fromStdString(
                        runner->runs()[static_cast<std::size_t>(index)].logPath));
            });
    connect(m_controller, &RunController::progress, m_monitor, &RunMonitor::showProgress);
    connect(m_controller, &RunController::runFinished, this,
            [this](int index, const QString&, const launcher::RunEnd& end) {
                m_monitor->runFinished(index, end);
                emit logInProgress({});
            });
    connect(m_controller, &RunController::logText, m_monitor, &RunMonitor::appendLog);
    connect(m_controller, &RunController::resultsChanged, this, [this](const QString& root) {
        const launcher::Campaign c = m_form->campaign();
        emit resultsReady(root, c.warmup, c.iterations);
    });
    connect(m_controller, &RunController::problem, this, [this](const QString& text) {
        showBanner(text, true);
        m_monitor->appendNote(text, true);
    });
    connect(m_controller, &RunController::note, this,
            [this](const QString& text) { m_monitor->appendNote(text, false); });
    connect(m_controller, &RunController::preflightDone, this, &RunPanel::showPreflight);
    connect(m_controller, &RunController::finished, this,
            [this](bool cancelled, int ok, int total, const QString& failure) {
                m_monitor->campaignFinished(cancelled, ok, total);
                const launcher::Campaign c = m_form->campaign();
                // A campaign that failed could not write its directory: no Resume into it.
                m_canResume =
                    failure.isEmpty() &&
                    leftToRun(c, RunController::journalOf(QString::fromStdString(c.outputDir))) > 0;
                if (!failure.isEmpty())
                    showBanner(tr("The campaign failed: %1. %2 of %3 runs ok. Free space in (or "
                                  "choose another) output directory, then run again.")
                                   .arg(failure)
                                   .arg(ok)
                                   .arg(total),
                               true);
                else if (cancelled)
                    showBanner(tr("Cancelled: %1 of %2 runs ok; nothing of the campaign is left "
                                  "running. Resume runs the rest.")
                                   .arg(ok)
                                   .arg(total),
                               false);
                else if (ok < total)
                    showBanner(tr("Finished with problems: %1 of %2 runs ok. The console and the "
                                  "Runs tab say why.")
                                   .arg(ok)
                                   .arg(total),
                               true);
                else
                    showBanner(tr("Finished: all %1 runs ok. Results, Throughput and Speedup show "
                                  "the campaign.")
                                   .arg(total),
                               false);
                updateButtons();
                emit campaignFinished(cancelled, ok, total);
                if (m_closeWhenDone) window()->close();
            });
    rebuildRecentMenu();
    updateButtons();
    updateCommand();
}

RunPanel::~RunPanel() {
    delete m_recent;
}

void RunPanel::showEvent(QShowEvent* event) {
    // The window is known only once the panel is placed in it: closing it mid-campaign must
    // cancel the runs first, or mpirun's children would outlive the app.
    if (!m_filterInstalled && window() != this) {
        window()->installEventFilter(this);
        m_filterInstalled = true;
    }
    QWidget::showEvent(event);
}

bool RunPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window() && event->type() == QEvent::Close && m_controller->isRunning()) {
        event->ignore();
        m_closeWhenDone = true;
        showBanner(tr("Cancelling the campaign before closing…"), false);
        m_controller->cancel();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void RunPanel::run() {
    start(false);
}
void RunPanel::resume() {
    start(true);
}
void RunPanel::cancel() {
    m_controller->cancel();
    updateButtons();
}
void RunPanel::preflight() {
    showBanner(tr("Preflight: checking…"), false);
    m_controller->preflight(m_form->campaign());
}

void RunPanel::start(bool resume) {
    const QStringList problems = m_form->problems();
    if (!problems.isEmpty()) {
        showBanner(problems.join(QLatin1Char('\n')), true);
        return;
    }
    const launcher::Campaign c = m_form->campaign();
    const auto journal = resume ? RunController::journalOf(QString::fromStdString(c.outputDir))
                                : std::map<std::string, launcher::JournalEntry>{};
    QString error;
    if (!m_controller->start(c, resume, &error)) {
        if (error.contains(QLatin1String("journal.jsonl")))
            error +=
                tr("\nPress Resume to finish that campaign, or New for a fresh output directory.");
        showBanner(error, true);
        return;
    }
    m_monitor->setPlan(plannedIds(c), journal, c.iterations);
    m_banner->hide();
    m_recent->add(
        QDir(QString::fromStdString(c.outputDir)).filePath(QStringLiteral("campaign.json")));
    rebuildRecentMenu();
    updateButtons();
}

bool RunPanel::openCampaign(const QString& fileOrDir) {
    const QFileInfo info(fileOrDir);
    const QString file =
        info.isDir() ? QDir(fileOrDir).filePath(QStringLiteral("campaign.json")) : fileOrDir;
    std::string why;
    const auto c = launcher::loadCampaign(file.toStdString(), &why);
    if (!c) {
        showBanner(tr("Cannot open the campaign %1: %2")
                       .arg(QDir::toNativeSeparators(file), QString::fromStdString(why)),
                   true);
        return false;
    }
    m_form->setCampaign(*c);
    const auto journal = RunController::journalOf(QString::fromStdString(c->outputDir));
    m_monitor->setPlan(plannedIds(*c), journal, c->iterations);
    m_canResume = !journal.empty() && leftToRun(*c, journal) > 0;
    if (journal.empty()) {
        showBanner(tr("Opened %1: not run yet. Press Run.").arg(QDir::toNativeSeparators(file)),
                   false);
    } else {
        const int left = leftToRun(*c, journal);
        const int total = static_cast<int>(plannedIds(*c).size());
        showBanner(left ? tr("Opened %1: %2 of %3 runs finished; Resume runs the other %4.")
                              .arg(QDir::toNativeSeparators(file))
                              .arg(total - left)
                              .arg(total)
                              .arg(left)
                        : tr("Opened %1: all %2 runs finished; its results are in the other tabs.")
                              .arg(QDir::toNativeSeparators(file))
                              .arg(total),
                   false);
        emit resultsReady(RunController::logRoot(*c), c->warmup, c->iterations);
    }
    m_recent->add(file);
    rebuildRecentMenu();
    updateButtons();
    return true;
}

bool RunPanel::saveCampaign(const QString& file) {
    std::string why;
    if (!launcher::saveCampaign(m_form->campaign(), file.toStdString(), &why)) {
        showBanner(tr("Cannot save %1: %2")
                       .arg(QDir::toNativeSeparators(file), QString::fromStdString(why)),
                   true);
        return false;
    }
    m_recent->add(file);
    rebuildRecentMenu();
    return true;
}

QStringList RunPanel::recentCampaigns() const {
    return m_recent->list();
}

void RunPanel::showBanner(const QString& text, bool problem) {
    m_banner->setText(text);
    m_banner->setStyleSheet(problem
                                ? QStringLiteral("QLabel { background: #fbe3e3; color: #7a1010; "
                                                 "border: 1px solid #e0a0a0; padding: 6px; }")
                                : QStringLiteral("QLabel { background: #e6effa; color: #123d73; "
                                                 "border: 1px solid #a8c0e0; padding: 6px; }"));
    m_banner->show();
}

QString RunPanel::bannerText() const {
    return m_banner->isHidden() ? QString() : m_banner->text();
}
QString RunPanel::commandText() const {
    return m_command->toPlainText();
}

void RunPanel::updateCommand() {
    QString error;
    const launcher::Campaign c = m_form->campaign();
    const QStringList lines = RunController::commandLines(c, &error);
    if (lines.isEmpty()) {
        m_commandCaption->setText(
            tr("<b>Cannot run yet:</b> %1")
                .arg(error.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))));
        m_command->clear();
    } else {
        m_commandCaption->setText(
            tr("<b>%1 runs.</b> The exact commands (each run's tag is drawn when it starts):")
                .arg(lines.size()));
        m_command->setPlainText(lines.join(QLatin1Char('\n')));
    }
    updateButtons();
}

void RunPanel::updateButtons() {
    const bool running = m_controller->isRunning();
    m_run->setEnabled(!running && !m_command->toPlainText().isEmpty());
    m_resume->setEnabled(!running && m_canResume);
    m_cancel->setEnabled(running && !m_controller->isCancelling());
    m_preflight->setEnabled(!running);
    m_form->setEnabled(!running);
}

void RunPanel::showPreflight(const std::vector<launcher::PreflightFinding>& findings) {
    int failed = 0;
    QString first;
    for (const auto& f : findings) {
        const QString line =
            QStringLiteral("%1 · %2: %3")
                .arg(QString::fromStdString(f.host), QString::fromStdString(f.check),
                     QString::fromStdString(f.message));
        m_monitor->appendNote(tr("Preflight ") + line, !f.ok);
        if (!f.ok && failed++ == 0) first = line;
    }
    if (failed == 0)
        showBanner(tr("Preflight: all %1 checks passed.").arg(findings.size()), false);
    else
        showBanner(tr("Preflight found %1 problem(s). %2").arg(failed).arg(first), true);
}

void RunPanel::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& f : m_recent->list())
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openCampaign(f); });
    if (m_recentMenu->isEmpty())
        m_recentMenu->addAction(tr("No recent campaigns"))->setEnabled(false);
}

void RunPanel::chooseOpen() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Open campaign"), QString(), tr("Campaign (*.json)"));
    if (!file.isEmpty()) openCampaign(file);
}

void RunPanel::chooseSave() {
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Save campaign"), QStringLiteral("campaign.json"), tr("Campaign (*.json)"));
    if (!file.isEmpty()) saveCampaign(file);
}

} // namespace sv::ui
