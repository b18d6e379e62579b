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

std::vector<ReportFile> capturedFiles(const std::filesystem::path& logDir) {
    namespace fs = std::filesystem;
    constexpr std::size_t cap = 256 * 1024;
    std::vector<ReportFile> out;
    // Only the campaign the folder belongs to: a campaign.json in it or beside it (DIR/campaign.json
    // with DIR/logs named), or the launcher's own campaign holding it in its logs/. Another tree's
    // campaign.json further up (a team's shared parent, someone else's campaign) is no record of
    // these logs, and its environment files are not embedded in a report on them.
    const CampaignWindowLookup found = findCampaignWindow(logDir, 1);
    fs::path home = logDir;
    if (found.window) {
        out.push_back({"campaign.json", readCapped(found.window->file, cap)});
        home = fs::path(found.window->file).parent_path();
    }
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
