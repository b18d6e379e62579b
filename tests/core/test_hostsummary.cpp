// The machines a campaign ran on, from its captured environment files (core/compare/hostsummary):
// each host once with its GPUs by model, a CPU-only host with its cores, and a capture that
// nvidia-smi cut short after its first GPU counted by its "Attached GPUs" line.

#include "core/compare/hostsummary.h"

#include <gtest/gtest.h>

using namespace sv;

namespace {

std::string gpuBlock(const std::string& model) {
    return "GPU 00000000:07:00.0\n    Product Name                          : " + model +
           "\n    Product Brand                         : NVIDIA\n";
}

std::string capture(const std::string& host, int cpus, const std::string& smi) {
    return "== hostname\n" + host + "\n== cpus\n" + std::to_string(cpus) + "\n== nvidia-smi -q\n" +
           smi;
}

} // namespace

TEST(HostSummary, EachHostOnceWithItsGpusByModelOrItsCores) {
    std::string twoModels = "Attached GPUs                             : 3\n";
    twoModels +=
        gpuBlock("Tesla V100-SXM2-16GB") + gpuBlock("Tesla V100-SXM2-16GB") + gpuBlock("Tesla T4");
    const std::vector<ReportFile> files = {
        {"environment/20261206-100000-node-a.txt", capture("node-a", 64, twoModels)},
        // The same host captured again for a later run: counted once, its first file wins.
        {"environment/20261206-100500-node-a.txt", capture("node-a", 64, "")},
        {"environment/20261206-100000-box.txt", capture("box", 16, "")},
        {"campaign.json", "{}"}};
    const auto hosts = summarizeHosts(files);
    ASSERT_EQ(hosts.size(), 2u);
    EXPECT_EQ(hosts[0].name, "node-a");
    ASSERT_EQ(hosts[0].gpus.size(), 2u);
    EXPECT_EQ(hosts[0].gpus[0], (std::pair<std::string, int>{"Tesla V100-SXM2-16GB", 2}));
    EXPECT_EQ(hosts[0].gpus[1], (std::pair<std::string, int>{"Tesla T4", 1}));
    EXPECT_EQ(
        describeHosts(hosts),
        "2 hosts: node-a (2 × Tesla V100-SXM2-16GB + 1 × Tesla T4), box (CPU only, 16 cores)");
}

// nvidia-smi -q cut short after its first GPU's block: "Attached GPUs : 8" says how many of
// that one model the host has, never 1.
TEST(HostSummary, AttachedGpusCountsACaptureCutAfterItsFirstGpu) {
    const std::string cut =
        "Attached GPUs                             : 8\n" + gpuBlock("NVIDIA A100-SXM4-80GB");
    const auto hosts = summarizeHosts({{"environment/x-node1.txt", capture("node1", 128, cut)}});
    ASSERT_EQ(hosts.size(), 1u);
    ASSERT_EQ(hosts[0].gpus.size(), 1u);
    EXPECT_EQ(hosts[0].gpus[0].second, 8);
    EXPECT_EQ(describeHosts(hosts), "1 host: node1 (8 × NVIDIA A100-SXM4-80GB)");
    // Two models shown: "Attached GPUs" cannot say which one the missing blocks were.
    const std::string mixed = "Attached GPUs                             : 8\n" +
                              gpuBlock("NVIDIA A100-SXM4-80GB") + gpuBlock("Tesla T4");
    const auto both = summarizeHosts({{"environment/x-node2.txt", capture("node2", 128, mixed)}});
    ASSERT_EQ(both[0].gpus.size(), 2u);
    EXPECT_EQ(both[0].gpus[0].second, 1);
    EXPECT_EQ(both[0].gpus[1].second, 1);
}
