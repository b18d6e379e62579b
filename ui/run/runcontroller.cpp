#include "ui/run/runcontroller.h"

#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/shellquote.h"
#include "launcher/monitor/environmentcapture.h"
#include "launcher/runner/runner.h"
#include "ui/run/consolefeed.h"

#include <QDir>
#include <QFileInfo>

namespace sv::ui {
namespace {

QString joined(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& l : lines)
        out << QString::fromStdString(l);
    return out.join(QLatin1Char('\n'));
}

// What the user can do about a run that did not end well.
QString advice(launcher::RunState state) {
    using launcher::RunState;
    switch (state) {
    case RunState::Failed:
        return QObject::tr(
            "Read the log console for the error; Preflight checks the hosts and the workload.");
    case RunState::Timeout:
        return QObject::tr("The host may be overloaded or hung; check it, or raise the timeouts in "
                           "the campaign file.");
    case RunState::Incomplete:
        return QObject::tr("It exited without a usable throughput: make iterations larger than "
                           "warmup and read the log.");
    case RunState::Cancelled:
    case RunState::Interrupted:
        return QObject::tr("Resume runs it again.");
    default:
        return {};
    }
}

} // namespace

RunController::RunController(QObject* parent) : QObject(parent), m_console(new ConsoleFeed(this)) {
    connect(m_console, &ConsoleFeed::text, this, &RunController::logText);
}

RunController::~RunController() {
    // The app is going away with a campaign running (the panel normally holds the window open
    // until a cancel ends): the Runner's QProcess would only KILL mpirun, leaving its ranks.
    // The Runner KILLs its run's groups and sweeps its tag here and on every host.
    if (m_runner) m_runner->abandon();
}

QString RunController::logRoot(const launcher::Campaign& campaign) {
    std::string error;
    const auto profile = launcher::loadProfile(campaign.profile, &error);
    const QString out = QFileInfo(QString::fromStdString(campaign.outputDir)).absoluteFilePath();
    return profile
               ? QDir::cleanPath(out + QLatin1Char('/') + QString::fromStdString(profile->logRoot))
               : out;
}

bool RunController::start(const launcher::Campaign& campaign, bool resume, QString* error) {
    if (m_runner) {
        *error = tr("A campaign is already running; cancel it first.");
        return false;
    }
    const auto problems = campaign.validate();
    if (!problems.empty()) {
        *error = tr("The campaign cannot run:\n%1").arg(joined(problems));
        return false;
    }
    std::string why;
    const auto profile = launcher::loadProfile(campaign.profile, &why);
    if (!profile) {
        *error = QString::fromStdString(why);
        return false;
    }
    auto runner = std::make_unique<launcher::Runner>(campaign, *profile, this);
    if (const auto refused = runner->refusal(resume)) {
        *error = QString::fromStdString(*refused);
        return false;
    }
    m_runner = runner.release();
    m_campaign = campaign;
    m_cancelling = false;
    const int total = static_cast<int>(m_runner->runs().size());
    connect(m_runner, &launcher::Runner::runStarted, this,
            [this, total](int index, const QString& id, const QString& command) {
                emit runStarted(index, total, id, command);
            });
    connect(m_runner, &launcher::Runner::output, m_console,
            [this](int, const QByteArray& bytes) { m_console->append(bytes); });
    connect(m_runner, &launcher::Runner::progress, this, &RunController::progress);
    connect(m_runner, &launcher::Runner::runFinished, this, &RunController::onRunFinished);
    connect(m_runner, &launcher::Runner::message, this, &RunController::problem);
    connect(m_runner, &launcher::Runner::finished, this, &RunController::onFinished);
    emit started(total);
    emit note(tr("%1 runs of %2 into %3")
                  .arg(total)
                  .arg(QString::fromStdString(profile->label),
                       QString::fromStdString(campaign.outputDir)));
    // The directory's writes and the journal's reading happen on a worker thread; then the
    // machines' description goes beside the logs, as the command line does. That can take a
    // while (nvidia-smi, importing torch): said, and bounded by its own timeout.
    m_runner->prepareInBackground(resume, [this, profile = *profile](std::string why) {
        if (!why.empty()) {
            emit problem(QString::fromStdString(why));
            onFinished({launcher::CampaignEnd::Outcome::Failed, why});
            return;
        }
        emit note(tr("Capturing environment… (hosts, GPUs, versions; at most %1 s)")
                      .arg(std::chrono::duration_cast<std::chrono::seconds>(m_environmentTimeout)
                               .count()));
        QPointer<launcher::Runner> guard(m_runner);
        launcher::EnvironmentCapture::run(
            m_campaign, profile, SCALEVIEW_UI_VERSION, m_runner,
            [this, guard](const launcher::EnvironmentCapture::Result& captured) {
                if (!guard) return;
                for (const auto& p : captured.problems)
                    emit problem(QString::fromStdString(p));
                emit note(
                    tr("Environment captured (%1 files in environment/).").arg(captured.files));
                guard->start(); // after a cancel, start() ends at once, cancelled
            },
            m_environmentTimeout);
    });
    return true;
}

void RunController::onRunFinished(int index, const launcher::RunEnd& end) {
    m_console->flush();
    const auto& run = m_runner->runs()[static_cast<std::size_t>(index)];
    const QString id = QString::fromStdString(run.id);
    if (end.state != launcher::RunState::Ok && end.state != launcher::RunState::Cancelled) {
        QString text =
            tr("Run %1 ended %2")
                .arg(id, QString::fromStdString(std::string(launcher::runStateName(end.state))));
        if (!end.host.empty()) text += tr(" on %1").arg(QString::fromStdString(end.host));
        if (end.exitCode) text += tr(" (exit code %1)").arg(*end.exitCode);
        if (!end.reason.empty()) text += QStringLiteral(": ") + QString::fromStdString(end.reason);
        text += QStringLiteral(". ") +
                (end.advice.empty() ? advice(end.state) : QString::fromStdString(end.advice)) +
                tr(" Log: %1").arg(QString::fromStdString(run.logPath));
        emit problem(text);
    }
    if (!end.leftover.empty())
        emit problem(
            tr("%1 process(es) of run %2 survived KILL (pids on the host); end them by hand.")
                .arg(end.leftover.size())
                .arg(id));
    emit runFinished(index, id, end);
    emit resultsChanged(logRoot(m_campaign));
}

void RunController::cancel() {
    if (!m_runner || m_cancelling) return;
    m_cancelling = true;
    if (m_runner->phase() == launcher::Runner::Phase::Idle) {
        // The directory is being prepared or the environment captured: no run has started, so
        // the campaign ends now; the capture's answer finds no Runner and is dropped. From the
        // event loop, not inside this call: a caller (the window's close) may not expect
        // finished before cancel() returns.
        m_runner->cancel();
        emit note(tr("Cancelled before the first run."));
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_runner && m_runner->phase() == launcher::Runner::Phase::Idle)
                    onFinished({launcher::CampaignEnd::Outcome::Cancelled, {}});
            },
            Qt::QueuedConnection);
        return;
    }
    emit note(tr("Cancelling: TERM to every process of the run, KILL after %1 s, then a check that "
                 "none is left.")
                  .arg(m_campaign.graceSeconds));
    m_runner->cancel();
}

void RunController::onFinished(const launcher::CampaignEnd& end) {
    m_console->flush();
    int ok = 0;
    const int total = static_cast<int>(m_runner->runs().size());
    for (int i = 0; i < total; ++i)
        ok += m_runner->state(i) == launcher::RunState::Ok ? 1 : 0;
    m_runner->deleteLater();
    m_runner = nullptr;
    m_cancelling = false;
    emit finished(end.cancelled(), ok, total, QString::fromStdString(end.reason));
}

void RunController::preflight(const launcher::Campaign& campaign) {
    if (m_preflighting) return;
    std::string why;
    const auto profile = launcher::loadProfile(campaign.profile, &why);
    if (!profile) {
        emit problem(QString::fromStdString(why));
        return;
    }
    m_preflighting = true;
    launcher::Preflight::run(campaign, *profile, this,
                             [this](std::vector<launcher::PreflightFinding> findings) {
                                 m_preflighting = false;
                                 emit preflightDone(findings);
                             });
}

} // namespace sv::ui
