#pragma once
// A case's scaling-loss probes as a campaign runs them (issue 28), before the case's first
// repeat: each node of the case alone at its own rank count (solo), then, for a case of more
// than one rank, the all-reduce of the gradient's size across all its ranks, through the
// executors the case's runs use (this machine or each host over SSH, inside the campaign's
// container when it has one; under Slurm, job steps in one allocation). The results go to the
// campaign directory's probes.json; a case with records there already is not probed again
// (resume). Blocking: the Runner calls runCaseProbes on a worker thread.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/probe/probe.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

class CommandBuilder;
struct SlurmAllocation;
struct SlurmSettings;

// One node of a case or of a bisection: its name, where its ranks run, where they meet.
struct ProbeNode {
    std::string name;
    std::shared_ptr<const Executor> executor;
    std::string rendezvous = "127.0.0.1";
};

// What a case's probes need, copied out of the campaign (safe to hand to a worker thread).
struct CaseProbePlan {
    std::string caseId;
    ProbeCase forCase;
    std::vector<ProbeNode> nodes; // the case's nodes, in host order
    int ranksPerNode = 1;
    SoloProbeSpec solo;           // node, ports and localWorld are set per probe
    AllReduceProbeSpec allReduce; // bytes: the model's gradient in the case's precision
    std::filesystem::path directory;
    int timeoutMs = 600000; // per probe run
};

// The plan for run's case; tag marks the probes' processes (the Runner's sweep finds them).
CaseProbePlan planCaseProbes(const CommandBuilder& builder, const PlannedRun& run,
                             const std::string& directory, const std::string& tag);

// Under Slurm: the allocation's nodes, in Slurm's order, each rank a job step on its node
// (SrunExecutor, with the campaign's pyxis options), meeting at the node's NodeAddr.
std::vector<ProbeNode> slurmProbeNodes(const SlurmAllocation& allocation,
                                       const SlurmSettings& settings);

// The probes' settings from the campaign's variables and the profile's: python, image size,
// threads per rank, device; a few iterations each.
void configureProbeSpecs(const CommandBuilder& builder, const PlannedRun& run, SoloProbeSpec& solo,
                         AllReduceProbeSpec& allReduce);

struct CaseProbeOutcome {
    bool alreadyRecorded = false; // probes.json holds this case's probes: none run
    bool cancelled = false;
    std::vector<SoloProbe> solo;
    std::optional<AllReduceProbe> allReduce;
    std::vector<std::string> errors; // each failed probe, in words (the node, the reason)
    std::string fileError;           // probes.json could not be read or written
    // One line for the journal and the output: what ran and what it measured.
    std::string summary(const std::string& caseId) const;
};

// Under Slurm: holds an allocation of `nodes` x ranksPerNode (salloc, blocking), runs `probe`
// with its nodes (slurmProbeNodes), and gives it back whatever `probe` did. Returns why it could
// not be held or given back; empty when both went well. *cancelled: the cancel stopped the wait.
std::string withSlurmProbeNodes(const Campaign& campaign, int nodes, int ranksPerNode,
                                const std::string& tag, int timeoutMs,
                                const std::atomic<bool>* cancel, bool* cancelled,
                                const std::function<void(std::vector<ProbeNode>)>& probe);

// Whether probes.json holds the plan's case already (then runCaseProbes runs none).
bool probesRecorded(const CaseProbePlan& plan);

// Runs the plan's probes one after another and appends what they measured to probes.json.
CaseProbeOutcome runCaseProbes(const CaseProbePlan& plan, const std::atomic<bool>* cancel);

// The ranks of `nodes` run together, ranksPerNode on each, in node order.
std::vector<ProbeRank> probeRanks(const std::vector<ProbeNode>& nodes, int ranksPerNode);

// A TCP port free on this machine now; a fixed fallback when none can be had.
int probePort();

} // namespace sv::launcher
