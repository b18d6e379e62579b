// The Slurm backend's pure parts: the scheduler block of a campaign (hostile values refused),
// what Slurm's commands print read back, each end state mapped, and the exact sbatch and srun
// lines of the NGC profile under pyxis (golden file).

#include "tests/launcher/launchertest.h"

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/shellquote.h"
#include "launcher/session/dryrun.h"
#include "launcher/slurm/slurmjobscript.h"
#include "launcher/slurm/slurmpreflight.h"
#include "launcher/slurm/slurmstatus.h"

#include <gtest/gtest.h>

using namespace sv::launcher;

namespace {

Campaign slurmCampaign() {
    Campaign c;
    c.profile = "local-cpu-rn50";
    c.scheduler.type = "slurm";
    c.scheduler.partition = "debug";
    c.topologies = {*sv::parseTopology("2n2g")};
    c.batchSizes = {4};
    c.outputDir = "/tmp/o";
    return c;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
    for (const auto& p : problems)
        if (p.find(what) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(SlurmSettings, ASlurmCampaignNeedsNoHostsForItsNodes) {
    const Campaign c = slurmCampaign();
    EXPECT_TRUE(c.validate().empty()) << c.validate().front();
    Campaign local = c;
    local.scheduler.type = "none"; // two nodes without hosts cannot run on this machine
    EXPECT_FALSE(local.validate().empty());
}

TEST(SlurmSettings, HostileValuesAreRefusedNamingTheField) {
    const std::vector<std::string> hostile = {"debug;touch x", "-p",   "$(id)", "a b",
                                              "`id`",          "a\nb", "",      "x'y"};
    for (const auto& v : hostile) {
        if (v.empty()) continue;
        for (const char* field : {"partition", "account", "qos", "reservation", "constraint"}) {
            Campaign c = slurmCampaign();
            SlurmSettings& s = c.scheduler;
            std::string& target = std::string(field) == "partition"     ? s.partition
                                  : std::string(field) == "account"     ? s.account
                                  : std::string(field) == "qos"         ? s.qos
                                  : std::string(field) == "reservation" ? s.reservation
                                                                        : s.constraint;
            target = v;
            EXPECT_TRUE(mentions(c.validate(), std::string("scheduler.") + field))
                << field << " = " << v;
        }
    }
    Campaign c = slurmCampaign();
    c.scheduler.timeLimit = "1;reboot";
    EXPECT_TRUE(mentions(c.validate(), "scheduler.timeLimit"));
    for (const char* ok : {"10", "05:00", "1:00:00", "2-12", "1-00:30:00", "UNLIMITED"}) {
        c.scheduler.timeLimit = ok;
        EXPECT_TRUE(c.validate().empty()) << ok;
    }
    for (const std::string bad : {"-x", "--wrap=rm -rf /", "--nodes=8", "--output=/etc/passwd",
                                  "partition=debug", "--a b", "--chdir=/", "--requeue"}) {
        c.scheduler.extraSbatchArgs = {bad};
        EXPECT_TRUE(mentions(c.validate(), "scheduler.extraSbatchArgs[0]")) << bad;
    }
    c.scheduler.extraSbatchArgs = {"--mem=0", "--gres=gpu:8", "--comment=svtest"};
    EXPECT_TRUE(c.validate().empty());
    c.scheduler.containerImage = "nvcr.io#nvidia/mxnet:20.03-py3;id";
    EXPECT_TRUE(mentions(c.validate(), "scheduler.containerImage"));
    c.scheduler.containerImage = "nvcr.io#nvidia/mxnet:20.03-py3";
    c.scheduler.containerMounts = {"/data:/data:ro,/etc:/x"};
    EXPECT_TRUE(mentions(c.validate(), "scheduler.containerMounts"));
    c.scheduler.containerMounts = {"/data/imagenet:/data/imagenet:ro"};
    EXPECT_TRUE(c.validate().empty());
    c.scheduler.type = "pbs";
    EXPECT_TRUE(mentions(c.validate(), "scheduler.type"));
}

TEST(SlurmSettings, JsonRoundTripAndUnknownKeyRefused) {
    Campaign c = slurmCampaign();
    c.scheduler.account = "proj1";
    c.scheduler.timeLimit = "00:30:00";
    c.scheduler.exclusive = true;
    c.scheduler.extraSbatchArgs = {"--mem=0"};
    c.scheduler.containerImage = "nvcr.io#nvidia/mxnet:20.03-py3";
    std::string error;
    auto back = campaignFromJson(campaignToJson(c), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->scheduler.type, "slurm");
    EXPECT_EQ(back->scheduler.account, "proj1");
    EXPECT_EQ(back->scheduler.timeLimit, "00:30:00");
    EXPECT_TRUE(back->scheduler.exclusive);
    EXPECT_EQ(back->scheduler.extraSbatchArgs, std::vector<std::string>{"--mem=0"});
    EXPECT_EQ(back->scheduler.containerImage, c.scheduler.containerImage);
    EXPECT_FALSE(campaignFromJson(R"({"scheduler": {"type": "slurm", "partiton": "x"}})", &error));
    EXPECT_NE(error.find("partiton"), std::string::npos);
    // A campaign without the block is as before: no scheduler.
    Campaign local;
    local.topologies = {*sv::parseTopology("1n1g")};
    local.batchSizes = {1};
    local.outputDir = "/tmp/o";
    EXPECT_EQ(campaignToJson(local).find("scheduler"), std::string::npos);
}

TEST(SlurmStatus, WhatTheCommandsPrintIsReadBack) {
    EXPECT_EQ(parseSbatchJobId("1234\n"), "1234");
    EXPECT_EQ(parseSbatchJobId("77;svtest\n"), "77");
    EXPECT_FALSE(parseSbatchJobId("sbatch: error: Batch job submission failed\n"));
    EXPECT_FALSE(parseSbatchJobId(""));

    auto q = parseSqueueLine("PENDING|Resources|2026-11-30T22:10:00|\n");
    ASSERT_TRUE(q);
    EXPECT_TRUE(q->pending());
    EXPECT_EQ(q->reason, "Resources");
    EXPECT_EQ(q->start, "2026-11-30T22:10:00");
    q = parseSqueueLine("RUNNING|None|2026-11-30T22:10:00|node[1-2]\n");
    ASSERT_TRUE(q);
    EXPECT_TRUE(q->running());
    EXPECT_EQ(q->reason, "");
    EXPECT_EQ(q->nodes, "node[1-2]");
    q = parseSqueueLine("COMPLETING|None|N/A|node1\n");
    EXPECT_TRUE(q && q->running() && !q->ended());
    q = parseSqueueLine("FAILED|NonZeroExitCode|2026-11-30T22:10:00|node[1-2]\n");
    EXPECT_TRUE(q && q->ended());
    EXPECT_FALSE(parseSqueueLine(""));

    auto s = parseSacct("CANCELLED by 0|0:15|node[1-2]\n");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->state, "CANCELLED");
    EXPECT_EQ(s->signal, 15);
    s = parseSacct("FAILED|3:0|node2\n");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->exitCode, 3);
    EXPECT_EQ(s->nodes, "node2");

    auto j = parseScontrolJob(
        "JobId=12 JobName=x UserId=root(0) JobState=TIMEOUT Reason=TimeLimit Dependency=(null) "
        "ExitCode=0:15 RunTime=00:01:11 NodeList=node[1-2] BatchHost=node1\n");
    ASSERT_TRUE(j);
    EXPECT_EQ(j->state, "TIMEOUT");
    EXPECT_EQ(j->reason, "TimeLimit");
    EXPECT_EQ(j->signal, 15);
    EXPECT_EQ(j->nodes, "node[1-2]");
    EXPECT_EQ(j->timeLimit, "");
    j = parseScontrolJob("JobId=13 JobState=TIMEOUT Reason=TimeLimit TimeLimit=00:01:00 "
                         "ExitCode=0:15 NodeList=node[1-2]\n");
    ASSERT_TRUE(j);
    EXPECT_EQ(j->timeLimit, "00:01:00");
    s = parseSacct("TIMEOUT|0:0|node[1-2]|00:01:00\n");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->timeLimit, "00:01:00");
    EXPECT_FALSE(parseScontrolJob("slurm_load_jobs error: Invalid job id specified\n"));
}

// sinfo -N -R for a NODE_FAIL job's nodes: the ones down, with Slurm's reason, each once.
TEST(SlurmStatus, TheNodesThatFailedAreTheOnesSinfoHoldsDown) {
    SlurmJobEnd e;
    e.state = "NODE_FAIL";
    e.nodes = "node[1-3]";
    readDownNodes("node2|Not responding\nnode2|Not responding\nnode3|Kill task failed\n", e);
    EXPECT_EQ(e.failedNodes, "node2,node3");
    EXPECT_EQ(e.failedWhy, "Not responding; Kill task failed");
    auto end = runEndOfJob("9", e);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->state, RunState::Failed);
    EXPECT_EQ(end->host, "node2,node3");
    EXPECT_EQ(end->reason, "Slurm job 9: nodes node2,node3 failed (Not responding; Kill task "
                           "failed); the job ran on node[1-3]");
    e.nodes = "node[1-2]";
    readDownNodes("node2|Not responding\n", e);
    EXPECT_EQ(runEndOfJob("9", e)->reason,
              "Slurm job 9: node node2 failed (Not responding); the job ran on node[1-2]");
    // Nothing down any more (the node came back before sinfo was asked): the allocation.
    readDownNodes("", e);
    EXPECT_EQ(runEndOfJob("9", e)->reason, "Slurm job 9: a node failed on node[1-2]");
    e.state = "TIMEOUT";
    e.timeLimit = "00:01:00";
    EXPECT_EQ(runEndOfJob("9", e)->reason,
              "Slurm job 9 reached its time limit of 00:01:00 on node[1-2]");
}

TEST(SlurmStatus, EachEndStateMapsToARunStateWithTheReasonInWords) {
    struct Case {
        const char* state;
        RunState expected;
        const char* words;
    };
    for (const Case& c : {Case{"FAILED", RunState::Failed, "failed with exit code 3 on node2"},
                          Case{"CANCELLED", RunState::Cancelled, "was cancelled"},
                          Case{"TIMEOUT", RunState::Timeout, "reached its time limit"},
                          Case{"NODE_FAIL", RunState::Failed, "a node failed on node2"},
                          Case{"OUT_OF_MEMORY", RunState::Failed, "ran out of memory"},
                          Case{"PREEMPTED", RunState::Interrupted, "preempted"},
                          Case{"BOOT_FAIL", RunState::Failed, "failed to boot"}}) {
        SlurmJobEnd e;
        e.state = c.state;
        e.exitCode = 3;
        e.nodes = "node2";
        auto end = runEndOfJob("42", e);
        ASSERT_TRUE(end) << c.state;
        EXPECT_EQ(end->state, c.expected) << c.state;
        EXPECT_NE(end->reason.find("Slurm job 42"), std::string::npos) << end->reason;
        EXPECT_NE(end->reason.find(c.words), std::string::npos) << end->reason;
        EXPECT_EQ(end->host, "node2");
    }
    SlurmJobEnd done;
    done.state = "COMPLETED";
    EXPECT_FALSE(runEndOfJob("42", done)); // the log decides: ok or incomplete
}

// The NGC profile under pyxis, every topology and precision: the sbatch line and what the job
// script runs, compared with tests/launcher/golden/ngc-mxnet-rn50-slurm.txt.
TEST(SlurmJobScript, NgcProfileUnderPyxisGoldenLines) {
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c;
    c.profile = "ngc-mxnet-rn50";
    c.scheduler.type = "slurm";
    c.scheduler.partition = "gpu";
    c.scheduler.account = "dlperf";
    c.scheduler.timeLimit = "01:00:00";
    c.scheduler.exclusive = true;
    c.scheduler.gpus = true;
    c.scheduler.containerImage = "nvcr.io#nvidia/mxnet:20.03-py3";
    c.scheduler.containerMounts = {"/data/imagenet:/data/imagenet:ro"};
    c.scheduler.containerWorkdir = "/workspace/rn50";
    for (const char* t : {"1n1g", "1n8g", "2n8g", "4n8g"})
        c.topologies.push_back(*sv::parseTopology(t));
    c.batchSizes = {128};
    c.precisions = {"fp32", "fp16"};
    c.repeats = 1;
    c.outputDir = "/tmp/golden";
    ASSERT_TRUE(c.validate().empty()) << c.validate().front();
    CommandBuilder builder(c, *profile, "/tmp/golden/workload");
    std::string actual;
    for (const auto& run : planRuns(c, *profile)) {
        const auto sub = slurmSubmission(builder, run, "svGOLDEN");
        actual += shellCommand(sub.sbatchArgv) + "\n" + shellCommand(sub.launchArgv) + "\n";
    }
    const std::string goldenPath = std::string(SCALEVIEW_GOLDEN_DIR) + "/ngc-mxnet-rn50-slurm.txt";
    if (std::getenv("SCALEVIEW_UPDATE_GOLDEN")) std::ofstream(goldenPath) << actual;
    const std::string golden = sv::test::readWhole(goldenPath);
    if (golden != actual) std::ofstream(goldenPath + ".actual") << actual;
    EXPECT_EQ(golden, actual) << "see " << goldenPath << ".actual";

    // One pair spelled out by hand, independent of the golden file.
    EXPECT_NE(
        actual.find("sbatch --parsable --no-requeue --job-name=scaleview-svGOLDEN --nodes=2 "
                    "--ntasks-per-node=8 --output=/tmp/golden/slurm/"
                    "bz128_2n8g_r50_b128_fp32_1.%j.out --chdir=/tmp/golden "
                    "--gpus-per-node=8 --partition=gpu --account=dlperf --time=01:00:00 "
                    "--exclusive /tmp/golden/slurm/bz128_2n8g_r50_b128_fp32_1.svGOLDEN.sbatch\n"
                    "srun --mpi=pmix --label --kill-on-bad-exit=1 --nodes=2 "
                    "--ntasks-per-node=8 '--container-image=nvcr.io#nvidia/mxnet:20.03-py3' "
                    "--container-mounts=/data/imagenet:/data/imagenet:ro "
                    "--container-workdir=/workspace/rn50 /bin/sh -c"),
        std::string::npos)
        << actual.substr(0, 2000);
}

TEST(SlurmJobScript, EveryWordOfTheScriptIsQuotedOnce) {
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c = slurmCampaign();
    c.variables["python"] = "/opt/my python/bin/python3"; // a space and an apostrophe below
    c.variables["image_size"] = "64'; touch /tmp/sv-pwned; '";
    CommandBuilder builder(c, *profile, "/tmp/o/workload");
    const auto run = planRuns(c, *profile).front();
    const auto sub = slurmSubmission(builder, run, "svTAG");
    EXPECT_NE(sub.script.find("exec srun --mpi=pmix --label --kill-on-bad-exit=1 --nodes=2 "
                              "--ntasks-per-node=2 /bin/sh -c "),
              std::string::npos)
        << sub.script;
    EXPECT_NE(sub.script.find("'/opt/my python/bin/python3'"), std::string::npos) << sub.script;
    EXPECT_NE(sub.script.find("'64'\\''; touch /tmp/sv-pwned; '\\'''"), std::string::npos)
        << sub.script;
    EXPECT_NE(sub.script.find("export SCALEVIEW_RUN_TAG=svTAG\n"), std::string::npos);
    // Each run's script and output have names of their own: nothing is written over.
    EXPECT_EQ(sub.scriptPath, "/tmp/o/slurm/bz4_2n2g_r50_b4_fp32_1.svTAG.sbatch");
    EXPECT_EQ(sub.outputPath("81"), "/tmp/o/slurm/bz4_2n2g_r50_b4_fp32_1.81.out");
}

// The CPU profile's torchrun under Slurm: one srun task per node, each a torchrun whose node
// rank and rendezvous come from the allocation (the job script resolves the first node's
// address); the profile's own fixed rendezvous words are dropped, its other options kept.
TEST(SlurmJobScript, TorchrunRunsOncePerNodeThroughSrun) {
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c = slurmCampaign();
    c.launcher = "torchrun";
    c.iterations = 30;
    CommandBuilder builder(c, *profile, "/tmp/o/workload");
    const auto sub = slurmSubmission(builder, planRuns(c, *profile).front(), "svTAG");
    EXPECT_EQ(shellCommand(sub.launchArgv),
              "srun --mpi=none --kill-on-bad-exit=1 --nodes=2 --ntasks=2 --ntasks-per-node=1 "
              "--cpus-per-task=2 /bin/sh -c 'l=$1; shift; exec \"$l\" --node_rank "
              "\"$SLURM_NODEID\" --rdzv_backend static --master_addr \"$MASTER_ADDR\" "
              "--master_port \"$MASTER_PORT\" \"$@\"' scaleview-node torchrun --nnodes 2 "
              "--nproc_per_node 2 --log_dir /tmp/o/workload/torchrun --redirects 9:1 --tee 9:1 "
              "--no_python /usr/bin/python3 /tmp/o/workload/rn50_cpu.py --batch-size 4 "
              "--iterations 30 --image-size 64 --precision fp32 --device cpu --threads-per-rank 1 "
              "--master-addr 127.0.0.1 --master-port 29500");
    // The rendezvous is resolved inside the job, from Slurm's variables only.
    EXPECT_NE(sub.script.find("first=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head "
                              "-n 1)\n"),
              std::string::npos)
        << sub.script;
    EXPECT_NE(sub.script.find("export MASTER_ADDR=\"${MASTER_ADDR:-$first}\" "
                              "MASTER_PORT=$((20000 + SLURM_JOB_ID % 10000))\nexec srun "),
              std::string::npos)
        << sub.script;
}

TEST(SlurmPreflight, SinfoSaysWhetherThePartitionCanRunTheCampaign) {
    Campaign c = slurmCampaign(); // 2n2g on "debug"
    const std::string sinfo = "debug*|up|2|4|(null)\ngpu|up|4|64|gpu:8\nold|down|8|8|(null)\n";
    auto f = judgeSinfo(c, sinfo);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_TRUE(f[0].ok) << f[0].message;
    c.topologies = {*sv::parseTopology("4n2g")};
    f = judgeSinfo(c, sinfo);
    EXPECT_FALSE(f[0].ok);
    EXPECT_NE(f[0].message.find("has 2 nodes; the campaign needs 4"), std::string::npos);
    c.topologies = {*sv::parseTopology("1n8g")};
    f = judgeSinfo(c, sinfo);
    EXPECT_FALSE(f[0].ok);
    EXPECT_NE(f[0].message.find("4 CPUs per node"), std::string::npos);
    c.topologies = {*sv::parseTopology("2n2g")};
    c.scheduler.partition = "old";
    EXPECT_NE(judgeSinfo(c, sinfo)[0].message.find("is down"), std::string::npos);
    c.scheduler.partition = "gpu";
    c.scheduler.gpus = true;
    EXPECT_TRUE(judgeSinfo(c, sinfo)[0].ok);
    c.scheduler.partition = "";               // the default partition, marked '*'
    EXPECT_FALSE(judgeSinfo(c, sinfo)[0].ok); // debug has no GPUs
    EXPECT_NE(judgeSinfo(c, sinfo)[0].message.find("partition debug has no gres/gpu"),
              std::string::npos);
    c.scheduler.partition = "nosuch";
    EXPECT_NE(judgeSinfo(c, sinfo)[0].message.find("no partition nosuch"), std::string::npos);
}

// One way to read Slurm's parsable lines, for sinfo, squeue and sacct alike: every field counts,
// an empty last one too. (Preflight's own split once dropped it, so a partition whose last
// field was empty was "not found".)
TEST(SlurmStatus, ParsableLinesKeepEveryFieldAnEmptyLastOneToo) {
    EXPECT_EQ(splitSlurmFields("debug*|up|2|4|gpu:8"),
              (std::vector<std::string>{"debug*", "up", "2", "4", "gpu:8"}));
    EXPECT_EQ(splitSlurmFields("a||"), (std::vector<std::string>{"a", "", ""}));
    EXPECT_EQ(splitSlurmFields("|"), (std::vector<std::string>{"", ""}));
    EXPECT_EQ(splitSlurmFields("a"), (std::vector<std::string>{"a"}));
    EXPECT_TRUE(splitSlurmFields("").empty());
    EXPECT_EQ(splitSlurmFields("x;y;", ';'), (std::vector<std::string>{"x", "y", ""}));
    // Preflight reads the same way: the default partition with an empty GRES field is found.
    Campaign c = slurmCampaign(); // 2n2g, no GPUs asked for
    c.scheduler.partition = "";
    const auto f = judgeSinfo(c, "debug*|up|2|4|\n");
    ASSERT_EQ(f.size(), 1u);
    EXPECT_TRUE(f[0].ok) << f[0].message;
    EXPECT_NE(f[0].message.find("partition debug: up, 2 nodes, 4 CPUs per node"), std::string::npos)
        << f[0].message;
}

TEST(SlurmStatus, TheFirstFailedTaskIsTheOneSrunNamesFirst) {
    const std::string out = "1: rank 1 fails on purpose\n"
                            "srun: error: node2: task 1: Exited with exit code 3\n"
                            "srun: Job step aborted: Waiting up to 32 seconds for job step\n"
                            "srun: error: node1: tasks 0,2-3: Terminated\n"
                            "srun: error: node1: tasks 0,2: Exited with exit code 143\n";
    auto f = firstFailedTask(out);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->node, "node2");
    EXPECT_EQ(f->tasks, "1");
    EXPECT_EQ(f->exitCode, 3);
    EXPECT_EQ(f->line, "srun: error: node2: task 1: Exited with exit code 3");
    EXPECT_FALSE(firstFailedTask("srun: Force Terminated StepId=3.0\n"));
}

TEST(SlurmJobScript, DryRunShowsTheSbatchLineAndWhatTheJobRunsOnePerRun) {
    Campaign c = slurmCampaign();
    c.repeats = 2;
    std::string error;
    const auto lines = dryRunLines(c, &error);
    ASSERT_EQ(lines.size(), 2u) << error;
    EXPECT_EQ(
        lines[0].rfind("sbatch --parsable --no-requeue --job-name=scaleview-svDRYRUN1 --nodes=2 "
                       "--ntasks-per-node=2 ",
                       0),
        0u)
        << lines[0];
    EXPECT_NE(lines[0].find("  # runs: srun --mpi=pmix --label"), std::string::npos) << lines[0];
}
