#include "launcher/campaign/campaigndiff.h"

#include "launcher/campaign/adaptiverepeats.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace sv::launcher {
namespace {

std::string text(const std::string& s) {
    return s.empty() ? std::string("(none)") : s;
}

template <typename T> std::string listed(const std::vector<T>& items) {
    std::string out;
    for (const auto& i : items) {
        if (!out.empty()) out += ", ";
        if constexpr (std::is_same_v<T, Topology>)
            out += i.name();
        else if constexpr (std::is_same_v<T, std::string>)
            out += i;
        else
            out += std::to_string(i);
    }
    return out.empty() ? std::string("(none)") : out;
}

template <typename T> bool sameSet(const std::vector<T>& a, const std::vector<T>& b) {
    return std::set<T>(a.begin(), a.end()) == std::set<T>(b.begin(), b.end());
}

std::string hostText(const Host& h) {
    std::string s = h.user.empty() ? h.name : h.user + "@" + h.name;
    if (h.port) s += ":" + std::to_string(h.port);
    if (!h.address.empty()) s += "=" + h.address;
    return s + " (" + std::to_string(h.gpus) + " GPUs)";
}

bool sameDirectory(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    auto norm = [](const std::string& p) {
        std::string s = fs::absolute(p).lexically_normal().string();
        while (s.size() > 1 && s.back() == '/')
            s.pop_back();
        return s;
    };
    return norm(a) == norm(b);
}

} // namespace

std::vector<std::string> campaignDifferences(const Campaign& a, const Campaign& b) {
    std::vector<std::string> d;
    auto field = [&d](const std::string& name, const std::string& x, const std::string& y) {
        if (x != y) d.push_back(name + ": " + text(x) + " → " + text(y));
    };
    auto number = [&d](const std::string& name, int x, int y) {
        if (x != y) d.push_back(name + ": " + std::to_string(x) + " → " + std::to_string(y));
    };
    if (!a.outputDir.empty() || !b.outputDir.empty())
        if (a.outputDir.empty() || b.outputDir.empty() || !sameDirectory(a.outputDir, b.outputDir))
            d.push_back("output directory: " + text(a.outputDir) + " → " + text(b.outputDir));
    field("workload", a.profile, b.profile);
    field("launcher", a.launcher, b.launcher);
    std::vector<std::string> ha, hb;
    for (const Host& h : a.hosts)
        ha.push_back(hostText(h));
    for (const Host& h : b.hosts)
        hb.push_back(hostText(h));
    if (ha != hb) d.push_back("hosts: " + listed(ha) + " → " + listed(hb));
    field("container", a.container.runtime == "docker" ? a.container.name : "",
          b.container.runtime == "docker" ? b.container.name : "");
    field("ssh config", a.sshConfig, b.sshConfig);
    if (!sameSet(a.topologies, b.topologies))
        d.push_back("topologies: " + listed(a.topologies) + " → " + listed(b.topologies));
    if (!sameSet(a.batchSizes, b.batchSizes))
        d.push_back("batch sizes: " + listed(a.batchSizes) + " → " + listed(b.batchSizes));
    if (!sameSet(a.precisions, b.precisions))
        d.push_back("precisions: " + listed(a.precisions) + " → " + listed(b.precisions));
    number("repeats", a.repeats, b.repeats);
    number("maximum repeats", a.maxRepeats(), b.maxRepeats());
    if (a.targetCiPct != b.targetCiPct)
        d.push_back("target interval: ±" + formatPct(a.targetCiPct) + " % → ±" +
                    formatPct(b.targetCiPct) + " %");
    if (a.adaptive() || b.adaptive()) number("rerun limit", a.rerunLimit, b.rerunLimit);
    if (a.countDisturbed != b.countDisturbed)
        d.push_back(std::string("disturbed runs: ") +
                    (a.countDisturbed ? "counted → rerun" : "rerun → counted"));
    number("iterations", a.iterations, b.iterations);
    number("warmup", a.warmup, b.warmup);
    number("cooldown (s)", a.cooldownSeconds, b.cooldownSeconds);
    number("start timeout (s)", a.startTimeoutSeconds, b.startTimeoutSeconds);
    number("wall-clock timeout (s)", a.wallTimeoutSeconds, b.wallTimeoutSeconds);
    number("grace (s)", a.graceSeconds, b.graceSeconds);
    number("ssh connect timeout (s)", a.connectTimeoutSeconds, b.connectTimeoutSeconds);
    number("ssh keep-alive interval (s)", a.aliveIntervalSeconds, b.aliveIntervalSeconds);
    number("ssh keep-alive count", a.aliveCountMax, b.aliveCountMax);
    std::set<std::string> keys;
    for (const auto& [k, v] : a.variables)
        keys.insert(k);
    for (const auto& [k, v] : b.variables)
        keys.insert(k);
    for (const auto& k : keys) {
        auto x = a.variables.find(k), y = b.variables.find(k);
        field(k, x == a.variables.end() ? "" : x->second, y == b.variables.end() ? "" : y->second);
    }
    return d;
}

} // namespace sv::launcher
