#pragma once
// Generated campaigns for the history tests: real NGC MXNet log trees (1n1g and 1n2g, five
// repeats with a little spread), each case's speed scaled by a factor, the logs dated so that
// the campaigns follow each other in time, and optionally a captured environment.

#include "tests/support/logwriter.h"

#include <chrono>
#include <cmath>
#include <string>
#include <tuple>

namespace sv::test {

// GPU-side environment as the launcher captures it (environment/<time>-<host>.txt).
inline std::string capturedEnvironment(const std::string& host, const std::string& driver) {
    return "ScaleView 0.1.0\nprofile ngc-mxnet-rn50: NGC MXNet\n== hostname\n" + host +
           "\n== kernel\nLinux " + host +
           " 6.1.0\n== cpus\n64\n== nvidia-smi -q\n\n==============NVSMI LOG==============\n"
           "Driver Version                            : " +
           driver +
           "\nCUDA Version                              : 12.2\n\nAttached GPUs : 1\n"
           "GPU 00000000:18:00.0\n    Product Name                          : NVIDIA "
           "A100-SXM4-80GB\n"
           "== container image nvcr.io/nvidia/mxnet:23.10-py3 (id, repo digests)\n"
           "sha256:0123abcd [\"nvcr.io/nvidia/mxnet@sha256:feed\"]\n"
           "== docker server version\n24.0.7\n";
}

// daysAgo dates every log (the campaign's time is its newest log).
inline void writeHistoryCampaign(const std::filesystem::path& root, double speed1n1g,
                                 double speed1n2g, int daysAgo, const std::string& driver = {}) {
    const int steps[] = {1000, 1008, 995, 1004, 992};
    const auto when =
        std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * daysAgo);
    for (int p = 0; p < 5; ++p)
        for (auto [topo, ranks, speedup] :
             {std::tuple{"1n1g", 1, speed1n1g}, std::tuple{"1n2g", 2, speed1n2g}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.stepMs = std::lround(steps[p] / speedup);
            const double rate = 1000.0 * 64 * ranks / static_cast<double>(spec.stepMs);
            const auto file =
                root / "logs" / topo / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log");
            writeFile(file, makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
            std::filesystem::last_write_time(file, when);
        }
    if (!driver.empty())
        writeFile(root / "environment" / "20261130-101010-node1.txt",
                  capturedEnvironment("node1", driver));
}

} // namespace sv::test
