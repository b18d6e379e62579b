#pragma once
// Where a command runs: this machine or a host over SSH. An executor turns the argument vector
// meant for that host into the one this machine starts (QProcess, program + arguments, no shell).

#include <string>
#include <vector>

namespace sv::launcher {

class Executor {
  public:
    virtual ~Executor() = default;
    virtual std::vector<std::string> wrap(const std::vector<std::string>& argv) const = 0;
    // Named in messages: "this machine" or the SSH destination.
    virtual std::string hostLabel() const = 0;
    virtual bool isRemote() const = 0;
};

} // namespace sv::launcher
