#pragma once
// Preflight's look at how busy each host already is before a campaign starts: load average and
// the processes using the CPU, named. A busy host is a warning, not a failure: the campaign can
// run, but its figures would measure the neighbours too.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/preflightfinding.h"

#include <QObject>

namespace sv::launcher {

// This machine (no hosts: a second of /proc deltas on a worker thread) or every host (one small
// shell command over ssh each); done(findings) in context's event loop, one per host, check
// "busy", ok = true and warning = true when busy.
void checkBusyHosts(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    PreflightDone done);

} // namespace sv::launcher
