#include "plannedrun.h"

#include "campaign.h"
#include "workloadprofile.h"

#include <filesystem>

namespace sv::launcher {

std::vector<PlannedRun> planRuns(const Campaign& c, const WorkloadProfile& profile) {
    std::vector<PlannedRun> runs;
    const auto root = std::filesystem::absolute(c.outputDir) / profile.logRoot;
    for (int batch : c.batchSizes)
        for (const auto& precision : c.precisions)
            for (const auto& topology : c.topologies)
                for (int repeat = 1; repeat <= c.repeats; ++repeat) {
                    PlannedRun r;
                    r.key = RunKey{profile.model, precision, batch, topology, repeat};
                    const std::string folder = "bz" + std::to_string(batch) + "/" + topology.name();
                    const std::string file = profile.model + "_b" + std::to_string(batch) + "_" +
                                             precision + "_" + std::to_string(repeat) + ".log";
                    r.id = folder + "/" + file.substr(0, file.size() - 4);
                    r.logPath = (root / folder / file).lexically_normal().string();
                    runs.push_back(std::move(r));
                }
    return runs;
}

} // namespace sv::launcher
