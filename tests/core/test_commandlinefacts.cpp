// Issue 35, item 2: the keys a log prints on a launcher's command line or in words of its own,
// each with where it was read; and a PyTorch ImageNet log whose batch is only on its command line
// reads complete (it was "unusable: the throughput needs the batch size").

#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/parse/runfacts.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace sv;
using namespace sv::test;

namespace {

std::string value(const std::optional<RunFact>& f) {
    return f ? f->value : "-";
}

} // namespace

TEST(CommandLineFacts, BatchFromEveryFlagSpelling) {
    for (const char* line :
         {"python3 main.py --arch resnet50 --batch-size 128 /data/imagenet",
          "python train.py --batch_size=128 --lr 0.1", "python main.py -a resnet50 -b 128 /data",
          "torchrun --nproc_per_node=1 train.py --batch-size 128"}) {
        const RunFacts f = readRunFacts(std::string("starting\n") + line + "\n");
        EXPECT_EQ(value(f.batch), "128") << line;
        ASSERT_TRUE(f.batch);
        EXPECT_EQ(f.batch->line, 2) << line;
    }
    // Not a command line: "-b 128" in prose is no flag.
    EXPECT_FALSE(readRunFacts("see table -b 128 rows\n").batch);
}

TEST(CommandLineFacts, GpusAndNodesFromLaunchers) {
    struct Case {
        std::string text, gpus, nodes;
    };
    const Case cases[] = {
        {"torchrun --nproc_per_node=8 --nnodes 2 train.py\n", "16", "2"},
        {"python -m torch.distributed.launch --nproc_per_node 8 run.py\n", "8", "-"},
        {"srun --ntasks=8 python train.py\n", "8", "-"},
        {"srun -n 16 python train.py\n", "16", "-"},
        {"mpirun -np 16 -H a:8,b:8 python train.py\n", "16", "-"},
        {"horovodrun -np 4 python train.py\n", "4", "-"},
        {"CUDA_VISIBLE_DEVICES=0,1,2,3 python train.py\n", "4", "1"},
        {"using world size: 8, data-parallel-size: 8\n", "8", "-"},
        {"Namespace(distributed_world_size=16, arch='transformer')\n", "16", "-"},
        {"GPUs used: 1\n", "1", "-"},
        {"Devices: [cuda(id=0), cuda(id=1)]\n", "2", "-"},
    };
    for (const auto& c : cases) {
        const RunFacts f = readRunFacts(c.text);
        EXPECT_EQ(value(f.gpus), c.gpus) << c.text;
        if (c.nodes != "-") {
            EXPECT_EQ(value(f.nodes), c.nodes) << c.text;
        }
        ASSERT_TRUE(f.gpus) << c.text;
        EXPECT_EQ(f.gpus->line, 1) << c.text;
        EXPECT_FALSE(f.gpus->evidence.empty()) << c.text;
    }
}

TEST(CommandLineFacts, AStatedGlobalBatchOverTheGpus) {
    const RunFacts f = readRunFacts("using world size: 8\n global batch size: 256 | lm loss 1\n");
    EXPECT_EQ(value(f.batch), "32");
    ASSERT_TRUE(f.batch);
    EXPECT_NE(f.batch->evidence.find("global batch size 256 / 8 GPUs"), std::string::npos)
        << f.batch->evidence;
}

TEST(CommandLineFacts, TheImageNetExamplesNodeBatchIsSplitOverItsGpus) {
    const RunFacts f =
        readRunFacts("python main.py -a resnet50 --multiprocessing-distributed --world-size 1 "
                     "--rank 0 -b 256 /imagenet\nUse GPU: 0 for training\nUse GPU: 1 for "
                     "training\nUse GPU: 2 for training\nUse GPU: 3 for training\n");
    EXPECT_EQ(value(f.batch), "64");
    EXPECT_EQ(value(f.gpus), "4");
}

// The PyTorch ImageNet example's ProgressMeter, its batch only on the command line it printed.
TEST(CommandLineFacts, AProgressMeterLogWithItsBatchOnTheCommandLineReads) {
    std::string text = "CUDA_VISIBLE_DEVICES=0\npython3 main.py --arch resnet50 --batch-size 128 "
                       "--lr 0.1 /data/imagenet\n=> creating model 'resnet50'\n";
    for (int k = 0; k < 30; ++k) {
        char line[200];
        std::snprintf(line, sizeof line,
                      "Epoch: [0][%4d/10010]\tTime  0.400 ( 0.450)\tData  0.001 ( 0.120)\tLoss "
                      "6.9e+00 (6.9e+00)\n",
                      k * 10);
        text += line;
    }
    TempDir dir;
    writeFile(dir / "imagenet.log", text);
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u) << scan.summaryLine();
    const RunKey& key = scan.logs[0].key;
    EXPECT_EQ(key.format, "pytorch-progressmeter");
    EXPECT_EQ(key.batchPerDevice, 128);
    EXPECT_EQ(key.origins.batch, KeySource::Log);
    EXPECT_EQ(key.topology.ranks(), 1);
    LoadOptions o;
    o.measure.formatDefaults = true;
    const RunResult r = loadRun(scan.logs[0], o);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_NEAR(*r.timeThroughput, 128 / 0.4, 1e-6);
    bool said = false;
    for (const auto& d : key.origins.details)
        said = said || d.find("--batch-size 128") != std::string::npos;
    EXPECT_TRUE(said) << "the batch says where it came from";
}
