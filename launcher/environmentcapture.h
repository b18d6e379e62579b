#pragma once
// What the machines were when a campaign ran, saved beside the logs: hostname, kernel,
// nvidia-smi -q and topo -m where present, the container's image id, python/torch, ScaleView's
// version, and the campaign file.

#include "commandbuilder.h"

#include <QObject>
#include <functional>
#include <string>

namespace sv::launcher {

class EnvironmentCapture {
  public:
    // Writes DIR/environment/<time>-<host>.txt per host and DIR/environment/<time>-campaign.json;
    // done(files written) from the event loop.
    static void run(const Campaign& campaign, const WorkloadProfile& profile,
                    const std::string& version, QObject* context, std::function<void(int)> done);
};

} // namespace sv::launcher
