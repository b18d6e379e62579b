#pragma once
// The exact command lines a campaign runs, without running anything: `scaleview-cli run
// --dry-run` prints them (its hosts' addresses resolved first, as a run resolves them) and the
// Run panel shows them, from this one function.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

// One line per run, or one per node of a run for a per-node launcher (torchrun), shell-quoted.
// Each run's tag is drawn when it starts; here run N shows svDRYRUN<N>. Empty with the reason
// in *error when the profile has no such launcher. rendezvous: the hosts' resolved addresses
// (resolveHostAddresses), as the run will use them; empty: their names.
std::vector<std::string> dryRunLines(const Campaign& campaign, const WorkloadProfile& profile,
                                     std::string* error, std::vector<std::string> rendezvous = {});
// Also validates the campaign and loads its profile; every problem, one per line, in *error.
std::vector<std::string> dryRunLines(const Campaign& campaign, std::string* error,
                                     std::vector<std::string> rendezvous = {});

struct DryRun {
    std::vector<std::string> refusal; // why the campaign cannot run, each in words; else empty
    std::vector<std::string> notes;   // hosts kept at their name (ssh -G failed), each with why
    std::vector<std::string> lines;   // dryRunLines with the hosts' addresses resolved
};
// The campaign validated and its profile loaded, then the hosts' rendezvous addresses resolved
// (an ssh_config alias's HostName) and the lines made; done(dry run) in context's event loop.
void resolveDryRun(const Campaign& campaign, QObject* context, std::function<void(DryRun)> done);

} // namespace sv::launcher
