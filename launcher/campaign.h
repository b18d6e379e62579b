#pragma once
// What a user asks to run: a workload profile, hosts, topologies x batch sizes x precisions x
// repeats, and how to measure and time out. Read from and written to JSON (the GUI writes the
// same file); validated as a whole before any process starts.

#include "runkey.h"

#include <map>
#include <optional>
#include <string>
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

struct Container {
    std::string runtime = "none"; // "none" or "docker"
    std::string name;             // the running container to `docker exec` into
};

struct Campaign {
    std::string profile = "local-cpu-rn50"; // a built-in profile or a profile JSON file
    std::string launcher;                   // "mpirun" or "horovodrun"; empty: the profile's
    std::vector<Host> hosts;                // empty: run on this machine, no SSH
    Container container;
    std::vector<Topology> topologies;
    std::vector<int> batchSizes; // per device
    std::vector<std::string> precisions{"fp32"};
    int repeats = 7;
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

    // Every problem, each naming the field; empty when the campaign can run.
    std::vector<std::string> validate() const;
};

// Parses JSON text; nullopt with the reason in *error. Unknown keys are errors (typos).
std::optional<Campaign> campaignFromJson(const std::string& text, std::string* error);
std::string campaignToJson(const Campaign& campaign);
std::optional<Campaign> loadCampaign(const std::string& path, std::string* error);
// Written atomically (QSaveFile): old or new, never torn.
bool saveCampaign(const Campaign& campaign, const std::string& path, std::string* error);

bool isKnownPrecision(const std::string& precision);

} // namespace sv::launcher
