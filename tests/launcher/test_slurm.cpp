// Campaigns on a real Slurm: the test binary brings up its own private cluster (SlurmCluster:
// munged, slurmctld, two emulated nodes) once, and scaleview-cli runs campaigns on it with the
// fake workload: two nodes by one and by two ranks (srun, mpirun inside the allocation, one
// torchrun per node), a queued job, cancel, a failing rank, hostile values, pyxis' options
// through a SPANK double. Skipped, saying why, only where the Slurm packages are missing.

#include "tests/launcher/slurmtest.h"

#include <csignal>
#include <fstream>

using namespace sv::test;

TEST(Slurm, TwoNodesByOneAndByTwoReadBackWithEveryRank) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-ok");
    const auto profile = sv::test::writeFakeProfile(dir, {});
    const std::string out = g_cluster->jobsDir() + "/ok";
    const auto r = runProcess(slurmCliArgs(profile, out, "2n1g,2n2g"));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 2u) << r.out << r.err;
    for (const auto& e : ends)
        EXPECT_EQ(e["state"], "ok") << e.dump();
    const auto ids = journalJobIds(out);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_NE(ids[0], ids[1]);
    const std::string log1 = sv::test::readWhole(out + "/logs/fake/bz2/2n1g/r50_b2_fp32_1.log");
    const std::string log2 = sv::test::readWhole(out + "/logs/fake/bz2/2n2g/r50_b2_fp32_1.log");
    EXPECT_EQ(loggedRanks(log1), (std::set<int>{0, 1})) << log1;
    EXPECT_EQ(loggedRanks(log2), (std::set<int>{0, 1, 2, 3})) << log2;
    // The job script, the sbatch output and the summary agree: the CLI reads the logs back.
    const auto summary = runProcess({kCli, "summarize", out});
    EXPECT_EQ(summary.exitCode, 0) << summary.out << summary.err;
    EXPECT_NE(summary.out.find("2n2g"), std::string::npos) << summary.out;
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

TEST(Slurm, MpirunInsideTheAllocationReadsBackEveryRank) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-mpirun");
    const auto profile = sv::test::writeFakeProfile(dir, {});
    const std::string out = g_cluster->jobsDir() + "/mpirun";
    const auto r = runProcess(slurmCliArgs(profile, out, "2n2g", {"--slurm-launch", "mpirun"}));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err;
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    // Open MPI's --tag-output: "[1,R]<stderr>:" for each of the four ranks.
    const std::string log = sv::test::readWhole(out + "/logs/fake/bz2/2n2g/r50_b2_fp32_1.log");
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_NE(log.find("," + std::to_string(rank) + "]<stderr>:"), std::string::npos)
            << rank << "\n"
            << log;
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

// The real CPU workload (PyTorch, gloo all-reduce across the two emulated nodes) through srun.
TEST(Slurm, LocalCpuWorkloadOnTwoNodes) {
    NEED_CLUSTER();
    const std::string out = g_cluster->jobsDir() + "/cpu";
    const auto r = runProcess(
        {kCli,           "run",  "--scheduler",  "slurm", "--profile",    "local-cpu-rn50",
         "--topologies", "2n1g", "--batch-size", "16",    "--image-size", "16",
         "--repeats",    "1",    "--iterations", "4",     "--warmup",     "1",
         "--cooldown",   "0",    "--out",        out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err;
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    EXPECT_GT(ends[0]["timeThroughput"].get<double>(), 0.0);
    const std::string log =
        sv::test::readWhole(out + "/logs/local/pytorch-cpu/resnet50/bz16/2n1g/r50_b16_fp32_1.log");
    EXPECT_EQ(loggedRanks(log), (std::set<int>{0, 1})) << log;
    EXPECT_TRUE(g_cluster->jobs().empty());
}

TEST(Slurm, HostileValuesAreRefusedBeforeAnythingIsSubmitted) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-hostile");
    const auto profile = sv::test::writeFakeProfile(dir, {});
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--slurm-partition", "debug;touch " + dir + "/pwned"},
          {"--slurm-account", "$(id)"},
          {"--slurm-reservation", "-x"},
          {"--slurm-constraint", "a b"},
          {"--slurm-sbatch-arg", "--wrap=touch " + dir + "/pwned"},
          {"--slurm-time", "1`id`"},
          // pyxis' values travel as srun options: a value that could become another option, a
          // second mount or a shell word is refused like the sbatch ones.
          {"--container-image", "img;touch " + dir + "/pwned"},
          {"--container-image", "$(id)"},
          {"--container-workdir", "/w $(id)"},
          {"--container-workdir", "relative"},
          {"--container-mount", "/data:/data,/etc:/etc"},
          {"--container-mount", "/data:/da ta"}}) {
        const std::string out = dir + "/out";
        const auto r = runProcess(slurmCliArgs(profile, out, "2n1g", bad));
        EXPECT_EQ(r.exitCode, 2) << bad[0] << r.out << r.err;
        EXPECT_TRUE(r.err.find("scheduler.") != std::string::npos ||
                    r.err.find("--container-mount: ") != std::string::npos)
            << bad[0] << " " << bad[1] << ": " << r.err;
        EXPECT_FALSE(std::filesystem::exists(out + "/journal.jsonl")) << bad[0];
    }
    EXPECT_FALSE(std::filesystem::exists(dir + "/pwned"));
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

TEST(Slurm, AFailingRankFailsTheRunWithItsExitCodeAndNode) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-fail");
    const auto profile = sv::test::writeFakeProfile(
        dir, {"--fail-rank", "1", "--fail-at", "3", "--interval", "0.1"});
    const std::string out = g_cluster->jobsDir() + "/fail";
    const auto r = runProcess(slurmCliArgs(profile, out, "2n1g"));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err;
    EXPECT_EQ(ends[0]["state"], "failed");
    ASSERT_TRUE(ends[0]["exitCode"].is_number());
    EXPECT_NE(ends[0]["exitCode"].get<int>(), 0);
    const std::string reason = ends[0]["reason"];
    EXPECT_NE(reason.find("Slurm job " + journalJobIds(out).at(0) + " failed with exit code"),
              std::string::npos)
        << reason;
    // srun names the failed task and its node; it is the run's last telling line.
    EXPECT_NE(reason.find("node2"), std::string::npos) << reason;
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

TEST(Slurm, CancelIsScancelAndLeavesNoJobAndNoTask) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-cancel");
    const auto profile = sv::test::writeFakeProfile(dir, {"--hang", "--interval", "0.05"});
    const std::string out = g_cluster->jobsDir() + "/cancel";
    const std::string log = out + "/logs/fake/bz2/2n2g/r50_b2_fp32_1.log";
    const pid_t cli = sv::test::spawn(slurmCliArgs(profile, out, "2n2g"), dir + "/cli.log");
    // Every rank has logged: the job runs on both nodes.
    ASSERT_TRUE(waitUntil([&] { return loggedRanks(sv::test::readWhole(log)).size() == 4; },
                          std::chrono::seconds(30)))
        << sv::test::readWhole(dir + "/cli.log");
    const auto tasks = sv::test::leftoverOf(out);
    EXPECT_GE(tasks.size(), 4u); // the four ranks (and the srun client) carry the run tag
    const auto t0 = std::chrono::steady_clock::now();
    ::kill(cli, SIGTERM);
    EXPECT_EQ(waitExit(cli), 130) << sv::test::readWhole(dir + "/cli.log");
    std::printf("cancel to CLI exit: %.2f s\n", sv::test::since(t0));
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "cancelled") << ends[0].dump();
    EXPECT_TRUE(g_cluster->jobs().empty());
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
    std::filesystem::remove_all(dir);
}

TEST(Slurm, AQueuedRunShowsPendingWithItsReasonThenRuns) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-queue");
    const auto profile = sv::test::writeFakeProfile(dir, {});
    // The blocker holds every CPU of both nodes.
    const auto blocker = runProcess({"/usr/bin/sbatch", "--parsable", "--nodes=2", "--exclusive",
                                     "--output=/dev/null", "--wrap", "sleep 120"});
    ASSERT_EQ(blocker.exitCode, 0) << blocker.err;
    const std::string blockerId = blocker.out.substr(0, blocker.out.find_first_of(";\n"));
    const std::string out = g_cluster->jobsDir() + "/queue";
    // A start timeout shorter than the wait in the queue: it counts from RUNNING, so it holds.
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t cli = sv::test::spawn(slurmCliArgs(profile, out, "2n1g", {"--start-timeout", "4"}),
                                      dir + "/cli.log");
    ASSERT_TRUE(waitUntil(
        [&] {
            return sv::test::readWhole(dir + "/cli.log").find("PENDING (Resources)") !=
                   std::string::npos;
        },
        std::chrono::seconds(20)))
        << sv::test::readWhole(dir + "/cli.log");
    EXPECT_TRUE(journalEnds(out).empty()); // waiting is not running: no end yet
    // Queued past the start timeout (the time passing is what is tested here).
    ASSERT_TRUE(waitUntil([&] { return sv::test::since(t0) > 6.0; }, std::chrono::seconds(10)));
    EXPECT_TRUE(journalEnds(out).empty());
    runProcess({"/usr/bin/scancel", blockerId});
    EXPECT_EQ(waitExit(cli), 0) << sv::test::readWhole(dir + "/cli.log");
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    std::filesystem::remove_all(dir);
}

TEST(Slurm, KillNineOfTheCliThenResumeReattachesTheRunningJob) {
    NEED_CLUSTER();
    const std::string dir = sv::test::tempDir("slurm-resume");
    // About 4 s of work: the CLI dies in the middle of it.
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.4"});
    const std::string out = g_cluster->jobsDir() + "/resume";
    const std::string log = out + "/logs/fake/bz2/2n1g/r50_b2_fp32_1.log";
    const pid_t cli = sv::test::spawn(slurmCliArgs(profile, out, "2n1g"), dir + "/cli.log");
    ASSERT_TRUE(waitUntil([&] { return loggedRanks(sv::test::readWhole(log)).size() == 2; },
                          std::chrono::seconds(30)))
        << sv::test::readWhole(dir + "/cli.log");
    ::kill(cli, SIGKILL);
    waitExit(cli);
    const auto first = journalJobIds(out);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(g_cluster->jobs(), first); // the job goes on without the CLI
    const auto r = runProcess({kCli, "resume", out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("reattaching Slurm job " + first[0]), std::string::npos) << r.err;
    const auto ids = journalJobIds(out);
    EXPECT_EQ(ids, (std::vector<std::string>{first[0], first[0]})); // never submitted again
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << sv::test::readWhole(out + "/journal.jsonl");
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    // The new log holds the job's whole output: every iteration of both ranks.
    const std::string whole = sv::test::readWhole(log);
    std::size_t speedLines = 0;
    for (std::size_t at = 0; (at = whole.find("Speed:", at)) != std::string::npos; ++at)
        ++speedLines;
    EXPECT_EQ(speedLines, 20u) << whole;
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

TEST(Slurm, PreflightChecksThePartitionAndThatTheNodesSeeTheDirectory) {
    NEED_CLUSTER();
    sv::launcher::Campaign c;
    c.profile = "local-cpu-rn50";
    c.scheduler.type = "slurm";
    c.scheduler.partition = "debug";
    c.topologies = {*sv::parseTopology("2n2g")};
    c.batchSizes = {2};
    c.outputDir = g_cluster->jobsDir() + "/preflight";
    std::filesystem::create_directories(c.outputDir);
    const std::string file = c.outputDir + "/campaign.json";
    std::string error;
    ASSERT_TRUE(sv::launcher::saveCampaign(c, file, &error)) << error;
    auto r = runProcess({kCli, "preflight", file});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("ok   slurm: partition: partition debug: up, 2 nodes, 4 CPUs per node"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("ok   slurm: output: the campaign directory is visible"),
              std::string::npos)
        << r.out;
    // With an image, srun must take pyxis' options: the double registers them, as pyxis does.
    if (std::string(SCALEVIEW_PYXIS_DOUBLE).empty())
        GTEST_SKIP() << "the pyxis double was not built: libslurm-dev (slurm/spank.h) is missing";
    c.scheduler.containerImage = "nvcr.io#nvidia/pytorch:23.10-py3";
    ASSERT_TRUE(sv::launcher::saveCampaign(c, file, &error)) << error;
    r = runProcess({kCli, "preflight", file});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("ok   slurm: pyxis: srun takes --container-image (pyxis)"),
              std::string::npos)
        << r.out;
    c.scheduler.containerImage.clear();
    // More tasks per node than a node has CPUs: said before any job is submitted.
    c.topologies = {*sv::parseTopology("2n8g")};
    c.scheduler.partition = "nosuch";
    ASSERT_TRUE(sv::launcher::saveCampaign(c, file, &error)) << error;
    r = runProcess({kCli, "preflight", file});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAIL slurm: partition: sinfo knows no partition nosuch"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(g_cluster->jobs().empty());
}

// A profile that runs the fake workload under one torchrun per node (the CPU profile's torchrun
// words, with its fixed rendezvous, which the job replaces with the allocation's first node).
std::string writeFakeTorchrunProfile(const std::string& dir) {
    const std::string path = dir + "/fake-torchrun.json";
    std::ofstream(path) << R"J({"name": "fake-torchrun", "label": "fake workload under torchrun",
      "model": "r50", "logRoot": "logs/fake", "defaultLauncher": "torchrun",
      "variables": {"master_port": "29500"},
      "launchers": {"torchrun": {"perNode": true, "failureMarker": "failed (exitcode: ",
          "argv": ["torchrun", "--nnodes", "{nodes}", "--node_rank", "{node_rank}",
                   "--nproc_per_node", "{gpus_per_node}", "--master_addr", "{master_addr}",
                   "--master_port", "{master_port}", "--log_dir", "{workload_dir}/torchrun",
                   "--redirects", "9:1", "--tee", "9:1", "--no_python"]}},
      "program": ["/usr/bin/python3", ")J"
                        << kFake << R"J("],
      "args": ["--iterations", "{iterations}", "--batch", "{batch}", "--interval", "0.05"]})J";
    return path;
}

TEST(Slurm, TorchrunPerNodeThroughSrunReadsBackEveryRank) {
    NEED_CLUSTER();
    const std::string dir = tempDir("slurm-torchrun");
    const std::string out = g_cluster->jobsDir() + "/torchrun";
    const auto r = runProcess(slurmCliArgs(writeFakeTorchrunProfile(dir), out, "2n1g,2n2g"));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 2u) << r.out << r.err;
    for (const auto& e : ends)
        EXPECT_EQ(e["state"], "ok") << e.dump();
    // Every rank of both nodes logged: torchrun on node 2 took node rank 1 from Slurm and met
    // node 1's at the address the job script resolved ("node1" itself does not resolve).
    const std::string log1 = readWhole(out + "/logs/fake/bz2/2n1g/r50_b2_fp32_1.log");
    const std::string log2 = readWhole(out + "/logs/fake/bz2/2n2g/r50_b2_fp32_1.log");
    EXPECT_EQ(loggedRanks(log1), (std::set<int>{0, 1})) << log1;
    EXPECT_EQ(loggedRanks(log2), (std::set<int>{0, 1, 2, 3})) << log2;
    // One srun task per node, each a torchrun starting that node's ranks.
    std::string scripts;
    for (const auto& e : std::filesystem::directory_iterator(out + "/slurm"))
        if (e.path().extension() == ".sbatch") scripts += readWhole(e.path().string());
    EXPECT_NE(scripts.find("exec srun --mpi=none --kill-on-bad-exit=1 --nodes=2 "
                           "--ntasks=2 --ntasks-per-node=1 --cpus-per-task=2 /bin/sh -c "),
              std::string::npos)
        << scripts;
    EXPECT_NE(scripts.find("scaleview-node torchrun --nnodes 2 --nproc_per_node 2 --log_dir "),
              std::string::npos)
        << scripts;
    const auto summary = runProcess({kCli, "summarize", out});
    EXPECT_EQ(summary.exitCode, 0) << summary.out << summary.err;
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

// pyxis' options under the double: srun accepts them and every task's plugin saw exactly the
// image, mounts and workdir the campaign names (pyxis would enter the container there).
TEST(Slurm, PyxisOptionsReachEveryTaskExactly) {
    NEED_CLUSTER();
    if (std::string(SCALEVIEW_PYXIS_DOUBLE).empty())
        GTEST_SKIP() << "the pyxis double was not built: libslurm-dev (slurm/spank.h) is missing";
    const std::string dir = tempDir("slurm-pyxis");
    const auto profile = writeFakeProfile(dir, {});
    const std::string out = g_cluster->jobsDir() + "/pyxis";
    std::filesystem::remove(g_cluster->pyxisRecord());
    const auto r = runProcess(
        slurmCliArgs(profile, out, "2n2g",
                     {"--container-image", "nvcr.io#nvidia/pytorch:23.10-py3", "--container-mount",
                      "/data/imagenet:/data/imagenet:ro", "--container-mount", "/scratch:/scratch",
                      "--container-workdir", "/workspace/rn50"}));
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err;
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    std::set<std::string> lines;
    std::istringstream in(readWhole(g_cluster->pyxisRecord()));
    for (std::string line; std::getline(in, line);)
        lines.insert(line);
    const std::string seen = "\timage=nvcr.io#nvidia/pytorch:23.10-py3"
                             "\tmounts=/data/imagenet:/data/imagenet:ro,/scratch:/scratch"
                             "\tworkdir=/workspace/rn50";
    EXPECT_EQ(lines,
              (std::set<std::string>{"rank=0\tnode=node1" + seen, "rank=1\tnode=node1" + seen,
                                     "rank=2\tnode=node2" + seen, "rank=3\tnode=node2" + seen}))
        << readWhole(g_cluster->pyxisRecord());
    EXPECT_EQ(loggedRanks(readWhole(out + "/logs/fake/bz2/2n2g/r50_b2_fp32_1.log")),
              (std::set<int>{0, 1, 2, 3}));
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(
        new SlurmClusterEnvironment({.slurmdTimeout = 30, .spankPlugin = SCALEVIEW_PYXIS_DOUBLE}));
    return RUN_ALL_TESTS();
}
