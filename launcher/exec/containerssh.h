#pragma once
// The sshd inside each container of a multi-node campaign, set up as the seed does by hand but
// with a key pair and a host key made for the campaign: the files that hold them (OUT/ssh on
// every host), the sshd and ssh configurations, and the commands that start sshd and put the
// campaign's ssh first on the PATH of mpirun/horovodrun. Pure: starts nothing.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

// The seed's port of the containers' sshd (methodology section 1), for a profile that sets no
// "ssh_port" variable.
inline constexpr int kDefaultContainerSshPort = 10001;

class ContainerSsh {
  public:
    // One file of OUT/ssh: its name there, its mode (octal, as chmod takes it), its text.
    struct File {
        std::string name;
        std::string mode;
        std::string text;
    };

    ContainerSsh(const Campaign& campaign, const WorkloadProfile& profile, bool perNodeLauncher);

    // Whether the launcher starts the sshd: it starts the containers, on two hosts or more, a
    // topology spans more than one node, and the launcher reaches the other nodes itself (not
    // torchrun, which is started on every node).
    bool needed() const { return m_needed; }
    // What keeps it from being set up (a port that is no number, a directory ssh_config cannot
    // name); nullopt when nothing does.
    std::optional<std::string> problem() const;
    const std::string& dir() const { return m_dir; } // OUT/ssh, absolute
    std::string binDir() const { return m_dir + "/bin"; }
    int port() const { return m_port; }

    // ssh-keygen making a new ed25519 key at path, without a passphrase.
    static std::vector<std::string> keygen(const std::string& path);
    // Every file but the two key pairs, given their public halves; addresses: where each host's
    // sshd listens (known_hosts names them with the port).
    std::vector<File> configFiles(const std::string& userPublicKey,
                                  const std::string& hostPublicKey,
                                  const std::vector<std::string>& addresses) const;
    // Writes the files that arrive on standard input (bundle()) into dir(), each under a
    // temporary name first, then renamed: a host that is this machine gets them whole.
    std::vector<std::string> install(const std::vector<File>& files) const;
    static std::string bundle(const std::vector<File>& files);
    // Starts sshd inside a container, listening on `address` only: detached once it is
    // listening, or an exit status and its words when it cannot (no sshd, the port taken).
    std::vector<std::string> startSshd(const std::string& address) const;
    // Prints where the image's sshd is, or fails saying there is none (preflight).
    static std::vector<std::string> findSshd();
    // Put before the workload inside docker exec: `ssh` on its PATH is the campaign's.
    std::vector<std::string> workloadPrefix() const;
    // Environment of the launcher inside the container: every node is reached from the first
    // (Open MPI's tree spawn would ssh on from the other containers' sshd sessions, where the
    // campaign's ssh is not on the PATH).
    static std::vector<std::string> workloadEnv();
    std::vector<std::string> removal() const;

  private:
    std::string sshdConfig() const;
    std::string clientConfig() const;

    bool m_needed = false;
    std::string m_dir;
    std::string m_portText;
    int m_port = 0;
    int m_connectTimeout = 10, m_aliveInterval = 5, m_aliveCountMax = 3;
};

} // namespace sv::launcher
