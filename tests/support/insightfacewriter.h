#pragma once
// Builds the InsightFace report's logs as DLPerf's runners tee them: MXNet ArcFace (the
// Speedometer every 20 batches), MXNet Partial-FC (rank 0's "Iter:N Rank:R it/sec Total:T it/sec")
// and OneFlow's oneflow_face ("train: iter N, loss L, throughput: T"), with every rate fixed, for
// golden tests against DLPerf's extract_mxnet_logs.py and extract_oneflow_logs_time.py.

#include "tests/support/files.h"
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

namespace sv::test {

// A small, repeatable wobble of -6..+6 parts in `scale` by step, uneven enough that windows one
// line apart average differently.
inline double insightfaceWobble(int step, double scale) {
    return 1.0 + scale * ((step * step * 5 + step * 3) % 13 - 6);
}

struct ArcfaceSpec {
    int batches = 120;      // the last Speedometer line's batch (config.max_steps)
    int frequent = 20;      // Speedometer(batch_size, frequent)
    double speed = 760.0;   // the node's samples/s once warm
    bool iterLines = false; // "Iter[0] Batch [N]" (no eval metric) for "Epoch[0] Batch [a-b]"
    std::string eol = "\n";
};

inline std::string makeArcfaceLog(const ArcfaceSpec& s) {
    std::string out = "Begin time: " + s.eol + "Thu Feb  4 10:00:00 CST 2021" + s.eol +
                      "Use model patallel mode" + s.eol + "gpu num 8" + s.eol +
                      "Called with argument: Namespace(network='r100', loss='arcface', "
                      "per_batch_size=64, frequent=20)" +
                      s.eol;
    char buf[200];
    for (int b = s.frequent; b <= s.batches; b += s.frequent) {
        const int k = b / s.frequent;
        // The first window also pays for cuDNN's autotuning.
        const double v = k == 1 ? 0.55 * s.speed : s.speed * insightfaceWobble(k, 0.003);
        if (s.iterLines)
            std::snprintf(buf, sizeof buf, "INFO:root:Iter[0] Batch [%d]\tSpeed: %.2f samples/sec",
                          b, v);
        else
            std::snprintf(buf, sizeof buf,
                          "INFO:root:Epoch[0] Batch [%d-%d]\tSpeed: %.2f samples/sec\t"
                          "acc=0.000000",
                          b - s.frequent, b, v);
        out += buf + s.eol;
    }
    return out;
}

struct PartialfcSpec {
    int updates = 120;        // config.max_update
    int frequent = 1;         // config.frequent (DLPerf's README sets 1)
    int ranks = 8;            // world size
    double rankSpeed = 180.0; // each rank's samples/s once warm
    int slowFrom = 0;         // from this update on (0: none), 5 % slower (a thermal throttle)
    bool tagged = false;      // horovodrun's "[1,0]<stderr>:" prefix
    std::string eol = "\n";
};

// CallBackLogging: the first update only starts the clock; rank 0 prints every `frequent`.
inline std::string makePartialfcLog(const PartialfcSpec& s) {
    const std::string tag = s.tagged ? "[1,0]<stderr>:" : "";
    std::string out =
        tag + "INFO:root:Namespace(dataset='emore', loss='arcface', network='r100')" + s.eol;
    char buf[200];
    for (int u = 2; u <= s.updates; ++u) {
        if (u % s.frequent != 0) continue;
        double rank = s.rankSpeed * insightfaceWobble(u, 0.004);
        if (u <= 10) rank *= 0.7;
        if (s.slowFrom > 0 && u >= s.slowFrom) rank *= 0.95;
        std::snprintf(buf, sizeof buf,
                      "INFO:root:Iter:%d Rank:%.2f it/sec Total:%.2f it/sec [0][loss]:%.2f ", u,
                      rank, rank * s.ranks, 45.0 - u * 0.01);
        out += tag + buf + s.eol;
    }
    return out;
}

struct OneflowFaceSpec {
    int iterations = 150;       // --train_iter
    double throughput = 1925.0; // the whole job's samples/s once warm
    int stallIteration = -1;    // one iteration this much slower (a checkpoint, a GC pause)
    double stallFactor = 0.5;
    std::string eol = "\n";
};

// TrainMetric: iterations from 0; iteration 0's rate is its timer's two splits in a row.
inline std::string makeOneflowFaceLog(const OneflowFaceSpec& s) {
    std::string out = "2021-02-04 10:00:00" + s.eol +
                      "+ python3 /oneflow_face/insightface_train.py --network=r100 "
                      "--dataset=emore --loss=arcface --train_iter=150" +
                      s.eol + "Loading data from /data/emore" + s.eol;
    char buf[200];
    for (int i = 0; i < s.iterations; ++i) {
        double v = s.throughput * insightfaceWobble(i, 0.002);
        if (i == 0)
            v = 250000.125;
        else if (i <= 5)
            v = 0.6 * s.throughput;
        if (i == s.stallIteration) v *= s.stallFactor;
        std::snprintf(buf, sizeof buf, "train: iter %d, loss %.6f, throughput: %.3f", i,
                      46.5 - i * 0.01, v);
        out += buf + s.eol;
    }
    return out;
}

// DLPerf's ArcFace layout under .../arcface/bz64: {1n1g,1n4g,1n8g}/r100_b64_fp32_{1,2,3}.log.
inline void writeArcfaceTree(const std::filesystem::path& root) {
    const std::tuple<const char*, double> topos[] = {
        {"1n1g", 236.0}, {"1n4g", 652.0}, {"1n8g", 757.0}};
    for (const auto& [topo, speed] : topos)
        for (int rep = 1; rep <= 3; ++rep) {
            ArcfaceSpec spec;
            spec.speed = speed + 2.3 * rep;
            writeFile(root / topo / ("r100_b64_fp32_" + std::to_string(rep) + ".log"),
                                 makeArcfaceLog(spec));
        }
}

// Partial-FC under .../partial_fc/bz64: {1n1g,1n8g,2n8g}/r100_b64_fp32_{1,2,3}.log.
inline void writePartialfcTree(const std::filesystem::path& root) {
    const std::tuple<const char*, int, double> topos[] = {
        {"1n1g", 1, 219.0}, {"1n8g", 8, 179.0}, {"2n8g", 16, 163.0}};
    for (const auto& [topo, ranks, speed] : topos)
        for (int rep = 1; rep <= 3; ++rep) {
            PartialfcSpec spec;
            spec.ranks = ranks;
            spec.rankSpeed = speed + 0.7 * rep;
            spec.tagged = ranks > 1 && ranks <= 8; // horovodrun on one node, mpirun across
            writeFile(root / topo / ("r100_b64_fp32_" + std::to_string(rep) + ".log"),
                                 makePartialfcLog(spec));
        }
}

// OneFlow under 85744_fp32_b64_oneflow_model_parallel_1_partial_fc_1: {1n1g,1n8g,2n8g}/
// r100_b64_fp32_{1,2,3}.log.
inline void writeOneflowFaceTree(const std::filesystem::path& root) {
    const std::tuple<const char*, double> topos[] = {
        {"1n1g", 245.0}, {"1n8g", 1925.0}, {"2n8g", 3780.0}};
    for (const auto& [topo, tp] : topos)
        for (int rep = 1; rep <= 3; ++rep) {
            OneflowFaceSpec spec;
            spec.throughput = tp + 1.9 * rep;
            writeFile(root / topo / ("r100_b64_fp32_" + std::to_string(rep) + ".log"),
                                 makeOneflowFaceLog(spec));
        }
}

} // namespace sv::test
