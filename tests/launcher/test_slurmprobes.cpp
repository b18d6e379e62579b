// Issue 28's probes under Slurm, on the private cluster (slurmcluster.h: two emulated nodes):
// a campaign with --probes holds one allocation per case (salloc --no-shell), runs each probe
// rank as a job step on its node (the embedded CPU ResNet-50 alone on node1 and on node2, then
// the gloo all-reduce across both), writes probes.json with Slurm's node names, and gives the
// allocation back; pyxis' options reach the probe steps; a cancel during the probes leaves no
// job queued; --exclude-node under Slurm becomes --exclude on the run's sbatch and the probes'
// salloc, and Slurm places both elsewhere.

#include "tests/launcher/slurmtest.h"
#include "launcher/slurm/slurmjobscript.h"
#include "launcher/slurm/srunexecutor.h"

#include <csignal>
#include <algorithm>
#include <filesystem>
#include <map>

using namespace sv::test;

namespace {

std::vector<nlohmann::json> journalEvents(const std::string& out, const std::string& event) {
    std::vector<nlohmann::json> found;
    std::istringstream lines(readWhole(out + "/journal.jsonl"));
    for (std::string line; std::getline(lines, line);) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.value("event", "") == event) found.push_back(j);
    }
    return found;
}

// The solo records by node, and the all-reduce records, of probes.json.
struct ProbeRecords {
    std::map<std::string, nlohmann::json> solo;
    std::vector<nlohmann::json> allReduce;
};

ProbeRecords probeRecords(const std::string& out) {
    ProbeRecords r;
    const auto file = nlohmann::json::parse(readWhole(out + "/probes.json"), nullptr, false);
    if (!file.is_object()) return r;
    for (const auto& p : file["probes"])
        if (p["kind"] == "solo")
            r.solo[p["node"].get<std::string>()] = p;
        else if (p["kind"] == "allreduce")
            r.allReduce.push_back(p);
    return r;
}

// The probes' own CPU workload (local-cpu-rn50's) at a small image, so that the runs stay short
// (and a batch of 16: below it PyTorch's one-thread 1x1 convolutions take a slower path).
std::vector<std::string> cpuProbeCampaign(const std::string& out, const std::string& topology,
                                          std::vector<std::string> extra = {}) {
    std::vector<std::string> a{kCli,
                               "run",
                               "--scheduler",
                               "slurm",
                               "--profile",
                               "local-cpu-rn50",
                               "--topologies",
                               topology,
                               "--batch-size",
                               "16", // one thread: a step of 16 is faster than one of 8
                               "--image-size",
                               "16",
                               "--repeats",
                               "1",
                               "--iterations",
                               "4",
                               "--warmup",
                               "1",
                               "--cooldown",
                               "0",
                               "--probes",
                               "--out",
                               out};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

} // namespace

// The whole path: one allocation, a solo probe on each of Slurm's nodes, the all-reduce across
// both, probes.json and the journal, and nothing left in squeue.
TEST(SlurmProbes, TwoNodesAreProbedInOneAllocationThatIsGivenBack) {
    NEED_CLUSTER();
    const std::string out = g_cluster->jobsDir() + "/probes";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess(cpuProbeCampaign(out, "2n1g"));
    std::printf("2n1g campaign with probes under Slurm: %.1f s\n", since(t0));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_EQ((r.out + r.err).find("not run"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.out.find("probing before its first repeat (2 nodes alone, then the all-reduce "
                         "across 2 ranks in one Slurm allocation, each rank a job step)"),
              std::string::npos)
        << r.out;
    const auto records = probeRecords(out);
    ASSERT_EQ(records.solo.size(), 2u) << readWhole(out + "/probes.json") << r.err;
    for (const char* node : {"node1", "node2"}) {
        ASSERT_TRUE(records.solo.count(node)) << node << ": " << readWhole(out + "/probes.json");
        EXPECT_EQ(records.solo.at(node)["devices"], 1);
        EXPECT_GT(records.solo.at(node)["pace_per_device"].get<double>(), 0.0);
    }
    ASSERT_EQ(records.allReduce.size(), 1u) << readWhole(out + "/probes.json");
    EXPECT_EQ(records.allReduce[0]["ranks"], 2);
    EXPECT_EQ(records.allReduce[0]["backend"], "gloo");
    EXPECT_EQ(records.allReduce[0]["bytes"], 102400000);
    const auto probes = journalEvents(out, "probes");
    ASSERT_EQ(probes.size(), 1u) << readWhole(out + "/journal.jsonl");
    EXPECT_EQ(probes[0]["state"], "ok") << probes[0].dump();
    // The probes came before the run's job, and the run still ran.
    const std::string journal = readWhole(out + "/journal.jsonl");
    EXPECT_LT(journal.find("\"event\":\"probes\""), journal.find("\"event\":\"job\""));
    const auto ends = journalEnds(out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    // Two jobs in all (the probes' allocation, the run), both done: none queued.
    EXPECT_TRUE(g_cluster->jobs().empty());
    // Slurm's own record of the probes' allocation, by its name.
    const std::string completed = readWhole(g_cluster->dir() + "/log/jobcomp.txt");
    EXPECT_NE(completed.find("Name=scaleview-svprobe"), std::string::npos) << completed;

    // find-slow-node on it: the search holds its own allocation and probes Slurm's nodes as job
    // steps (--nodelist). A threshold of 5 % makes the 2-node set count as slow (its all-reduce
    // alone takes more), so the search probes the nodes; whichever verdict it reaches, its probe
    // runs name Slurm's nodes, and the allocation is given back.
    const auto search = runProcess({kCli, "find-slow-node", out, "--slow-threshold", "5"});
    std::printf("%s", search.out.c_str());
    EXPECT_EQ(search.exitCode, 0) << search.out << search.err;
    EXPECT_NE(search.out.find(": 2 nodes, against "), std::string::npos) << search.out;
    const bool probedNode1 = search.out.find("probe run: node1") != std::string::npos ||
                             search.out.find("probe run: node2, node1") != std::string::npos;
    EXPECT_TRUE(probedNode1) << search.out << search.err;
    EXPECT_EQ(search.out.find("slurm-node-"), std::string::npos) << search.out;
    EXPECT_EQ(journalEvents(out, "slow-node").size(), 1u) << readWhole(out + "/journal.jsonl");
    EXPECT_TRUE(g_cluster->jobs().empty());
    EXPECT_NE(readWhole(g_cluster->dir() + "/log/jobcomp.txt").find("Name=scaleview-svslow"),
              std::string::npos);
}

// With a pyxis image, every probe step takes pyxis' options, as the run's tasks do: each solo
// probe is rank 0 of its own step (node1 and node2), and so is each all-reduce rank.
TEST(SlurmProbes, ProbeStepsTakePyxisOptions) {
    NEED_CLUSTER();
    if (std::string(SCALEVIEW_PYXIS_DOUBLE).empty())
        GTEST_SKIP() << "the pyxis double was not built: libslurm-dev (slurm/spank.h) is missing";
    const std::string out = g_cluster->jobsDir() + "/probes-pyxis";
    std::filesystem::remove(g_cluster->pyxisRecord());
    const auto r = runProcess(cpuProbeCampaign(
        out, "2n1g",
        {"--container-image", "nvcr.io#nvidia/pytorch:23.10-py3", "--container-mount",
         "/scratch:/scratch", "--container-workdir", "/workspace"}));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    ASSERT_EQ(journalEvents(out, "probes").size(), 1u);
    EXPECT_EQ(journalEvents(out, "probes")[0]["state"], "ok");
    std::map<std::string, int> lines;
    std::istringstream in(readWhole(g_cluster->pyxisRecord()));
    for (std::string line; std::getline(in, line);)
        ++lines[line];
    const std::string seen =
        "\timage=nvcr.io#nvidia/pytorch:23.10-py3\tmounts=/scratch:/scratch\tworkdir=/workspace";
    // node1: its solo step, all-reduce rank 0, and the run's rank 0; node2: its solo step and
    // all-reduce rank 1 (each rank 0 of its own step), and the run's rank 1.
    EXPECT_EQ(lines, (std::map<std::string, int>{{"rank=0\tnode=node1" + seen, 3},
                                                 {"rank=0\tnode=node2" + seen, 2},
                                                 {"rank=1\tnode=node2" + seen, 1}}))
        << readWhole(g_cluster->pyxisRecord());
    EXPECT_TRUE(g_cluster->jobs().empty());
}

// SIGTERM while the probe steps run: the CLI ends cancelled, the journal says the probes were,
// and the allocation is gone from squeue (scancel), its steps with it.
TEST(SlurmProbes, CancelDuringTheProbesLeavesNoJob) {
    NEED_CLUSTER();
    const std::string dir = tempDir("slurm-probecancel");
    const std::string out = g_cluster->jobsDir() + "/probes-cancel";
    const pid_t pid = spawn(cpuProbeCampaign(out, "2n1g"), dir + "/cli.log");
    ASSERT_GT(pid, 0);
    // A probe step is running: squeue lists the allocation's steps.
    const bool stepping = waitUntil(
        [] {
            const auto s = runProcess({"/usr/bin/squeue", "-h", "-s", "-o", "%i %j"});
            return s.out.find(".0 ") != std::string::npos || s.out.find(".1 ") != std::string::npos;
        },
        std::chrono::seconds(180));
    ASSERT_TRUE(stepping) << readWhole(dir + "/cli.log")
                          << runProcess({"/usr/bin/squeue", "-s"}).out;
    EXPECT_EQ(journalEvents(out, "job").size(), 0u); // no run's job yet: these are the probes
    const auto cancelAt = std::chrono::steady_clock::now();
    ::kill(pid, SIGTERM);
    const int code = waitExit(pid);
    std::printf("cancelled during the Slurm probes: ended in %.1f s\n", since(cancelAt));
    EXPECT_EQ(code, 130) << readWhole(dir + "/cli.log");
    EXPECT_LT(since(cancelAt), 90.0);
    // Gone when the CLI ends (release waits for squeue), not some time later.
    EXPECT_TRUE(g_cluster->jobs().empty()) << runProcess({"/usr/bin/squeue"}).out;
    const auto probes = journalEvents(out, "probes");
    ASSERT_EQ(probes.size(), 1u) << readWhole(out + "/journal.jsonl");
    EXPECT_EQ(probes[0]["state"], "cancelled");
    EXPECT_TRUE(journalEvents(out, "start").empty());
    std::filesystem::remove_all(dir);
}

// --exclude-node node1 under Slurm: kept in the journal with its reason, --exclude=node1 on the
// run's sbatch line and on the probes' salloc; Slurm puts both on node2.
TEST(SlurmProbes, AnExcludedNodeIsExcludedBySlurm) {
    NEED_CLUSTER();
    const std::string dir = tempDir("slurm-exclude");
    const auto profile = writeFakeProfile(dir, {});
    const std::string out = g_cluster->jobsDir() + "/exclude";
    const auto r = runProcess(slurmCliArgs(
        profile, out, "1n2g",
        {"--probes", "--exclude-node", "node1", "--exclude-reason", "slow alone (test)"}));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto excluded = journalEvents(out, "exclude");
    ASSERT_EQ(excluded.size(), 1u) << readWhole(out + "/journal.jsonl");
    EXPECT_EQ(excluded[0]["id"], "node1");
    EXPECT_EQ(excluded[0]["reason"], "slow alone (test)");
    const auto starts = journalEvents(out, "start");
    ASSERT_EQ(starts.size(), 1u);
    const auto sbatch = starts[0]["command"].get<std::vector<std::string>>();
    EXPECT_NE(std::find(sbatch.begin(), sbatch.end(), "--exclude=node1"), sbatch.end())
        << starts[0].dump();
    // The run's job ran on node2.
    const auto ids = journalJobIds(out);
    ASSERT_EQ(ids.size(), 1u);
    const auto job = runProcess({"/usr/bin/scontrol", "show", "job", ids[0]});
    EXPECT_NE(job.out.find(" NodeList=node2"), std::string::npos) << job.out;
    // The probes' allocation too: the case's node alone is node2.
    const auto records = probeRecords(out);
    EXPECT_EQ(records.solo.size(), 1u) << readWhole(out + "/probes.json");
    EXPECT_TRUE(records.solo.count("node2")) << readWhole(out + "/probes.json") << r.err;
    EXPECT_EQ(journalEvents(out, "probes")[0]["state"], "ok")
        << journalEvents(out, "probes")[0].dump();
    EXPECT_TRUE(g_cluster->jobs().empty());
    std::filesystem::remove_all(dir);
}

// The exact lines, without a cluster: each probe rank's step and the probes' allocation, from
// the scheduler block and the nodes left out.
TEST(SlurmProbeParts, TheStepAndAllocationLines) {
    sv::launcher::Campaign c;
    c.scheduler.type = "slurm";
    c.scheduler.partition = "gpu";
    c.scheduler.account = "proj1";
    c.scheduler.qos = "high";
    c.scheduler.reservation = "bench";
    c.scheduler.constraint = "a100&ib";
    c.scheduler.timeLimit = "00:30:00";
    c.scheduler.exclusive = true;
    c.scheduler.containerImage = "nvcr.io#nvidia/pytorch:23.10-py3";
    c.scheduler.containerWorkdir = "/w";
    ASSERT_FALSE(sv::launcher::excludeNode(c, "gpu07", "slow alone"));
    ASSERT_FALSE(sv::launcher::excludeNode(c, "gpu07", "again")); // once
    ASSERT_FALSE(sv::launcher::excludeNode(c, "gpu09", ""));
    ASSERT_EQ(c.excludedNodes.size(), 2u);
    EXPECT_EQ(c.excludedNodes[0].reason, "slow alone");
    EXPECT_EQ(c.excludedNodes[1].reason, sv::launcher::kDefaultExcludeReason);
    // A name that could become an option or a list is refused, naming it.
    const auto refused = sv::launcher::excludeNode(c, "-wnode1", "");
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("'-wnode1' is not a Slurm node name"), std::string::npos);
    EXPECT_TRUE(sv::launcher::excludeNode(c, "n1,n2", ""));

    EXPECT_EQ(sv::launcher::sallocArgv(c, 2, 4, "svprobe00ff"),
              (std::vector<std::string>{"salloc", "--no-shell", "--job-name=scaleview-svprobe00ff",
                                        "--nodes=2", "--ntasks-per-node=4", "--partition=gpu",
                                        "--account=proj1", "--qos=high", "--reservation=bench",
                                        "--constraint=a100&ib", "--time=00:30:00",
                                        "--exclude=gpu07,gpu09", "--exclusive"}));
    const sv::launcher::SrunExecutor step("4242", "gpu03", sv::launcher::pyxisOptions(c.scheduler));
    EXPECT_EQ(step.wrap({"env", "RANK=1", "python3", "-c", "a b"}),
              (std::vector<std::string>{"srun", "--jobid=4242", "--nodes=1", "--ntasks=1",
                                        "--nodelist=gpu03", "--overlap", "--quiet", "--mpi=none",
                                        "--container-image=nvcr.io#nvidia/pytorch:23.10-py3",
                                        "--container-workdir=/w", "env", "RANK=1", "python3", "-c",
                                        "a b"}));
    EXPECT_EQ(step.hostLabel(), "gpu03 (Slurm job 4242)");
    // The run's sbatch line leaves the same nodes out.
    EXPECT_EQ(sv::launcher::slurmExcludeList(c), "gpu07,gpu09");
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(
        new SlurmClusterEnvironment({.slurmdTimeout = 30, .spankPlugin = SCALEVIEW_PYXIS_DOUBLE}));
    return RUN_ALL_TESTS();
}
