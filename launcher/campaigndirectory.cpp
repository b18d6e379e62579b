#include "campaigndirectory.h"

#include <filesystem>
#include <fstream>

namespace sv::launcher {
namespace fs = std::filesystem;

std::string workloadDirOf(const Campaign& campaign) {
    return fs::absolute(campaign.outputDir).lexically_normal().string() + "/workload";
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
        std::ofstream out(scriptPath, std::ios::binary | std::ios::trunc);
        out << profile.scriptText;
        if (!out.flush()) {
            *error = "cannot write " + scriptPath;
            return false;
        }
    }
    const std::string campaignFile = (fs::absolute(campaign.outputDir) / "campaign.json").string();
    return resume || saveCampaign(campaign, campaignFile, error);
}

bool closeInterruptedRuns(Journal& journal, std::map<std::string, JournalEntry>& previous,
                          const std::vector<PlannedRun>& runs, std::string* error) {
    for (auto& [id, entry] : previous) {
        if (entry.end) continue;
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
