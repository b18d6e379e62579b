#pragma once
// Runs on a host through the OpenSSH client: never waits for a person (BatchMode), accepts a
// new host key but refuses a changed one, gives up on a dead host (ConnectTimeout, keep-alives),
// no -tt, "--" before the destination, and the remote command quoted once for the remote shell.

#include "launcher/campaign/campaign.h"
#include "launcher/exec/executor.h"

namespace sv::launcher {

struct SshOptions {
    std::string configFile; // -F
    int connectTimeoutSeconds = 10;
    int aliveIntervalSeconds = 5;
    int aliveCountMax = 3;
    std::string strictHostKeyChecking = "accept-new";
    static SshOptions fromCampaign(const Campaign& c);
};

class SshExecutor : public Executor {
  public:
    SshExecutor(Host host, SshOptions options)
        : m_host(std::move(host)), m_options(std::move(options)) {}
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override;
    std::string hostLabel() const override { return m_host.name; }
    bool isRemote() const override { return true; }

  private:
    Host m_host;
    SshOptions m_options;
};

} // namespace sv::launcher
