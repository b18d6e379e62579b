#include "launcher/container/containerpreflight.h"

namespace sv::launcher {
namespace {

bool holds(const std::string& text, const char* what) {
    return text.find(what) != std::string::npos;
}

} // namespace

std::vector<ContainerCheck> ContainerPreflight::checks(const CommandBuilder& builder, int host,
                                                       int timeoutMs) {
    std::vector<ContainerCheck> out;
    const ContainerCommands& containers = builder.containers();
    if (!containers.managed()) return out;
    out.push_back(
        {"docker", -1, {builder.onHost(host, containers.version(), false), {}, timeoutMs}});
    out.push_back(
        {"image", -1, {builder.onHost(host, containers.inspectImage(), false), {}, timeoutMs}});
    const auto& mounts = builder.campaign().container.mounts;
    for (std::size_t i = 0; i < mounts.size(); ++i)
        out.push_back(
            {"mount",
             static_cast<int>(i),
             {builder.onHost(host, {"test", "-e", mounts[i].source}, false), {}, timeoutMs}});
    // Multi-node: the launcher starts the image's sshd in each container (a one-off container
    // of the image looks for it; starting one may take a while).
    if (builder.containerSsh().needed())
        out.push_back(
            {"sshd", -1, {builder.probe(host, ContainerSsh::findSshd()), {}, timeoutMs + 30000}});
    return out;
}

std::pair<bool, std::string> ContainerPreflight::judge(const CommandBuilder& builder,
                                                       const ContainerCheck& check,
                                                       const BatchResult& r,
                                                       const std::string& host) {
    const Container& c = builder.campaign().container;
    const std::string why = failureLine(r);
    const bool ok = r.exitCode == 0;
    if (check.name == "docker") {
        if (ok) return {true, "docker " + lastLineOf(r.output) + " reachable"};
        const std::string where =
            c.host.empty() ? std::string("its default socket or DOCKER_HOST") : c.host;
        if (!r.startError.empty() || r.exitCode == 127 || holds(why, "not found"))
            return {false, "the docker client " + c.program + " is missing (" + why +
                               "): install it (apt-get install docker.io) or give its path "
                               "(--docker, container.program)"};
        if (holds(why, "permission denied"))
            return {false, "this user may not use docker at " + where + " (" + why +
                               "): add the user to the docker group (usermod -aG docker USER, "
                               "then log in again) or run as root"};
        return {false, "docker is not reachable at " + where + " (" + why +
                           "): start the daemon (systemctl start docker), or point DOCKER_HOST "
                           "or container.host at the one to use"};
    }
    if (check.name == "image") {
        if (ok) return {true, "image " + c.image + " present (" + lastLineOf(r.output) + ")"};
        return {false, "image " + c.image + " is not on " + host + " (" + why +
                           "): pull it (docker pull " + c.image +
                           "), or build or load it there (docker load -i FILE)"};
    }
    if (check.name == "sshd") {
        const ContainerSsh& ssh = builder.containerSsh();
        if (auto problem = ssh.problem()) return {false, *problem};
        const std::string port = std::to_string(ssh.port());
        if (ok)
            return {true, "sshd " + lastLineOf(r.output) +
                              " in the image (multi-node runs start it "
                              "in each container, port " +
                              port + ")"};
        // docker run's own failure (a mount, the daemon), before anything ran in the image.
        if (r.exitCode == 125)
            return {false,
                    "could not run a container of " + c.image + " to look for sshd (" + why + ")"};
        return {false, "the image " + c.image + " has no sshd (" + why +
                           "): multi-node runs start one in each container on port " + port +
                           "; install openssh-server in the image"};
    }
    const ContainerMount& m = c.mounts.at(static_cast<std::size_t>(check.mount));
    if (ok) return {true, "mount source " + m.source + " present (seen at " + m.target + ")"};
    return {false, "mount source " + m.source + " does not exist on " + host +
                       (r.exitCode == 1 ? std::string() : " (" + why + ")") +
                       ": create it there, or fix the mount (--container-mount SRC:DST[:ro], "
                       "container.mounts)"};
}

} // namespace sv::launcher
