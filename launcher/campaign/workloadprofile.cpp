#include "launcher/campaign/workloadprofile.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace sv::embedded {
extern const std::string_view profile_ngc_mxnet_rn50;
extern const std::string_view profile_local_cpu_rn50;
extern const std::string_view workload_rn50_cpu_py;
} // namespace sv::embedded

namespace sv::launcher {

using nlohmann::json;

std::vector<std::string> builtinProfileNames() {
    return {"local-cpu-rn50", "ngc-mxnet-rn50"};
}

std::optional<WorkloadProfile> profileFromJson(const std::string& text, std::string* error) {
    try {
        const json j = json::parse(text);
        WorkloadProfile p;
        p.name = j.at("name").get<std::string>();
        p.label = j.value("label", p.name);
        p.model = j.value("model", "r50");
        p.logRoot = j.value("logRoot", "logs");
        p.needs = j.value("requires", "");
        // A launcher is its argument list, or {"argv": [...], "perNode": true}.
        for (const auto& [name, l] : j.at("launchers").items()) {
            LauncherTemplate t;
            if (l.is_array()) {
                t.argv = l.get<std::vector<std::string>>();
            } else {
                t.argv = l.at("argv").get<std::vector<std::string>>();
                t.perNode = l.value("perNode", false);
                t.failureMarker = l.value("failureMarker", "");
            }
            p.launchers[name] = std::move(t);
        }
        p.defaultLauncher =
            j.value("defaultLauncher", p.launchers.empty() ? "" : p.launchers.begin()->first);
        for (const auto& kv : j.value("env", json::array()))
            p.env.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
        p.program = j.at("program").get<std::vector<std::string>>();
        p.precisionArgs = j.value("precisionArgs", decltype(p.precisionArgs){});
        p.args = j.value("args", std::vector<std::string>{});
        p.variables = j.value("variables", decltype(p.variables){});
        p.scriptName = j.value("script", "");
        p.containerArgs = j.value("containerArgs", std::vector<std::string>{});
        p.containerImage = j.value("containerImage", "");
        p.containerMounts = j.value("containerMounts", std::vector<std::string>{});
        if (p.program.empty()) throw std::runtime_error("program: empty");
        if (!p.launchers.count(p.defaultLauncher))
            throw std::runtime_error("defaultLauncher: no launcher '" + p.defaultLauncher + "'");
        return p;
    } catch (const std::exception& ex) {
        if (error) *error = ex.what();
        return std::nullopt;
    }
}

std::optional<WorkloadProfile> loadProfile(const std::string& nameOrPath, std::string* error) {
    std::string text;
    if (nameOrPath == "ngc-mxnet-rn50") {
        text = embedded::profile_ngc_mxnet_rn50;
    } else if (nameOrPath == "local-cpu-rn50") {
        text = embedded::profile_local_cpu_rn50;
    } else {
        std::ifstream in(nameOrPath, std::ios::binary);
        if (!in) {
            if (error)
                *error = "no built-in profile '" + nameOrPath +
                         "' (built in: local-cpu-rn50, ngc-mxnet-rn50), and no such file";
            return std::nullopt;
        }
        std::stringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    std::string why;
    auto p = profileFromJson(text, &why);
    if (!p) {
        if (error) *error = "profile " + nameOrPath + ": " + why;
        return std::nullopt;
    }
    if (p->scriptName == "rn50_cpu.py") p->scriptText = embedded::workload_rn50_cpu_py;
    return p;
}

} // namespace sv::launcher
