// In-memory parser throughput, beside a memchr line count over the same bytes (the floor any
// line-oriented reader pays), so the ratio means something on a noisy machine.

#include "core/parse/logparser.h"
#include "core/measure/runanalyzer.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

// 32 ranks x 1000 iterations of Open MPI-tagged speedometer lines, with some noise lines.
const std::string& corpus() {
    static const std::string text = [] {
        std::string s;
        char line[256];
        for (int k = 0; k < 1000; ++k) {
            for (int r = 0; r < 32; ++r) {
                std::snprintf(line, sizeof line,
                              "[1,%d]<stderr>:2020-09-01 10:%02d:%02d,%03d:INFO: Epoch[0] Batch "
                              "[%d-%d]\tSpeed: "
                              "%.13f samples/sec\tLR: 0.256000\t\n",
                              r, (k / 60) % 60, k % 60, (k * 7 + r) % 1000, k, k,
                              11300.0 + (k * 31 + r) % 97 / 3.0);
                s += line;
            }
            if (k % 10 == 0)
                s += "[1,0]<stderr>:node1:100:100 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via "
                     "P2P/IPC\n";
        }
        return s;
    }();
    return text;
}

void BM_MemchrLineCount(benchmark::State& state) {
    const std::string& text = corpus();
    for (auto _ : state) {
        std::size_t lines = 0;
        const char* p = text.data();
        const char* end = p + text.size();
        while ((p = static_cast<const char*>(
                    std::memchr(p, '\n', static_cast<std::size_t>(end - p))))) {
            ++lines;
            ++p;
        }
        benchmark::DoNotOptimize(lines);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_ParseAndAnalyze(benchmark::State& state) {
    const std::string& text = corpus();
    const std::size_t chunk = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        sv::RunAnalyzer analyzer({4, 8}, 128, {20, 1000});
        sv::LogParser parser({}, [&](const sv::SpeedSample& s) { analyzer.add(s); });
        for (std::size_t pos = 0; pos < text.size(); pos += chunk)
            parser.feed(std::string_view(text).substr(pos, chunk));
        sv::RunResult r;
        analyzer.finish(r, parser.counters(), false);
        benchmark::DoNotOptimize(r.speedThroughput);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

} // namespace

BENCHMARK(BM_MemchrLineCount)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndAnalyze)->Arg(1 << 20)->Arg(4096)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
