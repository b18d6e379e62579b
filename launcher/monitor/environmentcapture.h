#pragma once
// What the machines were when a campaign ran, saved beside the logs: hostname, kernel,
// nvidia-smi -q and topo -m where present, the container's image id, python/torch, ScaleView's
// version, and the campaign file. Bounded in time: a hung nvidia-smi ends the probe of its
// host at the timeout, and the campaign goes on, told why.

#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

class EnvironmentCapture {
  public:
    struct Result {
        int files = 0;                     // written
        std::vector<std::string> problems; // in words: a host that timed out, a file not written
    };
    static constexpr std::chrono::seconds kDefaultTimeout{60};
    // Writes DIR/environment/<time>-<host>.txt per host and DIR/environment/<time>-campaign.json
    // (on a worker thread); done(result) from the event loop once every host answered or hit
    // `timeout`.
    static void run(const Campaign& campaign, const WorkloadProfile& profile,
                    const std::string& version, QObject* context, std::function<void(Result)> done,
                    std::chrono::milliseconds timeout = kDefaultTimeout);
};

} // namespace sv::launcher
