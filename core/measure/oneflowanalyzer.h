#pragma once
// Reduces a OneFlow CNN or BERT log to a throughput as extract_util.py does: the global batch
// from the log's own header times the iterations between start and end, over the difference of
// their Unix timestamps. The topology and batch of the result come from that header.

#include "core/measure/closing.h"
#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"

#include <optional>
#include <string>

namespace sv {

// What a OneFlow sample is (its batchLast), and which header key (its epoch): the format's line
// parser (core/formats/oneflow.cpp) marks each line it hands on.
enum OneflowLine : std::int64_t { kOneflowOther = 0, kOneflowHeader = 1, kOneflowData = 2 };
enum OneflowKey : int { kOneflowNodes = 1, kOneflowGpus = 2, kOneflowBatch = 3 };

class OneflowAnalyzer : public FormatAnalyzer {
  public:
    OneflowAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                    MeasureOptions options);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    struct Value { // the last line that set it, as the script's dict keeps
        std::int64_t line = 0;
        bool ok = false;
        std::int64_t value = 0;
    };
    struct Stamp {
        std::int64_t line = 0;
        bool ok = false;
        double seconds = 0.0;
    };

    std::optional<Shortfall> readHeader(RunResult& out) const;
    std::optional<Shortfall> windowLines(RunResult& out, const std::string& script) const;

    const LogFormat& m_format;
    Topology m_pathTopology;
    int m_pathBatch;
    MeasureOptions m_opt;

    Value m_nodes, m_gpus, m_batch;
    Stamp m_start, m_end;
    std::int64_t m_dataLines = 0;
    std::int64_t m_lastIteration = -1;
    std::int64_t m_dlperfError = 0; // a line the script raises on as it reads
    std::string m_dlperfWhy;
};

} // namespace sv
