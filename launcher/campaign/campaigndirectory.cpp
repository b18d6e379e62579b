#include "launcher/campaign/campaigndirectory.h"

#include "launcher/campaign/adaptiveschedule.h"
#include "core/model/atomicfile.h"

#include <algorithm>

#include <filesystem>
#include <fstream>

namespace sv::launcher {
namespace fs = std::filesystem;

std::string absoluteOutputDir(const std::string& outputDir) {
    if (outputDir.empty()) return outputDir;
    return fs::absolute(outputDir).lexically_normal().string();
}

namespace {

// Two spellings of one directory (symlinks, "..", a trailing slash) compare equal.
bool sameDirectory(const fs::path& a, const fs::path& b) {
    std::error_code ec1, ec2;
    const fs::path ca = fs::weakly_canonical(a, ec1), cb = fs::weakly_canonical(b, ec2);
    if (ec1 || ec2) return a.lexically_normal() == b.lexically_normal();
    return ca.lexically_normal() == cb.lexically_normal();
}

std::string withoutTrailingSlash(std::string s) {
    while (s.size() > 1 && s.back() == '/')
        s.pop_back();
    return s;
}

} // namespace

CampaignDirectory CampaignDirectory::open(const std::string& fileOrDir) {
    CampaignDirectory d;
    std::error_code ec;
    const fs::path given = fs::absolute(fileOrDir, ec).lexically_normal();
    const bool isDir = fs::is_directory(given, ec);
    const fs::path file = isDir ? given / "campaign.json" : given;
    const fs::path here = file.parent_path();
    d.m_file = file.string();
    if (!fs::exists(given, ec)) {
        d.m_error = given.string() + ": no such campaign directory or campaign file";
        return d;
    }
    std::string why;
    auto campaign = loadCampaign(d.m_file, &why);
    if (!campaign) {
        d.m_error = why.empty() ? "cannot read " + d.m_file : why;
        return d;
    }
    const std::string stored = campaign->outputDir;
    const fs::path storedPath(stored);
    // A relative outputDir (an older CLI wrote --out as typed) means beside the file.
    const fs::path resolved =
        stored.empty() ? here : (storedPath.is_absolute() ? storedPath : here / storedPath);
    // Only the output directory's own campaign.json sits beside a journal, and only an older
    // CLI stored a relative outputDir there (as typed, from wherever it ran).
    d.m_own = isDir || fs::exists(here / "journal.jsonl", ec) || sameDirectory(resolved, here) ||
              (file.filename() == "campaign.json" && !stored.empty() && !storedPath.is_absolute());
    if (d.m_own) {
        campaign->outputDir = withoutTrailingSlash(here.string());
        if (storedPath.is_absolute() && !sameDirectory(storedPath, here)) d.m_movedFrom = stored;
    } else {
        campaign->outputDir = withoutTrailingSlash(resolved.lexically_normal().string());
    }
    d.m_campaign = std::move(*campaign);

    d.m_profile = loadProfile(d.m_campaign.profile, &d.m_profileError);
    if (d.m_profile) d.m_plan = planRuns(d.m_campaign, *d.m_profile);

    const fs::path journal = fs::path(d.m_campaign.outputDir) / "journal.jsonl";
    d.m_hasJournal = fs::exists(journal, ec);
    if (d.m_hasJournal) {
        try {
            d.m_journal = Journal(journal.string()).read();
        } catch (const std::exception& e) {
            // Whatever the journal holds, opening says so and goes on: the campaign still shows.
            d.m_journalError = journal.string() + ": " + e.what();
        }
    }
    if (d.m_profile && d.m_campaign.adaptive()) {
        std::vector<RunState> states;
        for (const PlannedRun& run : d.m_plan) {
            auto it = d.m_journal.find(run.id);
            states.push_back(it == d.m_journal.end() ? RunState::Pending : it->second.state());
        }
        AdaptiveSchedule schedule(d.m_campaign, *d.m_profile);
        schedule.adopt(d.m_plan, states, d.m_journal, Journal(journal.string()).readCaseStops());
        if (std::all_of(states.begin(), states.end(), isFinal))
            d.m_nextTopUp = schedule.next(d.m_plan, states).run;
    }
    return d;
}

std::vector<PlannedRun> CampaignDirectory::runsLeft() const {
    std::vector<PlannedRun> left;
    for (const PlannedRun& run : m_plan) {
        auto it = m_journal.find(run.id);
        if (it == m_journal.end() || !isFinal(it->second.state())) left.push_back(run);
    }
    if (m_nextTopUp) left.push_back(*m_nextTopUp);
    return left;
}

std::vector<std::string> CampaignDirectory::plannedIds() const {
    std::vector<std::string> ids;
    for (const PlannedRun& run : m_plan)
        ids.push_back(run.id);
    return ids;
}

std::string workloadDirOf(const Campaign& campaign) {
    return fs::absolute(campaign.outputDir).lexically_normal().string() + "/workload";
}

std::string journalPathOf(const Campaign& campaign) {
    return (fs::absolute(campaign.outputDir) / "journal.jsonl").string();
}

bool prepareCampaignDirectory(const Campaign& campaign, const WorkloadProfile& profile,
                              const std::string& scriptPath, const std::string& journalPath,
                              bool resume, std::string* error) {
    std::error_code ec;
    fs::create_directories(campaign.outputDir, ec);
    if (ec) {
        *error = "cannot create " + campaign.outputDir + ": " + ec.message();
        return false;
    }
    if (fs::exists(journalPath) && !resume) {
        *error = campaign.outputDir +
                 " already holds a campaign (journal.jsonl); use 'resume' or another directory";
        return false;
    }
    if (!profile.scriptText.empty()) {
        fs::create_directories(workloadDirOf(campaign), ec);
        // The one atomic write: a name planted in a shared output folder is never written through.
        if (auto failed = writeFileAtomically(scriptPath, profile.scriptText)) {
            *error = std::move(*failed);
            return false;
        }
    }
    const std::string campaignFile = (fs::absolute(campaign.outputDir) / "campaign.json").string();
    if (resume) return true;
    // Stored absolute: whoever opens it later, from wherever, finds this directory.
    Campaign stored = campaign;
    stored.outputDir = absoluteOutputDir(campaign.outputDir);
    return saveCampaign(stored, campaignFile, error);
}

bool closeInterruptedRuns(Journal& journal, std::map<std::string, JournalEntry>& previous,
                          const std::vector<PlannedRun>& runs, std::string* error) {
    for (auto& [id, entry] : previous) {
        // A Slurm job outlives the runner: resume reattaches it rather than calling it lost.
        if (entry.end || !entry.jobId.empty()) continue;
        RunEnd end;
        end.state = RunState::Interrupted;
        end.reason = "the runner stopped during this run (crash, kill -9 or power loss)";
        std::string logPath;
        for (const auto& r : runs)
            if (r.id == id) logPath = r.logPath;
        if (!journal.appendEnd(id, entry.tag, logPath, end, error)) return false;
        entry.end = end;
    }
    return true;
}

std::unique_ptr<QFile> createRunLog(const PlannedRun& run, RunState before, std::string* failure) {
    std::error_code ec;
    fs::create_directories(fs::path(run.logPath).parent_path(), ec);
    if (fs::exists(run.logPath)) {
        if (before != RunState::Interrupted && before != RunState::Cancelled) {
            *failure = "a log is already there and is never overwritten: " + run.logPath;
            return nullptr;
        }
        int n = 1;
        std::string aside;
        do
            aside =
                run.logPath + "." + std::string(runStateName(before)) + "-" + std::to_string(n++);
        while (fs::exists(aside));
        fs::rename(run.logPath, aside, ec);
        if (ec) {
            *failure = "cannot move the old log aside: " + ec.message();
            return nullptr;
        }
    }
    auto log = std::make_unique<QFile>(QString::fromStdString(run.logPath));
    // NewOnly: should a log appear between the check and here, it is still not overwritten.
    if (!log->open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        *failure = "cannot create " + run.logPath + ": " + log->errorString().toStdString();
        return nullptr;
    }
    return log;
}

} // namespace sv::launcher
