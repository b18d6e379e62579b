#pragma once
// The nodes a log's host names show, collected line by line for readRunFacts (runfacts.h):
//  - Slurm's environment dumped into the log: SLURM_NNODES=4, SLURM_JOB_NUM_NODES=4;
//  - a launcher's host list on its command line: horovodrun -H host1:4,host2:4, mpirun -H a,b;
//  - each rank's host: a bare host name after its rank tag (srun --label's "3: node2" of
//    `srun -l hostname`, Open MPI's "[1,3]<stdout>:node2"), or NCCL's "node2:1234:1300 [1] NCCL
//    INFO" lines (host, pid, tid, [local GPU]), tagged or not.
// Hosts count as the nodes only where every rank's host is known (rank-tagged host names of
// ranks 0..G-1, or NCCL lines of G distinct host/GPU slots for a run of G GPUs): a log of
// rank 0's lines alone shows one host, whatever the run's nodes.

#include "core/parse/runfacts.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace sv {

class HostFacts {
  public:
    void line(std::string_view text, std::int64_t n);
    // The node count for a run of gpus GPUs (0: unknown), with where it was read; nullopt
    // where the log does not say it.
    std::optional<RunFact> nodes(int gpus) const;

  private:
    void host(int rank, std::string_view name, std::int64_t n);
    void nccl(int rank, std::string_view text, std::int64_t n);
    void hostList(std::string_view text, std::int64_t n);

    std::map<int, std::string> m_rankHost;         // a rank's host, from its tagged lines
    std::set<std::pair<std::string, int>> m_slots; // (host, local GPU) of NCCL's lines
    std::set<std::string> m_ncclHosts;
    std::optional<RunFact> m_slurm, m_hostList;
    std::int64_t m_firstHostLine = 0;
};

} // namespace sv
