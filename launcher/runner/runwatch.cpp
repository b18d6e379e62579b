#include "launcher/runner/runwatch.h"

#include "launcher/monitor/remotesampler.h"
#include "launcher/monitor/runmonitor.h"

#include <filesystem>
#include <utility>

namespace sv::launcher {

RunWatch::RunWatch(const CommandBuilder& builder, QObject* context, Said said)
    : m_builder(builder), m_context(context), m_said(std::move(said)) {}

void RunWatch::start(const PlannedRun& run, const std::string& tag,
                     std::function<std::int64_t()> iterations) {
    const Campaign& campaign = m_builder.campaign();
    const bool gpu = m_builder.profile().needs == "gpu";
    const auto file =
        std::filesystem::absolute(campaign.outputDir) / "monitor" / (run.id + ".jsonl");
    m_monitor = new RunMonitor(file.lexically_normal().string(), tag, run.key.topology.ranks(),
                               std::chrono::seconds(2), m_context, gpu);
    for (int h = 0; h < m_builder.hostCount(run); ++h)
        m_monitor->watchHost(m_builder.hostName(h),
                             RemoteSampler::command(m_builder, h, tag, 2,
                                                    campaign.wallTimeoutSeconds + 120,
                                                    gpu ? "nvidia-smi" : ""),
                             run.key.topology.gpusPerNode);
    m_monitor->setIterationSource(std::move(iterations));
    m_monitor->start();
}

void RunWatch::finish(const PlannedRun& run, RunEnd end, std::function<void(RunEnd)> done) {
    RunMonitor* monitor = std::exchange(m_monitor, nullptr);
    if (!monitor) return done(std::move(end));
    monitor->finish([this, monitor, id = run.id, end = std::move(end),
                     done = std::move(done)](MonitorSummary summary) mutable {
        monitor->deleteLater();
        end.monitor = summary.record();
        if (!end.monitor->evidence.empty()) m_said(id + ": disturbed: " + end.disturbanceWhy());
        for (const auto& unknown : summary.notSampled())
            m_said(id + ": " + unknown);
        done(std::move(end));
    });
}

} // namespace sv::launcher
