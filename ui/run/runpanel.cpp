#include "ui/run/runpanel.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndiff.h"
#include "launcher/campaign/campaignscaling.h"
#include "launcher/session/dryrun.h"
#include "launcher/session/preflight.h"
#include "ui/run/campaignform.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runprogressview.h"
#include "ui/run/stdstrings.h"
#include "ui/settings/appsettings.h"

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

#include <filesystem>

namespace sv::ui {
namespace {

// A new campaign beside `dir`: DIR-2, DIR-3, ... whichever does not exist yet.
QString siblingOf(const QString& dir) {
    const QString base = QDir::cleanPath(dir);
    for (int n = 2;; ++n)
        if (const QString next = base + QStringLiteral("-%1").arg(n); !QFileInfo::exists(next))
            return next;
}

std::function<void()>& finishedReadHook() {
    static std::function<void()> hook;
    return hook;
}

} // namespace

void RunPanel::setFinishedReadHookForTest(std::function<void()> hook) {
    finishedReadHook() = std::move(hook);
}

RunPanel::RunPanel(AppSettings* settings, QWidget* parent)
    : QWidget(parent), m_settings(settings), m_form(new CampaignForm(this)),
      m_monitor(new RunProgressView(this)), m_controller(new RunController(this)),
      m_banner(new QLabel(this)), m_choice(new QWidget(this)),
      m_runAsNew(new QPushButton(tr("Run as a new campaign"), m_choice)),
      m_revert(new QPushButton(tr("Revert the form"), m_choice)),
      m_command(new QPlainTextEdit(this)), m_commandCaption(new QLabel(this)),
      m_preflight(new QPushButton(tr("Preflight"), this)),
      m_run(new QPushButton(tr("▶  Run"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_resume(new QPushButton(tr("Resume"), this)), m_recentMenu(new QMenu(this)),
      m_commandTimer(new QTimer(this)) {
    describeButtons();
    QHBoxLayout* buttons = buildButtonRow();
    setUpCommandArea();
    layOut(buttons);
    connectButtons();
    connectController();
    rebuildRecentMenu();
    updateButtons();
    updateCommand();
}

void RunPanel::describeButtons() {
    m_run->setDefault(true);
    m_run->setToolTip(tr("Start the campaign in the output directory"));
    m_preflight->setToolTip(
        tr("Check the hosts, the container, the launcher and the workload before running"));
    m_cancel->setToolTip(
        tr("Stop the current run (TERM, then KILL after the grace period) and run nothing more"));
    m_resume->setToolTip(tr("Run what this campaign's journal says is not finished, with the "
                            "settings of its campaign.json"));
    m_runAsNew->setToolTip(tr("Run the form's settings as a campaign of its own, in a new "
                              "directory unless the form names one"));
    m_revert->setToolTip(tr("Show the opened campaign's settings again"));
    auto* choiceLayout = new QHBoxLayout(m_choice);
    choiceLayout->setContentsMargins(0, 0, 0, 0);
    choiceLayout->addWidget(m_runAsNew);
    choiceLayout->addWidget(m_revert);
    choiceLayout->addStretch(1);
    m_choice->hide();
}

QHBoxLayout* RunPanel::buildButtonRow() {
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
    connect(newButton, &QPushButton::clicked, this, [this] {
        m_form->setOutputDir(CampaignForm::freshOutputDir());
        ++m_generation;
        m_reading = false; // a read under way describes what New leaves behind: dropped
        m_opened.reset();
        m_canResume = false;
        m_banner->hide();
        m_choice->hide();
        updateButtons();
    });
    connect(open, &QPushButton::clicked, this, &RunPanel::chooseOpen);
    connect(save, &QPushButton::clicked, this, &RunPanel::chooseSave);
    return buttons;
}

void RunPanel::setUpCommandArea() {
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->hide();
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_command->setMaximumHeight(150);
    m_commandCaption->setWordWrap(true);
}

void RunPanel::layOut(QHBoxLayout* buttons) {
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
    layout->addWidget(m_choice);
    layout->addWidget(split, 1);
}

void RunPanel::connectButtons() {
    m_commandTimer->setSingleShot(true);
    m_commandTimer->setInterval(150);
    connect(m_commandTimer, &QTimer::timeout, this, &RunPanel::updateCommand);
    connect(m_form, &CampaignForm::edited, m_commandTimer, qOverload<>(&QTimer::start));
    connect(m_preflight, &QPushButton::clicked, this, &RunPanel::preflight);
    connect(m_run, &QPushButton::clicked, this, &RunPanel::run);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancel);
    connect(m_resume, &QPushButton::clicked, this, &RunPanel::resume);
    connect(m_runAsNew, &QPushButton::clicked, this, &RunPanel::runAsNewCampaign);
    connect(m_revert, &QPushButton::clicked, this, &RunPanel::revertForm);
}

void RunPanel::connectController() {
    connect(m_controller, &RunController::runStarted, this,
            [this](int index, int, const QString& id, const QString&) {
                m_monitor->runStarted(index, id);
                emit logInProgress(QString::fromStdString(
                    m_controller->runs()[static_cast<std::size_t>(index)].logPath));
            });
    connect(m_controller, &RunController::progress, m_monitor, &RunProgressView::showProgress);
    connect(m_controller, &RunController::runFinished, this,
            [this](int index, const QString&, const launcher::RunEnd& end) {
                m_monitor->runFinished(index, end);
                emit logInProgress({});
            });
    connect(m_controller, &RunController::logText, m_monitor, &RunProgressView::appendLog);
    connect(m_controller, &RunController::resultsChanged, this, [this](const QString& root) {
        emit resultsReady(root, m_running.warmup, m_running.iterations);
    });
    connect(m_controller, &RunController::problem, this, [this](const QString& text) {
        showBanner(text, true);
        m_monitor->appendNote(text, true);
    });
    connect(m_controller, &RunController::note, this,
            [this](const QString& text) { m_monitor->appendNote(text, false); });
    connect(m_controller, &RunController::preflightDone, this, &RunPanel::showPreflight);
    connect(m_controller, &RunController::finished, this, &RunPanel::onFinished);
}

RunPanel::~RunPanel() = default;

bool RunPanel::mayClose() const {
    return !m_controller->isRunning();
}

void RunPanel::cancelBeforeClosing() {
    m_controller->cancel();
    // After the cancel's own notes: this is what the user waits for.
    showBanner(tr("Cancelling the campaign before closing…"), false);
    updateButtons();
}

void RunPanel::onFinished(bool cancelled, int ok, int total, const QString& failure) {
    m_monitor->campaignFinished(cancelled, ok, total);
    if (!failure.isEmpty()) {
        // The campaign could not write its directory: no Resume into it.
        m_canResume = false;
        showBanner(tr("The campaign failed: %1. %2 of %3 runs ok. Free space in (or choose "
                      "another) output directory, then run again.")
                       .arg(failure)
                       .arg(ok)
                       .arg(total),
                   true);
        updateButtons();
        emit campaignFinished(cancelled, ok, total);
        return;
    }
    // What is left is what the directory says now, read as Resume will read it: on a worker
    // thread, as the journal may be long and the disk slow.
    // The user may open another campaign or start a run before it returns: then it is dropped,
    // or it would replace the newer campaign, its banner, and say "finished" (closing the window
    // if a close waits for that).
    async::runInBackground(
        this,
        [dir = m_running.outputDir, hook = finishedReadHook()] {
            if (hook) hook();
            return launcher::CampaignDirectory::open(dir);
        },
        [this, cancelled, ok, total,
         generation = m_generation](const launcher::CampaignDirectory& opened) {
            if (generation != m_generation || m_controller->isRunning()) return;
            showFinished(opened, cancelled, ok, total);
        },
        async::workPool());
}

// The Speedup tab's figure, never hidden behind "all runs ok"; one that cannot be true says so.
QString RunPanel::scalingSentence(const std::optional<launcher::WorstScaling>& w) {
    if (!w) return {};
    const QString pct = QString::number(w->efficiency * 100.0, 'f', 1);
    const QString where =
        QStringLiteral("%1 (%2, batch %3)")
            .arg(QString::fromStdString(w->topology), QString::fromStdString(w->precision))
            .arg(w->batch);
    if (w->cannotBeTrue)
        return tr(" Scaling cannot be true: %1 reached %2 % of linear (speedup %3 on %4 "
                  "ranks); its one-rank runs were probably slowed by something else.")
            .arg(where, pct, QString::number(w->speedup, 'f', 2))
            .arg(w->ranks);
    return tr(" Lowest scaling efficiency: %1 %, at %2 (speedup %3 on %4 ranks).")
        .arg(pct, where, QString::number(w->speedup, 'f', 2))
        .arg(w->ranks);
}

void RunPanel::showFinished(const launcher::CampaignDirectory& opened, bool cancelled, int ok,
                            int total) {
    m_opened = opened;
    m_canResume = opened.ok() && !opened.runsLeft().empty();
    // The headline carries the worst the details say: runs that ended ok while something
    // else shared the machine are not figures to trust.
    const int disturbed = launcher::disturbedOkRuns(opened.journal());
    m_monitor->campaignFinished(cancelled, ok, total, disturbed);
    const auto worst = cancelled ? std::nullopt : launcher::worstScaling(opened);
    const QString scaling = scalingSentence(worst);
    const bool impossible = worst && worst->cannotBeTrue;
    if (cancelled)
        showBanner(tr("Cancelled: %1 of %2 runs ok; nothing of the campaign is left "
                      "running. Resume runs the rest.")
                       .arg(ok)
                       .arg(total),
                   false);
    else if (ok < total)
        showBanner(tr("Finished with problems: %1 of %2 runs ok. The console and the "
                      "Runs tab say why.")
                           .arg(ok)
                           .arg(total) +
                       scaling,
                   true);
    else if (disturbed > 0)
        showBanner((disturbed >= total
                        ? tr("Finished, but every one of the %1 runs was disturbed: something "
                             "else used the machine while they ran, and their figures are not "
                             "reliable. The Runs tab says what disturbed each.")
                              .arg(total)
                        : tr("Finished, but %1 of the %2 runs were disturbed: something else "
                             "used the machine while they ran, and their figures are not "
                             "reliable. The Runs tab says what disturbed each.")
                              .arg(disturbed)
                              .arg(total)) +
                       scaling,
                   true);
    else
        showBanner(tr("Finished: all %1 runs ok. Results, Throughput and Speedup show "
                      "the campaign.")
                           .arg(total) +
                       scaling,
                   impossible);
    updateButtons();
    emit campaignFinished(cancelled, ok, total);
}

void RunPanel::run() {
    const QStringList problems = m_form->problems();
    if (!problems.isEmpty()) {
        showBanner(problems.join(QLatin1Char('\n')), true);
        return;
    }
    launcher::Campaign c = m_form->campaign();
    c.outputDir = launcher::absoluteOutputDir(c.outputDir);
    if (start(c, false)) m_opened.reset();
}

void RunPanel::resume() {
    if (!m_opened || !m_canResume || m_reading) return;
    // campaign.json and the journal as they are now, not as they were when opened.
    readCampaign(m_opened->directory(),
                 [this](const launcher::CampaignDirectory& opened) { resumeWith(opened); });
}

void RunPanel::resumeWith(const launcher::CampaignDirectory& opened) {
    if (!opened.ok()) {
        showBanner(tr("Cannot resume: %1").arg(QString::fromStdString(opened.error())), true);
        return;
    }
    const QStringList differences =
        toQt(launcher::campaignDifferences(opened.campaign(), m_form->campaign()));
    if (!differences.isEmpty()) {
        showBanner(tr("Resume runs %1 as saved, and the form differs from it:\n  %2\nRun the "
                      "form as a new campaign, or revert the form to the saved campaign.")
                       .arg(QDir::toNativeSeparators(QString::fromStdString(opened.file())),
                            differences.join(QStringLiteral("\n  "))),
                   true);
        m_choice->show();
        return;
    }
    m_opened = opened;
    start(opened.campaign(), true);
}

void RunPanel::runAsNewCampaign() {
    m_choice->hide();
    // The opened directory holds its own campaign: a new one never goes into it.
    const launcher::Campaign c = m_form->campaign();
    if (m_opened &&
        std::filesystem::exists(std::filesystem::path(launcher::absoluteOutputDir(c.outputDir)) /
                                "journal.jsonl"))
        m_form->setOutputDir(siblingOf(QString::fromStdString(m_opened->directory())));
    run();
}

void RunPanel::revertForm() {
    m_choice->hide();
    if (!m_opened || m_reading) return;
    readCampaign(m_opened->directory(), [this](const launcher::CampaignDirectory& opened) {
        if (!opened.ok()) {
            showBanner(tr("Cannot read the campaign again: %1")
                           .arg(QString::fromStdString(opened.error())),
                       true);
            return;
        }
        m_opened = opened;
        m_form->setCampaign(opened.campaign());
        describeOpened(opened);
    });
}

void RunPanel::cancel() {
    m_controller->cancel();
    updateButtons();
}
void RunPanel::preflight() {
    showBanner(tr("Preflight: checking…"), false);
    m_controller->preflight(m_form->campaign());
}

bool RunPanel::start(const launcher::Campaign& c, bool resume) {
    QString error;
    if (!m_controller->start(c, resume, &error)) {
        if (error.contains(QLatin1String("journal.jsonl")))
            error +=
                tr("\nPress Resume to finish that campaign, or New for a fresh output directory.");
        showBanner(error, true);
        return false;
    }
    ++m_generation;
    m_reading = false;
    m_running = c;
    QStringList ids;
    // Resuming adaptive repeats: the opened plan holds the earlier top-ups, which the runner
    // adopts only once its journal is read (in the background).
    for (const auto& run : (resume && m_opened) ? m_opened->plan() : m_controller->runs())
        ids << QString::fromStdString(run.id);
    m_monitor->setPlan(ids,
                       resume && m_opened ? m_opened->journal()
                                          : std::map<std::string, launcher::JournalEntry>{},
                       c.iterations);
    m_banner->hide();
    m_choice->hide();
    m_settings->addRecentCampaign(QString::fromStdString(c.outputDir));
    rebuildRecentMenu();
    updateButtons();
    return true;
}

void RunPanel::showBanner(const QString& text, bool problem) {
    m_banner->setText(text);
    m_bannerIsProblem = problem;
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
    const launcher::Campaign c = m_form->campaign();
    std::string error;
    for (const auto& p : c.validate())
        error += (error.empty() ? "" : "\n") + p;
    if (error.empty() && m_profileName != c.profile) {
        m_profileName = c.profile;
        m_profileError.clear();
        m_profile = launcher::loadProfile(c.profile, &m_profileError);
    }
    if (error.empty() && !m_profile) error = m_profileError;
    const QStringList lines =
        error.empty() ? toQt(launcher::dryRunLines(c, *m_profile, &error)) : QStringList();
    if (lines.isEmpty()) {
        m_commandCaption->setText(tr("<b>Cannot run yet:</b> %1")
                                      .arg(QString::fromStdString(error).toHtmlEscaped().replace(
                                          QLatin1Char('\n'), QStringLiteral("<br>"))));
        m_command->clear();
    } else {
        // Adaptive repeats: the minimum is planned; each case may add up to its maximum and
        // its reruns, with the same command and the next repeat number.
        const qsizetype cases =
            qsizetype(c.topologies.size() * c.batchSizes.size() * c.precisions.size());
        m_commandCaption->setText(
            c.adaptive()
                ? tr("<b>%1 to %2 runs</b> (adaptive repeats). The exact commands of the "
                     "minimum (each run's tag is drawn when it starts):")
                      .arg(cases * c.repeats)
                      .arg(cases * (c.maxRepeats() + c.rerunLimit))
                : tr("<b>%1 runs.</b> The exact commands (each run's tag is drawn when it starts):")
                      .arg(lines.size()));
        m_command->setPlainText(lines.join(QLatin1Char('\n')));
    }
    updateButtons();
}

void RunPanel::updateButtons() {
    const bool running = m_controller->isRunning();
    // While a campaign is read, the form is about to be replaced: nothing acts on it.
    const bool busy = running || m_reading;
    m_run->setEnabled(!busy && !m_command->toPlainText().isEmpty());
    m_resume->setEnabled(!busy && m_canResume);
    m_cancel->setEnabled(running && !m_controller->isCancelling());
    m_preflight->setEnabled(!busy);
    m_form->setEnabled(!busy);
    m_choice->setEnabled(!m_reading);
}

void RunPanel::showPreflight(const std::vector<launcher::PreflightFinding>& findings) {
    for (const auto& f : findings) {
        const QString line =
            QStringLiteral("%1 · %2: %3")
                .arg(QString::fromStdString(f.host), QString::fromStdString(f.check),
                     QString::fromStdString(f.message));
        m_monitor->appendNote(tr("Preflight ") + line, !f.ok || f.warning);
    }
    // The headline is as red as the worst line under it (a busy host is a warning).
    const launcher::PreflightHeadline headline = launcher::preflightHeadline(findings);
    showBanner(QString::fromStdString(headline.text), headline.failures + headline.warnings > 0);
}

} // namespace sv::ui
