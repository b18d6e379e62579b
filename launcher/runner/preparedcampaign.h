#pragma once
// A campaign's directory made ready for a Runner's session, and what earlier sessions left in
// it: the directory, the workload script and campaign.json written (a directory that holds a
// journal needs resume), the journal read, the runs a crash interrupted marked so, the nodes
// left out recorded. Blocking (writes, fsync): the app calls it on a worker thread.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct PreparedCampaign {
    std::string error;                            // empty: prepared
    std::map<std::string, JournalEntry> previous; // each run's latest record
    std::map<std::string, CaseStop> caseStops;    // adaptive repeats' stopped cases
    std::vector<std::string> warnings;            // journal lines skipped, in words

    // What refuses the campaign at once: no such launcher in the profile, or a journal in the
    // directory without resume.
    static std::optional<std::string> refusal(const Campaign& campaign,
                                              const WorkloadProfile& profile,
                                              const std::string& launcher,
                                              const std::string& journalPath, bool resume);
    // On copies, so safe on a worker thread.
    static PreparedCampaign prepare(Campaign campaign, WorkloadProfile profile,
                                    std::string scriptPath, Journal journal,
                                    std::vector<PlannedRun> runs, bool resume);
};

} // namespace sv::launcher
