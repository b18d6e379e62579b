#include "launcher/probe/probe.h"

#include "core/model/numerics.h"
#include "core/model/atomicfile.h"
#include "core/model/jsontext.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <fstream>
#include <memory>
#include <sstream>

namespace sv::embedded {
extern const std::string_view probe_allreduce_py;
extern const std::string_view workload_rn50_cpu_py;
} // namespace sv::embedded

namespace sv::launcher {
namespace {

struct RankOutput {
    int exitCode = -1;
    bool finished = false;
    std::string out, err;
};

std::vector<std::string> rankEnv(int rank, int world, int localRank, int localWorld,
                                 const std::string& addr, int port, const std::string& tag) {
    std::vector<std::string> env = {"env"};
    // Tagged as a run's processes are, so a sweep of the tag finds what a cancel left.
    if (!tag.empty()) env.push_back("SCALEVIEW_RUN_TAG=" + tag);
    for (std::string v : {
            "RANK=" + std::to_string(rank),
            "WORLD_SIZE=" + std::to_string(world),
            "LOCAL_RANK=" + std::to_string(localRank),
            "LOCAL_WORLD_SIZE=" + std::to_string(localWorld),
            "MASTER_ADDR=" + addr,
            "MASTER_PORT=" + std::to_string(port)})
        env.push_back(std::move(v));
    return env;
}

// Starts every argv at once (each through its executor), waits for all up to timeoutMs, and
// kills what is left.
std::vector<RankOutput> runAll(const std::vector<ProbeRank>& ranks,
                               const std::vector<std::vector<std::string>>& argvs, int timeoutMs,
                               std::string& error, const std::atomic<bool>* cancel) {
    std::vector<std::unique_ptr<QProcess>> procs;
    std::vector<RankOutput> out(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const auto wrapped = ranks[i].executor->wrap(argvs[i]);
        auto p = std::make_unique<QProcess>();
        QStringList args;
        for (std::size_t k = 1; k < wrapped.size(); ++k)
            args << QString::fromStdString(wrapped[k]);
        p->start(QString::fromStdString(wrapped.front()), args);
        procs.push_back(std::move(p));
    }
    QElapsedTimer clock;
    clock.start();
    // In slices, so that a cancel is seen within a fifth of a second.
    for (std::size_t i = 0; i < procs.size() && error.empty(); ++i) {
        auto& p = *procs[i];
        while (p.state() != QProcess::NotRunning && !p.waitForFinished(200)) {
            if (cancel && cancel->load()) {
                error = "cancelled";
                break;
            }
            if (clock.elapsed() >= timeoutMs) {
                error = "probe timed out after " + std::to_string(timeoutMs / 1000) +
                        " s (rank " + std::to_string(i) + " on " +
                        ranks[i].executor->hostLabel() + ")";
                break;
            }
        }
    }
    for (std::size_t i = 0; i < procs.size(); ++i) {
        auto& p = *procs[i];
        if (p.state() != QProcess::NotRunning) {
            p.kill();
            p.waitForFinished(5000);
        } else {
            out[i].finished = p.exitStatus() == QProcess::NormalExit;
            out[i].exitCode = p.exitCode();
        }
        if (p.error() == QProcess::FailedToStart && error.empty())
            error = "rank " + std::to_string(i) + " could not start: " +
                    p.errorString().toStdString();
        out[i].out = p.readAllStandardOutput().toStdString();
        out[i].err = p.readAllStandardError().toStdString();
    }
    if (error.empty())
        for (std::size_t i = 0; i < out.size(); ++i)
            if (!out[i].finished || out[i].exitCode != 0) {
                std::string tail = out[i].err.size() > 600 ? out[i].err.substr(out[i].err.size() - 600)
                                                           : out[i].err;
                error = "rank " + std::to_string(i) + " on " + ranks[i].executor->hostLabel() +
                        " failed (exit " + std::to_string(out[i].exitCode) + "): " + tail;
                break;
            }
    return out;
}

std::string checkRanks(const std::vector<ProbeRank>& ranks) {
    if (ranks.empty()) return "no ranks to probe";
    for (const auto& r : ranks)
        if (!r.executor) return "a rank has no executor";
    return {};
}

} // namespace

long long gradientBytes(double parameters, const std::string& precision) {
    return static_cast<long long>(parameters) * (precision == "fp32" ? 4 : 2);
}

std::vector<std::string> allReduceProbeArgv(const AllReduceProbeSpec& spec, int rank, int world,
                                            int localRank) {
    auto argv =
        rankEnv(rank, world, localRank, world, spec.masterAddr, spec.masterPort, spec.tag);
    for (const std::string& a :
         {spec.python, std::string("-c"), std::string(embedded::probe_allreduce_py),
          std::string("--bytes"), std::to_string(spec.bytes), std::string("--precision"),
          spec.precision, std::string("--iterations"), std::to_string(spec.iterations),
          std::string("--warmup"), std::to_string(spec.warmup), std::string("--device"),
          spec.device, std::string("--master-addr"), spec.masterAddr,
          std::string("--master-port"), std::to_string(spec.masterPort)})
        argv.push_back(a);
    return argv;
}

AllReduceProbeResult runAllReduceProbe(const AllReduceProbeSpec& spec,
                                       const std::vector<ProbeRank>& ranks, int timeoutMs,
                                       const std::atomic<bool>* cancel) {
    AllReduceProbeResult r;
    if (r.error = checkRanks(ranks); !r.error.empty()) return r;
    if (spec.bytes <= 0 || spec.iterations < 1) {
        r.error = "the all-reduce probe needs a positive size and at least one iteration";
        return r;
    }
    std::vector<std::vector<std::string>> argvs;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        argvs.push_back(allReduceProbeArgv(spec, int(i), int(ranks.size()), ranks[i].localRank));
    const auto out = runAll(ranks, argvs, timeoutMs, r.error, cancel);
    if (!r.error.empty()) return r;
    std::istringstream lines(out[0].out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("{", 0) != 0) continue;
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("seconds") ||
            !j["seconds"].is_array() || j["seconds"].empty()) {
            r.error = "the all-reduce probe's line is not its result: " + line;
            return r;
        }
        AllReduceProbe a;
        a.backend = j.value("backend", std::string());
        a.bytes = j.value("bytes", 0.0);
        a.ranks = j.value("ranks", 0);
        for (const auto& t : j["seconds"])
            if (t.is_number()) a.seconds.push_back(t.get<double>());
        r.probe = std::move(a);
        return r;
    }
    r.error = "the all-reduce probe printed no result line; rank 0 wrote: " + out[0].out;
    return r;
}

SoloProbeResult runSoloProbe(const SoloProbeSpec& spec, const std::vector<ProbeRank>& ranks,
                             int timeoutMs, const std::atomic<bool>* cancel) {
    SoloProbeResult r;
    if (r.error = checkRanks(ranks); !r.error.empty()) return r;
    if (spec.iterations <= spec.warmup) {
        r.error = "the solo probe needs more iterations than its warmup";
        return r;
    }
    const int world = int(ranks.size());
    std::vector<std::vector<std::string>> argvs;
    for (int i = 0; i < world; ++i) {
        auto argv = rankEnv(i, world, ranks[i].localRank, spec.localWorld ? spec.localWorld : world,
                            spec.masterAddr, spec.masterPort, spec.tag);
        for (const std::string& a :
             {spec.python, std::string("-c"), std::string(embedded::workload_rn50_cpu_py),
              std::string("--batch-size"), std::to_string(spec.batch),
              std::string("--iterations"), std::to_string(spec.iterations),
              std::string("--image-size"), std::to_string(spec.imageSize),
              std::string("--precision"), spec.precision, std::string("--device"), spec.device,
              std::string("--threads-per-rank"), std::to_string(spec.threadsPerRank),
              std::string("--master-addr"), spec.masterAddr, std::string("--master-port"),
              std::to_string(spec.masterPort)})
            argv.push_back(a);
        argvs.push_back(std::move(argv));
    }
    const auto out = runAll(ranks, argvs, timeoutMs, r.error, cancel);
    if (!r.error.empty()) return r;
    // Rank 0's "Epoch[0] Batch [k-k]\tSpeed: X samples/sec": the whole node's samples per second
    // over iteration k; per device, X / ranks.
    SoloProbe s;
    s.node = spec.node;
    s.devices = world;
    std::istringstream lines(out[0].err);
    std::string line;
    while (std::getline(lines, line)) {
        const auto b = line.find("Batch [");
        const auto sp = line.find("Speed: ");
        if (b == std::string::npos || sp == std::string::npos) continue;
        const int k = std::atoi(line.c_str() + b + 7);
        if (k < spec.warmup) continue;
        const double speed = std::strtod(line.c_str() + sp + 7, nullptr);
        if (speed > 0) s.paceSamples.push_back(speed / world);
    }
    if (s.paceSamples.empty()) {
        r.error = "the solo probe's workload printed no speed line after its warmup";
        return r;
    }
    s.pacePerDevice = numpyMedian(s.paceSamples);
    r.probe = std::move(s);
    return r;
}

std::string appendProbeRecords(const std::filesystem::path& directory, const ProbeCase& forCase,
                               const std::vector<SoloProbe>& solo,
                               const std::vector<AllReduceProbe>& allReduce) {
    using nlohmann::json;
    const auto file = directory / "probes.json";
    json doc = {{"probes", json::array()}};
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        const ProbeFile old = parseProbeFile(text.str(), file.string());
        if (!old.error.empty()) return old.error + " (not overwritten)";
        doc = json::parse(text.str());
    }
    auto base = [&](const char* kind) {
        return json{{"kind", kind},
                    {"topology", forCase.topology},
                    {"model", forCase.model},
                    {"precision", forCase.precision},
                    {"batch_size_per_device", forCase.batchPerDevice}};
    };
    for (const auto& s : solo) {
        json r = base("solo");
        r["node"] = s.node;
        r["devices"] = s.devices;
        r["pace_per_device"] = s.pacePerDevice;
        r["pace_samples"] = s.paceSamples;
        doc["probes"].push_back(std::move(r));
    }
    for (const auto& a : allReduce) {
        json r = base("allreduce");
        r["backend"] = a.backend;
        r["bytes"] = a.bytes;
        r["ranks"] = a.ranks;
        r["seconds"] = a.seconds;
        doc["probes"].push_back(std::move(r));
    }
    if (const auto failed = writeFileAtomically(file, jsonText(doc, 2) + "\n")) return *failed;
    return {};
}

} // namespace sv::launcher
