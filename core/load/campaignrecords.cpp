#include "core/load/campaignrecords.h"

#include "core/load/campaignwindow.h"

#include <algorithm>
#include <fstream>

namespace sv {

std::string readCapped(const std::filesystem::path& p, std::size_t cap) {
    std::ifstream in(p, std::ios::binary);
    std::string s(cap, '\0');
    in.read(s.data(), static_cast<std::streamsize>(cap));
    s.resize(static_cast<std::size_t>(in.gcount()));
    if (in && in.peek() != EOF) s += "\n[... cut at " + std::to_string(cap / 1024) + " KiB]";
    return s;
}

std::filesystem::path campaignRecordsFolder(const std::filesystem::path& opened) {
    namespace fs = std::filesystem;
    // Only the campaign the folder belongs to: a campaign.json in it or beside it
    // (DIR/campaign.json with DIR/logs named), or the launcher's own campaign holding it in its
    // logs/. Another tree's campaign.json further up (a team's shared parent, someone else's
    // campaign) is no record of these logs.
    if (fs::path found = findCampaignFolder(opened, 1); !found.empty()) return found;
    std::error_code ec;
    fs::path at = fs::absolute(opened, ec).lexically_normal();
    if (ec) return opened;
    if (!at.has_filename()) at = at.parent_path(); // "DIR/" names DIR
    if (!fs::is_directory(at, ec)) at = at.parent_path();
    // A campaign copied without its campaign.json: its journal, beside the logs/ that hold the
    // folder (the launcher's layout), or in the folder or its parent.
    const fs::path self = at;
    for (int up = 0; up <= kCampaignLogDepth; ++up) {
        if (fs::is_regular_file(at / "journal.jsonl", ec)) {
            const fs::path rel = self.lexically_relative(at);
            if (up <= 1 || (!rel.empty() && *rel.begin() == "logs")) return at;
            break;
        }
        if (!at.has_relative_path()) break;
        at = at.parent_path();
    }
    return self;
}

std::vector<ReportFile> capturedFiles(const std::filesystem::path& logDir) {
    namespace fs = std::filesystem;
    constexpr std::size_t cap = 256 * 1024;
    std::vector<ReportFile> out;
    const fs::path home = campaignRecordsFolder(logDir);
    if (std::error_code e; fs::is_regular_file(home / "campaign.json", e))
        out.push_back({"campaign.json", readCapped(home / "campaign.json", cap)});
    std::error_code ec;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(home / "environment", ec), end; !ec && it != end;
         it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
        out.push_back({"environment/" + f.filename().string(), readCapped(f, cap)});
    return out;
}

} // namespace sv
