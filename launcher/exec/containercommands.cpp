#include "launcher/exec/containercommands.h"

#include "launcher/campaign/campaigndirectory.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>

namespace sv::launcher {
namespace {

constexpr const char* kGpuWord = "{gpus}";

// Rebuilds its arguments with "{gpus}" replaced by --gpus=all where nvidia-smi lists a GPU, or
// dropped, then execs them.
const char* kStartScript = "g=; if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L "
                           ">/dev/null 2>&1; then g=1; fi; "
                           "for a; do shift; if [ \"$a\" = \"{gpus}\" ]; then "
                           "if [ -n \"$g\" ]; then set -- \"$@\" --gpus=all; fi; "
                           "else set -- \"$@\" \"$a\"; fi; done; exec \"$@\"";

std::string fnv1a(const std::string& text) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%012llx",
                  static_cast<unsigned long long>(h & 0xffffffffffffull));
    return buf;
}

} // namespace

ContainerCommands::ContainerCommands(const Campaign& campaign, const WorkloadProfile& profile)
    : m_container(campaign.container),
      m_profileArgs(profile.containerArgs.empty() ? kDefaultContainerArgs : profile.containerArgs),
      m_gpus(profile.needs == "gpu"),
      m_outputDir(campaign.outputDir.empty()
                      ? std::string()
                      : std::filesystem::absolute(campaign.outputDir).lexically_normal().string()) {
    m_campaignKey = fnv1a(m_outputDir);
}

std::string ContainerCommands::name(int host) const {
    if (!managed()) return m_container.name;
    return "sv-" + m_campaignKey + "-" + std::to_string(host);
}

std::vector<std::string> ContainerCommands::docker() const {
    std::vector<std::string> argv{m_container.program};
    if (!m_container.host.empty()) argv.insert(argv.end(), {"-H", m_container.host});
    return argv;
}

std::vector<std::string> ContainerCommands::exec(int host,
                                                 const std::vector<std::string>& env) const {
    auto argv = docker();
    argv.push_back("exec");
    for (const auto& e : env)
        argv.insert(argv.end(), {"-e", e});
    argv.push_back(name(host));
    return argv;
}

std::vector<std::string> ContainerCommands::options() const {
    std::vector<std::string> argv = m_profileArgs;
    argv.insert(argv.end(), m_container.runArgs.begin(), m_container.runArgs.end());
    for (const auto& m : m_container.mounts)
        argv.insert(argv.end(), {"-v", m.source + ":" + m.target + (m.readOnly ? ":ro" : "")});
    // The campaign directory at the same path: the workload script is there for every rank.
    if (!m_outputDir.empty()) argv.insert(argv.end(), {"-v", m_outputDir + ":" + m_outputDir});
    return argv;
}

std::vector<std::string> ContainerCommands::runArgv(int host) const {
    auto argv = docker();
    argv.insert(argv.end(), {"run", "-d", "--name", name(host), "--label",
                             "scaleview.campaign=" + m_outputDir});
    if (m_gpus) argv.push_back(kGpuWord);
    const auto opts = options();
    argv.insert(argv.end(), opts.begin(), opts.end());
    // Something that waits forever without a shell: every run comes in through docker exec.
    argv.insert(argv.end(), {m_container.image, "sleep", "infinity"});
    return argv;
}

std::vector<std::string> ContainerCommands::start(int host) const {
    std::vector<std::string> argv{"sh", "-c", kStartScript, "sh"};
    const auto run = runArgv(host);
    argv.insert(argv.end(), run.begin(), run.end());
    return argv;
}

std::vector<std::string> ContainerCommands::remove(int host) const {
    auto argv = docker();
    argv.insert(argv.end(), {"rm", "-f", name(host)});
    return argv;
}

std::vector<std::string> ContainerCommands::once(const std::vector<std::string>& command,
                                                 bool gpus) const {
    auto argv = docker();
    argv.insert(argv.end(), {"run", "--rm"});
    if (gpus) argv.push_back("--gpus=all");
    // Not the campaign directory: docker would create it, before the campaign does. The mounts
    // as --mount, which fails on a missing source where -v would create it (as root): a check
    // creates nothing.
    argv.insert(argv.end(), m_profileArgs.begin(), m_profileArgs.end());
    argv.insert(argv.end(), m_container.runArgs.begin(), m_container.runArgs.end());
    for (const auto& m : m_container.mounts)
        argv.insert(argv.end(), {"--mount", "type=bind,source=" + m.source + ",target=" + m.target +
                                                (m.readOnly ? ",readonly" : "")});
    argv.push_back(m_container.image);
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

std::vector<std::string> ContainerCommands::inspectImage() const {
    auto argv = docker();
    argv.insert(argv.end(), {"image", "inspect", "--format", "{{.Id}} {{json .RepoDigests}}",
                             m_container.image});
    return argv;
}

std::vector<std::string> ContainerCommands::version() const {
    auto argv = docker();
    argv.insert(argv.end(), {"version", "--format", "{{.Server.Version}}"});
    return argv;
}

} // namespace sv::launcher
