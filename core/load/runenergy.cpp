#include "core/load/runenergy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace sv {

namespace fs = std::filesystem;

std::map<std::string, std::vector<EnergySample>> readEnergySamples(const fs::path& file,
                                                                   const std::string& tag) {
    std::map<std::string, std::vector<EnergySample>> out;
    std::ifstream in(file, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || j.value("tag", std::string()) != tag) continue;
        const auto it = j.find("iteration");
        const auto seconds = j.find("seconds");
        if (it == j.end() || !it->is_number() || seconds == j.end() || !seconds->is_number())
            continue;
        EnergySample s;
        s.iteration = it->get<double>();
        s.seconds = seconds->get<double>();
        if (const auto e = j.find("energy");
            e != j.end() && e->is_array() && !e->empty() && !j.contains("energy_error")) {
            s.counters = true;
            for (const auto& g : *e) {
                const auto mj = g.is_object() ? g.find("mj") : g.end();
                if (!g.is_object() || mj == g.end() || !mj->is_number_unsigned()) {
                    s.counters = false;
                    break;
                }
                const std::string id = g.value("uuid", std::string());
                s.millijoules[id.empty() ? "index " + std::to_string(g.value("index", 0)) : id] =
                    mj->get<std::uint64_t>();
            }
        }
        if (const auto g = j.find("gpus");
            g != j.end() && g->is_array() && !g->empty() && !j.contains("gpu_error")) {
            s.power = true;
            for (const auto& x : *g)
                if (x.is_object()) s.watts += x.value("power_w", 0.0);
        }
        const auto host = j.find("host");
        out[host != j.end() && host->is_string() ? host->get<std::string>() : std::string()]
            .push_back(std::move(s));
    }
    return out;
}

namespace {

// The smallest run of samples [a, b] that covers iterations [from, to) as far as the samples
// reach; a == b: no span.
std::pair<std::size_t, std::size_t> span(const std::vector<EnergySample>& s, double from,
                                         double to) {
    std::size_t a = 0, b = s.size() - 1;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i].iteration <= from) a = i;
    for (std::size_t i = s.size(); i-- > a;)
        if (s[i].iteration >= to) b = i;
    return {a, std::max(a, b)};
}

} // namespace

std::optional<RunResult::Energy>
energyOver(const std::map<std::string, std::vector<EnergySample>>& hosts, double from, double to,
           double imagesPerIteration, std::string* note) {
    auto fail = [&](std::string why) {
        if (note) *note = std::move(why);
        return std::nullopt;
    };
    if (hosts.empty()) return fail("no monitor samples");
    if (imagesPerIteration <= 0) return fail("batch size or GPU count unknown: no images to count");
    bool counters = true, power = true;
    double counterPerIteration = 0, powerPerIteration = 0, seconds = 0;
    int gpus = 0;
    for (const auto& [host, s] : hosts) {
        const auto [a, b] = span(s, from, to);
        const double iterations = s[b].iteration - s[a].iteration;
        if (b == a || iterations <= 0)
            return fail((host.empty() ? std::string("the host") : host) +
                        ": fewer than two monitor samples across the measured window");
        double hostSeconds = 0, joules = 0;
        bool hostPower = true;
        for (std::size_t i = a + 1; i <= b; ++i) {
            hostSeconds += s[i].seconds;
            joules += s[i].watts * s[i].seconds;
            hostPower = hostPower && s[i].power;
        }
        seconds = std::max(seconds, hostSeconds);
        power = power && hostPower;
        powerPerIteration += joules / iterations;
        // The same boards at both ends, each once: a counter that went back lost the span.
        bool same =
            s[a].counters && s[b].counters && s[a].millijoules.size() == s[b].millijoules.size();
        std::uint64_t mj = 0;
        for (const auto& [id, end] : s[b].millijoules) {
            const auto start = s[a].millijoules.find(id);
            if (!same || start == s[a].millijoules.end() || end < start->second) {
                same = false;
                break;
            }
            mj += end - start->second;
        }
        counters = counters && same;
        counterPerIteration += mj / 1000.0 / iterations;
        gpus += static_cast<int>(s[b].millijoules.size());
    }
    if (!counters && !power)
        return fail("neither the GPUs' energy counters nor nvidia-smi's power were read");
    RunResult::Energy e;
    e.seconds = seconds;
    if (power) e.powerJoulesPerImage = powerPerIteration / imagesPerIteration;
    if (counters) {
        e.source = "nvml";
        e.joulesPerImage = counterPerIteration / imagesPerIteration;
        e.gpus = gpus;
    } else {
        e.source = "power samples";
        e.joulesPerImage = *e.powerJoulesPerImage;
        e.gpus = 0;
    }
    double iterations = 0;
    for (const auto& [host, s] : hosts) {
        const auto [a, b] = span(s, from, to);
        iterations = std::max(iterations, s[b].iteration - s[a].iteration);
    }
    e.images = iterations * imagesPerIteration;
    return e;
}

void applyRunEnergy(std::vector<RunResult>& runs, const fs::path& root,
                    const RunDisturbances& found) {
    for (auto& r : runs) {
        r.energy.reset();
        r.energyNote.clear();
        const RunDisturbances::Monitor* m = found.monitorOf(root, r);
        if (!m) {
            r.energyNote =
                "no monitor samples (a log not from a ScaleView campaign, or a Slurm run: the "
                "monitor does not watch Slurm's nodes)";
            continue;
        }
        std::string note;
        r.energy =
            energyOver(readEnergySamples(m->file, m->tag), r.window.warmup, r.window.iterations,
                       double(r.key.batchPerDevice) * r.key.topology.ranks(), &note);
        // The end record's reason first: it says why the counters were not read at all.
        if (!r.energy || r.energy->source != "nvml") {
            if (!m->energyNote.empty())
                note = m->energyNote;
            else if (!m->energyRead && !r.energy)
                note = "the monitor read no GPU energy (a CPU run, or a campaign from before "
                       "energy was read)";
        }
        if (!r.energy)
            r.energyNote = note;
        else if (r.energy->source != "nvml")
            r.energyNote = "energy counters: " + (note.empty() ? std::string("not read") : note);
    }
}

} // namespace sv
