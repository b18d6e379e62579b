#pragma once
// One run of a campaign, as planned: what it measures and where its log goes.

#include "core/model/runkey.h"

#include <string>
#include <vector>

namespace sv::launcher {

struct Campaign;
struct WorkloadProfile;

struct PlannedRun {
    std::string id;     // "bz16/1n2g/r50_b16_fp32_1": unique in the campaign, stable across resumes
    std::string caseId; // "bz16/1n2g/r50_b16_fp32": the id without the repeat
    RunKey key;
    std::string logPath; // absolute, in the methodology's layout
};

// In run_test.sh's order: per batch size and precision, each topology's repeats 1..N together
// (N: campaign.repeats, the minimum when the repeats are adaptive).
std::vector<PlannedRun> planRuns(const Campaign& campaign, const WorkloadProfile& profile);
// One repeat of one case: adaptive repeats add runs to the plan this way.
PlannedRun planRun(const Campaign& campaign, const WorkloadProfile& profile, int batch,
                   const std::string& precision, const Topology& topology, int repeat);

} // namespace sv::launcher
