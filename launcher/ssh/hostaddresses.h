#pragma once
// Where each host's ranks meet (torch MASTER_ADDR, -H lists in a container): the host's explicit
// address, or else the address OpenSSH itself connects to for its name (`ssh -G`: an
// ssh_config alias's HostName, after Match and %h), so that an alias like "node1" never reaches
// a resolver that only ssh's config knows. Resolved once per campaign, through the event loop.

#include "launcher/campaign/campaign.h"

#include <QObject>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct HostAddresses {
    std::vector<std::string> addresses; // one per campaign host, in order
    std::vector<std::string> problems;  // hosts kept at their name, each with why
};

// `ssh -G` for host as the campaign reaches it (-F, -p, -l): prints the configuration it would
// use, without connecting.
std::vector<std::string> sshConfigQueryArgv(const Campaign& campaign, const Host& host);
// The `hostname` line of `ssh -G` output; nullopt when there is none.
std::optional<std::string> hostnameOfSshConfig(const std::string& sshGOutput);

// Calls done once from the event loop of context. Hosts with an explicit address are taken as
// they are and start no process; a host whose query fails keeps its name, with a problem.
void resolveHostAddresses(const Campaign& campaign, QObject* context,
                          std::function<void(HostAddresses)> done);

} // namespace sv::launcher
