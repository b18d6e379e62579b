#pragma once
// Log trees for the comparison tests: a series of NGC MXNet runs whose throughput per topology
// is set by a factor (so B against A is faster, slower or the same by construction), and a tree
// holding three frameworks' logs of one model, precision and batch size.

#include "tests/support/dllwriter.h"
#include "tests/support/logwriter.h"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace sv::test {

struct SeriesTopology {
    int nodes, gpus;
    double factor; // throughput against the base (1.0)
};

// bz64/<N>n<G>g/r50_b64_fp32_<p>.log, three repeats 1 % apart, 120 iterations.
inline void writeSeriesTree(const std::filesystem::path& root,
                            const std::vector<SeriesTopology>& topologies) {
    for (const auto& t : topologies)
        for (int p = 1; p <= 3; ++p) {
            RunSpec spec;
            spec.ranks = t.nodes * t.gpus;
            spec.iterations = 120;
            spec.stepMs =
                static_cast<std::int64_t>(std::llround(500.0 / t.factor * (1 + 0.01 * p)));
            const double rate = 1000.0 * 64 * spec.ranks / static_cast<double>(spec.stepMs);
            writeFile(root / "bz64" /
                          (std::to_string(t.nodes) + "n" + std::to_string(t.gpus) + "g") /
                          ("r50_b64_fp32_" + std::to_string(p) + ".log"),
                      makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
        }
}

// logs/ngc/{mxnet,pytorch,tensorflow}/resnet50/bz128/{1n1g,1n4g}/r50_b128_fp32_{1,2}.log: the
// NGC MXNet, NGC PyTorch and NGC TensorFlow 1 formats, each at its own pace.
inline void writeFrameworkTree(const std::filesystem::path& root) {
    for (const int gpus : {1, 4})
        for (int p = 1; p <= 2; ++p) {
            const std::string topo = "1n" + std::to_string(gpus) + "g";
            const std::string file = "r50_b128_fp32_" + std::to_string(p) + ".log";
            RunSpec mx;
            mx.ranks = gpus;
            mx.stepMs = 400 + 4 * p + (gpus > 1 ? 40 : 0);
            const double rate = 1000.0 * 128 / static_cast<double>(mx.stepMs);
            writeFile(root / "logs/ngc/mxnet/resnet50/bz128" / topo / file,
                      makeLog(mx, [rate](int, int) { return std::to_string(rate); }));
            DllSpec pt;
            pt.baseStepUs = 450000 + 3000 * p + (gpus > 1 ? 60000 : 0);
            writeFile(root / "logs/ngc/pytorch/resnet50/bz128" / topo / file, makeDllLog(pt));
            writeFile(root / "logs/ngc/tensorflow/resnet50/bz128" / topo / file,
                      makeDllTfLog(128 * gpus, 500000 + 5000 * p + (gpus > 1 ? 30000 : 0)));
        }
}

} // namespace sv::test
