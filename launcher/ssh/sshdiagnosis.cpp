#include "launcher/ssh/sshdiagnosis.h"

#include "launcher/exec/shellquote.h"

#include <sstream>
#include <vector>

namespace sv::launcher {
namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        const auto first = line.find_first_not_of(' ');
        out.push_back(first == std::string::npos ? std::string() : line.substr(first));
    }
    return out;
}

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// The methods of ssh's "user@host: Permission denied (publickey,password)." (its last such
// line) into *methods; false when there is none.
bool permissionDenied(const std::vector<std::string>& text, std::string* methods) {
    static const std::string marker = "Permission denied (";
    bool found = false;
    for (const auto& line : text) {
        const auto at = line.find(marker);
        if (at == std::string::npos) continue;
        const auto from = at + marker.size();
        const auto close = line.find(')', from);
        if (close == std::string::npos || close == from) continue;
        const std::string list = line.substr(from, close - from);
        if (list.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789,@.-") != std::string::npos)
            continue; // "Permission denied (os error 13)" and the like: not ssh's method list
        *methods = list;
        found = true;
    }
    return found;
}

std::string copyIdCommand(const Host& host, const std::string& configFile) {
    std::vector<std::string> argv{"ssh-copy-id"};
    if (!configFile.empty()) argv.insert(argv.end(), {"-F", configFile});
    if (host.port) argv.insert(argv.end(), {"-p", std::to_string(host.port)});
    argv.push_back(host.user.empty() ? host.name : host.user + "@" + host.name);
    return shellCommand(argv);
}

SshDiagnosis keyRefused(const std::string& methods, const Host& host,
                        const std::string& configFile) {
    const bool offersKeys = ("," + methods + ",").find(",publickey,") != std::string::npos;
    const std::string where =
        configFile.empty() ? "your ssh config (~/.ssh/config)" : "the ssh config " + configFile;
    SshDiagnosis d;
    d.failure = SshFailure::KeyRefused;
    d.advice = "key authentication was refused by " + host.name;
    if (offersKeys)
        d.advice += " (it accepts " + methods + ", but not the key offered)";
    else
        d.advice += " (its sshd accepts only " + methods +
                    ", no keys: set PubkeyAuthentication yes in its sshd_config)";
    d.advice += "; the launcher never types a password (ssh runs with BatchMode=yes). Install "
                "your public key on " +
                host.name + " with: " + copyIdCommand(host, configFile) +
                " - or fix the User and IdentityFile for " + host.name + " in " + where;
    return d;
}

SshDiagnosis hostKeyChanged(const std::vector<std::string>& text, const Host& host) {
    std::string fingerprint, offending, removeWith;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::string& line = text[i];
        if (startsWith(line, "The fingerprint for the ") && i + 1 < text.size() &&
            startsWith(text[i + 1], "SHA256:")) {
            fingerprint = text[i + 1];
            if (!fingerprint.empty() && fingerprint.back() == '.') fingerprint.pop_back();
        }
        if (startsWith(line, "Offending ")) {
            const auto in = line.find(" key in ");
            if (in != std::string::npos) offending = line.substr(in + 8);
        }
        // ssh's own "remove with:" line names the file and the exact entry ([address]:port).
        if (startsWith(line, "ssh-keygen ") && line.find(" -R ") != std::string::npos)
            removeWith = line;
    }
    if (removeWith.empty()) {
        const std::string entry =
            host.port ? "[" + host.name + "]:" + std::to_string(host.port) : host.name;
        removeWith = shellCommand({"ssh-keygen", "-R", entry}) +
                     " (with -f FILE for a known_hosts file of your own, and the name or "
                     "[address]:port ssh recorded the host under)";
    }
    SshDiagnosis d;
    d.failure = SshFailure::HostKeyChanged;
    d.advice =
        "the host key of " + host.name + " changed: it is not the key known_hosts holds for it" +
        (offending.empty() ? std::string() : " (" + offending + ")") +
        ", and ssh refused to connect. Verify the new key with the host's administrator" +
        (fingerprint.empty() ? std::string() : " (it presented " + fingerprint + ")") +
        "; if the change is expected (reinstalled host), remove the old entry with: " + removeWith +
        " - the next connection records the new key. If nobody changed it, do not "
        "connect: someone may be intercepting the connection";
    return d;
}

} // namespace

SshDiagnosis diagnoseSsh(const std::string& sshErrors, const Host& host,
                         const std::string& configFile) {
    const auto text = lines(sshErrors);
    bool changed = false, unknown = false;
    for (const auto& line : text) {
        changed =
            changed || line.find("REMOTE HOST IDENTIFICATION HAS CHANGED") != std::string::npos ||
            line.find("Host key verification failed.") != std::string::npos ||
            (startsWith(line, "Host key for ") &&
             line.find(" has changed and you have requested strict checking") != std::string::npos);
        // StrictHostKeyChecking=yes (never the launcher's own accept-new) and no key known yet:
        // it did not change, it was never recorded.
        unknown = unknown || (startsWith(line, "No ") &&
                              line.find(" host key is known for ") != std::string::npos);
    }
    if (changed && !unknown) return hostKeyChanged(text, host);
    std::string methods;
    if (permissionDenied(text, &methods)) return keyRefused(methods, host, configFile);
    return {};
}

} // namespace sv::launcher
