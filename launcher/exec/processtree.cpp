#include "launcher/exec/processtree.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbuilder.h"

#include <QTimer>
#include <atomic>
#include <mutex>
#include <utility>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sv::launcher {
namespace {

std::mutex g_hookMutex;
std::function<void()> g_scanHook;
// Scans still running after their deadline answered: stuck in the kernel, for all we know.
std::atomic<int> g_stuckScans{0};

} // namespace

void ProcessTree::setScanHook(std::function<void()> hook) {
    std::lock_guard lock(g_hookMutex);
    g_scanHook = std::move(hook);
}

std::vector<int> ProcessTree::find() const {
    std::function<void()> hook;
    {
        std::lock_guard lock(g_hookMutex);
        hook = g_scanHook;
    }
    if (hook) hook();
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
    if (g_stuckScans.load() > 0) {
        if (sig != 0 && pgid > 0) ::kill(-pgid, sig);
        QTimer::singleShot(0, context, [done = std::move(done)] { done(Scan{{}, false}); });
        return;
    }
    // Whichever comes first, the scan or the deadline, answers; both run on context's thread.
    // The state is shared with the worker, which counts itself stuck no more when it ends.
    struct State {
        std::mutex mutex;
        bool answered = false; // done was called (context's thread only)
        bool finished = false; // the worker ended
        bool countedStuck = false;
    };
    auto state = std::make_shared<State>();
    auto answer = std::make_shared<std::function<void(Scan)>>(std::move(done));
    QTimer::singleShot(deadline, context, [state, answer] {
        {
            std::lock_guard lock(state->mutex);
            if (!state->finished && !state->countedStuck) {
                state->countedStuck = true;
                ++g_stuckScans;
            }
        }
        if (std::exchange(state->answered, true)) return;
        (*answer)(Scan{{}, false});
    });
    async::runInBackground(
        context,
        [tree = *this, sig, pgid, state] {
            Scan scan{sig != 0 ? tree.signal(sig, pgid) : tree.find(), true};
            std::lock_guard lock(state->mutex);
            state->finished = true;
            if (state->countedStuck) --g_stuckScans;
            return scan;
        },
        [state, answer](Scan scan) {
            if (std::exchange(state->answered, true)) return;
            (*answer)(std::move(scan));
        },
        async::scanPool());
}

} // namespace sv::launcher
