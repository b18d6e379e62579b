#include "core/load/logscan.h"

#include "core/load/modelname.h"

#include <algorithm>
#include <set>
#include <sys/stat.h>

namespace sv {
namespace fs = std::filesystem;
namespace {

struct Walker {
    const fs::path root;
    ScanResult& out;
    std::set<std::pair<dev_t, ino_t>> visited;

    std::string display(const fs::path& p) const {
        auto rel = p.lexically_relative(root);
        return rel.empty() ? p.string() : rel.string();
    }

    void warn(const fs::path& p, std::string message) {
        out.warnings.push_back({display(p), 0, std::move(message)});
    }

    // topology: the nearest enclosing folder named NnGg, if any.
    void walk(const fs::path& dir, std::optional<Topology> topology, int depth) {
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0) {
            warn(dir, "cannot be read; skipped");
            return;
        }
        if (!visited.insert({st.st_dev, st.st_ino}).second) {
            warn(dir, "already scanned (a symlink loop or a second link); not followed again");
            return;
        }
        if (depth > 64) {
            warn(dir, "nested more than 64 folders deep; skipped");
            return;
        }
        std::error_code ec;
        // No skip_permission_denied: a folder the user may not read would vanish without a word.
        fs::directory_iterator it(dir, ec);
        if (ec) {
            warn(dir, "cannot be read (" + ec.message() + "); the logs in it are not counted");
            return;
        }
        std::vector<fs::directory_entry> entries;
        for (; it != fs::directory_iterator(); it.increment(ec)) {
            if (ec) {
                warn(dir, "listing failed (" + ec.message() + "); the rest of it is skipped");
                break;
            }
            entries.push_back(*it);
        }
        std::sort(entries.begin(), entries.end());
        for (const auto& entry : entries) {
            const fs::path& p = entry.path();
            std::error_code sec;
            const bool isDir = entry.is_directory(sec); // follows symlinks
            if (isDir) {
                auto t = parseTopology(p.filename().string());
                walk(p, t ? t : topology, depth + 1);
                continue;
            }
            if (!entry.is_regular_file(sec)) {
                if (entry.is_symlink(sec) && !entry.exists(sec))
                    warn(p, "dangling symlink; skipped");
                continue;
            }
            const std::string name = p.filename().string();
            if (name.size() < 4 || name.compare(name.size() - 4, 4, ".log") != 0) continue;
            std::string why;
            auto logName = parseLogName(name, &why);
            if (!logName) {
                warn(p, why + "; skipped");
                continue;
            }
            if (!topology) {
                warn(p, "not inside a folder named <nodes>n<gpus>g (such as 1n8g); skipped");
                continue;
            }
            LogFile log;
            log.path = p;
            log.display = display(p);
            // One model under its spellings (rn50, resnet50_v1.5 ...): cases meet across trees.
            log.key = RunKey{canonicalModel(logName->model), logName->precision,
                             logName->batchPerDevice, *topology, logName->repeat};
            out.logs.push_back(std::move(log));
        }
    }
};

} // namespace

ScanResult scanLogDirectory(const fs::path& rootIn) {
    ScanResult result;
    // "logs/1n8g/" names the folder 1n8g too.
    const fs::path root =
        rootIn.filename().empty() && rootIn.has_parent_path() ? rootIn.parent_path() : rootIn;
    std::error_code ec;
    const auto status = fs::status(root, ec);
    if (ec || !fs::exists(status)) {
        result.error = root.string() + ": no such directory";
        return result;
    }
    if (!fs::is_directory(status)) {
        result.error = root.string() + ": not a directory";
        return result;
    }
    fs::directory_iterator probe(root, ec);
    if (ec) {
        result.error = root.string() + ": cannot be read (" + ec.message() + ")";
        return result;
    }
    Walker walker{root, result, {}};
    walker.walk(root, parseTopology(root.filename().string()), 0);
    std::sort(result.logs.begin(), result.logs.end(),
              [](const LogFile& a, const LogFile& b) { return a.display < b.display; });
    return result;
}

} // namespace sv
