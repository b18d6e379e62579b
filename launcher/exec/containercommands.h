#pragma once
// The docker command lines of a campaign's containers: the one the launcher starts on each
// host (its name unique to the campaign, the profile's options, the mounts), exec into it,
// remove it, and the probes preflight and the environment capture run. Pure: starts nothing.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <string>
#include <vector>

namespace sv::launcher {

// The seed's container options, for a profile that names none (methodology section 1).
inline const std::vector<std::string> kDefaultContainerArgs{
    "--net=host", "--ipc=host", "--ulimit=memlock=-1", "--shm-size=16g"};

class ContainerCommands {
  public:
    ContainerCommands(const Campaign& campaign, const WorkloadProfile& profile);

    bool any() const { return m_container.runtime == "docker"; }
    bool managed() const { return m_container.managed(); }
    bool keep() const { return m_container.keep; }
    const std::string& image() const { return m_container.image; }
    // The container on host `host`: the one given by name, or the one the launcher starts
    // there, "sv-<campaign>-<host>", the campaign being its output directory (so that resume
    // finds what a killed session left).
    std::string name(int host) const;
    // The docker client with its -H.
    std::vector<std::string> docker() const;
    // docker exec [-e NAME=VALUE]... CONTAINER; the command follows.
    std::vector<std::string> exec(int host, const std::vector<std::string>& env = {}) const;
    // Starts the container on `host` detached. Through sh: `--gpus all` is added only where
    // nvidia-smi lists a GPU there (the script is constant; the words are its arguments).
    std::vector<std::string> start(int host) const;
    // docker run -d ... as a person would type it (with "{gpus}" where --gpus all may go).
    std::vector<std::string> runArgv(int host) const;
    // Removes the container on `host`, whatever it runs.
    std::vector<std::string> remove(int host) const;
    // A one-off container of the image for a check (preflight, before any container runs).
    std::vector<std::string> once(const std::vector<std::string>& argv, bool gpus) const;
    // The image's id and repo digests, one line; the server's version.
    std::vector<std::string> inspectImage() const;
    std::vector<std::string> version() const;

  private:
    // The profile's, the user's, the mounts and the campaign directory's: no name, no image.
    std::vector<std::string> options() const;

    Container m_container;
    std::vector<std::string> m_profileArgs;
    bool m_gpus = false;
    std::string m_outputDir; // absolute; mounted at the same path (the workload script, logs)
    std::string m_campaignKey;
};

} // namespace sv::launcher
