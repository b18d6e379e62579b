#include "ui/run/runcontroller.h"

#include "launcher/campaign/workloadprofile.h"
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

// The app going away with a campaign running (the panel normally holds the window open until a
// cancel ends): the session, a child, abandons its runs as it goes, KILLing what they started
// here and on every host.
RunController::~RunController() = default;

const std::vector<launcher::PlannedRun>& RunController::runs() const {
    static const std::vector<launcher::PlannedRun> none;
    return m_session ? m_session->runs() : none;
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
    if (m_session) {
        *error = tr("A campaign is already running; cancel it first.");
        return false;
    }
    launcher::SessionOptions options;
    options.resume = resume;
    options.version = SCALEVIEW_UI_VERSION;
    options.environmentTimeout = m_environmentTimeout;
    if (m_record)
        options.record = [record = m_record](const std::string& directory) {
            record(QString::fromStdString(directory));
        };
    std::vector<std::string> refusal;
    auto session = launcher::CampaignSession::create(campaign, options, &refusal, this);
    if (!session) {
        *error = tr("The campaign cannot run:\n%1").arg(joined(refusal));
        return false;
    }
    m_session = session.release();
    connectSession();
    const int total = static_cast<int>(m_session->runs().size());
    emit started(total);
    emit note(tr("%1 runs of %2 into %3")
                  .arg(total)
                  .arg(QString::fromStdString(m_session->profile().label),
                       QString::fromStdString(campaign.outputDir)));
    m_session->start();
    return true;
}

void RunController::connectSession() {
    using launcher::CampaignSession;
    connect(m_session, &CampaignSession::capturingEnvironment, this,
            [this](std::chrono::milliseconds timeout) {
                emit note(
                    tr("Capturing environment… (hosts, GPUs, versions; at most %1 s)")
                        .arg(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()));
            });
    connect(m_session, &CampaignSession::environmentCaptured, this,
            [this](int files, const std::vector<std::string>& problems) {
                for (const auto& p : problems)
                    emit problem(QString::fromStdString(p));
                emit note(tr("Environment captured (%1 files in environment/).").arg(files));
            });
    connect(m_session, &CampaignSession::runStarted, this,
            [this](int index, const QString& id, const QString& command) {
                emit runStarted(index, static_cast<int>(m_session->runs().size()), id, command);
            });
    connect(m_session, &CampaignSession::output, m_console,
            [this](int, const QByteArray& bytes) { m_console->append(bytes); });
    connect(m_session, &CampaignSession::progress, this, &RunController::progress);
    connect(m_session, &CampaignSession::runFinished, this, &RunController::onRunFinished);
    connect(m_session, &CampaignSession::message, this, &RunController::problem);
    // The probes' news goes to the console, not the red problem banner.
    connect(m_session, &CampaignSession::note, this, &RunController::note);
    connect(m_session, &CampaignSession::finished, this, &RunController::onFinished);
}

void RunController::onRunFinished(int index, const launcher::RunEnd& end) {
    m_console->flush();
    const auto& run = m_session->runs()[static_cast<std::size_t>(index)];
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
    emit resultsChanged(logRoot(m_session->campaign()));
}

void RunController::cancel() {
    if (!m_session || m_session->isCancelling()) return;
    using Stage = launcher::CampaignSession::Stage;
    if (m_session->stage() == Stage::Preparing || m_session->stage() == Stage::CapturingEnvironment)
        emit note(tr("Cancelled before the first run."));
    else
        emit note(tr("Cancelling: TERM to every process of the run, KILL after %1 s, then a check "
                     "that none is left.")
                      .arg(m_session->campaign().graceSeconds));
    m_session->cancel();
}

void RunController::onFinished(const launcher::SessionEnd& end) {
    m_console->flush();
    // The directory could not be prepared: said as the campaign's failure.
    if (!end.prepared && end.campaign.failed())
        emit problem(QString::fromStdString(end.campaign.reason));
    m_session->deleteLater();
    m_session = nullptr;
    emit finished(end.campaign.cancelled(), end.ok, end.total,
                  QString::fromStdString(end.campaign.reason));
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
