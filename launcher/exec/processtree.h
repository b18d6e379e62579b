#pragma once
// The processes of a run on this machine, found by the tag in their environment: a payload
// that forks, or even leaves its process group with setsid, keeps the tag and so is found.

#include <chrono>
#include <functional>
#include <string>
#include <vector>

class QObject;

namespace sv::launcher {

class ProcessTree {
  public:
    explicit ProcessTree(std::string tag) : m_tag(std::move(tag)) {}
    // Live (not zombie) processes carrying VARIABLE=tag, this process excepted.
    std::vector<int> find() const;
    // Signals each of them and the process group pgid (when > 0); returns the pids signalled.
    std::vector<int> signal(int sig, int pgid = 0) const;

    struct Scan {
        std::vector<int> pids; // found (and signalled)
        bool finished = true;  // false: the deadline passed first; pids is then empty
    };
    // signal(sig, pgid) (or find(), for sig 0) on a worker thread, since reading another
    // process's environ can block without bound (a process in D state); done(scan) in context's
    // event loop, or at the deadline with finished = false when the scan is still stuck. While
    // an earlier scan is stuck past its deadline no new one starts (it would stick too, and take
    // a thread for good): done(scan) then answers at once with finished = false; the process
    // groups are still signalled.
    void inBackground(int sig, int pgid, QObject* context, std::chrono::milliseconds deadline,
                      std::function<void(Scan)> done) const;

    // For tests: called at the start of every find() on the worker thread (a stand-in for a
    // process whose environ read blocks); null to remove.
    static void setScanHook(std::function<void()> hook);

  private:
    std::string m_tag;
};

} // namespace sv::launcher
