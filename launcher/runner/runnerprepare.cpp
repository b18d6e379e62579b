// How a Runner prepares its campaign's directory: at once for the command line, or with the
// writes (workload script, campaign.json, the journal's interrupted records) and the journal's
// reading on a worker thread for the app, whose GUI thread must not wait on a disk.

#include "launcher/runner/runner.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/container/containerlifecycle.h"
#include "launcher/container/containersshd.h"

#include <filesystem>

namespace sv::launcher {
namespace fs = std::filesystem;

std::optional<std::string> Runner::refusal(bool resume) const {
    if (!m_profile.launchers.count(m_builder.launcherName()))
        return "profile " + m_profile.name + " has no launcher '" + m_builder.launcherName() + "'";
    std::error_code ec;
    if (!resume && fs::exists(m_journal.path(), ec))
        return m_campaign.outputDir +
               " already holds a campaign (journal.jsonl); use 'resume' or another directory";
    return std::nullopt;
}

Runner::Prepared Runner::prepareDirectory(Campaign campaign, WorkloadProfile profile,
                                          std::string scriptPath, Journal journal,
                                          std::vector<PlannedRun> runs, bool resume) {
    Prepared p;
    if (!prepareCampaignDirectory(campaign, profile, scriptPath, journal.path(), resume, &p.error))
        return p;
    p.previous = journal.read(&p.warnings);
    p.caseStops = journal.readCaseStops();
    if (campaign.adaptive()) { // an interrupted top-up's end record names its log too
        std::vector<RunState> states(runs.size());
        AdaptiveSchedule(campaign, profile).adopt(runs, states, p.previous, {});
    }
    closeInterruptedRuns(journal, p.previous, runs, &p.error);
    // Each session says which nodes it leaves out, and why (resume: still left out).
    for (const ExcludedNode& x : campaign.excludedNodes)
        if (p.error.empty()) journal.appendExclusion(x.host.name, x.reason, &p.error);
    return p;
}

void Runner::adopt(Prepared prepared) {
    m_previous = std::move(prepared.previous);
    m_journalWarnings = std::move(prepared.warnings);
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        auto it = m_previous.find(m_runs[i].id);
        if (it != m_previous.end()) m_states[i] = it->second.state();
    }
    if (m_adaptive) m_adaptive->adopt(m_runs, m_states, m_previous, prepared.caseStops);
}

bool Runner::prepare(bool resume, std::string* error) {
    if (auto why = refusal(resume)) {
        *error = *why;
        return false;
    }
    Prepared p =
        prepareDirectory(m_campaign, m_profile, m_builder.scriptPath(), m_journal, m_runs, resume);
    *error = p.error;
    adopt(std::move(p));
    return error->empty();
}

void Runner::prepareInBackground(bool resume, std::function<void(std::string error)> done) {
    async::runInBackground(
        this,
        [campaign = m_campaign, profile = m_profile, script = m_builder.scriptPath(),
         journal = m_journal, runs = m_runs,
         resume] { return prepareDirectory(campaign, profile, script, journal, runs, resume); },
        [this, done = std::move(done)](Prepared p) {
            std::string error = p.error;
            adopt(std::move(p));
            done(error);
        });
}

void Runner::startContainers() {
    // From here on the campaign's end removes them, also what a start that failed half-way left
    // (the campaign's ssh keys too).
    m_containersUp = true;
    const bool sshd = m_builder.containerSsh().needed();
    // Each step says what it did; a failure ends the campaign, as does a cancel between steps.
    auto then = [this](std::function<void()> next) {
        return [this, next = std::move(next)](ContainerLifecycle::Outcome o) {
            for (const auto& m : o.messages)
                emit message(QString::fromStdString(m));
            if (!o.failure.empty()) return finish(CampaignEnd::Outcome::Failed, o.failure);
            if (m_cancelRequested) return finish(CampaignEnd::Outcome::Cancelled);
            next();
        };
    };
    // Multi-node: the containers reach each other through an sshd in each, started once they run.
    auto afterStart = [this, sshd, then] {
        if (!sshd) return stage();
        ContainerSshd::start(m_builder, this, then([this] { stage(); }));
    };
    auto startAll = [this, then, afterStart] {
        emit message(QString::fromStdString("starting a container of " +
                                            m_builder.containers().image() + " on every host"));
        ContainerLifecycle::start(m_builder, m_journal, this, then(afterStart));
    };
    // The keys go to every host before its container starts (docker would make a missing
    // campaign directory there, owned by root).
    if (!sshd) return startAll();
    ContainerSshd::prepare(m_builder, this, then(startAll));
}

} // namespace sv::launcher
