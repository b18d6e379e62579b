#include "launcher/runner/preparedcampaign.h"

#include "launcher/campaign/adaptiveschedule.h"
#include "launcher/campaign/campaigndirectory.h"

#include <filesystem>

namespace sv::launcher {

std::optional<std::string> PreparedCampaign::refusal(const Campaign& campaign,
                                                     const WorkloadProfile& profile,
                                                     const std::string& launcher,
                                                     const std::string& journalPath, bool resume) {
    if (!profile.launchers.count(launcher))
        return "profile " + profile.name + " has no launcher '" + launcher + "'";
    std::error_code ec;
    if (!resume && std::filesystem::exists(journalPath, ec))
        return campaign.outputDir +
               " already holds a campaign (journal.jsonl); use 'resume' or another directory";
    return std::nullopt;
}

PreparedCampaign PreparedCampaign::prepare(Campaign campaign, WorkloadProfile profile,
                                           std::string scriptPath, Journal journal,
                                           std::vector<PlannedRun> runs, bool resume) {
    PreparedCampaign p;
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

} // namespace sv::launcher
