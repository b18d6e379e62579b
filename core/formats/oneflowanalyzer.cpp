#include "core/formats/oneflowanalyzer.h"

#include "core/formats/oneflow.h"
#include "core/stats/numerics.h"

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

void OneflowAnalyzer::finish(RunResult& out, const ParseCounters& counters,
                             bool unterminatedTail) const {
    out.counters = counters;
    out.unterminatedTail = unterminatedTail;
    out.expectedLines = 2;
    const std::string script(m_format.timeScript.substr(m_format.timeScript.rfind('/') + 1));
    const std::string data =
        m_format.id == "oneflow-cnn" ? "train: epoch E, iter N, ..." : "step: N, ...";
    auto unusable = [&](RunStatus status, std::string why) {
        out.status = status;
        out.reason = std::move(why);
        if (out.dlperfNote.empty())
            out.dlperfNote = "DLPerf's " + script + " stops with an error on this file";
    };
    if (m_dlperfError)
        out.dlperfNote = "DLPerf's " + script + " stops with an error at line " +
                         std::to_string(m_dlperfError) + " (" + m_dlperfWhy + ")";

    if (m_dataLines == 0)
        return unusable(RunStatus::Empty, "no iteration lines (\"" + data +
                                              " <unix time>\") among " +
                                              std::to_string(counters.lines) + " lines");
    // The topology and batch are the header's, as the script reads them, not the path's.
    for (const auto& [v, key] :
         {std::pair{&m_nodes, "num_nodes"}, std::pair{&m_gpus, "gpu_num_per_node"},
          std::pair{&m_batch, "batch_size_per_device"}}) {
        if (v->line == 0)
            return unusable(RunStatus::Unusable,
                            std::string("no \"") + key + " = N\" line in the log's header");
        if (!v->ok || v->value < 1)
            return unusable(RunStatus::Unusable, std::string("the header's ") + key + " at line " +
                                                     std::to_string(v->line) +
                                                     " is not a positive integer");
    }
    const Topology header{static_cast<int>(m_nodes.value), static_cast<int>(m_gpus.value)};
    out.key.topology = header;
    out.key.batchPerDevice = static_cast<int>(m_batch.value);
    if (header != m_pathTopology || out.key.batchPerDevice != m_pathBatch)
        out.notes.push_back("the log's header says " + header.name() + ", batch " +
                            std::to_string(out.key.batchPerDevice) + " per device; its path " +
                            m_pathTopology.name() + ", batch " + std::to_string(m_pathBatch) +
                            ": the header counts, as in DLPerf");
    for (const auto& [stamp, iteration] :
         {std::pair{&m_start, m_opt.warmup}, std::pair{&m_end, m_opt.iterations}}) {
        if (stamp->line == 0) {
            out.status = RunStatus::Incomplete;
            out.reason = "no line of iteration " + std::to_string(iteration) + " (the last is " +
                         std::to_string(m_lastIteration) + ")";
            if (unterminatedTail)
                out.reason += ", and an unterminated last line (still being written?)";
            if (out.dlperfNote.empty())
                out.dlperfNote = "DLPerf's " + script + " stops with an error on this file " +
                                 "(assert: no iteration " + std::to_string(iteration) + ")";
            return;
        }
        if (!stamp->ok)
            return unusable(RunStatus::Unusable,
                            "no Unix timestamp at the end of line " + std::to_string(stamp->line));
    }
    const double duration = m_end.seconds - m_start.seconds;
    // num_examples / duration: an int over a float, as the script divides.
    const std::int64_t examples = m_batch.value * m_gpus.value * m_nodes.value *
                                  static_cast<std::int64_t>(m_opt.iterations - m_opt.warmup);
    if (out.dlperfNote.empty() && duration != 0.0)
        out.dlperfThroughput = static_cast<double>(examples) / duration;
    else if (out.dlperfNote.empty())
        out.dlperfNote = "DLPerf's " + script +
                         " stops with an error on this file (division by "
                         "a duration of 0)";
    if (duration <= 0.0) {
        out.status = RunStatus::Unusable;
        out.reason = "time does not advance from line " + std::to_string(m_start.line) +
                     " to line " + std::to_string(m_end.line);
        return;
    }
    out.status = RunStatus::Complete;
    out.timeThroughput = out.speedThroughput =
        roundPython2(static_cast<double>(examples) / duration);
    out.methodDifferencePct = 0.0;
}

} // namespace sv
