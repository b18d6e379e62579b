#include "launcher/session/campaignsession.h"

#include "launcher/monitor/environmentcapture.h"
#include "launcher/runner/runner.h"

#include <QPointer>
#include <QTimer>
#include <utility>

namespace sv::launcher {

std::unique_ptr<CampaignSession> CampaignSession::create(Campaign campaign, SessionOptions options,
                                                         std::vector<std::string>* refusal,
                                                         QObject* parent) {
    *refusal = campaign.validate();
    if (!refusal->empty()) return nullptr;
    std::string error;
    std::optional<WorkloadProfile> profile = loadProfile(campaign.profile, &error);
    if (!profile) {
        refusal->push_back(error);
        return nullptr;
    }
    std::unique_ptr<CampaignSession> session(
        new CampaignSession(std::move(campaign), std::move(*profile), std::move(options), parent));
    if (auto why = session->m_runner->refusal(session->m_options.resume)) {
        refusal->push_back(*why);
        return nullptr;
    }
    return session;
}

bool CampaignSession::recordable(const CampaignEnd& end, int ok) {
    return !end.failed() && !end.cancelled() && ok > 0;
}

CampaignSession::CampaignSession(Campaign campaign, WorkloadProfile profile, SessionOptions options,
                                 QObject* parent)
    : QObject(parent), m_campaign(std::move(campaign)), m_profile(std::move(profile)),
      m_options(std::move(options)), m_runner(new Runner(m_campaign, m_profile, this)) {
    connectRunner();
}

CampaignSession::~CampaignSession() {
    // Going away mid-campaign (the app quits): the Runner KILLs what its run started, here and
    // on every host, rather than leave ranks behind; the search's probes stop with it.
    if (m_stage == Stage::Running) m_runner->abandon();
}

const std::vector<PlannedRun>& CampaignSession::runs() const {
    return m_runner->runs();
}

RunState CampaignSession::state(int index) const {
    return m_runner->state(index);
}

int CampaignSession::okRuns() const {
    int ok = 0;
    for (std::size_t i = 0; i < runs().size(); ++i)
        ok += state(static_cast<int>(i)) == RunState::Ok ? 1 : 0;
    return ok;
}

const std::string& CampaignSession::journalPath() const {
    return m_runner->journalPath();
}

void CampaignSession::connectRunner() {
    connect(m_runner, &Runner::runStarted, this, &CampaignSession::runStarted);
    connect(m_runner, &Runner::runPlanned, this, &CampaignSession::runPlanned);
    connect(m_runner, &Runner::output, this, &CampaignSession::output);
    connect(m_runner, &Runner::progress, this, &CampaignSession::progress);
    connect(m_runner, &Runner::runFinished, this, &CampaignSession::runFinished);
    connect(m_runner, &Runner::message, this, &CampaignSession::message);
    connect(m_runner, &Runner::note, this, &CampaignSession::note);
    connect(m_runner, &Runner::finished, this, &CampaignSession::runsDone);
}

void CampaignSession::start() {
    if (m_stage == Stage::Created) prepare();
}

void CampaignSession::prepare() {
    m_stage = Stage::Preparing;
    // The directory's writes and the journal's reading on a worker thread: the GUI thread never
    // waits on a disk.
    m_runner->prepareInBackground(m_options.resume, [this](std::string error) {
        if (m_stage != Stage::Preparing) return; // cancelled meanwhile: ended already
        if (!error.empty()) {
            m_end.campaign = {CampaignEnd::Outcome::Failed, std::move(error)};
            return finish();
        }
        m_end.prepared = true;
        emit prepared();
        captureEnvironment();
    });
}

void CampaignSession::captureEnvironment() {
    m_stage = Stage::CapturingEnvironment;
    emit capturingEnvironment(m_options.environmentTimeout);
    // The machines' description beside the logs (nvidia-smi, importing torch: it can take a
    // while, bounded by its own timeout); the campaign goes on whatever it found.
    EnvironmentCapture::run(
        m_campaign, m_profile, m_options.version, this,
        [this](const EnvironmentCapture::Result& captured) {
            if (m_stage != Stage::CapturingEnvironment) return;
            emit environmentCaptured(captured.files, captured.problems);
            run();
        },
        m_options.environmentTimeout);
}

void CampaignSession::run() {
    m_stage = Stage::Running;
    m_runner->start();
}

void CampaignSession::runsDone(const CampaignEnd& end) {
    m_end.campaign = end;
    m_end.ok = okRuns();
    emit runsEnded(end, m_end.ok, static_cast<int>(runs().size()));
    if (m_options.record && recordable(end, m_end.ok)) {
        m_options.record(m_campaign.outputDir);
        m_end.recorded = true;
    }
    if (m_options.slowNode && !end.cancelled() && !m_cancelled) return searchSlowNode();
    finish();
}

void CampaignSession::searchSlowNode() {
    m_stage = Stage::SearchingSlowNode;
    m_search = new SlowNodeSession(this);
    connect(m_search, &SlowNodeSession::planned, this, &CampaignSession::slowNodePlanned);
    connect(m_search, &SlowNodeSession::finished, this, [this](const SlowNodeReport& report) {
        m_end.slowNode = report;
        finish();
    });
    m_search->start(m_campaign, m_profile, *m_options.slowNode);
}

void CampaignSession::cancel() {
    if (m_stage == Stage::Done || std::exchange(m_cancelled, true)) return;
    switch (m_stage) {
    case Stage::Created:
    case Stage::Preparing:
    case Stage::CapturingEnvironment:
        // No run has started: the campaign ends now. From the event loop, not inside this call:
        // a caller (the window's close) may not expect finished() before cancel() returns. What
        // the preparation or the capture answers later is dropped.
        m_runner->cancel();
        QTimer::singleShot(0, this, [this] {
            if (m_stage == Stage::Done || m_stage == Stage::Running) return;
            m_end.campaign = {CampaignEnd::Outcome::Cancelled, {}};
            emit runsEnded(m_end.campaign, okRuns(), static_cast<int>(runs().size()));
            finish();
        });
        break;
    case Stage::Running:
        m_runner->cancel(); // TERM, grace, KILL; then runsDone, cancelled
        break;
    case Stage::SearchingSlowNode:
        m_search->cancel(); // its verdict then says cancelled
        break;
    case Stage::Done:
        break;
    }
}

void CampaignSession::finish() {
    // The plan as it stands (adaptive repeats add to it), also when no run could start.
    m_end.total = static_cast<int>(runs().size());
    m_end.ok = okRuns();
    m_stage = Stage::Done;
    emit finished(m_end);
}

} // namespace sv::launcher
