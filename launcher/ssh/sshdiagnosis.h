#pragma once
// Reads what the OpenSSH client wrote to standard error when it could not run a command on a
// host, and says what a person has to do, for the failures only a person can fix: the host
// refused key authentication (BatchMode never types a password), or the host key changed (ssh
// refuses, and so does the launcher: the advice is to verify, then remove the old entry, never to
// turn checking off). Pure: no process, no file.

#include "launcher/campaign/campaign.h"

#include <string>

namespace sv::launcher {

enum class SshFailure {
    Other,          // nothing this recognizes (connection refused, timeout, ...)
    KeyRefused,     // "user@host: Permission denied (publickey,password)."
    HostKeyChanged, // "REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key verification failed."
};

struct SshDiagnosis {
    SshFailure failure = SshFailure::Other;
    std::string advice; // names the host and what to do; empty for Other
};

// sshErrors: ssh's standard error (all of it, or only its last line); host: the campaign's host
// it was for; configFile: the campaign's ssh config (-F), empty when none.
SshDiagnosis diagnoseSsh(const std::string& sshErrors, const Host& host,
                         const std::string& configFile);

} // namespace sv::launcher
