#pragma once
// Turns a planned run into the exact argument vectors this machine starts: the launcher
// (horovodrun or mpirun on the first host, which reach the other nodes themselves; or torchrun
// on every node at once) and the workload, inside `docker exec` when there is a container, over
// SSH when there are hosts. Also the per-host commands that signal or list a run's processes by
// its tag. Pure: no process is started here.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/containercommands.h"
#include "launcher/exec/containerssh.h"
#include "launcher/exec/executor.h"

#include <memory>
#include <string>
#include <vector>

namespace sv::launcher {

inline constexpr const char* kRunTagVariable = "SCALEVIEW_RUN_TAG";

// One process this machine starts for a run, and the host it reaches.
struct Launch {
    int host = 0;
    std::vector<std::string> argv;
};

class CommandBuilder {
  public:
    // workloadDir: where the profile's compiled-in script is written ({script}).
    CommandBuilder(Campaign campaign, WorkloadProfile profile, std::string workloadDir);

    const std::string& launcherName() const { return m_launcher; }
    const Campaign& campaign() const { return m_campaign; }
    const ContainerCommands& containers() const { return m_containers; }
    // The sshd the launcher starts in each container of a multi-node campaign.
    const ContainerSsh& containerSsh() const { return m_ssh; }
    // Where host `index`'s ranks meet, as resolved before the campaign starts
    // (resolveHostAddresses); until then the host's address, or its name.
    void setRendezvousAddresses(std::vector<std::string> addresses);
    bool hasRendezvousAddresses() const { return !m_rendezvous.empty(); }
    std::string rendezvous(int index) const;
    // Whether the launcher runs once per node (torchrun) rather than once for the whole run.
    bool perNode() const;
    // The port the ranks meet at for the next run ({master_port}), chosen free when it starts:
    // the profile's fixed 29500 collided with another campaign on the same machine. A
    // campaign's own "master_port" variable still wins.
    void setMasterPort(int port) { m_masterPort = port; }
    // Whether {master_port} is the runner's to choose: the profile names one and the campaign
    // does not.
    bool choosesMasterPort() const;
    // A TCP port free on this machine now (the kernel's choice), or 0 when none can be had.
    static int freeLocalPort();
    // What a per-node launcher prints when its node's workers failed; empty: nothing known.
    std::string failureMarker() const;
    // The workload as the launch host sees it: launcher + program + arguments; node is the
    // node's index ({node_rank}) for a per-node launcher.
    std::vector<std::string> workloadArgv(const PlannedRun& run, int node = 0) const;
    // The program and its arguments without the launcher, for a scheduler that starts the
    // ranks itself (srun).
    std::vector<std::string> programArgv(const PlannedRun& run, int node = 0) const;
    const WorkloadProfile& profile() const { return m_profile; }
    // The whole chain, as started here, for the launcher on node `node`.
    std::vector<std::string> runArgv(const PlannedRun& run, const std::string& tag,
                                     int node = 0) const;
    // Every process a run starts here: one, or one per node for a per-node launcher.
    std::vector<Launch> launches(const PlannedRun& run, const std::string& tag) const;
    // Host indices a run uses (none for a local run).
    int hostCount(const PlannedRun& run) const;
    // Hosts whose processes only a sweep there can reach: the run's hosts, or, for a local run
    // in a container, this machine (through docker exec, as the container's processes are out
    // of sight here).
    int sweepHostCount(const PlannedRun& run) const;
    int sweepHostCount() const; // of any run of the campaign
    std::string hostName(int index) const;
    std::string hostOfRank(const PlannedRun& run, int rank) const;
    // Signals (or, with "0", lists) the processes tagged `tag` on host `index`, printing their
    // pids; thenList: signals, waits a moment, then prints only the pids still there.
    std::vector<std::string> sweepArgv(int index, const std::string& tag, const std::string& signal,
                                       bool thenList = false) const;
    // Runs argv on host index (through the container when there is one).
    std::vector<std::string> onHost(int index, const std::vector<std::string>& argv,
                                    bool inContainer) const;
    // A check that runs where the ranks will (preflight): in the running container, or, before
    // the launcher has started its containers, in a one-off container of the image.
    std::vector<std::string> probe(int index, const std::vector<std::string>& argv,
                                   bool gpus = false) const;
    std::unique_ptr<Executor> executor(int index) const;
    // Where the campaign's ranks run on host index: inside its running container there
    // (onHost(index, argv, true): docker exec CONTAINER ..., over SSH when there are hosts), or,
    // without a container, exactly executor(index). For probes and checks that must run beside
    // the ranks; the container must be up (the launcher has started it).
    std::unique_ptr<Executor> rankExecutor(int index) const;
    std::string scriptPath() const;

  private:
    std::string substitute(const std::string& text, const PlannedRun& run, int node) const;
    void expand(const std::vector<std::string>& templ, const PlannedRun& run, int node,
                std::vector<std::string>& out) const;

    Campaign m_campaign;
    WorkloadProfile m_profile;
    std::string m_workloadDir;
    std::string m_launcher;
    ContainerCommands m_containers;
    ContainerSsh m_ssh;
    std::vector<std::string> m_rendezvous; // per host; empty: not resolved
    int m_masterPort = 0;                  // 0: the profile's or the campaign's value
};

} // namespace sv::launcher
