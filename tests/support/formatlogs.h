#pragma once
// Builds logs of the DLPerf formats NGC TF BERT, TensorFlow 2, PyTorch torchvision and
// PaddlePaddle as their runners write them, with exact control over every step's time, for
// golden tests against the figures of DLPerf's own scripts run on these very logs.

#include "tests/support/dllwriter.h"
#include "tests/support/logwriter.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

namespace sv::test {

// NGC TF BERT (rank 0's dllogger): "Iteration: k  throughput_train : X seq/s ..." at step 1 and
// every 10 steps, X the global batch over the mean step since the previous print, to 3 decimals.
inline std::string makeNgcTfBertLog(int globalBatch, std::int64_t baseStepUs, int iterations = 120,
                                    const std::string& eol = "\n") {
    std::string out = "DLL " + dllStamp(0) + " - PARAMETER bert_config_file : base.json" + eol;
    std::int64_t t = 0, since = 0;
    int lastPrint = 0;
    char rate[64];
    for (int k = 1; k <= iterations; ++k) {
        const std::int64_t step = dllStepUs(baseStepUs, k);
        t += step;
        since += step;
        if (k != 1 && k % 10 != 0) continue;
        std::snprintf(rate, sizeof rate, "%.3f",
                      globalBatch * (k - lastPrint) / (static_cast<double>(since) / 1e6));
        out += "DLL " + dllStamp(t) + " - Iteration: " + std::to_string(k) +
               "  throughput_train : " + rate +
               " seq/s mlm_loss : 7.8831  nsp_loss : 0.6990  total_loss : 8.5821  avg_loss_step "
               ": 8.6093  learning_rate : 2e-07 " +
               eol;
        since = 0;
        lastPrint = k;
    }
    out += "DLL " + dllStamp(t + 1000) + " -  throughput_train : 250.123 seq/s" + eol;
    return out;
}

// absl's "I0915 HH:MM:SS.ffffff" for a time in microseconds after `startSecond` of 15 September.
inline std::string abslStamp(std::int64_t us, std::int64_t startSecond) {
    const std::int64_t total = startSecond * 1000000 + us;
    const std::int64_t s = total / 1000000, day = s / 86400, tod = s % 86400;
    char buf[64];
    std::snprintf(buf, sizeof buf, "I09%02lld %02lld:%02lld:%02lld.%06lld",
                  static_cast<long long>(15 + day), static_cast<long long>(tod / 3600),
                  static_cast<long long>(tod / 60 % 60), static_cast<long long>(tod % 60),
                  static_cast<long long>(total % 1000000));
    return buf;
}

// TensorFlow 2 ResNet-50: Keras TimeHistory every 100 steps (global batch rates, to 2 decimals),
// the clock starting at startSecond of the day (close to 86400: the run crosses midnight).
inline std::string makeTf2Rn50Log(int globalBatch, std::int64_t baseStepUs, int steps = 600,
                                  std::int64_t startSecond = 14 * 3600,
                                  const std::string& eol = "\n") {
    std::string out = abslStamp(0, startSecond) +
                      " 140123456789 classifier_trainer.py:178] Run params: {'mode': "
                      "'train_and_eval'}" +
                      eol;
    std::int64_t t = 0, since = 0;
    char text[256];
    for (int k = 1; k <= steps; ++k) {
        const std::int64_t step = dllStepUs(baseStepUs, k) + (k == 1 ? 5 * baseStepUs : 0);
        t += step;
        since += step;
        if (k % 100 != 0) continue;
        const double seconds = static_cast<double>(since) / 1e6;
        std::snprintf(text, sizeof text,
                      " 140123456789 keras_utils.py:145] TimeHistory: %.2f seconds, %.2f "
                      "examples/second between steps %d and %d",
                      seconds, globalBatch * 100 / seconds, k - 100, k);
        out += abslStamp(t, startSecond) + text + eol;
        since = 0;
    }
    return out;
}

// TensorFlow 2 BERT: one "Train Step: k/120  / loss = ..." line per step.
inline std::string makeTf2BertLog(std::int64_t baseStepUs, int steps = 120,
                                  std::int64_t startSecond = 14 * 3600,
                                  const std::string& eol = "\n") {
    std::string out = abslStamp(0, startSecond) +
                      " 139876543210 run_pretraining.py:120] Training using TF 2.x API." + eol;
    std::int64_t t = 0;
    for (int k = 1; k <= steps; ++k) {
        t += dllStepUs(baseStepUs, k);
        out += abslStamp(t, startSecond) +
               " 139876543210 model_training_utils.py:444] Train Step: " + std::to_string(k) + "/" +
               std::to_string(steps) + "  / loss = 7.53125" + eol;
    }
    return out;
}

// PaddlePaddle ResNet-50, trainer 0: "[Pass 0, train batch k]" for batches 0.. with asctime
// (milliseconds) and the step's elapse to 4 decimals.
inline std::string makePaddleRn50Log(std::int64_t baseStepUs, int batches = 120,
                                     const std::string& eol = "\n") {
    std::string out = "2020-09-01 10:00:00,000-INFO: -------------  Configuration Arguments "
                      "-------------" +
                      eol;
    std::int64_t t = 0;
    char text[256];
    for (int k = 0; k < batches; ++k) {
        const std::int64_t step = dllStepUs(baseStepUs, k + 1);
        t += step;
        std::snprintf(text, sizeof text,
                      "-INFO: [Pass 0, train batch %d] \tloss 6.95312, acc1 0.00000, acc5 "
                      "0.00781, lr 0.00010, elapse %.4f sec",
                      k, static_cast<double>(step) / 1e6);
        out += stampMs(t / 1000) + text + eol;
    }
    return out;
}

// PaddlePaddle BERT, trainer 0 of `nodes`: steps advance by the node count, one line per
// iteration printing the node-steps per second, up to 120 node-steps.
inline std::string makePaddleBertLog(int nodes, std::int64_t baseStepUs, int steps = 120,
                                     const std::string& eol = "\n") {
    std::string out = "Theoretical memory usage in training: 12345.678 - 13456.789 MB" + eol;
    char text[256];
    for (int k = nodes; k <= steps; k += nodes) {
        const std::int64_t step = dllStepUs(baseStepUs, k);
        out += "feed_queue size 64" + eol;
        std::snprintf(text, sizeof text,
                      "epoch: 0, progress: 1/1, step: %d, loss: 10.512345, ppl: 36789.123456, "
                      "next_sent_acc: 0.500000, speed: %.6f steps/s, file: "
                      "data/train/part-00000",
                      k, nodes / (static_cast<double>(step) / 1e6));
        out += text + eol;
    }
    return out;
}

// PyTorch torchvision: every rank's ProgressMeter lines for batches 0..perEpoch-1, each rank
// writing its output in 8 KiB blocks into the one file, the ranks' blocks taking turns. Batch
// 0 takes 12.054 s, batches 9 and 40 of every rank 10.5 s; the rest base + rank jitter.
inline std::string makePytorchRn50Log(int ranks, int perEpoch, double baseStep,
                                      std::size_t block = 8192) {
    std::vector<std::string> streams(static_cast<std::size_t>(ranks));
    char text[512];
    for (int r = 0; r < ranks; ++r) {
        double sum = 0.0;
        const int width = static_cast<int>(std::to_string(perEpoch).size());
        for (int k = 0; k < perEpoch; ++k) {
            const double step = k == 0                ? 12.054
                                : (k == 9 || k == 40) ? 10.5
                                                      : baseStep + 0.001 * ((k + r) % 5);
            sum += step;
            std::snprintf(text, sizeof text,
                          "Epoch: [0][%*d/%d]\tTime %6.3f (%6.3f)\tData  0.106 ( 0.077)\tLoss "
                          "1.1494e+01 (1.8538e+01)\tAcc@1   1.56 (  2.23)\tAcc@5  10.94 ( 10.94)\n",
                          width, k, perEpoch, step, sum / (k + 1));
            streams[static_cast<std::size_t>(r)] += text;
        }
    }
    std::string out = "=> creating model 'resnet50'\n";
    std::vector<std::size_t> pos(streams.size(), 0);
    for (bool more = true; more;) {
        more = false;
        for (std::size_t r = 0; r < streams.size(); ++r) {
            if (pos[r] >= streams[r].size()) continue;
            out += streams[r].substr(pos[r], block);
            pos[r] += block;
            more = true;
        }
    }
    return out;
}

// DLPerf's NGC TF BERT golden tree: {1n1g,1n8g,2n8g}/bert_b32_fp32_{1,2,3}.log.
inline void writeNgcTfBertTree(const std::filesystem::path& root, const std::string& eol = "\n") {
    const std::tuple<const char*, std::int64_t, std::int64_t, int> topos[] = {
        {"1n1g", 200000, 1234, 1}, {"1n8g", 210000, 2345, 8}, {"2n8g", 230000, 3456, 16}};
    for (const auto& [topo, base, delta, ranks] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("bert_b32_fp32_" + std::to_string(rep) + ".log"),
                      makeNgcTfBertLog(32 * ranks, base + rep * delta, 120, eol));
}

// The golden trees: DLPerf's layout below the --log_dir, three repeats of each topology.
inline void writeTf2Rn50Tree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t, int> topos[] = {
        {"1n1g", 250000, 1234, 1}, {"1n8g", 260000, 2345, 8}, {"2n8g", 280000, 3456, 16}};
    for (const auto& [topo, base, delta, ranks] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("rn50_b128_fp32_" + std::to_string(rep) + ".log"),
                      makeTf2Rn50Log(128 * ranks, base + rep * delta));
}

inline void writeTf2BertTree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t> topos[] = {
        {"1n1g", 200000, 777}, {"1n8g", 220000, 999}, {"2n8g", 240000, 1111}};
    for (const auto& [topo, base, delta] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("bert_b32_fp32_" + std::to_string(rep) + ".log"),
                      makeTf2BertLog(base + rep * delta));
}

inline void writePaddleRn50Tree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t> topos[] = {
        {"1n1g", 300000, 1234}, {"1n8g", 310000, 2345}, {"2n8g", 330000, 3456}};
    for (const auto& [topo, base, delta] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("r50_b128_fp32_" + std::to_string(rep) + ".log"),
                      makePaddleRn50Log(base + rep * delta));
}

inline void writePaddleBertTree(const std::filesystem::path& root) {
    const std::tuple<const char*, std::int64_t, std::int64_t, int> topos[] = {
        {"1n1g", 200000, 777, 1},
        {"1n8g", 210000, 888, 1},
        {"2n8g", 220000, 999, 2},
        {"4n8g", 230000, 1111, 4}};
    for (const auto& [topo, base, delta, nodes] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("bert_b32_fp32_" + std::to_string(rep) + ".log"),
                      makePaddleBertLog(nodes, base + rep * delta));
}

inline void writePytorchRn50Tree(const std::filesystem::path& root) {
    const std::tuple<const char*, int, int, double> topos[] = {
        {"1n1g", 1, 130, 0.350}, {"1n4g", 4, 100, 0.360}, {"1n8g", 8, 160, 0.380}};
    for (const auto& [topo, ranks, perEpoch, base] : topos)
        for (int rep = 1; rep <= 3; ++rep)
            writeFile(root / topo / ("r50_b128_fp32_" + std::to_string(rep) + ".log"),
                      makePytorchRn50Log(ranks, perEpoch, base + 0.002 * rep));
}

} // namespace sv::test
