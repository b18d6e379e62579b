#pragma once
// Checks, in parallel across hosts, what a campaign needs before it starts: SSH reachable, the
// container running, GPUs (nvidia-smi) for GPU profiles, python3 + torch for the local profile,
// the launcher installed. Each failure names the host and says what to do.

#include "launcher/runner/commandbuilder.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

struct PreflightFinding {
    std::string host;
    std::string check; // "ssh", "container", "gpus", "torch", "launcher", "output",
                       // "busy"
    bool ok = false;
    std::string message;
    bool warning = false; // ok, but worth knowing before the campaign starts (a busy host)
};

class Preflight {
  public:
    using Done = std::function<void(std::vector<PreflightFinding>)>;
    // Calls done from the event loop of context.
    static void run(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    Done done);
};

} // namespace sv::launcher
