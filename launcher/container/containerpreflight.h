#pragma once
// Preflight's checks of the containers the launcher is to start, per host: docker reachable
// (and the user allowed to use it), the image present, the mounts' sources there, and, for a
// multi-node campaign, an sshd in the image. Each failure says what to do.

#include "launcher/exec/commandbatch.h"
#include "launcher/exec/commandbuilder.h"

#include <string>
#include <vector>

namespace sv::launcher {

struct ContainerCheck {
    std::string name; // "docker", "image", "mount", "sshd"
    int mount = -1;   // for "mount": which one
    BatchCommand command;
};

class ContainerPreflight {
  public:
    // The checks on host `host` (none unless the launcher starts the containers).
    static std::vector<ContainerCheck> checks(const CommandBuilder& builder, int host,
                                              int timeoutMs);
    // ok, and the finding's message.
    static std::pair<bool, std::string> judge(const CommandBuilder& builder,
                                              const ContainerCheck& check, const BatchResult& r,
                                              const std::string& host);
};

} // namespace sv::launcher
