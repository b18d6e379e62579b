#pragma once
// What a user asks to run: a workload profile, hosts, topologies x batch sizes x precisions x
// repeats, and how to measure and time out. Read from and written to JSON (the GUI writes the
// same file); validated as a whole before any process starts.

#include "core/model/runkey.h"
#include "launcher/campaign/slurmsettings.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sv::launcher {

struct Host {
    std::string name;    // SSH destination: host name, address or ssh_config alias
    std::string address; // where ranks meet (torch MASTER_ADDR, -H lists); empty: name
    int port = 0;        // SSH port; 0: ssh's default or the ssh config's
    std::string user;    // empty: ssh's default
    int gpus = 8;        // devices (or CPU "GPUs") per node
    const std::string& rendezvous() const { return address.empty() ? name : address; }
};

// A host directory seen inside the container (docker run -v SOURCE:TARGET[:ro]).
struct ContainerMount {
    std::string source; // on the host: must exist there
    std::string target; // inside the container
    bool readOnly = false;
    bool operator==(const ContainerMount&) const = default;
};

struct Container {
    Container() = default;
    // A running container to exec into, as --container NAME gives.
    Container(std::string runtime_, std::string name_)
        : runtime(std::move(runtime_)), name(std::move(name_)) {}
    std::string runtime = "none"; // "none" or "docker"
    std::string name;             // a running container to `docker exec` into (made by hand)
    // Or: the image the launcher starts one container of on every host, and removes at the
    // campaign's end (unless keep).
    std::string image;
    std::vector<ContainerMount> mounts;
    std::vector<std::string> runArgs; // more `docker run` options, each one word (--opt=value)
    bool keep = false;
    std::string program = "docker"; // the docker client on each host
    std::string host;               // its -H; empty: the client's default (DOCKER_HOST)
    // Whether the launcher starts and removes the containers itself.
    bool managed() const { return runtime == "docker" && !image.empty(); }
};

// A node left out of every topology (--exclude-node), and why (issue 28): the journal and
// campaign.json say so.
struct ExcludedNode {
    Host host;
    std::string reason;
};

struct Campaign {
    std::string profile = "local-cpu-rn50"; // a built-in profile or a profile JSON file
    std::string launcher;                   // "mpirun" or "horovodrun"; empty: the profile's
    std::vector<Host> hosts;                // empty: run on this machine, no SSH
    std::vector<ExcludedNode> excludedNodes; // taken out of hosts (excludeNode)
    // Before each multi-rank case's first repeat: its scaling-loss probes (launcher/probe).
    bool probes = false;
    Container container;
    SlurmSettings scheduler; // type "slurm": each run is one Slurm job; hosts stay empty
    std::vector<Topology> topologies;
    std::vector<int> batchSizes; // per device
    std::vector<std::string> precisions{"fp32"};
    int repeats = 7;        // fixed: this many per case; adaptive: the minimum
    int repeatsMax = 0;     // above repeats: adaptive up to this many (0: fixed)
    double targetCiPct = 0; // > 0: adaptive; a case stops once its interval is within ±this %
    int rerunLimit = 3;     // adaptive: runs per case that may not count before it stops
    // Adaptive: count runs the monitor marked disturbed instead of rerunning them (for a machine
    // that is never quiet, where every run would be rerun; the Results page still warns).
    bool countDisturbed = false;
    int iterations = 120;
    int warmup = 20;
    int cooldownSeconds = 20;
    int startTimeoutSeconds = 600; // until the first speed line
    int wallTimeoutSeconds = 3600; // the whole run
    int graceSeconds = 5;          // between TERM and KILL on cancel
    std::string outputDir;
    std::string sshConfig; // passed as -F, to mpirun's own ssh hop too
    int connectTimeoutSeconds = 10;
    int aliveIntervalSeconds = 5;
    int aliveCountMax = 3;
    std::map<std::string, std::string> variables; // overrides of the profile's {placeholders}

    // Every problem, each naming the field; empty when the campaign can run. Timer values
    // beyond their caps (kMax*Seconds) are refused: no timer overflows counting milliseconds.
    std::vector<std::string> validate() const;

    // Adaptive repeats: each case runs until its median's 95 % interval is within targetCiPct
    // (or maxRepeats() count); disturbed and failed runs are rerun instead of counted.
    bool adaptive() const { return targetCiPct > 0; }
    int maxRepeats() const { return repeatsMax > repeats ? repeatsMax : repeats; }

    // The timer values as durations, for timers (valid only once validate() is empty).
    std::chrono::seconds startTimeout() const { return std::chrono::seconds(startTimeoutSeconds); }
    std::chrono::seconds wallTimeout() const { return std::chrono::seconds(wallTimeoutSeconds); }
    std::chrono::seconds grace() const { return std::chrono::seconds(graceSeconds); }
    std::chrono::seconds cooldown() const { return std::chrono::seconds(cooldownSeconds); }
    std::chrono::seconds connectTimeout() const {
        return std::chrono::seconds(connectTimeoutSeconds);
    }
};

// Caps on the timer values: far beyond any real run, and far below what QTimer's int
// milliseconds hold (24.8 days).
inline constexpr int kMaxTimeoutSeconds = 10 * 86400; // start and wall-clock timeouts
inline constexpr int kMaxCooldownSeconds = 86400;
inline constexpr int kMaxGraceSeconds = 3600;
inline constexpr int kMaxSshSeconds = 3600; // connect timeout, keep-alive interval
inline constexpr int kMaxRepeats = 1000;    // per case, adaptive or not

// Parses JSON text; nullopt with the reason in *error. Unknown keys are errors (typos).
std::optional<Campaign> campaignFromJson(const std::string& text, std::string* error);
std::string campaignToJson(const Campaign& campaign);
std::optional<Campaign> loadCampaign(const std::string& path, std::string* error);
// Written atomically (core/model/atomicfile.h): old or new, never torn.
bool saveCampaign(const Campaign& campaign, const std::string& path, std::string* error);

bool isKnownPrecision(const std::string& precision);

// Moves host `name` from campaign.hosts to campaign.excludedNodes with the reason; an error
// (naming the hosts there are) when no host has that name.
std::optional<std::string> excludeNode(Campaign& campaign, const std::string& name,
                                       const std::string& reason);
inline const char* kDefaultExcludeReason = "left out by --exclude-node";

} // namespace sv::launcher
