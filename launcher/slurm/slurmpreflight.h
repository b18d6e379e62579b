#pragma once
// What a Slurm campaign needs before its first job, checked with Slurm's own commands: the
// partition exists and is up with enough nodes, CPUs and GPUs per node; sacct answers (else
// the end of a job comes from scontrol); pyxis is there when a container image is set; and
// the campaign directory is visible from a compute node (a tiny job writes, this machine reads).

#include "launcher/campaign/campaign.h"
#include "launcher/exec/preflightfinding.h"

#include <QObject>

namespace sv::launcher {

class SlurmPreflight {
  public:
    static void run(const Campaign& campaign, QObject* context, PreflightDone done);
};

// The "partition" findings from `sinfo -h -o %P|%a|%D|%c|%G` for the campaign.
std::vector<PreflightFinding> judgeSinfo(const Campaign& campaign, const std::string& sinfo);

} // namespace sv::launcher
