#include "launcher/monitor/gpusampler.h"

#include <QProcess>
#include <QStringList>
#include <fstream>
#include <sstream>

namespace sv::launcher {
namespace {

constexpr int kTimeoutMs = 5000;

// Standard output of nvidia-smi with args, or why not.
bool query(const std::string& program, const QStringList& args, std::string* out,
           std::string* error) {
    QProcess p;
    p.start(QString::fromStdString(program), args);
    if (!p.waitForStarted(kTimeoutMs)) {
        *error = program + " did not start: " + p.errorString().toStdString();
        return false;
    }
    if (!p.waitForFinished(kTimeoutMs)) {
        p.kill();
        p.waitForFinished(1000);
        *error = program + " did not answer within " + std::to_string(kTimeoutMs / 1000) + " s";
        return false;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = program + " failed: " + p.readAllStandardError().trimmed().toStdString();
        return false;
    }
    *out = p.readAllStandardOutput().toStdString();
    return true;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::string f;
    std::istringstream in(line);
    while (std::getline(in, f, ',')) {
        const auto a = f.find_first_not_of(' ');
        const auto b = f.find_last_not_of(" \r");
        out.push_back(a == std::string::npos ? std::string() : f.substr(a, b - a + 1));
    }
    return out;
}

bool carriesTag(int pid, const std::string& tag) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/environ", std::ios::binary);
    std::string var;
    while (std::getline(in, var, '\0'))
        if (var == "SCALEVIEW_RUN_TAG=" + tag) return true;
    return false;
}

} // namespace

std::string throttleWords(std::uint64_t r) {
    std::string out;
    const std::pair<std::uint64_t, const char*> reasons[] = {{0x4, "power cap"},
                                                             {0x8, "hardware slowdown"},
                                                             {0x20, "thermal (software)"},
                                                             {0x40, "thermal (hardware)"},
                                                             {0x80, "power brake"}};
    for (const auto& [bit, words] : reasons)
        if (r & bit) out += (out.empty() ? "" : ", ") + std::string(words);
    return out;
}

GpuSampler::GpuSampler(std::string tag, std::string program)
    : m_tag(std::move(tag)), m_program(std::move(program)) {}

GpuSample GpuSampler::sample() const {
    GpuSample s;
    std::string out;
    if (!query(m_program,
               {QStringLiteral("--query-gpu=index,clocks.sm,clocks_throttle_reasons.active,"
                               "temperature.gpu,power.draw"),
                QStringLiteral("--format=csv,noheader,nounits")},
               &out, &s.error))
        return s;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        const auto f = fields(line);
        if (f.size() < 5) continue;
        GpuState g;
        g.index = std::atoi(f[0].c_str());
        g.smClockMhz = std::strtod(f[1].c_str(), nullptr);
        g.throttle = std::strtoull(f[2].c_str(), nullptr, 16);
        g.temperatureC = std::strtod(f[3].c_str(), nullptr);
        g.powerW = std::strtod(f[4].c_str(), nullptr); // "[N/A]" reads as 0
        s.gpus.push_back(g);
    }
    if (!query(m_program,
               {QStringLiteral("--query-compute-apps=pid,process_name"),
                QStringLiteral("--format=csv,noheader")},
               &out, &s.error))
        return s;
    std::istringstream apps(out);
    while (std::getline(apps, line)) {
        const auto f = fields(line);
        if (f.size() < 2) continue;
        const int pid = std::atoi(f[0].c_str());
        // A pid this machine cannot see (another container's) is not the run's either.
        if (pid > 0 && !carriesTag(pid, m_tag)) s.foreign.push_back({pid, f[1]});
    }
    return s;
}

} // namespace sv::launcher
