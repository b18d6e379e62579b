#pragma once
// What Slurm's commands say about a job, read from their output: the id sbatch --parsable
// prints, the queue state squeue shows (with the reason a job waits and its estimated start),
// and the end state from sacct or scontrol, mapped to ScaleView's run states with the reason in
// words. Pure: no process is started here.

#include "launcher/campaign/journal.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

// The fields of one line of Slurm's parsable output (sinfo -o "%P|%a|...", squeue, sacct -P),
// every one of them: "a||" is three fields, the last empty, as a trailing field Slurm leaves
// empty (squeue's %N of a pending job) still counts. An empty line has none.
std::vector<std::string> splitSlurmFields(const std::string& line, char sep = '|');

// "1234" or "1234;cluster" (--parsable); nullopt when the output holds no job id.
std::optional<std::string> parseSbatchJobId(const std::string& output);

// One squeue line of "%T|%r|%S|%N" (state, reason, estimated or actual start, nodes).
struct SlurmQueueState {
    std::string state;  // PENDING, RUNNING, COMPLETING, COMPLETED, FAILED, ...
    std::string reason; // why it waits: Resources, Priority, ReqNodeNotAvail, ...; "None" dropped
    std::string start;  // squeue's %S: the estimated start while pending; "N/A" dropped
    std::string nodes;
    bool pending() const { return state == "PENDING" || state == "CONFIGURING"; }
    bool running() const { return state == "RUNNING" || state == "COMPLETING"; }
    bool ended() const {
        return !state.empty() && !pending() && !running() && state != "SUSPENDED";
    }
};
std::optional<SlurmQueueState> parseSqueueLine(const std::string& output);

// How a job ended, as sacct (-X -n -P -o State,ExitCode,NodeList) or scontrol show job -o
// says: state word, the batch script's exit code and the signal that ended it.
struct SlurmJobEnd {
    std::string state; // COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, ...
    int exitCode = 0;
    int signal = 0;
    std::string nodes;
    std::string reason;    // scontrol's Reason=, when not None
    std::string timeLimit; // as Slurm prints it: "00:01:00", "1-00:00:00"
    // NODE_FAIL: which of the job's nodes are down, and why (sinfo -R), e.g. "node2" and
    // "Not responding".
    std::string failedNodes;
    std::string failedWhy;
};
// sacct's first line of -o State,ExitCode,NodeList,Timelimit (the job, not a step);
// "CANCELLED by 0" keeps CANCELLED.
std::optional<SlurmJobEnd> parseSacct(const std::string& output);
std::optional<SlurmJobEnd> parseScontrolJob(const std::string& output);
// `sinfo -h -N -R -n <job's nodes> -o %N|%E` into end.failedNodes and end.failedWhy (each node
// once, in sinfo's order; the reasons that differ, joined by "; ").
void readDownNodes(const std::string& sinfo, SlurmJobEnd& end);

// srun's first "srun: error: node2: task 1: Exited with exit code 3" in a job's output: the task
// that failed first (the others were then killed, and their 143 is what the job reports).
struct SrunTaskFailure {
    std::string node;
    std::string tasks;
    int exitCode = 0;
    std::string line;
};
std::optional<SrunTaskFailure> firstFailedTask(const std::string& output);

// The run's end for a job that did not complete normally, in words naming the job, its exit
// code and its nodes; nullopt for COMPLETED, which the log decides (ok or incomplete).
std::optional<RunEnd> runEndOfJob(const std::string& jobId, const SlurmJobEnd& end);

} // namespace sv::launcher
