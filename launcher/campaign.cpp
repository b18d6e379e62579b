#include "campaign.h"

#include "containerspec.h"
#include "identifiers.h"
#include "runloader.h"
#include "topologyfit.h"

#include <QSaveFile>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace sv::launcher {

using nlohmann::json;

bool isKnownPrecision(const std::string& p) {
    return p == "fp32" || p == "fp16" || p == "fp16-noamp";
}

std::vector<std::string> Campaign::validate() const {
    std::vector<std::string> e;
    if (profile.empty()) e.push_back("profile: empty");
    if (!launcher.empty() && launcher != "mpirun" && launcher != "horovodrun" &&
        launcher != "torchrun")
        e.push_back("launcher: '" + launcher + "' is not mpirun, horovodrun or torchrun");
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const Host& h = hosts[i];
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
    for (auto& why : validateContainer(container))
        e.push_back(std::move(why));
    if (topologies.empty()) e.push_back("topologies: none given");
    for (const Topology& t : topologies)
        if (const TopologyFit fit = fitTopology(hosts, t); !fit.fits())
            e.push_back("topologies: " + fit.message(t));
    if (batchSizes.empty()) e.push_back("batchSizes: none given");
    for (int b : batchSizes)
        if (b < 1) e.push_back("batchSizes: " + std::to_string(b) + " is not a batch size");
    if (precisions.empty()) e.push_back("precisions: none given");
    for (const auto& p : precisions)
        if (!isKnownPrecision(p))
            e.push_back("precisions: '" + p + "' is not fp32, fp16 or fp16-noamp");
    if (repeats < 1) e.push_back("repeats: must be at least 1");
    if (auto why = validateMeasureOptions(MeasureOptions{warmup, iterations}))
        e.push_back("iterations/warmup: " + *why);
    auto range = [&e](const char* field, int value, int low, int high) {
        if (value < low || value > high)
            e.push_back(std::string(field) + ": " + std::to_string(value) + " is out of range (" +
                        std::to_string(low) + " to " + std::to_string(high) + " s)");
    };
    range("cooldownSeconds", cooldownSeconds, 0, kMaxCooldownSeconds);
    range("startTimeoutSeconds", startTimeoutSeconds, 1, kMaxTimeoutSeconds);
    range("wallTimeoutSeconds", wallTimeoutSeconds, 1, kMaxTimeoutSeconds);
    range("graceSeconds", graceSeconds, 0, kMaxGraceSeconds);
    if (outputDir.empty()) e.push_back("outputDir: empty");
    if (!sshConfig.empty() && !isValidPlainPath(sshConfig))
        e.push_back("sshConfig: '" + sshConfig +
                    "' must be an absolute path without spaces or quotes (mpirun splits it)");
    range("connectTimeoutSeconds", connectTimeoutSeconds, 1, kMaxSshSeconds);
    range("aliveIntervalSeconds", aliveIntervalSeconds, 1, kMaxSshSeconds);
    if (aliveCountMax < 1 || aliveCountMax > 1000)
        e.push_back("aliveCountMax: " + std::to_string(aliveCountMax) +
                    " is out of range (1 to 1000)");
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

} // namespace

std::optional<Campaign> campaignFromJson(const std::string& text, std::string* error) {
    try {
        json j = json::parse(text);
        if (!j.is_object()) throw std::runtime_error("not a JSON object");
        Campaign c;
        take(j, "profile", c.profile);
        take(j, "launcher", c.launcher);
        if (j.contains("hosts")) {
            for (json h : j["hosts"]) {
                Host host;
                take(h, "name", host.name);
                take(h, "address", host.address);
                take(h, "port", host.port);
                take(h, "user", host.user);
                take(h, "gpus", host.gpus);
                if (auto why = leftover(h, "hosts"); !why.empty()) throw std::runtime_error(why);
                c.hosts.push_back(host);
            }
            j.erase("hosts");
        }
        if (j.contains("container")) {
            readContainer(j["container"], c.container);
            j.erase("container");
        }
        std::vector<std::string> topologies;
        take(j, "topologies", topologies);
        for (const auto& t : topologies) {
            auto topo = parseTopology(t);
            if (!topo) throw std::runtime_error("topologies: '" + t + "' is not NnGg (e.g. 2n8g)");
            c.topologies.push_back(*topo);
        }
        take(j, "batchSizes", c.batchSizes);
        take(j, "precisions", c.precisions);
        take(j, "repeats", c.repeats);
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
    j["container"] = writeContainer(c.container);
    std::vector<std::string> topologies;
    for (const auto& t : c.topologies)
        topologies.push_back(t.name());
    j["topologies"] = topologies;
    j["batchSizes"] = c.batchSizes;
    j["precisions"] = c.precisions;
    j["repeats"] = c.repeats;
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
    return j.dump(2) + "\n";
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
    QSaveFile file(QString::fromStdString(path));
    const std::string text = campaignToJson(campaign);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit()) {
        if (error) *error = "cannot write " + path + ": " + file.errorString().toStdString();
        return false;
    }
    return true;
}

} // namespace sv::launcher
