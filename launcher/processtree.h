#pragma once
// The processes of a run on this machine, found by the tag in their environment: a payload
// that forks, or even leaves its process group with setsid, keeps the tag and so is found.

#include <string>
#include <vector>

namespace sv::launcher {

class ProcessTree {
  public:
    explicit ProcessTree(std::string tag) : m_tag(std::move(tag)) {}
    // Live (not zombie) processes carrying VARIABLE=tag, this process excepted.
    std::vector<int> find() const;
    // Signals each of them and the process group pgid (when > 0); returns the pids signalled.
    std::vector<int> signal(int sig, int pgid = 0) const;

  private:
    std::string m_tag;
};

} // namespace sv::launcher
