#include "launcher/monitor/runmonitor.h"

#include "async/backgroundtask.h"
#include "launcher/monitor/nvmlenergy.h"
#include "launcher/monitor/remotesampler.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace sv::launcher {
namespace {

// Its own pool: a sample stuck on a process in D state must not hold other background work.
QThreadPool* monitorPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(2);
        return p;
    }();
    return pool;
}

constexpr std::chrono::seconds kLastSampleDeadline{5};

} // namespace

struct RunMonitor::Shared {
    std::mutex mutex; // one sample at a time per run
    HostSampler sampler;
    std::optional<GpuSampler> gpus;
    std::optional<NvmlEnergy> nvml; // a GPU run's counters: loaded with the first sample
    std::string file, tag;
    Shared(std::string f, std::string t) : sampler(t), file(std::move(f)), tag(std::move(t)) {}

    // Appends one line; "" or why not.
    std::string append(const std::string& line) {
        std::error_code ec;
        std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
        const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return "cannot open " + file + ": " + std::strerror(errno);
        const std::string record = line + "\n";
        const ssize_t n = ::write(fd, record.data(), record.size());
        const int err = errno;
        ::close(fd);
        if (n != static_cast<ssize_t>(record.size()))
            return "cannot write " + file + ": " + std::strerror(n < 0 ? err : ENOSPC);
        return {};
    }
};

struct RunMonitor::Remote {
    RemoteSampler* sampler = nullptr; // a child of the monitor
    MonitorSummary summary;
    bool finished = false;
    int writing = 0; // samples whose line is still being appended
};

RunMonitor::RunMonitor(std::string file, std::string tag, int ownProcesses,
                       std::chrono::milliseconds interval, QObject* parent, bool gpus,
                       std::string nvidiaSmi)
    : QObject(parent), m_shared(std::make_shared<Shared>(std::move(file), std::move(tag))) {
    if (gpus) m_shared->gpus.emplace(m_shared->tag, std::move(nvidiaSmi));
    m_summary.ownProcesses = ownProcesses;
    m_timer.setInterval(interval);
    connect(&m_timer, &QTimer::timeout, this, &RunMonitor::takeSample);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        for (auto& r : m_remote)
            if (r->writing && r->summary.problem.empty())
                r->summary.problem = "the monitor's last samples were not written to " +
                                     m_shared->file + " within " +
                                     std::to_string(kLastSampleDeadline.count()) + " s";
        if (m_remote.empty() && m_summary.problem.empty())
            m_summary.problem = "the monitor's last sample did not finish within " +
                                std::to_string(kLastSampleDeadline.count()) + " s";
        deliver();
    });
}

RunMonitor::~RunMonitor() = default;

void RunMonitor::watchHost(std::string name, std::vector<std::string> argv, int ownProcesses) {
    auto r = std::make_unique<Remote>();
    r->summary.host = name;
    r->summary.ownProcesses = ownProcesses;
    r->sampler = new RemoteSampler(std::move(name), std::move(argv), this);
    connect(r->sampler, &RemoteSampler::sampled, this,
            [this, index = m_remote.size()](const HostSample& s) { remoteSampled(index, s); });
    connect(r->sampler, &RemoteSampler::baseline, this,
            [this, index = m_remote.size()](const HostSample& s) {
                if (s.energy && !m_remote[index]->finished)
                    m_remote[index]->summary.addEnergy(*s.energy);
            });
    m_remote.push_back(std::move(r));
}

void RunMonitor::start() {
    if (!m_remote.empty()) {
        for (auto& r : m_remote)
            r->sampler->start();
        return;
    }
    takeSample(); // the baseline
    m_timer.start();
}

void RunMonitor::remoteSampled(std::size_t host, HostSample sample) {
    Remote& r = *m_remote[host];
    if (r.finished) return;
    // Where the run was when the sample arrived: within a second or so of when it was taken.
    sample.iteration = m_iteration ? m_iteration() : -1;
    r.summary.add(sample);
    ++r.writing;
    async::runInBackground(
        this,
        [shared = m_shared, line = HostSampler::toJson(sample, r.summary.host, m_shared->tag)] {
            std::lock_guard<std::mutex> lock(shared->mutex);
            return shared->append(line);
        },
        [this, host](std::string error) {
            --m_remote[host]->writing;
            MonitorSummary& s = m_remote[host]->summary;
            if (!error.empty() && s.problem.empty()) s.problem = error;
            deliverRemote();
        },
        monitorPool());
    emit sampled(sample);
}

void RunMonitor::finishRemote() {
    for (auto& r : m_remote) {
        r->sampler->finish([this, remote = r.get()] {
            remote->finished = true;
            // The host's own words win over a write problem: a host not watched is unknown.
            if (!remote->sampler->problem().empty())
                remote->summary.problem = remote->sampler->problem();
            deliverRemote();
        });
    }
}

void RunMonitor::deliverRemote() {
    if (!m_finishing || !m_done ||
        !std::all_of(m_remote.begin(), m_remote.end(), [](const auto& o) { return o->finished; }))
        return;
    // The summary counts no sample whose line is not in the file yet: whoever reads the file
    // once the run has ended finds every one (a line stuck on a slow disk: the deadline).
    if (std::any_of(m_remote.begin(), m_remote.end(), [](const auto& o) { return o->writing; })) {
        if (!m_deadline.isActive()) m_deadline.start(kLastSampleDeadline);
        return;
    }
    deliver();
}

void RunMonitor::takeSample() {
    // A sample still running (a slow /proc) is not queued behind: this tick is skipped.
    if (m_inFlight) return;
    m_inFlight = true;
    const std::int64_t iteration = m_iteration ? m_iteration() : -1;
    async::runInBackground(
        this,
        [shared = m_shared, iteration] {
            std::lock_guard<std::mutex> lock(shared->mutex);
            std::pair<HostSample, std::string> out;
            out.first = shared->sampler.sample();
            out.first.iteration = iteration;
            // Every sample, the baseline too: the first and last readings bound the run, and
            // each line's reading lets a reader take the measured window's energy alone.
            if (shared->gpus) {
                if (!shared->nvml) shared->nvml.emplace();
                out.first.energy = shared->nvml->read();
            }
            if (shared->gpus && out.first.seconds > 0) out.first.gpu = shared->gpus->sample();
            if (out.first.seconds > 0)
                out.second = shared->append(HostSampler::toJson(out.first, "local", shared->tag));
            return out;
        },
        [this](std::pair<HostSample, std::string> result) {
            m_inFlight = false;
            if (!m_done && m_lastTaken) return; // delivered already (deadline)
            m_summary.add(result.first);
            if (!result.second.empty() && m_summary.problem.empty())
                m_summary.problem = result.second;
            if (result.first.seconds > 0) emit sampled(result.first);
            if (!m_finishing) return;
            if (!m_lastTaken) {
                m_lastTaken = true;
                takeSample();
            } else {
                deliver();
            }
        },
        monitorPool());
}

void RunMonitor::finish(std::function<void(MonitorSummary)> done) {
    m_timer.stop();
    m_done = std::move(done);
    m_finishing = true;
    if (!m_remote.empty()) return finishRemote(); // each sampler has its own deadline
    m_deadline.start(kLastSampleDeadline);
    if (!m_inFlight) {
        m_lastTaken = true;
        takeSample();
    }
}

void RunMonitor::deliver() {
    m_deadline.stop();
    m_lastTaken = true;
    if (!m_remote.empty()) {
        m_summary.hosts.clear();
        for (const auto& o : m_remote)
            m_summary.hosts.push_back(o->summary);
    }
    if (auto done = std::exchange(m_done, nullptr)) done(m_summary);
}

} // namespace sv::launcher
