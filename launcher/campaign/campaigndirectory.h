#pragma once
// The campaign on disk: a campaign is its directory. Opening one reads campaign.json, the
// journal and the plan (CampaignDirectory); preparing one writes the workload script and
// campaign.json beside the logs (a journal there needs resume); runs a crash interrupted are
// marked so in the journal; each run's log is created new, never over an existing one.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"

#include <QFile>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

// An opened campaign: what campaign.json says, where it is now, what its journal records, the
// plan and the runs left; every failure is a value (error(), profileError()), never an
// exception. The CLI's resume, the Run panel and its Recent menu all open campaigns here.
class CampaignDirectory {
  public:
    // DIR or DIR/campaign.json means DIR, also when it has moved since: the campaign's
    // outputDir becomes DIR (absolute) and movedFrom() says where it was. Another campaign
    // file (saved elsewhere, never run there) keeps its outputDir, a relative one taken from
    // the file's own directory, never from the working directory.
    static CampaignDirectory open(const std::string& fileOrDir);

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; } // names the file and the reason
    const std::string& file() const { return m_file; }   // the campaign file read
    const std::string& directory() const { return m_campaign.outputDir; } // absolute
    // Whether the file opened is the campaign.json of its own output directory.
    bool isOwnDirectory() const { return m_own; }
    // The outputDir campaign.json holds, when it names another place than directory().
    const std::string& movedFrom() const { return m_movedFrom; }
    const Campaign& campaign() const { return m_campaign; }
    const std::optional<WorkloadProfile>& profile() const { return m_profile; }
    const std::string& profileError() const { return m_profileError; }
    bool hasJournal() const { return m_hasJournal; }
    const std::string& journalError() const { return m_journalError; }
    const std::map<std::string, JournalEntry>& journal() const { return m_journal; }
    const std::vector<PlannedRun>& plan() const { return m_plan; }
    // Runs of the plan the journal does not record as final: what resume runs. Adaptive
    // repeats: the plan holds the top-ups run so far, and the next one a case still needs is
    // left too.
    std::vector<PlannedRun> runsLeft() const;
    std::vector<std::string> plannedIds() const;

  private:
    std::string m_error, m_file, m_movedFrom, m_profileError, m_journalError;
    bool m_own = false, m_hasJournal = false;
    Campaign m_campaign;
    std::optional<WorkloadProfile> m_profile;
    std::map<std::string, JournalEntry> m_journal;
    std::vector<PlannedRun> m_plan;
    std::optional<PlannedRun> m_nextTopUp;
};

// The absolute, normal form of a campaign's output directory as typed (relative: from the
// working directory): what campaign.json stores.
std::string absoluteOutputDir(const std::string& outputDir);

// Where the profile's compiled-in workload script goes: OUT/workload, absolute.
std::string workloadDirOf(const Campaign& campaign);
// The campaign's journal: OUT/journal.jsonl, absolute.
std::string journalPathOf(const Campaign& campaign);

// Creates the output directory and writes the workload script to scriptPath and, unless
// resuming, campaign.json (its outputDir absolute). A directory that holds a journal is refused
// without resume.
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
