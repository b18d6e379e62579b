#pragma once
// Checks, in parallel across hosts, what a campaign needs before it starts: SSH reachable, the
// container running, GPUs (nvidia-smi) for GPU profiles, python3 + torch for the local profile,
// the launcher installed. Each failure names the host and says what to do.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/preflightfinding.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

class Preflight {
  public:
    using Done = PreflightDone;
    // Calls done from the event loop of context.
    static void run(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    Done done);
};

} // namespace sv::launcher
