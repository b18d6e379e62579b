#include "launcher/session/dryrun.h"

#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/shellquote.h"
#include "launcher/slurm/slurmjobscript.h"
#include "launcher/ssh/hostaddresses.h"

#include <QTimer>

namespace sv::launcher {

std::vector<std::string> dryRunLines(const Campaign& campaign, const WorkloadProfile& profile,
                                     std::string* error, std::vector<std::string> rendezvous) {
    // The very builder and plan the Runner uses, so what is shown is what runs.
    CommandBuilder builder(campaign, profile, workloadDirOf(campaign));
    if (!rendezvous.empty()) builder.setRendezvousAddresses(std::move(rendezvous));
    if (!profile.launchers.count(builder.launcherName())) {
        *error = "profile " + profile.name + " has no launcher '" + builder.launcherName() + "'";
        return {};
    }
    const std::vector<PlannedRun> runs = planRuns(campaign, profile);
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string tag = "svDRYRUN" + std::to_string(i + 1);
        if (campaign.scheduler.enabled()) { // the sbatch line, then what its job script runs
            const auto sub = slurmSubmission(builder, runs[i], tag);
            // One line per run, as for the other launchers; the comment is what the job runs.
            lines.push_back(shellCommand(sub.sbatchArgv) +
                            "  # runs: " + shellCommand(sub.launchArgv));
            continue;
        }
        // A run takes a free port for its rendezvous as it starts (the profile's default is
        // only what is shown here): the preview says so rather than show a port it will not use.
        const std::string port = builder.choosesMasterPort()
                                     ? "  # master port: a free one, chosen as the run starts"
                                     : "";
        for (const Launch& l : builder.launches(runs[i], tag))
            lines.push_back(shellCommand(l.argv) + port);
    }
    return lines;
}

std::vector<std::string> dryRunLines(const Campaign& campaign, std::string* error,
                                     std::vector<std::string> rendezvous) {
    const auto problems = campaign.validate();
    if (!problems.empty()) {
        error->clear();
        for (const auto& p : problems)
            *error += (error->empty() ? "" : "\n") + p;
        return {};
    }
    const auto profile = loadProfile(campaign.profile, error);
    if (!profile) return {};
    return dryRunLines(campaign, *profile, error, std::move(rendezvous));
}

void resolveDryRun(const Campaign& campaign, QObject* context, std::function<void(DryRun)> done) {
    DryRun dry;
    dry.refusal = campaign.validate();
    std::string error;
    std::optional<WorkloadProfile> profile;
    if (dry.refusal.empty() && !(profile = loadProfile(campaign.profile, &error)))
        dry.refusal.push_back(error);
    if (!dry.refusal.empty()) return QTimer::singleShot(0, context, [dry, done] { done(dry); });
    resolveHostAddresses(campaign, context, [campaign, profile, done](HostAddresses resolved) {
        DryRun dry;
        dry.notes = std::move(resolved.problems);
        std::string error;
        dry.lines = dryRunLines(campaign, *profile, &error, std::move(resolved.addresses));
        if (dry.lines.empty()) dry.refusal.push_back(error);
        done(dry);
    });
}

} // namespace sv::launcher
