#include "core/compare/hostsummary.h"

#include "core/compare/environmentsummary.h"
#include "core/model/textscan.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace sv {
namespace {

// A captured "key : value" line's value, when the key matches and the value is not empty.
bool valueOf(const std::string& line, const char* key, std::string* value) {
    return capturedValue(line, key, value) && !value->empty();
}

void countGpu(std::vector<std::pair<std::string, int>>& gpus, const std::string& model) {
    auto it =
        std::find_if(gpus.begin(), gpus.end(), [&](const auto& g) { return g.first == model; });
    if (it == gpus.end())
        gpus.push_back({model, 1});
    else
        ++it->second;
}

// One captured file: its "== hostname" section's first line, "== cpus", and nvidia-smi -q's
// Product Name lines (one per GPU).
HostEnvironment readHost(const std::string& text) {
    HostEnvironment h;
    std::istringstream in(text);
    std::string line, section, model;
    int attached = 0;
    bool first = false;
    while (std::getline(in, line)) {
        if (line.rfind("== ", 0) == 0) {
            section = std::string(trimBlanks(std::string_view(line).substr(3)));
            first = true;
            continue;
        }
        const std::string t(trimBlanks(line));
        if (t.empty()) continue;
        if (section == "hostname" && first) h.name = t;
        if (section == "cpus" && first) h.cpus = std::max(0, std::atoi(t.c_str()));
        if (section == "nvidia-smi -q" && valueOf(line, "Product Name", &model))
            countGpu(h.gpus, model);
        if (section == "nvidia-smi -q" && valueOf(line, "Attached GPUs", &model))
            attached = std::max(0, std::atoi(model.c_str()));
        first = false;
    }
    // nvidia-smi -q cut short after its first GPU's block: "Attached GPUs" says how many of the
    // one model it showed.
    if (h.gpus.size() == 1 && attached > h.gpus[0].second) h.gpus[0].second = attached;
    return h;
}

} // namespace

std::vector<HostEnvironment> summarizeHosts(const std::vector<ReportFile>& files) {
    std::vector<HostEnvironment> out;
    for (const auto& f : files) {
        if (f.name.rfind("environment/", 0) != 0 || !f.name.ends_with(".txt")) continue;
        HostEnvironment h = readHost(f.text);
        if (h.name.empty()) continue;
        if (std::none_of(out.begin(), out.end(), [&](const auto& o) { return o.name == h.name; }))
            out.push_back(std::move(h));
    }
    return out;
}

std::string describeHosts(const std::vector<HostEnvironment>& hosts) {
    if (hosts.empty()) return {};
    std::string out = std::to_string(hosts.size()) + (hosts.size() == 1 ? " host: " : " hosts: ");
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const auto& h = hosts[i];
        std::string devices;
        for (const auto& [model, count] : h.gpus)
            devices += (devices.empty() ? "" : " + ") + std::to_string(count) + " × " + model;
        if (devices.empty()) {
            devices = "CPU only";
            if (h.cpus > 0)
                devices += ", " + std::to_string(h.cpus) + (h.cpus == 1 ? " core" : " cores");
        }
        out += (i ? ", " : "") + h.name + " (" + devices + ")";
    }
    return out;
}

} // namespace sv
