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
    const CampaignWindowLookup found = findCampaignWindow(logDir);
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
