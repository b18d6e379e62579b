#pragma once
// The campaign on disk: its directory (never reused by accident: a journal there needs resume),
// the workload script and campaign.json beside the logs, runs a crash interrupted marked so in
// the journal, and each run's log created new, never over an existing one.

#include "campaign.h"
#include "journal.h"
#include "plannedrun.h"
#include "workloadprofile.h"

#include <QFile>
#include <map>
#include <memory>
#include <string>

namespace sv::launcher {

// Where the profile's compiled-in workload script goes: OUT/workload, absolute.
std::string workloadDirOf(const Campaign& campaign);

// Creates the output directory and writes the workload script to scriptPath and, unless
// resuming, campaign.json. A directory that holds a journal is refused without resume.
bool prepareCampaignDirectory(const Campaign& campaign, const WorkloadProfile& profile,
                              const std::string& scriptPath, const std::string& journalPath,
                              bool resume, std::string* error);

// A start without an end in the journal: the runner died during that run. Says so in the
// journal now and in `previous`.
bool closeInterruptedRuns(Journal& journal, std::map<std::string, JournalEntry>& previous,
                          const std::vector<PlannedRun>& runs, std::string* error);

// The run's log, opened new. The log of a run that did not finish (before: interrupted or
// cancelled) is moved aside to LOG.<state>-N first; any other existing log is never touched.
std::unique_ptr<QFile> createRunLog(const PlannedRun& run, RunState before, std::string* failure);

} // namespace sv::launcher
