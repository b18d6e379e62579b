#pragma once
// Runs on this machine: the argument vector as it is.

#include "launcher/exec/executor.h"

namespace sv::launcher {

class LocalExecutor : public Executor {
  public:
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override {
        return argv;
    }
    std::string hostLabel() const override { return "this machine"; }
    bool isRemote() const override { return false; }
};

} // namespace sv::launcher
