#include "launcher/exec/sshexecutor.h"

#include "launcher/exec/shellquote.h"

namespace sv::launcher {

SshOptions SshOptions::fromCampaign(const Campaign& c) {
    SshOptions o;
    o.configFile = c.sshConfig;
    o.connectTimeoutSeconds = c.connectTimeoutSeconds;
    o.aliveIntervalSeconds = c.aliveIntervalSeconds;
    o.aliveCountMax = c.aliveCountMax;
    return o;
}

std::vector<std::string> SshExecutor::wrap(const std::vector<std::string>& argv) const {
    std::vector<std::string> out{
        "ssh",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=" + m_options.strictHostKeyChecking,
        "-o",
        "ConnectTimeout=" + std::to_string(m_options.connectTimeoutSeconds),
        "-o",
        "ServerAliveInterval=" + std::to_string(m_options.aliveIntervalSeconds),
        "-o",
        "ServerAliveCountMax=" + std::to_string(m_options.aliveCountMax)};
    if (!m_options.configFile.empty()) out.insert(out.end(), {"-F", m_options.configFile});
    if (m_host.port) out.insert(out.end(), {"-p", std::to_string(m_host.port)});
    if (!m_host.user.empty()) out.insert(out.end(), {"-l", m_host.user});
    // The one shell hop of this executor: the remote login shell reads this string.
    out.insert(out.end(), {"--", m_host.name, shellCommand(argv)});
    return out;
}

} // namespace sv::launcher
