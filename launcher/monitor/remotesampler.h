#pragma once
// Watches one remote host while a run runs there: one long-lived ssh per host per run, running
// the project's constant sampler script (remotesampler.py) that prints one JSON line per
// interval and exits when its standard input closes. Nothing here waits: the ssh is a QProcess
// read through the event loop, and finish() closes its input, then KILLs it if it lingers.

#include "launcher/monitor/hostsampler.h"

#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>
#include <string>
#include <vector>

class QProcess;

namespace sv::launcher {

class CommandBuilder;

class RemoteSampler : public QObject {
    Q_OBJECT
  public:
    // What this machine starts to sample host `index` of the builder's campaign for the run
    // tagged `tag`: ssh (the campaign's options and config) to the host, then python3 running
    // the sampler script; processes carrying SCALEVIEW_RUN_TAG=tag there are the run's own.
    // The sampler carries SCALEVIEW_MONITOR_TAG=tag, and gives up by itself after limitSeconds.
    // With nvidiaSmi (a GPU run) it also reads the host's GPUs through that program.
    static std::vector<std::string> command(const CommandBuilder& builder, int index,
                                            const std::string& tag, int intervalSeconds,
                                            int limitSeconds, const std::string& nvidiaSmi = {});
    // The script's text (for the tests, and for whoever wants to read what runs on a host).
    static std::string_view script();
    // One line of the script's output; nullopt when it is not a sample.
    static std::optional<HostSample> parse(const std::string& line);

    RemoteSampler(std::string host, std::vector<std::string> argv, QObject* parent = nullptr);
    ~RemoteSampler() override;

    const std::string& host() const { return m_host; }
    void start();
    // Closes the sampler's input (it exits), then done() in this object's thread once ssh has
    // ended, or after a few seconds (then ssh is KILLed).
    void finish(std::function<void()> done);
    // Why the host could not be sampled (all or part of the run), in words; empty: sampled
    // throughout.
    const std::string& problem() const { return m_problem; }
    int samples() const { return m_samples; }

  signals:
    // A sample with an interval (the sampler's first line, its baseline, is not one).
    void sampled(const sv::launcher::HostSample& sample);
    // The sampler's first line where it carries the GPUs' energy counters: the run's start.
    void baseline(const sv::launcher::HostSample& sample);

  private:
    void readLines();
    void ended(const std::string& why);

    std::string m_host;
    std::vector<std::string> m_argv;
    QProcess* m_process = nullptr;
    std::string m_partial, m_errors; // an unfinished output line; ssh's last words
    std::string m_problem;
    int m_samples = 0;
    bool m_baseline = false, m_finishing = false, m_done = false;
    bool m_stuck = false; // ssh still running when the finish deadline passed: KILLed
    QTimer m_deadline;
    std::function<void()> m_then;
};

} // namespace sv::launcher
