#include "core/load/rundisturbance.h"

#include "core/load/campaignrecords.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace sv {

namespace fs = std::filesystem;

std::string disturbanceKey(const fs::path& log) {
    // The campaign directory may have been moved or copied since it ran (the journal holds
    // absolute paths): the tail of the path names the run within its campaign.
    std::vector<std::string> parts;
    for (const auto& p : log.lexically_normal())
        if (!p.empty() && p != "/") parts.push_back(p.string());
    std::string key;
    const std::size_t from = parts.size() > 4 ? parts.size() - 4 : 0;
    for (std::size_t i = from; i < parts.size(); ++i)
        key += (key.empty() ? "" : "/") + parts[i];
    return key;
}

namespace {

std::string evidenceOf(const nlohmann::json& j) {
    std::string out;
    if (auto it = j.find("evidence"); it != j.end() && it->is_array()) {
        for (const auto& e : *it)
            if (e.is_string()) out += (out.empty() ? "" : "; ") + e.get<std::string>();
    }
    return out.empty() ? std::string("the launcher's monitor marked it disturbed") : out;
}

// What the end record's monitor summary says of the GPUs' energy: read, or why not (per host).
void energyOf(const nlohmann::json& monitor, RunDisturbances::Monitor& into) {
    if (!monitor.is_object()) return;
    auto one = [&](const nlohmann::json& m, const std::string& host) {
        const auto e = m.find("energy");
        if (e == m.end() || !e->is_object()) return;
        into.energyRead = true;
        if (const auto why = e->find("not_measured"); why != e->end() && why->is_string())
            into.energyNote += (into.energyNote.empty() ? "" : "; ") +
                               (host.empty() ? "" : host + ": ") + why->get<std::string>();
    };
    one(monitor, "");
    if (const auto hosts = monitor.find("hosts"); hosts != monitor.end() && hosts->is_array())
        for (const auto& h : *hosts)
            if (h.is_object()) one(h, h.value("host", std::string("?")));
}

} // namespace

RunDisturbances readRunDisturbances(const fs::path& dir) {
    RunDisturbances out;
    std::error_code ec;
    fs::path file = campaignRecordsFolder(dir) / "journal.jsonl";
    if (!fs::is_regular_file(file, ec)) file.clear();
    if (file.empty()) return out;
    std::ifstream in(file, std::ios::binary);
    if (!in) return out;
    out.journal = file.string();
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) continue;
        const auto event = j.find("event");
        const auto log = j.find("log");
        if (event == j.end() || *event != "end" || log == j.end() || !log->is_string()) continue;
        // The latest end record of a log wins: a run rerun on resume is judged by its rerun.
        const std::string key = disturbanceKey(log->get<std::string>());
        const auto id = j.find("id");
        const auto tag = j.find("tag");
        if (j.contains("monitor") && id != j.end() && id->is_string() && tag != j.end() &&
            tag->is_string()) {
            fs::path monitor = file.parent_path() / "monitor" / (id->get<std::string>() + ".jsonl");
            // An id is the launcher's "bzB/NnGg/name": nothing that climbs out of the folder.
            if (monitor.lexically_normal().string().rfind(
                    (file.parent_path() / "monitor").lexically_normal().string(), 0) == 0) {
                RunDisturbances::Monitor m;
                m.file = monitor.lexically_normal();
                m.tag = tag->get<std::string>();
                energyOf(j.at("monitor"), m);
                out.monitors[key] = std::move(m);
            }
        } else {
            out.monitors.erase(key);
        }
        const auto disturbed = j.find("disturbed");
        if (disturbed != j.end() && disturbed->is_boolean() && disturbed->get<bool>())
            out.byLog[key] = evidenceOf(j);
        else
            out.byLog.erase(key);
    }
    return out;
}

std::string RunDisturbances::keyOf(const fs::path& root, const RunResult& run) {
    std::error_code ec;
    const fs::path base = fs::absolute(root, ec);
    return disturbanceKey((ec ? root : base) / run.path);
}

const RunDisturbances::Monitor* RunDisturbances::monitorOf(const fs::path& root,
                                                           const RunResult& run) const {
    const auto it = monitors.find(keyOf(root, run));
    return it == monitors.end() ? nullptr : &it->second;
}

void applyRunDisturbances(std::vector<RunResult>& runs, const fs::path& root,
                          const RunDisturbances& found) {
    for (auto& r : runs) {
        const auto it = found.byLog.find(RunDisturbances::keyOf(root, r));
        r.disturbed = it != found.byLog.end();
        r.disturbance = r.disturbed ? it->second : std::string();
    }
}

namespace {

// Several hosts' samples, each host's a step curve (a sample covers the interval before it,
// back to that host's previous one): at every iteration any host sampled, the max over the
// hosts' samples covering it. Taken at slightly different moments, the points interleaved as
// read would make the curve zigzag between a busy host and a quiet one.
std::vector<RunResult::MonitorPoint>
maxOverHosts(std::map<std::string, std::vector<RunResult::MonitorPoint>> byHost) {
    if (byHost.size() == 1) return std::move(byHost.begin()->second);
    std::vector<double> at;
    for (auto& [host, points] : byHost) {
        std::stable_sort(points.begin(), points.end(),
                         [](const auto& a, const auto& b) { return a.iteration < b.iteration; });
        for (const auto& p : points)
            at.push_back(p.iteration);
    }
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    std::vector<RunResult::MonitorPoint> out;
    for (const double x : at) {
        RunResult::MonitorPoint m;
        m.iteration = x;
        for (const auto& [host, points] : byHost) {
            // This host's sample covering x: its first at or after x (none: it had stopped).
            const auto it =
                std::lower_bound(points.begin(), points.end(), x,
                                 [](const auto& p, double v) { return p.iteration < v; });
            if (it == points.end()) continue;
            m.load1 = std::max(m.load1, it->load1);
            m.foreignCpuPct = std::max(m.foreignCpuPct, it->foreignCpuPct);
        }
        out.push_back(m);
    }
    return out;
}

} // namespace

std::vector<RunResult::MonitorPoint> readMonitorCurve(const fs::path& file,
                                                      const std::string& tag) {
    std::map<std::string, std::vector<RunResult::MonitorPoint>> byHost;
    std::ifstream in(file, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || j.value("tag", std::string()) != tag) continue;
        const auto it = j.find("iteration");
        const auto load = j.find("load1");
        if (it == j.end() || !it->is_number() || load == j.end() || !load->is_number()) continue;
        RunResult::MonitorPoint p;
        p.iteration = it->get<double>();
        p.load1 = load->get<double>();
        if (auto f = j.find("foreign");
            f != j.end() && f->is_array() && !f->empty() && f->front().is_object())
            p.foreignCpuPct = f->front().value("cpu_pct", 0.0);
        const auto host = j.find("host");
        byHost[host != j.end() && host->is_string() ? host->get<std::string>() : std::string()]
            .push_back(p);
    }
    return byHost.empty() ? std::vector<RunResult::MonitorPoint>{}
                          : maxOverHosts(std::move(byHost));
}

void applyMonitorCurves(std::vector<RunResult>& runs, const fs::path& root,
                        const RunDisturbances& found) {
    for (auto& r : runs) {
        const RunDisturbances::Monitor* m = found.monitorOf(root, r);
        r.monitor = m ? readMonitorCurve(m->file, m->tag) : std::vector<RunResult::MonitorPoint>{};
    }
}

} // namespace sv
