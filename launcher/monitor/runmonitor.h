#pragma once
// Watches the machines a run runs on: this one (a HostSampler every few seconds on a worker
// thread, never the caller's) or, for a run on remote hosts, each of them (a RemoteSampler, one
// ssh per host); each sample appended as a JSON line, naming its host, to
// DIR/monitor/<run-id>.jsonl, and a MonitorSummary (with its verdict: disturbed or not, and the
// hosts that could not be watched) when the run ends.

#include "launcher/monitor/monitorsummary.h"

#include <QObject>
#include <QTimer>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sv::launcher {

class RunMonitor : public QObject {
    Q_OBJECT
  public:
    // file: appended to, never truncated (a resumed run's samples follow the earlier ones, each
    // line carrying its run's tag); ownProcesses: the run's ranks here.
    // gpus: also ask nvidia-smi (program) for clocks, throttling and other compute processes.
    RunMonitor(std::string file, std::string tag, int ownProcesses,
               std::chrono::milliseconds interval = std::chrono::seconds(2),
               QObject* parent = nullptr, bool gpus = false, std::string nvidiaSmi = "nvidia-smi");
    ~RunMonitor() override;

    // Where the run is, sampled with each tick on this object's thread and written with the
    // sample ("iteration"), so that a chart can put the load under the throughput.
    void setIterationSource(std::function<std::int64_t()> source) {
        m_iteration = std::move(source);
    }
    // A run on remote hosts: watch host `name` through argv (RemoteSampler::command), its
    // ranks there being ownProcesses. Before start(); this machine is then not sampled, as the
    // run does not run here.
    void watchHost(std::string name, std::vector<std::string> argv, int ownProcesses);
    void start();
    // Stops the timer, takes a last sample (the run's last interval), then done(summary) in this
    // object's thread; within a few seconds even when a sample is stuck (then said in
    // summary.problem).
    void finish(std::function<void(MonitorSummary)> done);
    const MonitorSummary& summary() const { return m_summary; }

  signals:
    void sampled(const sv::launcher::HostSample& sample);

  private:
    struct Shared;
    struct Remote;
    void takeSample();
    void remoteSampled(std::size_t host, HostSample sample);
    void finishRemote();
    void deliverRemote(); // once every remote sampler has finished and its lines are written
    void deliver();

    std::shared_ptr<Shared> m_shared;
    MonitorSummary m_summary;
    QTimer m_timer, m_deadline;
    bool m_inFlight = false, m_finishing = false, m_lastTaken = false;
    std::function<void(MonitorSummary)> m_done;
    std::function<std::int64_t()> m_iteration;
    std::vector<std::unique_ptr<Remote>> m_remote; // per remote host, in the run's order
};

} // namespace sv::launcher
