#include "launcher/ssh/hostaddresses.h"

#include "launcher/campaign/identifiers.h"
#include "launcher/exec/commandbatch.h"

#include <memory>
#include <sstream>

namespace sv::launcher {

std::vector<std::string> sshConfigQueryArgv(const Campaign& campaign, const Host& host) {
    std::vector<std::string> argv{"ssh", "-G"};
    if (!campaign.sshConfig.empty()) argv.insert(argv.end(), {"-F", campaign.sshConfig});
    // Port and user take part in Match rules: the query sees what the real connection sends.
    if (host.port) argv.insert(argv.end(), {"-p", std::to_string(host.port)});
    if (!host.user.empty()) argv.insert(argv.end(), {"-l", host.user});
    argv.insert(argv.end(), {"--", host.name});
    return argv;
}

std::optional<std::string> hostnameOfSshConfig(const std::string& sshGOutput) {
    std::istringstream in(sshGOutput);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("hostname ", 0) != 0) continue;
        std::string value = line.substr(9);
        while (!value.empty() && (value.back() == '\r' || value.back() == ' '))
            value.pop_back();
        if (!value.empty()) return value;
    }
    return std::nullopt;
}

void resolveHostAddresses(const Campaign& campaign, QObject* context,
                          std::function<void(HostAddresses)> done) {
    auto result = std::make_shared<HostAddresses>();
    auto queried = std::make_shared<std::vector<std::size_t>>(); // host index of each command
    std::vector<BatchCommand> commands;
    for (std::size_t i = 0; i < campaign.hosts.size(); ++i) {
        const Host& h = campaign.hosts[i];
        result->addresses.push_back(h.rendezvous());
        if (!h.address.empty()) continue;
        // ssh -G reads files only (unless a Match exec runs a command): a few seconds is ample.
        commands.push_back({sshConfigQueryArgv(campaign, h), {}, 10000});
        queried->push_back(i);
    }
    const std::vector<Host> hosts = campaign.hosts;
    CommandBatch::run(
        std::move(commands), context,
        [result, queried, hosts, done](std::vector<BatchResult> results) {
            for (std::size_t k = 0; k < results.size(); ++k) {
                const std::size_t i = (*queried)[k];
                const BatchResult& r = results[k];
                const auto name = hostnameOfSshConfig(r.output);
                if (r.exitCode == 0 && name && isValidHostName(*name)) {
                    result->addresses[i] = *name;
                    continue;
                }
                std::string errors = r.errors;
                while (!errors.empty() && (errors.back() == '\n' || errors.back() == '\r'))
                    errors.pop_back();
                const std::string why = r.timedOut              ? "no answer within 10 s"
                                        : !r.startError.empty() ? r.startError
                                        : r.exitCode != 0       ? errors
                                        : name ? "'" + *name + "' is not an address"
                                               : "no hostname line";
                result->problems.push_back("could not read the address of " + hosts[i].name +
                                           " from ssh -G (" + why + "); its ranks meet at '" +
                                           hosts[i].name + "': give it as " + hosts[i].name +
                                           "=ADDRESS if that name does not resolve on every host");
            }
            done(std::move(*result));
        });
}

} // namespace sv::launcher
