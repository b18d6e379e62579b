#pragma once
// Builds MXNet gluon-cv and gluon-nlp logs as DLPerf's runners tee them, with exact control over
// every printed figure, for golden tests against DLPerf's own extract_mxnet_logs.py.

#include "tests/support/files.h"
#include <cstdint>
#include <cstdio>
#include <string>
#include <filesystem>
#include <fstream>
#include <tuple>

namespace sv::test {

// gluon-cv ResNet-50 v1b, rank 0: "INFO:root:Epoch[0] Batch[k]\tSpeed: X samples/sec" for
// k = 1..batches, X the global batch over a step of base + jitter ms, to 2 decimals; with the
// lines around them that DLPerf's filter must leave out.
inline std::string makeGluoncvLog(int globalBatch, double baseMs, int batches = 120,
                                  const std::string& eol = "\n") {
    std::string out = "INFO:root:Namespace(batch_size=128, dtype='float32', log_interval=1, "
                      "mode='hybrid', model='resnet50_v1b', num_epochs=1)" +
                      eol;
    char buf[160];
    for (int k = 1; k <= batches; ++k) {
        const double ms = baseMs + (k % 7) * 0.37 + (k > 100 ? baseMs / 4 : 0.0);
        std::snprintf(buf, sizeof buf, "INFO:root:Epoch[0] Batch[%d]\tSpeed: %.2f samples/sec", k,
                      globalBatch / (ms / 1000.0));
        out += buf + eol;
        if (k % 25 == 0)
            out += "INFO:root:Epoch[0] Rank[0] Batch[" + std::to_string(k) + "]\tloss=6.9" + eol;
    }
    out += "INFO:root:Epoch[0]\tSpeed: 4800.12 samples/sec\ttime cost: 30.1" + eol;
    return out;
}

// gluon-nlp BERT-base: every rank logs "[step k] ... latency=X ms/batch" for k = 1..steps into
// one file; swap > 0 moves rank 0's line of every swap-th step after the next step's first line
// (ranks' lines interleaving as mpirun's pipe delivers them).
inline std::string makeGluonnlpLog(int ranks, double baseMs, int steps = 200, int swap = 0,
                                   const std::string& eol = "\n") {
    auto line = [&](int k, int r) {
        char buf[256];
        const double ms = baseMs + r * 0.7 + (k % 5) * 0.3 + (k > 150 ? baseMs / 5 : 0.0);
        std::snprintf(buf, sizeof buf,
                      "INFO:root:[step %d]\tmlm_loss=7.12345\tnsp_loss= 0.69\tthroughput=13.2K "
                      "tks/s\tlr=0.0000150 time=0.31, latency=%.1f ms/batch",
                      k, ms);
        return std::string(buf) + eol;
    };
    std::string out = "INFO:root:Namespace(batch_size=32, comm_backend='horovod', "
                      "log_interval=1, num_steps=" +
                      std::to_string(steps) + ")" + eol;
    std::string held;
    for (int k = 1; k <= steps; ++k) {
        const bool hold = swap > 0 && k % swap == 0 && k < steps;
        for (int r = 0; r < ranks; ++r) {
            if (hold && r == 0) {
                held = line(k, r);
                continue;
            }
            out += line(k, r);
            if (r == 0 && !held.empty()) {
                out += held;
                held.clear();
            }
        }
    }
    return out;
}

// DLPerf's layouts: gluon-cv bz128/{1n1g,1n8g,2n8g}/rn50_b128_fp32_{1,2,3}.log and gluon-nlp
// bz32/{1n1g,1n8g}/bert_b32_fp32_{1,2}.log (1n8g's second run with interleaved ranks).
inline void writeGluoncvTree(const std::filesystem::path& root) {
    const std::tuple<const char*, int, double> topos[] = {
        {"1n1g", 1, 250.0}, {"1n8g", 8, 262.0}, {"2n8g", 16, 281.0}};
    for (const auto& [topo, ranks, ms] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("rn50_b128_fp32_" + std::to_string(rep) + ".log"),
                           makeGluoncvLog(128 * ranks, ms + rep * 1.3));
}

inline void writeGluonnlpTree(const std::filesystem::path& root) {
    const std::tuple<const char*, int, double> topos[] = {{"1n1g", 1, 300.0}, {"1n8g", 8, 320.0}};
    for (const auto& [topo, ranks, ms] : topos)
        for (int rep = 1; rep <= 2; ++rep)
            writeFile(
                root / topo / ("bert_b32_fp32_" + std::to_string(rep) + ".log"),
                makeGluonnlpLog(ranks, ms + rep * 2.1, 200, ranks > 1 && rep == 2 ? 3 : 0));
}

} // namespace sv::test
