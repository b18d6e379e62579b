// Issue 28's probes, for real: gloo all-reduces between two local ranks on loopback, and the
// CPU workload alone, through the executor the campaign's local runs use.
#include "tests/support/files.h"
#include "launcher/probe/probe.h"
#include "launcher/exec/localexecutor.h"
#include "core/model/numerics.h"

#include <gtest/gtest.h>

#include <QProcess>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace sv;
using namespace sv::launcher;

namespace {

int freshPort(int offset) { return 20000 + int(getpid() % 20000) + offset; }

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::random_device rd;
        path = std::filesystem::temp_directory_path() / ("sv-probe-" + std::to_string(rd()));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

} // namespace

TEST(Probe, GradientBytesOfResNet50) {
    EXPECT_EQ(gradientBytes(kResNet50Parameters, "fp32"), 102400000);
    EXPECT_EQ(gradientBytes(kResNet50Parameters, "fp16"), 51200000);
}

TEST(Probe, AllReduceGlooTwoLocalRanksBiggerTensorTakesLonger) {
    const LocalExecutor local;
    const std::vector<ProbeRank> ranks = {{&local, 0}, {&local, 1}};
    AllReduceProbeSpec spec;
    spec.iterations = 5;
    spec.warmup = 2;
    spec.bytes = 1 << 20; // 1 MiB
    spec.masterPort = freshPort(0);
    const auto small = runAllReduceProbe(spec, ranks, 120000);
    ASSERT_TRUE(small.probe) << small.error;
    spec.bytes = gradientBytes(kResNet50Parameters, "fp32"); // 102.4 MB, ResNet-50's gradient
    spec.masterPort = freshPort(1);
    const auto big = runAllReduceProbe(spec, ranks, 120000);
    ASSERT_TRUE(big.probe) << big.error;
    for (const auto* r : {&*small.probe, &*big.probe}) {
        EXPECT_EQ(r->backend, "gloo");
        EXPECT_EQ(r->ranks, 2);
        ASSERT_EQ(r->seconds.size(), 5u);
        for (double t : r->seconds)
            EXPECT_GT(t, 0.0);
    }
    EXPECT_EQ(small.probe->bytes, 1 << 20);
    EXPECT_EQ(big.probe->bytes, 102400000);
    const double tSmall = numpyMedian(small.probe->seconds);
    const double tBig = numpyMedian(big.probe->seconds);
    std::cout << "all-reduce, gloo, 2 local ranks: 1 MiB " << tSmall * 1000 << " ms, 102.4 MB "
              << tBig * 1000 << " ms (medians of 5)\n";
    EXPECT_GT(tBig, tSmall * 5); // 100 times the bytes: far more than 5 times the time

    // Into the campaign directory's probes.json, which core reads back for the case.
    TempDir dir;
    ASSERT_EQ(appendProbeRecords(dir.path, {"1n2g", "r50", "fp32", 16}, {}, {*big.probe}), "");
    const ProbeFile f = readProbeFile(dir.path);
    ASSERT_EQ(f.error, "");
    ASSERT_EQ(f.records.size(), 1u);
    const CaseProbes p = probesFor(f, "1n2g", "r50", "fp32", 16);
    ASSERT_TRUE(p.allReduce);
    EXPECT_EQ(p.allReduce->seconds, big.probe->seconds);
    ScalingLossInput in;
    in.devices = 2;
    in.batchPerDevice = 16;
    in.efficiency = 0.8;
    in.baselinePace = 20.0; // samples/s: 0.8 s of compute per iteration
    in.probes = &p;
    const ScalingLoss l = scalingLoss(in);
    EXPECT_EQ(l.notMeasured, (std::vector<std::string>{"device-slowdown", "slowest-node"}));
    ASSERT_EQ(l.parts.size(), 2u);
    EXPECT_EQ(l.parts[0].kind, "communication");
    EXPECT_NEAR(l.parts[0].pct, 100.0 * tBig / (0.8 + tBig), 1e-9);
}

TEST(Probe, AllReduceRankThatCannotRunSaysWhichAndWhy) {
    const LocalExecutor local;
    AllReduceProbeSpec spec;
    spec.python = "/nonexistent/python3";
    spec.bytes = 1024;
    spec.masterPort = freshPort(2);
    const auto r = runAllReduceProbe(spec, {{&local, 0}, {&local, 1}}, 30000);
    EXPECT_FALSE(r.probe);
    EXPECT_NE(r.error.find("rank 0 on this machine failed"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("/nonexistent/python3"), std::string::npos) << r.error;
    EXPECT_NE(runAllReduceProbe(spec, {}, 1000).error.find("no ranks"), std::string::npos);
}

TEST(Probe, SoloWorkloadPacePerDevice) {
    const LocalExecutor local;
    SoloProbeSpec spec;
    spec.node = "localhost";
    spec.batch = 16;
    spec.imageSize = 32;
    spec.iterations = 5;
    spec.warmup = 2;
    spec.masterPort = freshPort(3);
    const auto r = runSoloProbe(spec, {{&local, 0}}, 180000);
    ASSERT_TRUE(r.probe) << r.error;
    EXPECT_EQ(r.probe->node, "localhost");
    EXPECT_EQ(r.probe->devices, 1);
    EXPECT_EQ(r.probe->paceSamples.size(), 3u);
    EXPECT_GT(r.probe->pacePerDevice, 0.0);
    std::cout << "solo probe, 1 rank, ResNet-50 CPU 32x32 batch 16: " << r.probe->pacePerDevice
              << " samples/s per device\n";
    TempDir dir;
    ASSERT_EQ(appendProbeRecords(dir.path, {"1n1g", "r50", "fp32", 16}, {*r.probe}, {}), "");
    ASSERT_EQ(appendProbeRecords(dir.path, {"1n1g", "r50", "fp32", 16}, {*r.probe}, {}), "");
    const ProbeFile f = readProbeFile(dir.path);
    ASSERT_EQ(f.error, "");
    EXPECT_EQ(probesFor(f, "1n1g", "r50", "fp32", 16).solo.size(), 2u); // appended, not replaced
}

namespace {

// A "node" whose ranks run on one core (taskset), the way an emulated node is restricted.
class PinnedExecutor : public Executor {
  public:
    explicit PinnedExecutor(std::string core, std::string label)
        : core_(std::move(core)), label_(std::move(label)) {}
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override {
        std::vector<std::string> out = {"/usr/bin/taskset", "-c", core_};
        out.insert(out.end(), argv.begin(), argv.end());
        return out;
    }
    std::string hostLabel() const override { return label_; }
    bool isRemote() const override { return false; }

  private:
    std::string core_, label_;
};

} // namespace

// Two emulated nodes, each alone on its own core; one shares its core with a busy loop (a real
// process pinned there). The per-node solo probes, written to probes.json and read back, name
// that node as slow, with its pace as evidence, and put the gap in the slowest-node part.
TEST(Probe, SoloProbesNameTheNodeSharingItsCoreWithAHog) {
    const PinnedExecutor quiet("1", "quiet"), hogged("0", "hogged");
    SoloProbeSpec spec;
    spec.batch = 16;
    spec.imageSize = 32;
    spec.iterations = 6;
    spec.warmup = 2;
    spec.masterPort = freshPort(4);
    spec.node = "quiet";
    const auto a = runSoloProbe(spec, {{&quiet, 0}}, 240000);
    ASSERT_TRUE(a.probe) << a.error;
    SoloProbeResult b;
    {
        // A busy loop on core 0 in a session of its own, killed when the probe is done.
        QProcess hog;
        hog.start("/usr/bin/taskset", {"-c", "0", "/usr/bin/setsid", "/bin/sh", "-c",
                                       "while :; do :; done"});
        ASSERT_TRUE(hog.waitForStarted(5000));
        spec.node = "hogged";
        spec.masterPort = freshPort(5);
        b = runSoloProbe(spec, {{&hogged, 0}}, 240000);
        hog.kill();
        hog.waitForFinished(5000);
    }
    ASSERT_TRUE(b.probe) << b.error;
    std::cout << "solo paces per device: quiet " << a.probe->pacePerDevice << ", hogged "
              << b.probe->pacePerDevice << "\n";
    TempDir dir;
    ASSERT_EQ(appendProbeRecords(dir.path, {"2n1g", "r50", "fp32", 16}, {*a.probe, *b.probe}, {}),
              "");
    const CaseProbes p = probesFor(readProbeFile(dir.path), "2n1g", "r50", "fp32", 16);
    ASSERT_EQ(p.solo.size(), 2u);
    ScalingLossInput in;
    in.devices = 2;
    in.batchPerDevice = 16;
    in.efficiency = 0.6;
    in.baselinePace = a.probe->pacePerDevice;
    in.probes = &p;
    const ScalingLoss l = scalingLoss(in);
    ASSERT_EQ(l.slowNodes.size(), 1u);
    EXPECT_EQ(l.slowNodes[0].node, "hogged");
    EXPECT_GT(l.slowNodes[0].slowerPct, 10.0); // half a core against a whole one
    EXPECT_NE(l.slowNodes[0].evidence.find("per device"), std::string::npos);
    ASSERT_GE(l.parts.size(), 2u);
    EXPECT_EQ(l.parts[1].kind, "slowest-node");
    // Against the high median of the two: the quiet node, which is also the baseline here.
    EXPECT_NEAR(l.parts[1].pct,
                100.0 * (a.probe->pacePerDevice - b.probe->pacePerDevice) / a.probe->pacePerDevice,
                1e-9);
    EXPECT_NEAR(l.parts[0].pct, 0.0, 1e-9); // the device part does not take the hog's share
}

// The GPU path on a machine without a GPU, through a stand-in python (as the monitor's tests
// stand in for nvidia-smi): a campaign on GPUs asks its probes for CUDA devices, so the
// all-reduce runs on NCCL and the gradient is the run's precision's (fp16: 2 bytes a
// parameter); what the stand-in answers as the real probe does (rank 0's JSON line, the
// workload's speed lines) is read as a real probe's. The stand-in writes the arguments it got.
TEST(Probe, OnGpusTheProbesAskForCudaAndNcclThroughAStandIn) {
    TempDir dir;
    const auto python = (dir.path / "python3").string();
    {
        std::ofstream(python)
            << "#!/bin/sh\n"
            << "printf '%s\\n' \"$RANK\" \"$@\" | sed -n '1p;/^--/,$p' >> " << dir.path.string()
            << "/argv.$RANK\n"
            << "case \"$*\" in\n"
            << "  *--bytes*) if [ \"$RANK\" = 0 ]; then echo '{\"kind\": \"allreduce\", "
               "\"backend\": \"nccl\", \"bytes\": 51200000, \"ranks\": 2, \"seconds\": [0.004, "
               "0.005, 0.004]}'; fi ;;\n"
            << "  *) for k in 0 1 2 3 4; do echo \"Epoch[0] Batch [$k-$k]\tSpeed: 2400.0 "
               "samples/sec\" >&2; done ;;\n"
            << "esac\n";
    }
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    const LocalExecutor here;
    AllReduceProbeSpec ar;
    ar.python = python;
    ar.device = "cuda";
    ar.precision = "fp16";
    ar.bytes = gradientBytes(kResNet50Parameters, "fp16");
    ar.masterPort = freshPort(9);
    const auto r = runAllReduceProbe(ar, {{&here, 0}, {&here, 1}}, 60000);
    ASSERT_TRUE(r.probe) << r.error;
    EXPECT_EQ(r.probe->backend, "nccl");
    EXPECT_EQ(r.probe->bytes, 51.2e6);
    const std::string argv0 = sv::test::readWhole((dir.path / "argv.0").string());
    for (const char* word : {"--device\ncuda\n", "--precision\nfp16\n", "--bytes\n51200000\n"})
        EXPECT_NE(argv0.find(word), std::string::npos) << word << " in\n" << argv0;
    EXPECT_TRUE(std::filesystem::exists(dir.path / "argv.1")); // every rank ran

    SoloProbeSpec solo;
    solo.python = python;
    solo.device = "cuda";
    solo.precision = "fp16";
    solo.node = "gpu1";
    solo.masterPort = freshPort(10);
    solo.iterations = 5;
    solo.warmup = 2;
    const auto s = runSoloProbe(solo, {{&here, 0}, {&here, 1}}, 60000);
    ASSERT_TRUE(s.probe) << s.error;
    EXPECT_EQ(s.probe->devices, 2);
    EXPECT_DOUBLE_EQ(s.probe->pacePerDevice, 1200.0); // the node's 2400 over its 2 devices
    EXPECT_EQ(s.probe->paceSamples.size(), 3u);       // past the 2 of warmup
}
