#pragma once
// Adaptive repeats over a whole campaign: which cases need another run, in what order, which
// runs of earlier sessions belong to the plan, and how many runs may still come. The Runner
// asks it for the next run once every planned run has ended.

#include "launcher/campaign/adaptiverepeats.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sv::launcher {

class AdaptiveSchedule {
  public:
    AdaptiveSchedule(Campaign campaign, WorkloadProfile profile);

    // On resume: the runs an earlier session added beyond the minimum join the plan (their
    // states from the journal), their ends are known, and cases it stopped stay stopped.
    void adopt(std::vector<PlannedRun>& runs, std::vector<RunState>& states,
               const std::map<std::string, JournalEntry>& previous,
               const std::map<std::string, CaseStop>& stopped);
    // A run of this session ended.
    void ended(const std::string& id, const RunEnd& end);

    struct Step {
        std::vector<CaseStop> stops;   // cases that stopped since the last step: to journal
        std::optional<PlannedRun> run; // the next run; none once every case has stopped
    };
    // Call when every planned run has ended. Marks the stops it returns as recorded.
    Step next(const std::vector<PlannedRun>& runs, const std::vector<RunState>& states);
    // Whether next() would give a run (stops aside), without marking anything.
    bool wantsMore(const std::vector<PlannedRun>& runs, const std::vector<RunState>& states) const;
    // Runs still to come after the current one (index; -1: none running), at least and at most.
    RunRange remaining(const std::vector<PlannedRun>& runs, const std::vector<RunState>& states,
                       int current) const;

    CaseTally tally(const std::string& caseId, const std::vector<PlannedRun>& runs,
                    const std::vector<RunState>& states) const;

  private:
    struct Case {
        std::string id;
        int batch = 0;
        std::string precision;
        Topology topology;
        std::uint64_t seed = 0;
    };
    std::vector<Case> m_cases; // in the plan's order
    Campaign m_campaign;
    WorkloadProfile m_profile;
    RepeatsPolicy m_policy;
    std::map<std::string, RunEnd> m_ends; // by run id
    std::set<std::string> m_stopped;      // cases whose stop is in the journal
};

} // namespace sv::launcher
