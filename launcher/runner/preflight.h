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

// The one line that heads the findings, carrying the worst of them: a failure first, then a
// warning (a busy host), and "all N checks passed" only when nothing below says otherwise.
struct PreflightHeadline {
    std::string text;
    int failures = 0;
    int warnings = 0;
};
PreflightHeadline preflightHeadline(const std::vector<PreflightFinding>& findings);

class Preflight {
  public:
    using Done = std::function<void(std::vector<PreflightFinding>)>;
    // Calls done from the event loop of context.
    static void run(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    Done done);
};

} // namespace sv::launcher
