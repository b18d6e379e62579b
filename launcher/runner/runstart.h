#pragma once
// What starts one run, decided before its start record is written: the processes this machine
// starts (or, under Slurm, the submission: the sbatch line and what its job script runs, and
// on resume the job an earlier session submitted, to follow rather than submit again), the
// command lines the start record keeps, and the hosts the run uses.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/slurm/slurmjobscript.h"

#include <QString>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct RunStart {
    std::string tag; // SCALEVIEW_RUN_TAG: drawn for each run, it finds the run's processes
    std::vector<Launch> launches; // the processes this machine starts (none under Slurm)
    std::optional<SlurmSubmission> submission; // under Slurm
    std::string reattachJob; // resume: the job of the session that died, to follow again
    std::vector<std::vector<std::string>> argvs; // recorded in the start record
    std::vector<std::string> hosts;
    QString command; // the argvs as a person would type them, one line each

    // builder: its master port is chosen here, free now, when the run's ranks meet at one the
    // profile names (another campaign on this machine may hold the profile's fixed port).
    // previous: the journal an earlier session left; a Slurm job it recorded for the run, with
    // no end, is taken out of it to be followed.
    static RunStart make(CommandBuilder& builder, const PlannedRun& run,
                         std::map<std::string, JournalEntry>& previous);
};

} // namespace sv::launcher
