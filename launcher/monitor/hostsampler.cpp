#include "launcher/monitor/hostsampler.h"

#include <QDateTime>
#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace sv::launcher {
namespace {

std::string readSmall(const std::string& path, std::size_t limit = 1 << 16) {
    std::ifstream in(path, std::ios::binary);
    std::string out(limit, '\0');
    in.read(out.data(), static_cast<std::streamsize>(limit));
    out.resize(static_cast<std::size_t>(in.gcount()));
    return out;
}

// /proc/PID/stat: comm is in parentheses and may hold spaces and ')'; the fields after the
// last ')' are fixed: state is field 3, utime 14, stime 15, starttime 22.
bool parseStat(const std::string& text, std::string* comm, std::uint64_t* used,
               std::uint64_t* start) {
    const auto open = text.find('(');
    const auto close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return false;
    *comm = text.substr(open + 1, close - open - 1);
    std::istringstream rest(text.substr(close + 1));
    std::string field;
    std::uint64_t utime = 0, stime = 0;
    for (int n = 3; n <= 22 && rest >> field; ++n) {
        if (n == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
        if (n == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
        if (n == 22) {
            *start = std::strtoull(field.c_str(), nullptr, 10);
            *used = utime + stime;
            return true;
        }
    }
    return false;
}

} // namespace

HostSampler::HostSampler(std::string tag, std::string procRoot)
    : m_tag(std::move(tag)), m_proc(std::move(procRoot)) {}

bool HostSampler::tagged(int pid) {
    // Read once per process: its environment does not change, and reading it is the costly part.
    const std::string env = readSmall(m_proc + "/" + std::to_string(pid) + "/environ", 1 << 20);
    const std::string needle = "SCALEVIEW_RUN_TAG=" + m_tag;
    for (std::size_t at = 0; (at = env.find(needle, at)) != std::string::npos; ++at) {
        const bool starts = at == 0 || env[at - 1] == '\0';
        const std::size_t end = at + needle.size();
        if (starts && (end == env.size() || env[end] == '\0')) return true;
    }
    return false;
}

HostSample HostSampler::sample() {
    HostSample s;
    s.time = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    const long hz = std::max(1L, ::sysconf(_SC_CLK_TCK));
    s.cpus = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
    std::istringstream(readSmall(m_proc + "/loadavg")) >> s.load1 >> s.load5;
    const double uptime = std::strtod(readSmall(m_proc + "/uptime").c_str(), nullptr);

    // cpu  user nice system idle iowait irq softirq steal ...
    std::vector<std::uint64_t> cpu;
    {
        std::istringstream in(readSmall(m_proc + "/stat"));
        std::string label;
        in >> label;
        std::uint64_t v = 0;
        while (cpu.size() < 10 && in >> v)
            cpu.push_back(v);
    }
    if (!m_first && cpu.size() >= 8 && m_lastCpu.size() == cpu.size()) {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < std::min<std::size_t>(cpu.size(), 8); ++i)
            total += cpu[i] - std::min(cpu[i], m_lastCpu[i]);
        if (total > 0) {
            s.iowaitPct = 100.0 * static_cast<double>(cpu[4] - std::min(cpu[4], m_lastCpu[4])) /
                          static_cast<double>(total);
            s.stealPct = 100.0 * static_cast<double>(cpu[7] - std::min(cpu[7], m_lastCpu[7])) /
                         static_cast<double>(total);
        }
    }
    m_lastCpu = cpu;

    s.seconds = m_first ? 0.0 : uptime - m_lastUptime;
    const double sinceTicks = m_lastUptime * static_cast<double>(hz);
    std::map<int, Ticks> now;
    const int self = static_cast<int>(::getpid());
    if (DIR* d = ::opendir(m_proc.c_str())) {
        while (dirent* e = ::readdir(d)) {
            char* end = nullptr;
            const long pid = std::strtol(e->d_name, &end, 10);
            if (*end != '\0' || pid <= 0) continue;
            std::string comm;
            Ticks t;
            if (!parseStat(readSmall(m_proc + "/" + e->d_name + "/stat", 4096), &comm, &t.used,
                           &t.start))
                continue;
            now[static_cast<int>(pid)] = t;
            if (m_first || s.seconds <= 0 || pid == self) continue;
            std::uint64_t delta = 0;
            const auto was = m_last.find(static_cast<int>(pid));
            if (was != m_last.end() && was->second.start == t.start)
                delta = t.used - std::min(t.used, was->second.used);
            else if (static_cast<double>(t.start) >= sinceTicks) // started since the last look
                delta = t.used;
            const double pct =
                100.0 * static_cast<double>(delta) / (static_cast<double>(hz) * s.seconds);
            if (pct < 1.0) continue;
            const auto key = std::make_pair(static_cast<int>(pid), t.start);
            auto cached = m_taggedCache.find(key);
            if (cached == m_taggedCache.end())
                cached = m_taggedCache.emplace(key, tagged(static_cast<int>(pid))).first;
            if (!cached->second) s.foreign.push_back({static_cast<int>(pid), comm, pct});
        }
        ::closedir(d);
    }
    std::sort(s.foreign.begin(), s.foreign.end(),
              [](const ForeignProcess& a, const ForeignProcess& b) { return a.cpuPct > b.cpuPct; });
    if (s.foreign.size() > 8) s.foreign.resize(8);
    // Forget processes that are gone, so that the cache stays the size of the process table.
    for (auto it = m_taggedCache.begin(); it != m_taggedCache.end();) {
        const auto p = now.find(it->first.first);
        it = p == now.end() || p->second.start != it->first.second ? m_taggedCache.erase(it)
                                                                   : std::next(it);
    }
    m_last = std::move(now);
    m_lastUptime = uptime;
    m_first = false;
    return s;
}

void HostSampler::energyJson(const EnergyReading& e, nlohmann::json& into) {
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : e.gpus) {
        nlohmann::json one{{"index", g.index}, {"uuid", g.uuid}, {"name", g.name}};
        if (g.millijoules) one["mj"] = *g.millijoules;
        if (g.powerW) one["power_w"] = *g.powerW;
        if (!g.error.empty()) one["error"] = g.error;
        gpus.push_back(std::move(one));
    }
    into["energy"] = gpus;
    if (!e.error.empty()) into["energy_error"] = e.error;
}

std::string HostSampler::toJson(const HostSample& s, const std::string& host,
                                const std::string& tag) {
    nlohmann::json foreign = nlohmann::json::array();
    for (const auto& f : s.foreign)
        foreign.push_back({{"pid", f.pid}, {"command", f.command}, {"cpu_pct", f.cpuPct}});
    nlohmann::json j{{"time", s.time},
                     {"host", host},
                     {"tag", tag},
                     {"seconds", s.seconds},
                     {"load1", s.load1},
                     {"load5", s.load5},
                     {"cpus", s.cpus},
                     {"steal_pct", s.stealPct},
                     {"iowait_pct", s.iowaitPct},
                     {"foreign", foreign}};
    if (s.iteration >= 0) j["iteration"] = s.iteration;
    if (s.gpu) {
        nlohmann::json gpus = nlohmann::json::array(), apps = nlohmann::json::array();
        for (const auto& g : s.gpu->gpus)
            gpus.push_back({{"index", g.index},
                            {"sm_mhz", g.smClockMhz},
                            {"throttle", g.throttle},
                            {"temperature_c", g.temperatureC},
                            {"power_w", g.powerW}});
        for (const auto& a : s.gpu->foreign)
            apps.push_back({{"pid", a.pid}, {"name", a.name}});
        j["gpus"] = gpus;
        j["foreign_gpu"] = apps;
        if (!s.gpu->error.empty()) j["gpu_error"] = s.gpu->error;
    }
    if (s.energy) energyJson(*s.energy, j);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace sv::launcher
