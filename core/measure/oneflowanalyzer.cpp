#include "core/measure/oneflowanalyzer.h"

#include "core/model/numerics.h"

#include <cmath>
#include <initializer_list>
#include <utility>

namespace sv {

OneflowAnalyzer::OneflowAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                                 MeasureOptions options)
    : m_format(format), m_pathTopology(topology), m_pathBatch(batchPerDevice), m_opt(options) {}

void OneflowAnalyzer::add(const SpeedSample& s) {
    if (s.batchLast == kOneflowHeader) {
        if (!s.hasSpeed && m_dlperfError == 0) {
            m_dlperfError = s.line;
            m_dlperfWhy = "a header line without a value";
        }
        Value v{s.line, s.hasIteration, s.batchFirst};
        if (s.epoch == kOneflowNodes) m_nodes = v;
        if (s.epoch == kOneflowGpus) m_gpus = v;
        if (s.epoch == kOneflowBatch) m_batch = v;
        return;
    }
    if (s.batchLast != kOneflowData) return;
    ++m_dataLines;
    if (!s.hasIteration) {
        if (m_dlperfError == 0) {
            m_dlperfError = s.line;
            m_dlperfWhy = "no iteration number";
        }
        return;
    }
    m_lastIteration = s.batchFirst;
    const Stamp stamp{s.line, s.hasSpeed && std::isfinite(s.speed), s.speed};
    if (s.batchFirst == m_opt.warmup) m_start = stamp;
    if (s.batchFirst == m_opt.iterations) m_end = stamp;
}

// The topology and batch the script reads from the header (not the path's), or why they are
// not there; a difference from the path is a note.
std::optional<Shortfall> OneflowAnalyzer::readHeader(RunResult& out) const {
    for (const auto& [v, key] :
         {std::pair{&m_nodes, "num_nodes"}, std::pair{&m_gpus, "gpu_num_per_node"},
          std::pair{&m_batch, "batch_size_per_device"}}) {
        if (v->line == 0)
            return Shortfall{RunStatus::Unusable,
                             std::string("no \"") + key + " = N\" line in the log's header"};
        if (!v->ok || v->value < 1)
            return Shortfall{RunStatus::Unusable, std::string("the header's ") + key + " at line " +
                                                      std::to_string(v->line) +
                                                      " is not a positive integer"};
    }
    const Topology header{static_cast<int>(m_nodes.value), static_cast<int>(m_gpus.value)};
    out.key.topology = header;
    out.key.batchPerDevice = static_cast<int>(m_batch.value);
    if (header != m_pathTopology || out.key.batchPerDevice != m_pathBatch)
        out.notes.push_back("the log's header says " + header.name() + ", batch " +
                            std::to_string(out.key.batchPerDevice) + " per device; its path " +
                            m_pathTopology.name() + ", batch " + std::to_string(m_pathBatch) +
                            ": the header counts, as in DLPerf");
    return std::nullopt;
}

// The lines of iterations W and I and their Unix timestamps; where one has none, the script's
// assert stops it too.
std::optional<Shortfall> OneflowAnalyzer::windowLines(RunResult& out,
                                                      const std::string& script) const {
    for (const auto& [stamp, iteration] :
         {std::pair{&m_start, m_opt.warmup}, std::pair{&m_end, m_opt.iterations}}) {
        if (stamp->line == 0) {
            if (out.dlperfNote.empty())
                out.dlperfNote = dlperfStops(script, "on this file (assert: no iteration " +
                                                         std::to_string(iteration) + ")");
            return Shortfall{RunStatus::Incomplete,
                             "no line of iteration " + std::to_string(iteration) +
                                 " (the last is " + std::to_string(m_lastIteration) + ")"};
        }
        if (!stamp->ok)
            return Shortfall{RunStatus::Unusable,
                             "no Unix timestamp at the end of line " + std::to_string(stamp->line)};
    }
    return std::nullopt;
}

void OneflowAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                             bool unterminatedTail) const {
    out.counters = counters;
    out.unterminatedTail = unterminatedTail;
    out.expectedLines = 2;
    const std::string script = scriptName(m_format.timeScript);
    // A run that is not measured is one the script stops on too (where no line says where).
    auto settle = [&](Shortfall shortfall) {
        settleRun(out, std::move(shortfall), unterminatedTail);
        if (out.dlperfNote.empty()) out.dlperfNote = dlperfStops(script, "on this file");
    };
    if (m_dlperfError)
        out.dlperfNote = dlperfStops(script, scriptStopAt(m_dlperfError, m_dlperfWhy));
    if (m_dataLines == 0) {
        const std::string data =
            m_format.id == "oneflow-cnn" ? "train: epoch E, iter N, ..." : "step: N, ...";
        return settle(
            {RunStatus::Empty, noLinesAmong("iteration", data + " <unix time>", counters.lines)});
    }
    if (auto shortfall = readHeader(out)) return settle(std::move(*shortfall));
    if (auto shortfall = windowLines(out, script)) return settle(std::move(*shortfall));

    const double duration = m_end.seconds - m_start.seconds;
    // num_examples / duration: an int over a float, as the script divides.
    const std::int64_t examples = m_batch.value * m_gpus.value * m_nodes.value *
                                  static_cast<std::int64_t>(m_opt.iterations - m_opt.warmup);
    if (out.dlperfNote.empty() && duration != 0.0)
        out.dlperfThroughput = static_cast<double>(examples) / duration;
    else if (out.dlperfNote.empty())
        out.dlperfNote = dlperfStops(script, "on this file (division by a duration of 0)");
    if (duration <= 0.0)
        return settleRun(out, RunStatus::Unusable, timeStandsStill(m_start.line, m_end.line),
                         unterminatedTail);
    completeWithOneFigure(out, roundPython2(static_cast<double>(examples) / duration));
}

} // namespace sv
