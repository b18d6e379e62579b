#include "launcher/campaign/campaign.h"

#include "core/load/runloader.h"
#include "launcher/campaign/containerspec.h"
#include "launcher/campaign/identifiers.h"
#include "launcher/campaign/topologyfit.h"
#include "core/model/jsontext.h"
#include "core/model/atomicfile.h"

#include <climits>
#include <cstdint>
#include <type_traits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace sv::launcher {

using nlohmann::json;

namespace {
// Said beside a topology that no longer fits: which nodes were left out, and why.
std::string excludedText(const std::vector<ExcludedNode>& excluded) {
    std::string out;
    for (const ExcludedNode& x : excluded)
        out += (out.empty() ? " (left out: " : "; ") + x.host.name + ", " + x.reason;
    return out.empty() ? out : out + ")";
}
} // namespace

std::optional<std::string> excludeNode(Campaign& campaign, const std::string& name,
                                       const std::string& reason) {
    // Under Slurm the nodes are the scheduler's: the name goes to sbatch/salloc --exclude.
    if (campaign.scheduler.enabled() && campaign.hosts.empty()) {
        if (!isValidHostName(name)) return "'" + name + "' is not a Slurm node name";
        for (const ExcludedNode& x : campaign.excludedNodes)
            if (x.host.name == name) return std::nullopt;
        Host node;
        node.name = name;
        campaign.excludedNodes.push_back({node, reason.empty() ? kDefaultExcludeReason : reason});
        return std::nullopt;
    }
    for (auto it = campaign.hosts.begin(); it != campaign.hosts.end(); ++it)
        if (it->name == name) {
            campaign.excludedNodes.push_back(
                {*it, reason.empty() ? kDefaultExcludeReason : reason});
            campaign.hosts.erase(it);
            return std::nullopt;
        }
    std::string names;
    for (const Host& h : campaign.hosts)
        names += (names.empty() ? "" : ", ") + h.name;
    return "'" + name + "' is not one of the campaign's hosts (" +
           (names.empty() ? std::string("none: it runs on this machine") : names) + ")";
}

bool isKnownPrecision(const std::string& p) {
    return p == "fp32" || p == "fp16" || p == "fp16-noamp";
}

namespace {

// validate()'s steps, in the order its problems are listed: the hosts; where the runs run (the
// container, the topologies on the hosts, the scheduler); what runs and how often; the times
// and the SSH settings.
void checkHosts(const Campaign& c, std::vector<std::string>& e) {
    for (std::size_t i = 0; i < c.hosts.size(); ++i) {
        const Host& h = c.hosts[i];
        const std::string where = "hosts[" + std::to_string(i) + "]";
        if (!isValidHostName(h.name))
            e.push_back(where + ".name: '" + h.name + "' is not a host name or alias");
        if (!h.address.empty() && !isValidHostName(h.address))
            e.push_back(where + ".address: '" + h.address + "' is not a host name or address");
        if (!h.user.empty() && !isValidUserName(h.user))
            e.push_back(where + ".user: '" + h.user + "' is not a user name");
        if (h.port < 0 || h.port > 65535) e.push_back(where + ".port: out of range");
        if (h.gpus < 1) e.push_back(where + ".gpus: must be at least 1");
    }
}

void checkPlacement(const Campaign& c, std::vector<std::string>& e) {
    for (auto& why : validateContainer(c.container))
        e.push_back(std::move(why));
    if (c.topologies.empty()) e.push_back("topologies: none given");
    // Under Slurm the nodes come from the allocation, not from a host list.
    if (!c.scheduler.enabled())
        for (const Topology& t : c.topologies)
            if (const TopologyFit fit = fitTopology(c.hosts, t); !fit.fits())
                e.push_back("topologies: " + fit.message(t) + excludedText(c.excludedNodes));
    for (const ExcludedNode& x : c.excludedNodes)
        if (!isValidHostName(x.host.name))
            e.push_back("excludeNodes: '" + x.host.name + "' is not a host name or alias");
    for (auto& why : c.scheduler.validate())
        e.push_back(std::move(why));
    if (c.scheduler.enabled() && !c.hosts.empty())
        e.push_back(
            "hosts: a Slurm campaign takes its nodes from the allocation; leave hosts empty");
    if (c.scheduler.enabled() && c.container.runtime != "none")
        e.push_back("container: under Slurm, name a pyxis image (scheduler.containerImage)");
}

void checkCases(const Campaign& c, std::vector<std::string>& e) {
    if (c.batchSizes.empty()) e.push_back("batchSizes: none given");
    for (int b : c.batchSizes)
        if (b < 1) e.push_back("batchSizes: " + std::to_string(b) + " is not a batch size");
    if (c.precisions.empty()) e.push_back("precisions: none given");
    for (const auto& p : c.precisions)
        if (!isKnownPrecision(p))
            e.push_back("precisions: '" + p + "' is not fp32, fp16 or fp16-noamp");
    if (c.repeats < 1) e.push_back("repeats: must be at least 1");
    if (c.repeatsMax != 0 && c.repeatsMax < c.repeats)
        e.push_back("repeats: the maximum " + std::to_string(c.repeatsMax) +
                    " is below the minimum " + std::to_string(c.repeats));
    if (c.repeatsMax > kMaxRepeats)
        e.push_back("repeats: the maximum " + std::to_string(c.repeatsMax) + " is above " +
                    std::to_string(kMaxRepeats));
    if (!(c.targetCiPct >= 0 && c.targetCiPct <= 100)) // also NaN
        e.push_back("targetCiPct: " + std::to_string(c.targetCiPct) +
                    " is out of range (0 to 100 %)");
    if (c.repeatsMax > c.repeats && !c.adaptive())
        e.push_back("repeats: a range " + std::to_string(c.repeats) + ".." +
                    std::to_string(c.repeatsMax) +
                    " needs a target interval (targetCiPct, --target-ci) to stop at");
    // A bootstrap interval needs two values: with one repeat there is nothing to judge.
    if (c.adaptive() && c.repeats < 2)
        e.push_back("repeats: the minimum must be at least 2 with a target interval");
    if (c.rerunLimit < 0 || c.rerunLimit > kMaxRepeats)
        e.push_back("rerunLimit: " + std::to_string(c.rerunLimit) + " is out of range (0 to " +
                    std::to_string(kMaxRepeats) + ")");
    if (auto why = validateMeasureOptions(MeasureOptions{c.warmup, c.iterations}))
        e.push_back("iterations/warmup: " + *why);
}

void checkTimesAndSsh(const Campaign& c, std::vector<std::string>& e) {
    auto range = [&e](const char* field, int value, int low, int high) {
        if (value < low || value > high)
            e.push_back(std::string(field) + ": " + std::to_string(value) + " is out of range (" +
                        std::to_string(low) + " to " + std::to_string(high) + " s)");
    };
    range("cooldownSeconds", c.cooldownSeconds, 0, kMaxCooldownSeconds);
    range("startTimeoutSeconds", c.startTimeoutSeconds, 1, kMaxTimeoutSeconds);
    range("wallTimeoutSeconds", c.wallTimeoutSeconds, 1, kMaxTimeoutSeconds);
    range("graceSeconds", c.graceSeconds, 0, kMaxGraceSeconds);
    if (c.outputDir.empty()) e.push_back("outputDir: empty");
    if (!c.sshConfig.empty() && !isValidPlainPath(c.sshConfig))
        e.push_back("sshConfig: '" + c.sshConfig +
                    "' must be an absolute path without spaces or quotes (mpirun splits it)");
    range("connectTimeoutSeconds", c.connectTimeoutSeconds, 1, kMaxSshSeconds);
    range("aliveIntervalSeconds", c.aliveIntervalSeconds, 1, kMaxSshSeconds);
    if (c.aliveCountMax < 1 || c.aliveCountMax > 1000)
        e.push_back("aliveCountMax: " + std::to_string(c.aliveCountMax) +
                    " is out of range (1 to 1000)");
}

} // namespace

std::vector<std::string> Campaign::validate() const {
    std::vector<std::string> e;
    if (profile.empty()) e.push_back("profile: empty");
    if (!launcher.empty() && launcher != "mpirun" && launcher != "horovodrun" &&
        launcher != "torchrun")
        e.push_back("launcher: '" + launcher + "' is not mpirun, horovodrun or torchrun");
    checkHosts(*this, e);
    checkPlacement(*this, e);
    checkCases(*this, e);
    checkTimesAndSsh(*this, e);
    return e;
}

namespace {

template <typename T> void take(json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    if constexpr (std::is_same_v<T, int>) {
        // json's get<int> wraps a number beyond int (4000000000 would become negative).
        if (!it->is_number_integer())
            throw std::runtime_error(std::string(key) + ": " + it->dump() + " is not an integer");
        const bool fits =
            it->is_number_unsigned()
                ? it->get<std::uint64_t>() <= std::uint64_t(INT_MAX)
                : it->get<std::int64_t>() >= INT_MIN && it->get<std::int64_t>() <= INT_MAX;
        if (!fits)
            throw std::runtime_error(std::string(key) + ": " + it->dump() + " is out of range");
    }
    out = it->get<T>();
    j.erase(it);
}

std::string leftover(const json& j, const std::string& where) {
    if (j.empty()) return {};
    return where + ": unknown key '" + j.begin().key() + "'";
}

// A host's fields, as hosts[] and excludeNodes[] both hold them.
Host readHost(json& h) {
    Host host;
    take(h, "name", host.name);
    take(h, "address", host.address);
    take(h, "port", host.port);
    take(h, "user", host.user);
    take(h, "gpus", host.gpus);
    return host;
}

void readHosts(json& j, Campaign& c) {
    if (j.contains("hosts")) {
        for (json h : j["hosts"]) {
            c.hosts.push_back(readHost(h));
            if (auto why = leftover(h, "hosts"); !why.empty()) throw std::runtime_error(why);
        }
        j.erase("hosts");
    }
    if (j.contains("excludeNodes")) {
        // A name still among the hosts is moved out; one that is not is an excluded node as
        // campaign.json stores it (its host fields beside the reason).
        for (json x : j["excludeNodes"]) {
            const Host host = readHost(x);
            std::string reason = kDefaultExcludeReason;
            take(x, "reason", reason);
            if (auto why = leftover(x, "excludeNodes"); !why.empty()) throw std::runtime_error(why);
            if (excludeNode(c, host.name, reason)) c.excludedNodes.push_back({host, reason});
        }
        j.erase("excludeNodes");
    }
}

void readScheduler(json& j, SlurmSettings& s) {
    if (!j.contains("scheduler")) return;
    json k = j["scheduler"];
    take(k, "type", s.type);
    take(k, "partition", s.partition);
    take(k, "account", s.account);
    take(k, "qos", s.qos);
    take(k, "reservation", s.reservation);
    take(k, "constraint", s.constraint);
    take(k, "timeLimit", s.timeLimit);
    take(k, "exclusive", s.exclusive);
    take(k, "gpus", s.gpus);
    take(k, "launch", s.launch);
    take(k, "extraSbatchArgs", s.extraSbatchArgs);
    take(k, "containerImage", s.containerImage);
    take(k, "containerMounts", s.containerMounts);
    take(k, "containerWorkdir", s.containerWorkdir);
    if (auto why = leftover(k, "scheduler"); !why.empty()) throw std::runtime_error(why);
    j.erase("scheduler");
}

// The cases: topologies, batch sizes, precisions, and the repeats of each ({"min", "max"}:
// adaptive, with targetCiPct).
void readCases(json& j, Campaign& c) {
    std::vector<std::string> topologies;
    take(j, "topologies", topologies);
    for (const auto& t : topologies) {
        auto topo = parseTopology(t);
        if (!topo) throw std::runtime_error("topologies: '" + t + "' is not NnGg (e.g. 2n8g)");
        c.topologies.push_back(*topo);
    }
    take(j, "batchSizes", c.batchSizes);
    take(j, "precisions", c.precisions);
    if (auto it = j.find("repeats"); it != j.end() && it->is_object()) {
        json r = *it;
        take(r, "min", c.repeats);
        take(r, "max", c.repeatsMax);
        if (auto why = leftover(r, "repeats"); !why.empty()) throw std::runtime_error(why);
        j.erase(it);
    } else {
        take(j, "repeats", c.repeats);
    }
    take(j, "targetCiPct", c.targetCiPct);
    take(j, "rerunLimit", c.rerunLimit);
    take(j, "countDisturbed", c.countDisturbed);
}

} // namespace

std::optional<Campaign> campaignFromJson(const std::string& text, std::string* error) {
    try {
        json j = json::parse(text);
        if (!j.is_object()) throw std::runtime_error("not a JSON object");
        Campaign c;
        take(j, "profile", c.profile);
        take(j, "launcher", c.launcher);
        readHosts(j, c);
        take(j, "probes", c.probes);
        if (j.contains("container")) {
            readContainer(j["container"], c.container);
            j.erase("container");
        }
        readScheduler(j, c.scheduler);
        readCases(j, c);
        take(j, "iterations", c.iterations);
        take(j, "warmup", c.warmup);
        take(j, "cooldownSeconds", c.cooldownSeconds);
        take(j, "startTimeoutSeconds", c.startTimeoutSeconds);
        take(j, "wallTimeoutSeconds", c.wallTimeoutSeconds);
        take(j, "graceSeconds", c.graceSeconds);
        take(j, "outputDir", c.outputDir);
        take(j, "sshConfig", c.sshConfig);
        take(j, "connectTimeoutSeconds", c.connectTimeoutSeconds);
        take(j, "aliveIntervalSeconds", c.aliveIntervalSeconds);
        take(j, "aliveCountMax", c.aliveCountMax);
        take(j, "variables", c.variables);
        if (auto why = leftover(j, "campaign"); !why.empty()) throw std::runtime_error(why);
        return c;
    } catch (const std::exception& ex) {
        if (error) *error = ex.what();
        return std::nullopt;
    }
}

std::string campaignToJson(const Campaign& c) {
    json j;
    j["profile"] = c.profile;
    if (!c.launcher.empty()) j["launcher"] = c.launcher;
    j["hosts"] = json::array();
    for (const Host& h : c.hosts) {
        json o{{"name", h.name}, {"gpus", h.gpus}};
        if (!h.address.empty()) o["address"] = h.address;
        if (h.port) o["port"] = h.port;
        if (!h.user.empty()) o["user"] = h.user;
        j["hosts"].push_back(o);
    }
    if (!c.excludedNodes.empty()) {
        j["excludeNodes"] = json::array();
        for (const ExcludedNode& x : c.excludedNodes) {
            json o{{"name", x.host.name}, {"gpus", x.host.gpus}, {"reason", x.reason}};
            if (!x.host.address.empty()) o["address"] = x.host.address;
            if (x.host.port) o["port"] = x.host.port;
            if (!x.host.user.empty()) o["user"] = x.host.user;
            j["excludeNodes"].push_back(o);
        }
    }
    if (c.probes) j["probes"] = true;
    j["container"] = writeContainer(c.container);
    if (c.scheduler.enabled()) {
        const SlurmSettings& s = c.scheduler;
        j["scheduler"] = {{"type", s.type},
                          {"partition", s.partition},
                          {"account", s.account},
                          {"qos", s.qos},
                          {"reservation", s.reservation},
                          {"constraint", s.constraint},
                          {"timeLimit", s.timeLimit},
                          {"exclusive", s.exclusive},
                          {"gpus", s.gpus},
                          {"launch", s.launch},
                          {"extraSbatchArgs", s.extraSbatchArgs},
                          {"containerImage", s.containerImage},
                          {"containerMounts", s.containerMounts},
                          {"containerWorkdir", s.containerWorkdir}};
    }
    std::vector<std::string> topologies;
    for (const auto& t : c.topologies)
        topologies.push_back(t.name());
    j["topologies"] = topologies;
    j["batchSizes"] = c.batchSizes;
    j["precisions"] = c.precisions;
    if (c.repeatsMax > c.repeats)
        j["repeats"] = {{"min", c.repeats}, {"max", c.repeatsMax}};
    else
        j["repeats"] = c.repeats;
    if (c.adaptive()) {
        j["targetCiPct"] = c.targetCiPct;
        j["rerunLimit"] = c.rerunLimit;
        if (c.countDisturbed) j["countDisturbed"] = true;
    }
    j["iterations"] = c.iterations;
    j["warmup"] = c.warmup;
    j["cooldownSeconds"] = c.cooldownSeconds;
    j["startTimeoutSeconds"] = c.startTimeoutSeconds;
    j["wallTimeoutSeconds"] = c.wallTimeoutSeconds;
    j["graceSeconds"] = c.graceSeconds;
    j["outputDir"] = c.outputDir;
    if (!c.sshConfig.empty()) j["sshConfig"] = c.sshConfig;
    j["connectTimeoutSeconds"] = c.connectTimeoutSeconds;
    j["aliveIntervalSeconds"] = c.aliveIntervalSeconds;
    j["aliveCountMax"] = c.aliveCountMax;
    j["variables"] = c.variables;
    return jsonText(j, 2) + "\n";
}

std::optional<Campaign> loadCampaign(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot read " + path;
        return std::nullopt;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string why;
    auto c = campaignFromJson(ss.str(), &why);
    if (!c && error) *error = path + ": " + why;
    return c;
}

bool saveCampaign(const Campaign& campaign, const std::string& path, std::string* error) {
    if (auto failed = writeFileAtomically(path, campaignToJson(campaign))) {
        if (error) *error = std::move(*failed);
        return false;
    }
    return true;
}

} // namespace sv::launcher
