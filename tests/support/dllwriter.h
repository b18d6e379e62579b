#pragma once
// Builds NGC PyTorch dllogger logs (rank 0's StdOut backend, as DLPerf's runners tee them), with
// exact control over every timestamp, for golden tests against DLPerf's own script's figures.

#include <cstdint>
#include <cstdio>
#include <string>

namespace sv::test {

enum class DllModel { Rn50, Bert };

// "2020-09-15 HH:MM:SS.ffffff" for a time in microseconds after 14:00:00.
inline std::string dllStamp(std::int64_t us) {
    char buf[64];
    const std::int64_t s = us / 1000000;
    std::snprintf(buf, sizeof buf, "2020-09-15 %02lld:%02lld:%02lld.%06lld",
                  static_cast<long long>(14 + s / 3600), static_cast<long long>((s / 60) % 60),
                  static_cast<long long>(s % 60), static_cast<long long>(us % 1000000));
    return buf;
}

inline std::string dllLine(DllModel model, std::int64_t us, int iteration,
                           const std::string& eol = "\n") {
    if (model == DllModel::Rn50)
        return "DLL " + dllStamp(us) + " - Epoch: 0 Iteration: " + std::to_string(iteration) +
               "  train.loss : 6.93504  train.total_ips : 4294.91 img/s" + eol;
    return "DLL " + dllStamp(us) +
           " - Training Epoch: 0 Training Iteration: " + std::to_string(iteration) +
           "  average_loss : 7.53  step_loss : 7.47  learning_rate : " + "0.000125" + eol;
}

// The step of iteration k (1-based): base, 13 us of jitter by k mod 7, and half as long again
// after iteration 110, so that DLPerf's shifted window (iterations 25-125) and ScaleView's
// (20-120) measure different figures.
inline std::int64_t dllStepUs(std::int64_t base, int k) {
    return base + (k > 110 ? base / 2 : 0) + (k % 7) * 13;
}

struct DllSpec {
    DllModel model = DllModel::Rn50;
    int iterations = 150;
    std::int64_t baseStepUs = 300000;
    std::string eol = "\n";
};

inline std::string makeDllLog(const DllSpec& spec) {
    std::string out = "DLL " + dllStamp(0) + " - PARAMETER arch : resnet50  workers : 5" + spec.eol;
    out += "=> creating model '('resnet50', 'classic')'" + spec.eol;
    std::int64_t t = 0;
    for (int k = 1; k <= spec.iterations; ++k) {
        t += dllStepUs(spec.baseStepUs, k);
        out += dllLine(spec.model, t, k, spec.eol);
    }
    out += "DLL " + dllStamp(t + 1000) +
           " - Summary: train.loss : 6.90  train.total_ips : " + "4300.00 img/s" + spec.eol;
    return out;
}

// NGC TensorFlow 1 ResNet-50 (rank 0): steps 21 to `iterations` print
// "(0, k) imgs_per_sec : X ..." with X the global batch over the step, to 4 decimals.
inline std::string makeDllTfLog(int globalBatch, std::int64_t baseStepUs, int iterations = 120,
                                const std::string& eol = "\n") {
    std::string out = "DLL " + dllStamp(0) + " - PARAMETER mode : train  iter_unit : batch" + eol;
    std::int64_t t = 0;
    char rate[64];
    for (int k = 1; k <= iterations; ++k) {
        const std::int64_t step = dllStepUs(baseStepUs, k);
        t += step;
        if (k <= 20) continue;
        std::snprintf(rate, sizeof rate, "%.4f", globalBatch / (static_cast<double>(step) / 1e6));
        out += "DLL " + dllStamp(t) + " - (0, " + std::to_string(k) + ") imgs_per_sec : " + rate +
               " cross_entropy : 6.91 l2_loss : 0.38 total_loss : 7.29 learning_rate : 0.0" + eol;
    }
    out += "DLL " + dllStamp(t + 1000) + " - () train_throughput : 2700.12 images/s" + eol;
    return out;
}

} // namespace sv::test
