#pragma once
// Hosts named in an OpenSSH client config (~/.ssh/config), for the Run panel's import: each
// concrete `Host` alias with its HostName, Port and User. Patterns (*, ?, !) name no machine
// and are skipped; ssh itself still reads the file (-F), so nothing here must be complete.

#include "launcher/campaign/campaign.h"

#include <string>
#include <vector>

namespace sv::launcher {

// gpus: what each imported host is assumed to have until the user says otherwise.
std::vector<Host> hostsFromSshConfig(const std::string& text, int gpus);

} // namespace sv::launcher
