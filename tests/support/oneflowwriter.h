#pragma once
// Builds OneFlow CNN and BERT logs as DLPerf's runners leave them (oneflow.log copied by
// cp_logs.sh): the "key = value" header, then every 20 iterations a line ending in the Unix time.

#include "tests/support/files.h"
#include <cstdint>
#include <cstdio>
#include <string>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

namespace sv::test {

struct OneflowSpec {
    bool bert = false;
    int nodes = 1, gpus = 1, batch = 128;
    double start = 1597933942.0; // Unix time of the first line
    double stepS = 0.25;         // seconds per iteration, plus 3 ms x (line mod 4)
    int lines = 6;               // CNN: iter 20, 40, ... 120; BERT: step 19, 39, ... 119
    bool header = true;
    std::string eol = "\n";
};

inline std::string makeOneflowLog(const OneflowSpec& s) {
    std::string out;
    if (s.header) {
        if (!s.bert) out += "model = resnet50" + s.eol;
        out += "batch_size_per_device = " + std::to_string(s.batch) + s.eol;
        out += "data_dir = /dataset/ImageNet/ofrecord" + s.eol;
        out += "gpu_num_per_node = " + std::to_string(s.gpus) + s.eol;
        out += "num_nodes = " + std::to_string(s.nodes) + s.eol;
        out += "node_ips = ['10.11.0.2', '10.11.0.3']" + s.eol;
    }
    out += "Time stamp: 2020-08-20-10:32:21" + s.eol;
    double t = s.start;
    char buf[256];
    for (int k = 1; k <= s.lines; ++k) {
        t += 20 * s.stepS + 0.003 * (k % 4);
        const int it = s.bert ? 20 * k - 1 : 20 * k;
        const double rate = s.batch * s.gpus * s.nodes / s.stepS;
        if (s.bert)
            std::snprintf(buf, sizeof buf,
                          "step: %d, total_loss: 9.725, mlm_loss: 8.960, nsp_loss: 0.766, "
                          "throughput: %.3f %.7f",
                          it, rate, t);
        else
            std::snprintf(buf, sizeof buf,
                          "train: epoch 0, iter %d, loss: 7.087004, top_1: 0.000000, top_k: "
                          "0.000000, samples/s: %.3f %.7f",
                          it, rate, t);
        out += buf + s.eol;
    }
    return out;
}

// DLPerf's layout (cp_logs.sh names CNN logs bert_base_ too): {1n1g,1n8g,2n8g}/
// bert_base_b{B}_fp32_{0,1,2}.log, batches 128 and 64 for CNN (no 1n1g at 64), 96 for BERT.
inline void writeOneflowTree(const std::filesystem::path& root, bool bert) {
    const std::tuple<const char*, int, int, double> topos[] = {
        {"1n1g", 1, 1, 0.30}, {"1n8g", 1, 8, 0.31}, {"2n8g", 2, 8, 0.33}};
    const std::vector<int> batches = bert ? std::vector<int>{96} : std::vector<int>{128, 64};
    for (int batch : batches)
        for (const auto& [topo, nodes, gpus, stepS] : topos) {
            if (batch == 64 && gpus == 1) continue; // no 1n1g: speedup 0.00
            for (int rep = 0; rep <= 2; ++rep) {
                OneflowSpec s;
                s.bert = bert;
                s.nodes = nodes;
                s.gpus = gpus;
                s.batch = batch;
                s.stepS = stepS * (batch == 64 ? 0.55 : 1.0) + 0.0017 * rep;
                s.start += 1000.0 * rep + 0.1234567 * nodes * gpus;
                const auto path = root / topo /
                                  ("bert_base_b" + std::to_string(batch) + "_fp32_" +
                                   std::to_string(rep) + ".log");
                writeFile(path, makeOneflowLog(s));
            }
        }
}

} // namespace sv::test
