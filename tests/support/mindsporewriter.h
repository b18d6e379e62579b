#pragma once
// Builds MindSpore 1.1 ResNet-50 and BERT logs as DLPerf's runners tee them (every rank through
// one mpirun pipe), with exact control over every epoch time, for golden tests against DLPerf's
// extract_mindspore_logs_time.py.

#include "tests/support/files.h"
#include <cstdio>
#include <string>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

namespace sv::test {

struct MindsporeSpec {
    bool bert = false; // BERT's LossCallBack line (cumulative step) instead of LossMonitor's
    int ranks = 1;
    int sinks = 20;     // RN50's runner: --train_steps=200 in sinks of 10; BERT's 120
    int sinkSteps = 10; // --data_sink_steps
    double stepMs = 100.0;
    // lag > 0: ranks other than 0 print each sink's lines after rank 0's lines of the next
    // sink (a slower pipe), so a shared step counter sees their lines late.
    int lag = 0;
    std::string eol = "\n";
};

// Sink e (1-based) of rank r takes sinkSteps steps of stepMs + 3 r + 2 (e mod 3) ms; the first
// sink also compiles the graph (30 s).
inline std::string makeMindsporeLog(const MindsporeSpec& spec) {
    auto stepLine = [&](int e) {
        char buf[200];
        if (spec.bert)
            std::snprintf(buf, sizeof buf,
                          "epoch: 0, current epoch percent: %.3f, step: %d, outputs are "
                          "(Tensor(shape=[1], dtype=Float32, value= 7.1),)",
                          e / static_cast<double>(spec.sinks), e * spec.sinkSteps);
        else
            std::snprintf(buf, sizeof buf, "epoch: %d step: %d, loss is 6.123", e, spec.sinkSteps);
        return std::string(buf) + spec.eol;
    };
    auto timeLine = [&](int e, int r) {
        const double step = spec.stepMs + 3.0 * r + 2.0 * (e % 3);
        const double epoch = step * spec.sinkSteps + (e == 1 ? 30000.0 : 0.0);
        char buf[160];
        std::snprintf(buf, sizeof buf, "epoch time: %.3f ms, per step time: %.3f ms", epoch,
                      epoch / spec.sinkSteps);
        return std::string(buf) + spec.eol;
    };
    std::string out = "[WARNING] ME(1234:5678,MainProcess):2021-01-20-10:00:00.000.000 "
                      "[mindspore/train/model.py:100] dataset_sink_mode is on" +
                      spec.eol;
    std::string lagging; // the other ranks' lines of the previous sink
    for (int e = 1; e <= spec.sinks; ++e) {
        std::string others;
        for (int r = 1; r < spec.ranks; ++r)
            others += stepLine(e) + timeLine(e, r);
        out += stepLine(e) + timeLine(e, 0);
        if (spec.lag > 0) {
            out += lagging;
            lagging = others;
        } else {
            out += others;
        }
    }
    out += lagging;
    return out;
}

// DLPerf's layouts: ResNet-50 bz256/{1n1g,1n8g}/rn50_b256_fp32_{1,2,3}.log (1n8g's third run
// with lagging ranks) and BERT bz32/{1n1g,1n8g}/bert_b32_fp32_{1,2}.log.
inline void writeMindsporeTree(const std::filesystem::path& root, bool bert) {
    const std::tuple<const char*, int, double> topos[] = {{"1n1g", 1, 180.0}, {"1n8g", 8, 195.0}};
    for (const auto& [topo, ranks, ms] : topos)
        for (int rep = 1; rep <= (bert ? 2 : 3); ++rep) {
            MindsporeSpec spec;
            spec.bert = bert;
            spec.ranks = ranks;
            spec.sinks = bert ? 12 : 20;
            spec.stepMs = ms + rep * 1.7;
            spec.lag = !bert && ranks > 1 && rep == 3 ? 1 : 0;
            const std::string name = bert ? "bert_b32_fp32_" : "rn50_b256_fp32_";
            writeFile(root / topo / (name + std::to_string(rep) + ".log"),
                               makeMindsporeLog(spec));
        }
}

} // namespace sv::test
