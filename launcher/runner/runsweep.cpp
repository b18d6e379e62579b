#include "launcher/runner/runsweep.h"

#include "launcher/exec/processtree.h"

#include <QTimer>
#include <algorithm>
#include <csignal>

namespace sv::launcher {
namespace {

// The sweep prints one pid per line.
std::vector<int> parsePids(const std::string& text) {
    std::vector<int> pids;
    std::size_t i = 0;
    while (i < text.size()) {
        auto end = text.find('\n', i);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(i, end - i);
        if (!line.empty() && line.size() < 10 &&
            line.find_first_not_of("0123456789") == std::string::npos)
            pids.push_back(std::stoi(line));
        i = end + 1;
    }
    return pids;
}

} // namespace

std::vector<BatchCommand> RunSweep::commands(const std::string& signal, bool thenList) const {
    std::vector<BatchCommand> cmds;
    for (int h = 0; h < m_hosts; ++h)
        cmds.push_back({m_builder.sweepArgv(h, m_tag, signal, thenList), {}, m_timeoutMs});
    return cmds;
}

void RunSweep::signal(const std::string& signal, QObject* context) const {
    CommandBatch::run(commands(signal), context, [](std::vector<BatchResult>) {});
}

void RunSweep::killAndCheck(QObject* context, Checked done) const {
    // Copies: the sweep outlives the call. The local scans run on a worker thread (a process in
    // D state can block the read of its environ), each with a deadline. Each host is reached
    // once: its sweep KILLs, waits a moment for the KILLed to be reaped, and lists what is left.
    auto killThenList = commands("KILL", true);
    const std::string tag = m_tag;
    std::vector<std::string> names;
    for (int h = 0; h < m_hosts; ++h)
        names.push_back(m_builder.hostName(h));
    const auto deadline = std::chrono::milliseconds(m_timeoutMs);
    ProcessTree(tag).inBackground(SIGKILL, 0, context, deadline, [=](ProcessTree::Scan) {
        CommandBatch::run(killThenList, context, [=](std::vector<BatchResult> results) {
            // The local KILLed get as long to be reaped as the remote ones (each host's sweep
            // waits a moment), then this machine is looked at again.
            QTimer::singleShot(results.empty() ? 300 : 0, context, [=] {
                ProcessTree(tag).inBackground(0, 0, context, deadline, [=](ProcessTree::Scan scan) {
                    std::vector<int> left = scan.pids;
                    // The sweep always exits 0: anything else is ssh or docker failing to get
                    // there.
                    std::vector<std::string> unchecked;
                    if (!scan.finished) unchecked.push_back("this machine (the scan hung)");
                    for (std::size_t h = 0; h < results.size(); ++h) {
                        if (results[h].exitCode != 0) unchecked.push_back(names[h]);
                        for (int p : parsePids(results[h].output))
                            if (std::find(left.begin(), left.end(), p) == left.end())
                                left.push_back(p);
                    }
                    done(left, unchecked);
                });
            });
        });
    });
}

} // namespace sv::launcher
