#include "launcher/exec/containerssh.h"

#include "launcher/campaign/campaigndirectory.h"

#include <algorithm>
#include <sstream>

namespace sv::launcher {
namespace {

// Sets $s to the image's sshd (sshd re-executes itself, so the path must be absolute), or says
// there is none.
const char* kFindSshd =
    "s=$(command -v sshd 2>/dev/null) || s=; case \"$s\" in /*) ;; *) s=/usr/sbin/sshd;; esac; "
    "if [ ! -x \"$s\" ]; then echo \"no sshd in this container (none on PATH, none at "
    "/usr/sbin/sshd)\" >&2; exit 127; fi; ";

// Privilege separation wants its empty directory; an image that never ran sshd lacks it. sshd
// forks into the background once it listens: its exit status says whether it could.
const char* kStartSshd = "mkdir -p /run/sshd && chmod 0755 /run/sshd && exec \"$s\" \"$@\"";

// $1: the directory; then NAME MODE LENGTH per file, whose bytes follow one another on standard
// input. Each is written under a temporary name, checked whole, then renamed over the old one.
const char* kInstall =
    "d=$1; shift; umask 022; mkdir -p -m 700 \"$d\" && mkdir -p \"$d/bin\" || exit 1; umask 077; "
    "while [ $# -ge 3 ]; do t=\"$d/$1.part$$\"; "
    "if head -c \"$3\" > \"$t\" && [ \"$(wc -c < \"$t\")\" -eq \"$3\" ] && chmod \"$2\" \"$t\" && "
    "mv -f \"$t\" \"$d/$1\"; then shift 3; "
    "else rm -f \"$t\"; echo \"could not write $d/$1\" >&2; exit 1; fi; done";

// bin/ssh: mpirun's and horovodrun's `ssh`, found first on their PATH. It runs the next ssh on
// the PATH with the campaign's ssh_config, beside this folder (no path written into it).
const char* kWrapper =
    "#!/bin/sh\n"
    "# ssh between the containers of a ScaleView campaign: the campaign's own key, known hosts\n"
    "# and port (../ssh_config); the real ssh is the next one on the PATH.\n"
    "here=$(cd \"$(dirname \"$0\")\" && pwd) || exit 127\n"
    "set -f\n"
    "IFS=:\n"
    "for d in $PATH; do\n"
    "    if [ \"$d\" != \"$here\" ] && [ -x \"$d/ssh\" ] && [ ! \"$d/ssh\" -ef \"$0\" ]; then\n"
    "        unset IFS\n"
    "        exec \"$d/ssh\" -F \"$here/../ssh_config\" \"$@\"\n"
    "    fi\n"
    "done\n"
    "echo \"ssh: no ssh client on this container's PATH (openssh-client)\" >&2\n"
    "exit 127\n";

std::string quoted(const std::string& path) {
    return "\"" + path + "\"";
}

// "ssh-ed25519 AAAA... comment" -> "ssh-ed25519 AAAA...".
std::string keyOnly(const std::string& publicKey) {
    std::istringstream in(publicKey);
    std::string type, blob;
    in >> type >> blob;
    return type + " " + blob;
}

} // namespace

ContainerSsh::ContainerSsh(const Campaign& campaign, const WorkloadProfile& profile,
                           bool perNodeLauncher)
    : m_connectTimeout(campaign.connectTimeoutSeconds),
      m_aliveInterval(campaign.aliveIntervalSeconds), m_aliveCountMax(campaign.aliveCountMax) {
    int nodes = 0;
    for (const auto& t : campaign.topologies)
        nodes = std::max(nodes, t.nodes);
    m_needed = campaign.container.managed() && campaign.hosts.size() >= 2 && nodes >= 2 &&
               !perNodeLauncher && !campaign.outputDir.empty();
    if (!campaign.outputDir.empty()) m_dir = absoluteOutputDir(campaign.outputDir) + "/ssh";
    // The same variable as the launcher's {ssh_port} (horovodrun -p), so both agree.
    m_portText = std::to_string(kDefaultContainerSshPort);
    if (auto it = profile.variables.find("ssh_port"); it != profile.variables.end())
        m_portText = it->second;
    if (auto it = campaign.variables.find("ssh_port"); it != campaign.variables.end())
        m_portText = it->second;
    const bool digits = !m_portText.empty() && m_portText.size() <= 5 &&
                        std::all_of(m_portText.begin(), m_portText.end(),
                                    [](char c) { return c >= '0' && c <= '9'; });
    m_port = digits ? std::stoi(m_portText) : 0;
    if (m_port > 65535) m_port = 0;
}

std::optional<std::string> ContainerSsh::problem() const {
    if (m_port <= 0)
        return "the containers' sshd port (variable ssh_port) is '" + m_portText +
               "', not a port number";
    // ssh_config and sshd_config name the files: no quote, backslash or %TOKEN there.
    for (char c : m_dir)
        if (c == '"' || c == '\\' || c == '%' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return "the output directory " + m_dir.substr(0, m_dir.size() - 4) +
                   " holds a quote, a backslash, a '%' or a control character, which the "
                   "containers' ssh configuration cannot name; choose another for a multi-node "
                   "campaign in containers";
    return std::nullopt;
}

std::vector<std::string> ContainerSsh::keygen(const std::string& path) {
    return {"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "scaleview-campaign", "-f", path};
}

std::string ContainerSsh::sshdConfig() const {
    std::ostringstream o;
    o << "# The sshd of this campaign's containers, started by ScaleView: the campaign's keys "
         "only.\n"
      << "Port " << m_port << "\n"
      << "HostKey " << quoted(m_dir + "/host_ed25519") << "\n"
      << "AuthorizedKeysFile " << quoted(m_dir + "/authorized_keys") << "\n"
      << "PubkeyAuthentication yes\n"
      << "PasswordAuthentication no\n"
      << "KbdInteractiveAuthentication no\n"
      << "PermitRootLogin prohibit-password\n"
      // The files belong to whoever started the campaign, under directories sshd's owner
      // checks would refuse (/tmp, a user's home).
      << "StrictModes no\n"
      << "UsePAM no\n"
      << "PrintMotd no\n"
      << "PrintLastLog no\n"
      << "AllowTcpForwarding no\n"
      << "X11Forwarding no\n"
      << "PermitTunnel no\n"
      << "PidFile /run/sshd-scaleview.pid\n";
    return o.str();
}

std::string ContainerSsh::clientConfig() const {
    std::ostringstream o;
    o << "# ssh between this campaign's containers (ScaleView): the campaign's key, its known "
         "hosts\n# and the port of the containers' sshd; never the user's own keys.\n"
      << "Host *\n"
      << "  Port " << m_port << "\n"
      << "  IdentityFile " << quoted(m_dir + "/id_ed25519") << "\n"
      << "  IdentitiesOnly yes\n"
      << "  UserKnownHostsFile " << quoted(m_dir + "/known_hosts") << "\n"
      << "  GlobalKnownHostsFile /dev/null\n"
      // The campaign made the host key and wrote known_hosts: any other key is refused.
      << "  StrictHostKeyChecking yes\n"
      << "  BatchMode yes\n"
      << "  PasswordAuthentication no\n"
      << "  ConnectTimeout " << m_connectTimeout << "\n"
      << "  ServerAliveInterval " << m_aliveInterval << "\n"
      << "  ServerAliveCountMax " << m_aliveCountMax << "\n"
      << "  LogLevel ERROR\n";
    return o.str();
}

std::vector<ContainerSsh::File>
ContainerSsh::configFiles(const std::string& userPublicKey, const std::string& hostPublicKey,
                          const std::vector<std::string>& addresses) const {
    std::string names;
    std::vector<std::string> seen;
    for (const auto& a : addresses) {
        const std::string name = m_port == 22 ? a : "[" + a + "]:" + std::to_string(m_port);
        if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
        seen.push_back(name);
        names += (names.empty() ? "" : ",") + name;
    }
    return {{"authorized_keys", "600", keyOnly(userPublicKey) + " scaleview-campaign\n"},
            {"known_hosts", "644", names + " " + keyOnly(hostPublicKey) + "\n"},
            {"ssh_config", "644", clientConfig()},
            {"sshd_config", "644", sshdConfig()},
            {"bin/ssh", "755", kWrapper}};
}

std::vector<std::string> ContainerSsh::install(const std::vector<File>& files) const {
    std::vector<std::string> argv{"sh", "-c", kInstall, "sh", m_dir};
    for (const auto& f : files)
        argv.insert(argv.end(), {f.name, f.mode, std::to_string(f.text.size())});
    return argv;
}

std::string ContainerSsh::bundle(const std::vector<File>& files) {
    std::string out;
    for (const auto& f : files)
        out += f.text;
    return out;
}

std::vector<std::string> ContainerSsh::startSshd(const std::string& address) const {
    return {"sh", "-c", std::string(kFindSshd) + kStartSshd, "sh", "-f", m_dir + "/sshd_config",
            "-o", "ListenAddress=" + address,
            // Its words on standard error until it runs in the background, for the failure.
            "-e"};
}

std::vector<std::string> ContainerSsh::findSshd() {
    return {"sh", "-c", std::string(kFindSshd) + "echo \"$s\""};
}

std::vector<std::string> ContainerSsh::workloadPrefix() const {
    return {"sh", "-c", "PATH=\"$1:$PATH\"; export PATH; shift; exec \"$@\"", "sh", binDir()};
}

std::vector<std::string> ContainerSsh::workloadEnv() {
    return {"OMPI_MCA_plm_rsh_no_tree_spawn=1"};
}

std::vector<std::string> ContainerSsh::removal() const {
    return {"rm", "-rf", "--", m_dir};
}

} // namespace sv::launcher
