// The GPU profile's host checks, on a machine without a GPU: a stand-in `nvidia-smi` (a shell
// script first on PATH, answering as the driver's tool does on a host with N GPUs) drives the
// real preflight and environment capture, since the real one is not here. Without any
// nvidia-smi, preflight says what to install.

#include "tests/launcher/launchertest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

using sv::test::kCli;
using sv::test::runProcess;

namespace {

// A directory holding an nvidia-smi that reports `gpus` H100s; PATH for it.
std::string standIn(const std::string& dir, int gpus) {
    const std::string bin = dir + "/bin" + std::to_string(gpus);
    std::filesystem::create_directories(bin);
    std::ofstream(bin + "/nvidia-smi")
        << "#!/bin/sh\n"
        << "case \"$1\" in\n"
        << "  --query-gpu=name) i=0; while [ $i -lt " << gpus
        << " ]; do echo 'NVIDIA H100 80GB HBM3'; i=$((i+1)); done ;;\n"
        << "  -q) echo 'Attached GPUs                             : " << gpus << "' ;;\n"
        << "  topo) echo '        GPU0    GPU1    CPU Affinity' ;;\n"
        << "esac\n";
    ::chmod((bin + "/nvidia-smi").c_str(), 0755);
    return "PATH=" + bin + ":/usr/bin:/bin";
}

std::string ngcCampaign(const std::string& dir) {
    nlohmann::json c{{"profile", "ngc-mxnet-rn50"},
                     {"launcher", "mpirun"},
                     {"topologies", {"1n8g"}},
                     {"batchSizes", {128}},
                     {"repeats", 1},
                     {"cooldownSeconds", 0},
                     {"startTimeoutSeconds", 20},
                     {"outputDir", dir + "/out"}};
    const std::string path = dir + "/ngc.json";
    std::ofstream(path) << c.dump(2);
    return path;
}

std::string lineWith(const std::string& text, const std::string& needle) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.find(needle) != std::string::npos) return line;
    return {};
}

} // namespace

TEST(GpuHost, PreflightCountsTheGpusEachNodeNeedsAndSaysWhatIsMissing) {
    const std::string dir = sv::test::tempDir("gpu");
    const std::string campaign = ngcCampaign(dir);
    // Two GPUs where 1n8g needs eight.
    auto r = runProcess({"/usr/bin/env", standIn(dir, 2), kCli, "preflight", campaign});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_EQ(lineWith(r.out, ": gpus: "),
              "FAIL this machine: gpus: 2 GPUs, the campaign needs 8 per node")
        << r.out;
    // Eight: that check passes (Open MPI's mpirun is the real one).
    r = runProcess({"/usr/bin/env", standIn(dir, 8), kCli, "preflight", campaign});
    EXPECT_EQ(lineWith(r.out, ": gpus: "), "ok   this machine: gpus: 8 GPUs") << r.out;
    EXPECT_EQ(lineWith(r.out, ": launcher: "), "ok   this machine: launcher: mpirun found")
        << r.out;
    // No nvidia-smi at all (this machine has none): what to do.
    r = runProcess({"/usr/bin/env", "PATH=/usr/bin:/bin", kCli, "preflight", campaign});
    EXPECT_EQ(r.exitCode, 1);
    const std::string none = lineWith(r.out, ": gpus: ");
    EXPECT_EQ(none.rfind("FAIL this machine: gpus: nvidia-smi failed (", 0), 0u) << r.out;
    EXPECT_NE(none.find("install the NVIDIA driver or run in a GPU container"), std::string::npos)
        << none;
    std::filesystem::remove_all(dir);
}

TEST(GpuHost, EnvironmentCaptureKeepsNvidiaSmiQueryAndTopologyBesideTheLogs) {
    const std::string dir = sv::test::tempDir("gpuenv");
    // The run itself cannot work here (no NGC container, no train.py): it must fail, named,
    // with its log kept; the machine's description is written before it starts.
    const auto r = runProcess({"/usr/bin/env", standIn(dir, 8), kCli, "run", ngcCampaign(dir)});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.out.find(": failed - "), std::string::npos) << r.out;
    std::string captured;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/out/environment"))
        if (e.path().extension() == ".txt") captured = sv::test::readWhole(e.path().string());
    EXPECT_NE(captured.find("== nvidia-smi -q\nAttached GPUs                             : 8\n"),
              std::string::npos)
        << captured;
    EXPECT_NE(captured.find("== nvidia-smi topo -m\n        GPU0    GPU1    CPU Affinity\n"),
              std::string::npos)
        << captured;
    EXPECT_NE(captured.find("profile ngc-mxnet-rn50: ResNet-50 v1.5, NGC MXNet"),
              std::string::npos);
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(GpuHost, AContainerThatIsNotThereFailsPreflightNamingItAndWhatToDo) {
    // No docker engine runs here: `docker inspect` cannot say the container runs, and preflight
    // must say so, naming the container, before any run starts.
    const std::string dir = sv::test::tempDir("container");
    nlohmann::json c{{"profile", "ngc-mxnet-rn50"},
                     {"container", {{"runtime", "docker"}, {"name", "mxnet-20.03"}}},
                     {"topologies", {"1n1g"}},
                     {"batchSizes", {128}},
                     {"outputDir", dir + "/out"}};
    std::ofstream(dir + "/c.json") << c.dump();
    const auto r =
        runProcess({"/usr/bin/env", standIn(dir, 8), kCli, "preflight", dir + "/c.json"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const std::string line = lineWith(r.out, ": container: ");
    EXPECT_EQ(line.rfind("FAIL this machine: container: container mxnet-20.03 is not running (", 0),
              0u)
        << r.out;
    EXPECT_NE(line.find("start it with docker run"), std::string::npos) << line;
    EXPECT_FALSE(std::filesystem::exists(dir + "/out")); // a check only: nothing was created
    std::filesystem::remove_all(dir);
}
