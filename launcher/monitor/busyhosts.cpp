#include "launcher/monitor/busyhosts.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/monitor/hostsampler.h"

#include <QThread>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

namespace sv::launcher {
namespace {

constexpr double kForeignCorePct = 25.0;

// Prints the load average, the CPU count and the five busiest processes (pid, %CPU over their
// life, name). POSIX sh and procps; nothing from the campaign reaches the text.
const char* kBusyProbe = "cat /proc/loadavg; getconf _NPROCESSORS_ONLN; "
                         "ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5";

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// The verdict for one host, in words.
PreflightFinding verdict(const std::string& host, double load1, int cpus,
                         const std::vector<ForeignProcess>& busiest) {
    PreflightFinding f{host, "busy", true, {}, false};
    std::string named;
    for (const auto& p : busiest)
        if (p.cpuPct >= kForeignCorePct)
            named += (named.empty() ? "" : ", ") + ("pid " + std::to_string(p.pid) + " (" +
                                                    p.command + ") " + fixed(p.cpuPct, 0) + " %");
    const bool loaded = load1 > std::max(1.0, 0.25 * cpus);
    f.warning = loaded || !named.empty();
    f.message = "load average " + fixed(load1, 2) + " on " + std::to_string(cpus) + " CPUs";
    if (!named.empty()) f.message += "; using the CPU: " + named;
    if (f.warning)
        f.message = "already busy before the campaign starts (" + f.message +
                    "): its runs would measure these neighbours too; stop them or expect "
                    "disturbed runs";
    else
        f.message = "quiet: " + f.message;
    return f;
}

} // namespace

void checkBusyHosts(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    std::function<void(std::vector<PreflightFinding>)> done) {
    if (campaign.hosts.empty()) {
        async::runInBackground(
            context,
            [] {
                // A second between two looks at /proc: the CPU each process used meanwhile.
                HostSampler sampler("");
                sampler.sample();
                QThread::msleep(1000);
                const HostSample s = sampler.sample();
                return std::vector<PreflightFinding>{
                    verdict("this machine", s.load1, s.cpus, s.foreign)};
            },
            std::move(done));
        return;
    }
    auto builder = std::make_shared<CommandBuilder>(campaign, profile, std::string());
    std::vector<BatchCommand> cmds;
    for (int h = 0; h < static_cast<int>(campaign.hosts.size()); ++h)
        cmds.push_back({builder->onHost(h, {"sh", "-c", kBusyProbe}, false),
                        {},
                        (campaign.connectTimeoutSeconds + 15) * 1000});
    CommandBatch::run(std::move(cmds), context, [builder, done](std::vector<BatchResult> results) {
        std::vector<PreflightFinding> out;
        for (std::size_t h = 0; h < results.size(); ++h) {
            const BatchResult& r = results[h];
            const std::string host = builder->hostName(static_cast<int>(h));
            if (r.exitCode != 0) {
                // The ssh check says why a host cannot be reached; here only what is known.
                out.push_back({host, "busy", true,
                               "could not look at the host's load (exit " +
                                   std::to_string(r.exitCode) + ")"});
                continue;
            }
            std::istringstream in(r.output);
            double load1 = 0;
            int cpus = 1;
            std::string rest;
            in >> load1;
            std::getline(in, rest);
            in >> cpus;
            std::vector<ForeignProcess> busiest;
            ForeignProcess p;
            while (in >> p.pid >> p.cpuPct && std::getline(in >> std::ws, p.command))
                busiest.push_back(p);
            out.push_back(verdict(host, load1, std::max(1, cpus), busiest));
        }
        done(std::move(out));
    });
}

} // namespace sv::launcher
