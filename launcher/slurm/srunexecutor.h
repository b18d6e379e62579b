#pragma once
// Probes under Slurm (issue 28): one allocation per case, held with `salloc --no-shell`, and each
// probe rank as its own job step in it. SrunExecutor's wrap(argv) is that step's srun line on one
// named node (--overlap: steps share the allocation's CPUs); a ProbeNode with it as executor and
// the node's NodeAddr as rendezvous lets the probes (solo, all-reduce, bisection by --nodelist)
// run unchanged. Everything here blocks (salloc waits for the allocation): call it off the GUI
// thread. No shell: every argv goes to QProcess as it is; node names and addresses read from
// Slurm are checked (isValidHostName) before they reach an argument vector.

#include "launcher/campaign/campaign.h"
#include "launcher/exec/executor.h"

#include <atomic>
#include <string>
#include <vector>

namespace sv::launcher {

class SrunExecutor : public Executor {
  public:
    // pyxis: the srun options pyxisOptions(settings) gives (none without an image).
    SrunExecutor(std::string jobId, std::string node, std::vector<std::string> pyxis = {});
    // srun --jobid=ID --nodes=1 --ntasks=1 --nodelist=NODE --overlap --quiet --mpi=none
    //      [pyxis options] argv...
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override;
    std::string hostLabel() const override; // "node1 (Slurm job 42)"
    bool isRemote() const override { return true; }
    const std::string& node() const { return m_node; }

  private:
    std::string m_jobId, m_node;
    std::vector<std::string> m_pyxis;
};

// The salloc line that holds a probe allocation: nodes x tasksPerNode, the campaign's scheduler
// options (partition, account, qos, reservation, constraint, time, exclusive, GPUs), the nodes
// left out (--exclude) and the job name scaleview-<tag> (so a cancel finds it by name too).
std::vector<std::string> sallocArgv(const Campaign& campaign, int nodes, int tasksPerNode,
                                    const std::string& tag);

// The comma-separated --exclude value of the campaign's excluded nodes; empty: none.
std::string slurmExcludeList(const Campaign& campaign);

// What a run's sbatch and the probes' salloc both ask Slurm for, from the campaign's scheduler
// block: --gpus-per-node, partition, account, qos, reservation, constraint, time, the nodes left
// out (--exclude) and --exclusive.
std::vector<std::string> slurmAllocationOptions(const Campaign& campaign, int gpusPerNode);

struct SlurmAllocation {
    std::string jobId;
    std::string jobName;
    std::vector<std::string> nodes;     // Slurm's node names, in Slurm's order
    std::vector<std::string> addresses; // each node's NodeAddr (as the job script's rendezvous)
    std::string error;                  // empty: held (release it)
    bool cancelled = false;
    bool ok() const { return error.empty() && !jobId.empty(); }
};

// Asks for the allocation and waits for it (up to timeoutMs), then reads its nodes and their
// addresses. On any failure or a cancel nothing is left queued (the job is cancelled by id or by
// name) and error says why.
SlurmAllocation allocateForProbes(const Campaign& campaign, int nodes, int tasksPerNode,
                                  const std::string& tag, int timeoutMs,
                                  const std::atomic<bool>* cancel);

// scancel of the allocation (by id, and by name when the id was never read), then waits (up to
// timeoutMs) until squeue no longer lists it. Returns an error, empty when it is gone.
std::string releaseAllocation(const SlurmAllocation& allocation, int timeoutMs = 60000);

} // namespace sv::launcher
