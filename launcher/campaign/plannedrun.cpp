#include "launcher/campaign/plannedrun.h"

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <filesystem>

namespace sv::launcher {

PlannedRun planRun(const Campaign& c, const WorkloadProfile& profile, int batch,
                   const std::string& precision, const Topology& topology, int repeat) {
    const auto root = std::filesystem::absolute(c.outputDir) / profile.logRoot;
    PlannedRun r;
    r.key = RunKey{profile.model, precision, batch, topology, repeat};
    const std::string folder = "bz" + std::to_string(batch) + "/" + topology.name();
    const std::string stem = profile.model + "_b" + std::to_string(batch) + "_" + precision;
    const std::string file = stem + "_" + std::to_string(repeat) + ".log";
    r.caseId = folder + "/" + stem;
    r.id = r.caseId + "_" + std::to_string(repeat);
    r.logPath = (root / folder / file).lexically_normal().string();
    return r;
}

std::vector<PlannedRun> planRuns(const Campaign& c, const WorkloadProfile& profile) {
    std::vector<PlannedRun> runs;
    for (int batch : c.batchSizes)
        for (const auto& precision : c.precisions)
            for (const auto& topology : c.topologies)
                for (int repeat = 1; repeat <= c.repeats; ++repeat)
                    runs.push_back(planRun(c, profile, batch, precision, topology, repeat));
    return runs;
}

} // namespace sv::launcher
