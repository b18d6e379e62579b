#pragma once
// ScaleView's local workload's logs for tests: its header line, as rn50_cpu.py logs it on every
// rank before its speed lines (PyTorch 1.13.1 on CPU ranks).

#include <string>

namespace sv::test {

// log with the header of each of its ranks after its first line ("begin time: ...").
inline std::string withWorkloadHeader(const std::string& log, int ranks) {
    std::string header;
    for (int r = 0; r < ranks; ++r)
        header += "[1," + std::to_string(r) +
                  "]<stderr>:2026-12-05 03:00:00,000:INFO: ResNet-50 v1.5, PyTorch 1.13.1, CPU, "
                  "synthetic data 64x64, batch 64 per rank, rank " +
                  std::to_string(r) + " of " + std::to_string(ranks) + ", 1 threads\n";
    const std::size_t eol = log.find('\n') + 1;
    return log.substr(0, eol) + header + log.substr(eol);
}

} // namespace sv::test
