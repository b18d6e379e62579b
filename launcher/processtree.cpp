#include "processtree.h"

#include "backgroundtask.h"
#include "commandbuilder.h"

#include <QTimer>
#include <utility>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sv::launcher {

std::vector<int> ProcessTree::find() const {
    std::vector<int> pids;
    const std::string needle = std::string(kRunTagVariable) + "=" + m_tag;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const int pid = std::stoi(name);
        if (pid == ::getpid()) continue;
        std::ifstream env(entry.path() / "environ", std::ios::binary);
        if (!env) continue;
        std::stringstream ss;
        ss << env.rdbuf();
        const std::string text = ss.str();
        bool found = false;
        for (std::size_t start = 0; start < text.size() && !found;) {
            auto end = text.find('\0', start);
            if (end == std::string::npos) end = text.size();
            found = text.compare(start, end - start, needle) == 0;
            start = end + 1;
        }
        if (!found) continue;
        // Zombies keep their environ readable on some kernels: they are gone already.
        std::ifstream stat(entry.path() / "stat");
        std::string statLine;
        std::getline(stat, statLine);
        const auto paren = statLine.rfind(')');
        if (paren != std::string::npos && paren + 2 < statLine.size() && statLine[paren + 2] == 'Z')
            continue;
        pids.push_back(pid);
    }
    return pids;
}

std::vector<int> ProcessTree::signal(int sig, int pgid) const {
    if (pgid > 0) ::kill(-pgid, sig);
    std::vector<int> pids = find();
    for (int pid : pids)
        ::kill(pid, sig);
    return pids;
}

void ProcessTree::inBackground(int sig, int pgid, QObject* context,
                               std::chrono::milliseconds deadline,
                               std::function<void(Scan)> done) const {
    // Whichever comes first, the scan or the deadline, answers; both run on context's thread.
    auto answered = std::make_shared<bool>(false);
    auto answer = std::make_shared<std::function<void(Scan)>>(std::move(done));
    QTimer::singleShot(deadline, context, [answered, answer] {
        if (std::exchange(*answered, true)) return;
        (*answer)(Scan{{}, false});
    });
    runInBackground(
        context,
        [tree = *this, sig, pgid] {
            return Scan{sig != 0 ? tree.signal(sig, pgid) : tree.find(), true};
        },
        [answered, answer](Scan scan) {
            if (std::exchange(*answered, true)) return;
            (*answer)(std::move(scan));
        });
}

} // namespace sv::launcher
