// scaleview-cli run's options into a Campaign, one group of options per step, in the order
// they are checked: the first option that is wrong is the one the error names.

#include "app/cli/campaignoptions.h"

#include "launcher/campaign/adaptiverepeats.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/containerspec.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <string_view>
#include <vector>

namespace sv::cli {
namespace {

using namespace sv::launcher;

std::vector<std::string> splitList(const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i <= s.size()) {
        auto c = s.find(',', i);
        if (c == std::string::npos) c = s.size();
        if (c > i) out.push_back(s.substr(i, c - i));
        i = c + 1;
    }
    return out;
}

std::optional<int> wholeNumber(std::string_view s) {
    int out = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return out;
}

// "7" (fixed) or "3..15" (adaptive: at least 3, at most 15); ranges are checked by validate().
bool parseRepeats(const std::string& text, Campaign& c) {
    const auto dots = text.find("..");
    const auto low = wholeNumber(std::string_view(text).substr(0, dots));
    if (!low) return false;
    c.repeats = *low;
    if (dots == std::string::npos) return true;
    const auto high = wholeNumber(std::string_view(text).substr(dots + 2));
    if (!high) return false;
    c.repeatsMax = *high;
    return true;
}

// "2%", "2" or "0.5 %": a percentage above 0.
std::optional<double> parsePercent(std::string text) {
    while (!text.empty() && (text.back() == '%' || text.back() == ' '))
        text.pop_back();
    double out = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || !(out > 0))
        return std::nullopt;
    return out;
}

// What runs: --profile, --launcher, --topologies, --batch-size, --precision, --repeats and
// --target-ci. False with *error on a list item or a value that does not parse.
bool readCases(const Arguments& a, Campaign& c, std::string* error) {
    if (auto v = a.value("profile")) c.profile = *v;
    if (auto v = a.value("launcher")) c.launcher = *v;
    for (const auto& t : splitList(a.value("topologies").value_or(""))) {
        auto topo = parseTopology(t);
        if (!topo) {
            *error = "--topologies: '" + t + "' is not NnGg (e.g. 1n2g)";
            return false;
        }
        c.topologies.push_back(*topo);
    }
    for (const auto& b : splitList(a.value("batch-size").value_or(""))) {
        try {
            c.batchSizes.push_back(std::stoi(b));
        } catch (...) {
            *error = "--batch-size: '" + b + "' is not a number";
            return false;
        }
    }
    if (auto v = a.value("precision")) c.precisions = splitList(*v);
    if (auto v = a.value("repeats")) {
        if (!parseRepeats(*v, c)) {
            *error = "--repeats: '" + *v + "' is not N or MIN..MAX (e.g. 7 or 3..15)";
            return false;
        }
    }
    if (auto v = a.value("target-ci")) {
        const auto pct = parsePercent(*v);
        if (!pct) {
            *error = "--target-ci: '" + *v + "' is not a percentage above 0 (e.g. 2%)";
            return false;
        }
        c.targetCiPct = *pct;
    }
    return true;
}

// How each run runs and where it writes: the reruns, the window, the pauses and timeouts, the
// image size, --out and --ssh-config. A malformed number is a usage error on a.
void readRunSettings(Arguments& a, Campaign& c) {
    if (auto v = a.integer("rerun-limit", 0, kMaxRepeats)) c.rerunLimit = *v;
    if (a.flag("count-disturbed")) c.countDisturbed = true;
    if (auto v = a.integer("iterations", 1, 1000000)) c.iterations = *v;
    if (auto v = a.integer("warmup", 0, 1000000)) c.warmup = *v;
    if (auto v = a.integer("cooldown", 0, 86400)) c.cooldownSeconds = *v;
    if (auto v = a.integer("start-timeout", 1, 864000)) c.startTimeoutSeconds = *v;
    if (auto v = a.integer("wall-timeout", 1, 864000)) c.wallTimeoutSeconds = *v;
    if (auto v = a.integer("grace", 0, 3600)) c.graceSeconds = *v;
    if (auto v = a.integer("connect-timeout", 1, 3600)) c.connectTimeoutSeconds = *v;
    if (auto v = a.value("image-size")) c.variables["image_size"] = *v;
    // Absolute from the start: campaign.json then names this directory for whoever opens it.
    if (auto v = a.value("out")) c.outputDir = absoluteOutputDir(*v);
    if (auto v = a.value("ssh-config"))
        c.sshConfig = std::filesystem::absolute(*v).lexically_normal().string();
}

// --scheduler and the --slurm-* options.
void readSlurm(const Arguments& a, Campaign& c) {
    if (auto v = a.value("scheduler")) c.scheduler.type = *v;
    SlurmSettings& slurm = c.scheduler;
    if (auto v = a.value("slurm-partition")) slurm.partition = *v;
    if (auto v = a.value("slurm-account")) slurm.account = *v;
    if (auto v = a.value("slurm-qos")) slurm.qos = *v;
    if (auto v = a.value("slurm-reservation")) slurm.reservation = *v;
    if (auto v = a.value("slurm-constraint")) slurm.constraint = *v;
    if (auto v = a.value("slurm-time")) slurm.timeLimit = *v;
    if (auto v = a.value("slurm-launch")) slurm.launch = *v;
    // One extra sbatch option from the command line; a campaign file takes a list.
    if (auto v = a.value("slurm-sbatch-arg")) slurm.extraSbatchArgs = {*v};
    slurm.exclusive = a.flag("slurm-exclusive");
    slurm.gpus = a.flag("slurm-gpus");
}

// --container and the --container-* options, and --docker. Under Slurm the image and its
// mounts are pyxis' (srun --container-image), not docker's, so readSlurm comes first. False
// with *error on a mount that does not parse.
bool readContainer(const Arguments& a, Campaign& c, std::string* error) {
    SlurmSettings& slurm = c.scheduler;
    if (auto v = a.value("container")) {
        c.container.runtime = "docker";
        c.container.name = *v;
    }
    if (auto v = a.value("container-image")) {
        if (slurm.enabled()) {
            slurm.containerImage = *v;
        } else {
            c.container.runtime = "docker";
            c.container.image = *v;
        }
    }
    if (auto v = a.value("container-workdir")) slurm.containerWorkdir = *v;
    for (const auto& m : a.values("container-mount")) {
        std::string why;
        auto mount = parseContainerMount(m, &why);
        if (!mount) {
            *error = "--container-mount: " + why;
            return false;
        }
        // A relative source is this directory's, as for --out.
        if (!mount->source.empty() && mount->source.front() != '/')
            mount->source = std::filesystem::absolute(mount->source).lexically_normal().string();
        if (slurm.enabled())
            slurm.containerMounts.push_back(mount->source + ":" + mount->target +
                                            (mount->readOnly ? ":ro" : ""));
        else
            c.container.mounts.push_back(*mount);
    }
    if (a.flag("container-keep")) c.container.keep = true;
    if (auto v = a.value("docker")) c.container.program = *v;
    return true;
}

// --hosts: NAME or NAME=ADDRESS (the address ranks meet at, when NAME is an ssh alias), each
// with as many GPUs as the widest topology uses per node.
void readHosts(const Arguments& a, Campaign& c) {
    int gpus = 1;
    for (const auto& t : c.topologies)
        gpus = std::max(gpus, t.gpusPerNode);
    for (const auto& h : splitList(a.value("hosts").value_or(""))) {
        const auto eq = h.find('=');
        c.hosts.push_back(Host{h.substr(0, eq),
                               eq == std::string::npos ? std::string() : h.substr(eq + 1),
                               0,
                               {},
                               gpus});
    }
}

} // namespace

const std::set<std::string>& campaignValueOptions() {
    // One line per step of campaignFromOptions.
    // clang-format off
    static const std::set<std::string> names{
        "profile", "launcher", "topologies", "batch-size", "precision", "repeats", "target-ci",
        "rerun-limit", "iterations", "warmup", "cooldown", "start-timeout", "wall-timeout",
            "grace", "connect-timeout", "image-size", "out", "ssh-config",
        "scheduler", "slurm-partition", "slurm-account", "slurm-qos", "slurm-reservation",
            "slurm-constraint", "slurm-time", "slurm-launch", "slurm-sbatch-arg",
        "container", "container-image", "container-workdir", "container-mount", "docker",
        "hosts", "exclude-node", "exclude-reason", "healthy-pace",
            "slow-threshold"};
    // clang-format on
    return names;
}

const std::set<std::string>& campaignFlagOptions() {
    static const std::set<std::string> names{"dry-run", "count-disturbed", "slurm-exclusive",
                                             "slurm-gpus", "container-keep", "probes",
                                             "find-slow-node"};
    return names;
}

bool applyProbeOptions(const Arguments& a, Campaign& c, std::string* error) {
    if (a.flag("probes")) c.probes = true;
    const std::string reason = a.value("exclude-reason").value_or(kDefaultExcludeReason);
    if (a.value("exclude-reason") && a.values("exclude-node").empty()) {
        *error = "--exclude-reason: give the node it is for with --exclude-node HOST";
        return false;
    }
    for (const auto& node : a.values("exclude-node"))
        if (auto why = excludeNode(c, node, reason)) {
            *error = "--exclude-node: " + *why;
            return false;
        }
    return true;
}

std::optional<Campaign> campaignFromOptions(Arguments& a, std::string* error) {
    Campaign c;
    if (!readCases(a, c, error)) return std::nullopt;
    readRunSettings(a, c);
    readSlurm(a, c);
    if (!readContainer(a, c, error)) return std::nullopt;
    readHosts(a, c);
    if (!applyProbeOptions(a, c, error)) return std::nullopt;
    if (a.error()) {
        *error = *a.error();
        return std::nullopt;
    }
    return c;
}

} // namespace sv::cli
