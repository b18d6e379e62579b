#include "launcher/runner/campaignstaging.h"

#include "launcher/campaign/campaigndirectory.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/exec/processtree.h"

#include <csignal>
#include <memory>

namespace sv::launcher {

void CampaignStaging::run(const CommandBuilder& builder, const WorkloadProfile& profile,
                          const std::map<std::string, JournalEntry>& previous, QObject* context,
                          Done done) {
    const Campaign& campaign = builder.campaign();
    const int timeoutMs = static_cast<int>(
        std::chrono::milliseconds(campaign.connectTimeout() + std::chrono::seconds(20)).count());
    std::vector<std::string> localTags;
    std::vector<BatchCommand> setup;
    for (const auto& [id, entry] : previous) {
        if (entry.state() != RunState::Interrupted || entry.tag.empty()) continue;
        // A Slurm job is not a leftover: resume reattaches it (its tasks carry the tag).
        if (!entry.jobId.empty()) continue;
        localTags.push_back(entry.tag);
        for (int h = 0; h < builder.sweepHostCount(); ++h)
            setup.push_back({builder.sweepArgv(h, entry.tag, "KILL"), {}, timeoutMs});
    }
    const std::size_t staging = setup.size(); // the script copies follow the sweeps
    const int hostCount = static_cast<int>(campaign.hosts.size());
    if (!profile.scriptText.empty())
        for (int h = 0; h < hostCount; ++h)
            setup.push_back({builder.onHost(h,
                                            {"sh", "-c", "mkdir -p \"$1\" && cat > \"$1/$2\"", "sh",
                                             workloadDirOf(campaign), profile.scriptName},
                                            false),
                             profile.scriptText, timeoutMs});

    // Everything below ends in one place: when the last part is done, done() is called.
    struct Join {
        int pending = 0;
        std::vector<std::string> problems;
        Done done;
        void one() {
            if (--pending == 0) done(std::move(problems));
        }
    };
    auto join = std::make_shared<Join>();
    join->pending = 1 + static_cast<int>(localTags.size());
    join->done = std::move(done);
    for (const auto& tag : localTags)
        ProcessTree(tag).inBackground(
            SIGKILL, 0, context, std::chrono::seconds(10), [join, tag](ProcessTree::Scan scan) {
                if (!scan.finished)
                    join->problems.push_back("could not look for what the interrupted run " + tag +
                                             " left on this machine within 10 s");
                join->one();
            });
    std::vector<std::string> names;
    for (int h = 0; h < hostCount; ++h)
        names.push_back(builder.hostName(h));
    CommandBatch::run(
        std::move(setup), context, [join, staging, names](std::vector<BatchResult> results) {
            for (std::size_t i = staging; i < results.size(); ++i)
                if (results[i].exitCode != 0)
                    join->problems.push_back(
                        "could not copy the workload script to " + names[i - staging] + " (" +
                        (results[i].timedOut ? std::string("no answer") : results[i].errors) +
                        "); its runs will fail");
            join->one();
        });
}

} // namespace sv::launcher
