#include "launcher/monitor/remotesampler.h"

#include "launcher/exec/commandbuilder.h"

#include <QDateTime>
#include <QProcess>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace sv::embedded {
extern const std::string_view launcher_remotesampler_py;
} // namespace sv::embedded

namespace sv::launcher {
namespace {

// ssh gets this long to end after the sampler's input is closed before it is KILLed.
constexpr std::chrono::seconds kFinishDeadline{5};
constexpr std::size_t kErrorTail = 2048;
constexpr std::size_t kMaxLine = 1 << 16;

std::string lastLine(const std::string& text) {
    std::size_t end = text.find_last_not_of(" \r\n\t");
    if (end == std::string::npos) return {};
    const std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1,
                       end + 1 - (start == std::string::npos ? 0 : start + 1));
}

} // namespace

std::string_view RemoteSampler::script() {
    return embedded::launcher_remotesampler_py;
}

std::vector<std::string> RemoteSampler::command(const CommandBuilder& builder, int index,
                                                const std::string& tag, int intervalSeconds,
                                                int limitSeconds, const std::string& nvidiaSmi) {
    // On the host itself, not in the run's container: a container sees its own processes only,
    // and the neighbours that disturb a run are the host's.
    std::vector<std::string> argv{"env",
                                  "SCALEVIEW_MONITOR_TAG=" + tag,
                                  "python3",
                                  "-c",
                                  std::string(script()),
                                  tag,
                                  std::to_string(intervalSeconds),
                                  std::to_string(limitSeconds)};
    if (!nvidiaSmi.empty()) argv.push_back(nvidiaSmi);
    return builder.onHost(index, argv, false);
}

std::optional<HostSample> RemoteSampler::parse(const std::string& line) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    auto number = [&](const char* key) -> std::optional<double> {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>())
                                                : std::nullopt;
    };
    const auto seconds = number("seconds"), load1 = number("load1");
    if (!seconds || !load1) return std::nullopt;
    HostSample s;
    s.time = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    s.seconds = *seconds;
    s.load1 = *load1;
    s.load5 = number("load5").value_or(0.0);
    s.cpus = std::max(1, static_cast<int>(number("cpus").value_or(1.0)));
    s.stealPct = number("steal_pct").value_or(0.0);
    s.iowaitPct = number("iowait_pct").value_or(0.0);
    if (const auto f = j.find("foreign"); f != j.end() && f->is_array())
        for (const auto& p : *f) {
            if (!p.is_object()) continue;
            ForeignProcess fp;
            fp.pid = p.value("pid", 0);
            fp.command = p.value("command", std::string());
            fp.cpuPct = p.value("cpu_pct", 0.0);
            s.foreign.push_back(std::move(fp));
        }
    // A GPU run's sample: nvidia-smi's view of the host's GPUs, as HostSampler writes it.
    if (const auto g = j.find("gpus"); g != j.end() && g->is_array()) {
        GpuSample gpu;
        for (const auto& x : *g) {
            if (!x.is_object()) continue;
            GpuState state;
            state.index = x.value("index", 0);
            state.smClockMhz = x.value("sm_mhz", 0.0);
            state.throttle = x.value("throttle", std::uint64_t{0});
            state.temperatureC = x.value("temperature_c", 0.0);
            state.powerW = x.value("power_w", 0.0);
            gpu.gpus.push_back(state);
        }
        if (const auto a = j.find("foreign_gpu"); a != j.end() && a->is_array())
            for (const auto& x : *a)
                if (x.is_object()) gpu.foreign.push_back({x.value("pid", 0), x.value("name", "")});
        gpu.error = j.value("gpu_error", std::string());
        s.gpu = std::move(gpu);
    }
    // The host's energy counters (NVML), as HostSampler::energyJson writes them.
    if (const auto e = j.find("energy"); e != j.end() && e->is_array()) {
        EnergyReading r;
        for (const auto& x : *e) {
            if (!x.is_object()) continue;
            GpuEnergy g;
            g.index = x.value("index", 0);
            g.uuid = x.value("uuid", std::string());
            g.name = x.value("name", std::string());
            if (const auto mj = x.find("mj"); mj != x.end() && mj->is_number_unsigned())
                g.millijoules = mj->get<std::uint64_t>();
            if (const auto w = x.find("power_w"); w != x.end() && w->is_number())
                g.powerW = w->get<double>();
            g.error = x.value("error", std::string());
            r.gpus.push_back(std::move(g));
        }
        r.error = j.value("energy_error", std::string());
        s.energy = std::move(r);
    }
    return s;
}

RemoteSampler::RemoteSampler(std::string host, std::vector<std::string> argv, QObject* parent)
    : QObject(parent), m_host(std::move(host)), m_argv(std::move(argv)) {
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (!m_process || m_process->state() == QProcess::NotRunning) return;
        m_stuck = true;
        m_process->kill();
    });
}

RemoteSampler::~RemoteSampler() {
    // Destroyed while ssh runs (the app quits mid-run): QProcess KILLs it; the sampler on the
    // host then reads the end of its input and exits.
    if (m_process) m_process->disconnect(this);
}

void RemoteSampler::start() {
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // Its own session: a terminal's ^C reaches ScaleView, which stops the monitor in order.
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process, &QProcess::readyReadStandardOutput, this, &RemoteSampler::readLines);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_errors += m_process->readAllStandardError().toStdString();
        if (m_errors.size() > kErrorTail) m_errors.erase(0, m_errors.size() - kErrorTail);
    });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        ended(m_stuck
                  ? "no answer from the host within " + std::to_string(kFinishDeadline.count()) +
                        " s of the run's end (ssh stopped)"
              : status == QProcess::NormalExit ? "exit code " + std::to_string(code)
                                               : std::string("ssh was killed"));
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            ended("cannot start " + m_argv.front() + ": " + m_process->errorString().toStdString());
    });
    QStringList args;
    for (std::size_t k = 1; k < m_argv.size(); ++k)
        args << QString::fromStdString(m_argv[k]);
    // Its input stays open: closing it is what tells the sampler to stop.
    m_process->start(QString::fromStdString(m_argv.front()), args);
}

void RemoteSampler::readLines() {
    m_partial += m_process->readAllStandardOutput().toStdString();
    std::size_t at = 0;
    for (std::size_t nl; (nl = m_partial.find('\n', at)) != std::string::npos; at = nl + 1) {
        const auto s = parse(m_partial.substr(at, nl - at));
        if (!s) continue; // a login banner, a shell's chatter: not the sampler's
        if (!m_baseline || s->seconds <= 0) {
            m_baseline = true;
            if (s->energy) emit baseline(*s); // the counters at the run's start
            continue;
        }
        ++m_samples;
        emit sampled(*s);
    }
    m_partial.erase(0, at);
    if (m_partial.size() > kMaxLine) m_partial.clear();
}

void RemoteSampler::ended(const std::string& how) {
    if (m_done) return; // FailedToStart and finished may both arrive
    m_done = true;
    if (m_process->bytesAvailable() > 0) readLines();
    m_errors += m_process->readAllStandardError().toStdString();
    // Asked to stop, the sampler exits 0; anything else before that is a host not watched.
    const bool stopped = m_finishing && how == "exit code 0";
    if (!stopped && !(m_finishing && m_samples > 0)) {
        const std::string said = lastLine(m_errors);
        const std::string why = said.empty() ? how : said + " (" + how + ")";
        m_problem = m_samples == 0 ? "not sampled: " + why
                                   : "sampling stopped after " + std::to_string(m_samples) +
                                         " samples: " + why;
    }
    m_deadline.stop();
    if (auto then = std::exchange(m_then, nullptr)) then();
}

void RemoteSampler::finish(std::function<void()> done) {
    m_finishing = true;
    if (m_done || !m_process) {
        if (!m_process && m_problem.empty()) m_problem = "not sampled: never started";
        QTimer::singleShot(0, this, std::move(done));
        return;
    }
    m_then = std::move(done);
    m_process->closeWriteChannel();
    m_deadline.start(kFinishDeadline);
}

} // namespace sv::launcher
