// Issue 26: the nodes a log's host names show (core/parse/hostfacts.h): srun --label's lines of
// `srun -l hostname`, NCCL's "host:pid:tid [gpu] NCCL INFO" lines under Open MPI's rank tags or
// untagged, a horovodrun/mpirun host list, Slurm's environment. Hosts seen for some ranks only
// say nothing: rank 0's lines alone show one host, whatever the run's nodes.

#include "core/load/logscan.h"
#include "core/parse/runfacts.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

std::string host(int rank, int perNode) {
    return "gpu-node" + std::to_string(rank / perNode + 1);
}

// A DLLogger PyTorch run of `ranks` processes under srun --label, which first ran
// `srun -l hostname`: "3: gpu-node2".
std::string srunLabelled(int ranks, int perNode) {
    std::string s;
    const int width = ranks > 10 ? 2 : 1;
    auto label = [&](int r) {
        std::string l = std::to_string(r);
        return std::string(static_cast<std::size_t>(width) - std::min<std::size_t>(l.size(), width),
                           ' ') +
               l + ": ";
    };
    for (int r = ranks - 1; r >= 0; --r)
        s += label(r) + host(r, perNode) + "\n";
    s += label(0) +
         "DLL 2020-03-09 03:39:11.3 - PARAMETER arch : resnet50  batch_size : 256  "
         "amp : True  world_size : " +
         std::to_string(ranks) + " \n";
    for (int i = 1; i <= 30; ++i)
        s += label(0) + "DLL 2020-03-09 03:39:31.4 - Epoch: 0 Iteration: " + std::to_string(i) +
             "  train.loss : 7.08  train.total_ips : " + std::to_string(5000 + i) + ".5 img/s\n";
    return s;
}

// NCCL's init lines of every rank, Open MPI-tagged: "[1,5]<stdout>:gpu-node2:4242:4300 [1] NCCL
// INFO ...".
std::string ncclLines(int ranks, int perNode, bool tagged, int only = -1) {
    std::string s;
    for (int r = 0; r < ranks; ++r) {
        if (only >= 0 && r != only) continue;
        s += (tagged ? "[1," + std::to_string(r) + "]<stdout>:" : std::string()) +
             host(r, perNode) + ":" + std::to_string(4000 + r) + ":" + std::to_string(4100 + r) +
             " [" + std::to_string(r % perNode) + "] NCCL INFO comm 0x5581 rank " +
             std::to_string(r) + " nranks " + std::to_string(ranks) + " - Init COMPLETE\n";
    }
    return s;
}

} // namespace

TEST(RunNodes, SrunLabelsWithHostnames) {
    const RunFacts f = readRunFacts(srunLabelled(16, 8));
    ASSERT_TRUE(f.gpus && f.nodes);
    EXPECT_EQ(f.gpus->value, "16");
    EXPECT_EQ(f.nodes->value, "2");
    EXPECT_NE(f.nodes->evidence.find("gpu-node1"), std::string::npos) << f.nodes->evidence;
    // The run reads as 2n8g, its nodes from the log.
    TempDir dir;
    writeFile(dir / "slurm-4242.out", srunLabelled(16, 8));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.topology, (Topology{2, 8}));
    EXPECT_FALSE(scan.logs[0].key.origins.nodesUnknown);
}

TEST(RunNodes, OpenMpiTaggedNcclHosts) {
    const RunFacts f = readRunFacts(ncclLines(8, 4, true) + "[1,0]<stdout>:hello\n");
    ASSERT_TRUE(f.gpus && f.nodes);
    EXPECT_EQ(f.gpus->value, "8");
    EXPECT_EQ(f.nodes->value, "2");
}

TEST(RunNodes, UntaggedNcclLinesOfEveryGpu) {
    // One file all ranks write to, untagged; world_size says 16.
    const RunFacts f =
        readRunFacts("PARAMETER batch_size : 64  world_size : 16 \n" + ncclLines(16, 4, false));
    ASSERT_TRUE(f.gpus && f.nodes);
    EXPECT_EQ(f.gpus->value, "16");
    EXPECT_EQ(f.nodes->value, "4");
}

TEST(RunNodes, OneRanksHostSaysNothing) {
    // Rank 0's NCCL lines alone, of a 16-rank run: one host seen, the nodes unknown.
    const RunFacts f = readRunFacts("DLL - PARAMETER batch_size : 64  world_size : 16 \n" +
                                    ncclLines(16, 8, false, 0));
    ASSERT_TRUE(f.gpus);
    EXPECT_FALSE(f.nodes);
    // srun labels of some ranks only: the same.
    const RunFacts g = readRunFacts("0: gpu-node1\n1: gpu-node1\n5: gpu-node2\n");
    EXPECT_FALSE(g.nodes);
    // A bare word after a label is no host name.
    const RunFacts h = readRunFacts("0: done\n1: done\n");
    EXPECT_FALSE(h.nodes);
}

TEST(RunNodes, LauncherHostListAndSlurmEnvironment) {
    const RunFacts a = readRunFacts(
        "+ horovodrun -np 16 -H node-a1:8,node-b2:8 python train.py --batch_size=64\n");
    ASSERT_TRUE(a.nodes);
    EXPECT_EQ(a.nodes->value, "2");
    const RunFacts b = readRunFacts("SLURM_JOB_NODELIST=dgx[01-04]\nSLURM_NNODES=4\n");
    ASSERT_TRUE(b.nodes);
    EXPECT_EQ(b.nodes->value, "4");
    EXPECT_EQ(b.nodes->line, 2);
}

// MLPerf's :::MLLOG records: number_of_ranks (the GPUs), submission_platform "2xDGX-A100" (nodes),
// global_batch_size over the ranks (the batch per GPU).
TEST(RunNodes, MlperfMllogKeys) {
    const std::string mllog =
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1593, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": \"submission_platform\", \"value\": \"2xNVIDIA DGX A100\", \"metadata\": "
        "{\"file\": \"mlperf_log_utils.py\", \"lineno\": 1}}\n"
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1594, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": \"number_of_ranks\", \"value\": 16, \"metadata\": {\"lineno\": 2}}\n"
        ":::MLLOG {\"namespace\": \"\", \"time_ms\": 1595, \"event_type\": \"POINT_IN_TIME\", "
        "\"key\": \"global_batch_size\", \"value\": 3264, \"metadata\": {\"lineno\": 3}}\n";
    const RunFacts f = readRunFacts(mllog);
    ASSERT_TRUE(f.gpus && f.nodes && f.batch);
    EXPECT_EQ(f.gpus->value, "16");
    EXPECT_EQ(f.nodes->value, "2");
    EXPECT_EQ(f.batch->value, "204");
    EXPECT_EQ(f.nodes->line, 1);
}
