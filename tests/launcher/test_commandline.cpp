// Quoting, name checks, campaign files and the exact command lines of the seed's runner.

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaigndiff.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/identifiers.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/runcapacity.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/campaign/topologyfit.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/shellquote.h"
#include "launcher/runner/runverdict.h"
#include "launcher/session/dryrun.h"
#include "tests/launcher/launchertest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fstream>
#include <filesystem>
#include <unistd.h>
#include <csignal>
#include <sys/wait.h>

using namespace sv::launcher;
using sv::test::runProcess;

namespace {

const std::vector<std::string> kHostile = {"a b", "'",     "\"",      "$(id)", "`id`",    ";|&",
                                           "*",   "a\nb",  "-x",      "--",    "ü€ 漢字", "",
                                           "\\",  "$HOME", "'\"'\"'", "!",     "~root",   "#x",
                                           "=a",  "a=b c", "\t",      "%s",    "{}",      "a'b'c"};

// python3 prints its argv NUL-separated: what the program really received.
std::vector<std::string> argvEcho() {
    return {"/usr/bin/python3", "-c",
            "import os,sys; sys.stdout.buffer.write(b'\\0'.join(os.fsencode(a) for a in "
            "sys.argv[1:]) + b'\\0')"};
}

std::vector<std::string> splitNul(const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    for (auto e = s.find('\0'); e != std::string::npos; e = s.find('\0', i)) {
        out.push_back(s.substr(i, e - i));
        i = e + 1;
    }
    return out;
}

} // namespace

TEST(ShellQuote, SafeWordsStayBareOthersAreSingleQuoted) {
    EXPECT_EQ(shellQuote("mpirun"), "mpirun");
    EXPECT_EQ(shellQuote("-H"), "-H");
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote("=a"), "'=a'");
    EXPECT_EQ(shellCommand({"echo", "$(id)", "x"}), "echo '$(id)' x");
}

TEST(ShellQuote, HostileArgumentsSurviveOneShellHopByteIdentical) {
    auto cmd = argvEcho();
    cmd.insert(cmd.end(), kHostile.begin(), kHostile.end());
    const auto r = runProcess({"/bin/sh", "-c", shellCommand(cmd)});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(splitNul(r.out), kHostile);
}

TEST(ShellQuote, TwoHopsNeedTwoPassesAndGetThemByteIdentical) {
    auto inner = argvEcho();
    inner.insert(inner.end(), kHostile.begin(), kHostile.end());
    const auto r =
        runProcess({"/bin/sh", "-c", shellCommand({"/bin/sh", "-c", shellCommand(inner)})});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(splitNul(r.out), kHostile);
}

TEST(Identifiers, InjectionAttemptsAreRefused) {
    for (const char* bad : {"n1;touch x", "-oProxyCommand=touch x", "a b", "$(id)", "`id`", "",
                            "n1\n", "n1|x", "*", "-l"}) {
        EXPECT_FALSE(isValidHostName(bad)) << bad;
        EXPECT_FALSE(isValidUserName(bad)) << bad;
        EXPECT_FALSE(isValidContainerName(bad)) << bad;
    }
    for (const char* good : {"node1", "n1.example.org", "10.11.0.2", "fd00::2", "gpu-03"})
        EXPECT_TRUE(isValidHostName(good)) << good;
    EXPECT_TRUE(isValidUserName("root"));
    EXPECT_TRUE(isValidContainerName("mxnet_dlperf"));
    EXPECT_FALSE(isValidPlainPath("/tmp/a b"));
    EXPECT_TRUE(isValidPlainPath("/tmp/ssh_config"));
}

TEST(Campaign, ValidationNamesEveryHostileField) {
    Campaign c;
    c.hosts = {{"n1;touch x", "", 0, "-oProxyCommand=x", 8}, {"$(id)", "a b", 0, "", 8}};
    c.container = {"docker", "a b"};
    c.topologies = {{2, 8}};
    c.batchSizes = {128};
    c.outputDir = "/tmp/x";
    const auto errors = c.validate();
    std::string all;
    for (const auto& e : errors)
        all += e + "\n";
    EXPECT_NE(all.find("hosts[0].name"), std::string::npos) << all;
    EXPECT_NE(all.find("hosts[0].user"), std::string::npos) << all;
    EXPECT_NE(all.find("hosts[1].name"), std::string::npos) << all;
    EXPECT_NE(all.find("hosts[1].address"), std::string::npos) << all;
    EXPECT_NE(all.find("container.name"), std::string::npos) << all;
}

TEST(Campaign, JsonRoundTripAndUnknownKeysRefused) {
    Campaign c;
    c.profile = "ngc-mxnet-rn50";
    c.hosts = {{"n1", "10.0.0.1", 10022, "bench", 8}};
    c.container = {"docker", "mxnet_dlperf"};
    c.topologies = {{1, 8}, {16, 8}};
    c.batchSizes = {128, 64};
    c.precisions = {"fp32", "fp16-noamp"};
    c.outputDir = "/tmp/out";
    c.variables["ssh_port"] = "10001";
    std::string error;
    auto back = campaignFromJson(campaignToJson(c), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(campaignToJson(*back), campaignToJson(c));
    EXPECT_EQ(back->topologies[1].nodes, 16);
    EXPECT_FALSE(campaignFromJson(R"({"topologeis": ["1n1g"]})", &error));
    EXPECT_NE(error.find("topologeis"), std::string::npos);
}

TEST(Cli, InjectionInHostUserOrContainerIsRefusedBeforeAnyProcessStarts) {
    const std::string dir = sv::test::tempDir("inject");
    const std::string marker = dir + "/touched";
    const std::string out = dir + "/out";
    for (const std::string& hosts :
         std::vector<std::string>{"n1;touch " + marker, "-oProxyCommand=touch " + marker, "a b",
                                  "$(touch " + marker + ")"}) {
        const auto r = runProcess({sv::test::kCli, "run", "--topologies", "1n1g", "--batch-size",
                                   "2", "--out", out, "--hosts", hosts});
        EXPECT_EQ(r.exitCode, 2) << hosts;
        EXPECT_NE(r.err.find("not a host name"), std::string::npos) << r.err;
    }
    nlohmann::json c{{"hosts", {{{"name", "n1"}, {"user", "x;touch " + marker}}}},
                     {"container", {{"runtime", "docker"}, {"name", "$(touch " + marker + ")"}}},
                     {"topologies", {"1n1g"}},
                     {"batchSizes", {2}},
                     {"outputDir", out}};
    std::ofstream(dir + "/c.json") << c.dump();
    for (const char* cmd : {"run", "preflight"}) {
        const auto r = runProcess({sv::test::kCli, cmd, dir + "/c.json"});
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("hosts[0].user"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("container.name"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(std::filesystem::exists(marker));
    EXPECT_FALSE(std::filesystem::exists(out)); // refused before even the output directory
    std::filesystem::remove_all(dir);
}

TEST(Plan, MethodologyLayoutAndRunTestOrder) {
    Campaign c;
    c.topologies = {{1, 1}, {1, 2}};
    c.batchSizes = {16};
    c.repeats = 2;
    c.outputDir = "/tmp/o";
    std::string error;
    auto p = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->label, "ResNet-50 v1.5, PyTorch, CPU, synthetic data");
    const auto runs = planRuns(c, *p);
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].logPath,
              "/tmp/o/logs/local/pytorch-cpu/resnet50/bz16/1n1g/r50_b16_fp32_1.log");
    EXPECT_EQ(runs[1].id, "bz16/1n1g/r50_b16_fp32_2");
    EXPECT_EQ(runs[3].id, "bz16/1n2g/r50_b16_fp32_2");
}

// Every topology of the seed, every precision, both launchers, through docker exec and ssh:
// compared with tests/launcher/golden/ngc-mxnet-rn50.txt (an .actual file is written on mismatch).
TEST(NgcProfile, GoldenCommandLines) {
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile) << error;
    std::string actual;
    for (const std::string launcher : {"horovodrun", "mpirun"}) {
        Campaign c;
        c.profile = "ngc-mxnet-rn50";
        c.launcher = launcher;
        c.hosts = {{"10.11.0.2", "", 0, "", 8},
                   {"10.11.0.3", "", 0, "", 8},
                   {"10.11.0.4", "", 0, "", 8},
                   {"10.11.0.5", "", 0, "", 8}};
        c.container = {"docker", "mxnet_dlperf"};
        for (const char* t : {"1n1g", "1n2g", "1n4g", "1n8g", "2n8g", "4n8g"})
            c.topologies.push_back(*sv::parseTopology(t));
        c.batchSizes = {128};
        c.precisions = {"fp32", "fp16", "fp16-noamp"};
        c.repeats = 1;
        c.outputDir = "/tmp/golden";
        ASSERT_TRUE(c.validate().empty());
        CommandBuilder builder(c, *profile, "/tmp/golden/workload");
        for (const auto& run : planRuns(c, *profile))
            actual += shellCommand(builder.runArgv(run, "svGOLDEN")) + "\n";
    }
    const std::string goldenPath = std::string(SCALEVIEW_GOLDEN_DIR) + "/ngc-mxnet-rn50.txt";
    if (std::getenv("SCALEVIEW_UPDATE_GOLDEN")) std::ofstream(goldenPath) << actual;
    const std::string golden = sv::test::readWhole(goldenPath);
    if (golden != actual) std::ofstream(goldenPath + ".actual") << actual;
    EXPECT_EQ(golden, actual) << "see " << goldenPath << ".actual";

    // One line spelled out by hand from methodology section 1, independent of the golden file.
    const std::string expected =
        "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o ConnectTimeout=10 -o "
        "ServerAliveInterval=5 "
        "-o ServerAliveCountMax=3 -- 10.11.0.2 'exec docker exec -e MXNET_UPDATE_ON_KVSTORE=0 -e "
        "MXNET_EXEC_ENABLE_ADDTO=1 "
        "-e MXNET_USE_TENSORRT=0 -e MXNET_GPU_WORKER_NTHREADS=2 -e MXNET_GPU_COPY_NTHREADS=1 "
        "-e MXNET_OPTIMIZER_AGGREGATION_SIZE=54 -e HOROVOD_CYCLE_TIME=0.1 -e "
        "HOROVOD_FUSION_THRESHOLD=67108864 "
        "-e HOROVOD_NUM_NCCL_STREAMS=2 -e MXNET_HOROVOD_NUM_GROUPS=16 -e "
        "MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_FWD=999 "
        "-e MXNET_EXEC_BULK_EXEC_MAX_NODE_TRAIN_BWD=25 -e SCALEVIEW_RUN_TAG=svGOLDEN mxnet_dlperf "
        "horovodrun -np 32 "
        "-H 10.11.0.2:8,10.11.0.3:8,10.11.0.4:8,10.11.0.5:8 -p 10001 --start-timeout 600 python "
        "/workspace/rn50/train.py "
        "--dtype float32 --input-layout NHWC --fuse-bn-relu 0 --fuse-bn-add-relu 0 --arch "
        "resnetv15 --num-layers 50 "
        "--num-classes 1000 --mode train --data-train "
        "/data/imagenet/train-val-recordio-passthrough/train.rec "
        "--data-train-idx /data/imagenet/train-val-recordio-passthrough/train.idx --gpus "
        "0,1,2,3,4,5,6,7 --batch-size 4096 "
        "--image-shape 3,224,224 --lr 0.256 --lr-schedule cosine --optimizer sgd --mom 0.875 --wd "
        "3.0517578125e-05 "
        "--label-smoothing 0.1 --kv-store horovod --data-backend dali-gpu --benchmark-iters 120 "
        "--no-metrics "
        "--disp-batches 1 --save-frequency 0 --num-epochs 1'\n";
    EXPECT_NE(actual.find(expected), std::string::npos);
}

TEST(NgcProfile, TheSshConfigReachesMpirunsOwnHopOnlyOutsideAContainer) {
    std::string error;
    auto profile = loadProfile("ngc-mxnet-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c;
    c.profile = "ngc-mxnet-rn50";
    c.launcher = "mpirun";
    c.hosts = {{"gpu1", "", 0, "", 8}, {"gpu2", "", 0, "", 8}};
    c.topologies = {*sv::parseTopology("2n8g")};
    c.batchSizes = {128};
    c.repeats = 1;
    c.outputDir = "/tmp/golden";
    c.sshConfig = "/etc/sv/ssh_config";
    const auto run = planRuns(c, *profile).front();
    // On the hosts themselves: mpirun's hop to gpu2 uses the same file as ScaleView's to gpu1.
    const std::string bare = shellCommand(CommandBuilder(c, *profile, "/w").runArgv(run, "t"));
    // (Quoted once for mpirun's word and once more for the remote shell.)
    EXPECT_NE(bare.find("-mca plm_rsh_agent '\\''ssh -F /etc/sv/ssh_config -o BatchMode=yes"),
              std::string::npos)
        << bare;
    // In a container the file is not there, and the hop is the containers' own sshd.
    c.container = {"docker", "mxnet_dlperf"};
    const std::string inside = shellCommand(CommandBuilder(c, *profile, "/w").runArgv(run, "t"));
    EXPECT_EQ(inside.find("plm_rsh_agent"), std::string::npos) << inside;
    EXPECT_NE(inside.find("-F /etc/sv/ssh_config -- gpu1 'exec docker exec"), std::string::npos)
        << inside;
}

TEST(CampaignDirectory, AnExistingLogIsNeverOverwrittenAndAnUnfinishedOneIsMovedAside) {
    const std::string dir = sv::test::tempDir("logs");
    PlannedRun run;
    run.id = "bz2/1n1g/r50_b2_fp32_1";
    run.logPath = dir + "/logs/bz2/1n1g/r50_b2_fp32_1.log";
    std::string failure;
    // A fresh log, in a directory made for it.
    auto log = createRunLog(run, RunState::Pending, &failure);
    ASSERT_TRUE(log) << failure;
    log->write("first run\n");
    log.reset();
    // Someone's finished (or foreign) log: refused, byte for byte untouched.
    for (RunState before : {RunState::Pending, RunState::Ok, RunState::Failed}) {
        EXPECT_FALSE(createRunLog(run, before, &failure));
        EXPECT_NE(failure.find("never overwritten"), std::string::npos) << failure;
        EXPECT_EQ(sv::test::readWhole(run.logPath), "first run\n");
    }
    // An interrupted run's log goes aside, numbered, and the rerun starts an empty log.
    ASSERT_TRUE(createRunLog(run, RunState::Interrupted, &failure)) << failure;
    EXPECT_EQ(sv::test::readWhole(run.logPath + ".interrupted-1"), "first run\n");
    std::ofstream(run.logPath) << "second run\n";
    ASSERT_TRUE(createRunLog(run, RunState::Cancelled, &failure)) << failure;
    EXPECT_EQ(sv::test::readWhole(run.logPath + ".cancelled-1"), "second run\n");
    EXPECT_EQ(sv::test::readWhole(run.logPath + ".interrupted-1"), "first run\n");
    EXPECT_EQ(std::filesystem::file_size(run.logPath), 0u);
    std::filesystem::remove_all(dir);
}

TEST(RunVerdict, TheReasonIsWhatTheProgramSaidNotOpenMpisClosingBox) {
    const std::string rule(74, '-');
    const std::string cannot =
        "python: can't open file '/workspace/rn50/train.py': [Errno 2] No such file or directory";
    const std::string tail =
        "[1,0]<stderr>:2020-09-01 10:00:00,123:INFO: Epoch[0] Batch [1-1]\tSpeed: 3.0 "
        "samples/sec\n" +
        cannot + "\n" + rule + "\nPrimary job  terminated normally, but 1 process returned\n" +
        rule + "\n" + rule +
        "\nmpirun detected that one or more processes exited with non-zero status, thus "
        "causing\nthe job to be terminated. The first process to do so was:\n\n  Process name: "
        "[[11926,1],1]\n  Exit code:    2\n" +
        rule + "\n";
    EXPECT_EQ(lastTellingLine(tail), cannot);
    // Only a box: its last line, rather than nothing.
    EXPECT_EQ(lastTellingLine(rule + "\n  Exit code:    2\n" + rule + "\n"), "Exit code:    2");
    // No box: the last line that says something (not a speed line, not blank).
    EXPECT_EQ(lastTellingLine("boom\n\n"), "boom");
}

TEST(RunProgress, EtasFromThePaceSinceTheFirstSpeedLine) {
    RunProgress p;
    p.iteration = 10;
    p.iterations = 40;
    // Nothing measured yet: no ETA rather than a wrong one.
    estimateEtas(p, -1, 5, 3, -1, 2);
    EXPECT_EQ(p.runEtaSeconds, -1);
    EXPECT_EQ(p.campaignEtaSeconds, -1);
    // 10 iterations in 20 s: 30 more take 60 s. The first run: the others are assumed as long
    // as this one in all (25 s in + 60 s to go), plus the cooldown.
    estimateEtas(p, 20, 25, 3, -1, 2);
    EXPECT_DOUBLE_EQ(p.runEtaSeconds, 60);
    EXPECT_DOUBLE_EQ(p.campaignEtaSeconds, 60 + 3 * (85 + 2));
    // Once runs have finished, their mean length is used.
    estimateEtas(p, 20, 25, 3, 100, 2);
    EXPECT_DOUBLE_EQ(p.campaignEtaSeconds, 60 + 3 * (100 + 2));
    // Past the planned iterations: zero, never negative.
    p.iteration = 50;
    estimateEtas(p, 20, 25, 0, 100, 2);
    EXPECT_DOUBLE_EQ(p.runEtaSeconds, 0);
    EXPECT_DOUBLE_EQ(p.campaignEtaSeconds, 0);
}

TEST(RunSweepHosts, ALocalRunInAContainerIsSweptThroughDockerExec) {
    // The container's processes are out of sight of this machine's /proc scan (and of signals to
    // the docker exec client): a local docker run must still be swept, inside the container.
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c;
    c.topologies = {*sv::parseTopology("1n2g")};
    c.batchSizes = {8};
    c.repeats = 1;
    c.outputDir = "/tmp/sweep";
    const auto run = planRuns(c, *profile).front();
    EXPECT_EQ(CommandBuilder(c, *profile, "/w").sweepHostCount(run), 0); // the /proc scan does it
    c.container = {"docker", "pt"};
    const CommandBuilder builder(c, *profile, "/w");
    ASSERT_EQ(builder.sweepHostCount(run), 1);
    EXPECT_EQ(builder.sweepHostCount(), 1);
    const auto sweep = builder.sweepArgv(0, "svTAG", "TERM");
    ASSERT_GE(sweep.size(), 5u);
    EXPECT_EQ(std::vector<std::string>(sweep.begin(), sweep.begin() + 5),
              (std::vector<std::string>{"docker", "exec", "pt", "sh", "-c"}));
    EXPECT_EQ(std::vector<std::string>(sweep.end() - 3, sweep.end()),
              (std::vector<std::string>{"sh", "svTAG", "TERM"}));
}

namespace {

// A process whose environment holds SCALEVIEW_RUN_TAG=tag, killed and reaped when done with.
class TaggedSleep {
  public:
    explicit TaggedSleep(const std::string& tag) {
        const std::string entry = "SCALEVIEW_RUN_TAG=" + tag;
        m_pid = ::fork();
        if (m_pid == 0) {
            char* const argv[] = {const_cast<char*>("sleep"), const_cast<char*>("60"), nullptr};
            char* const envp[] = {const_cast<char*>(entry.c_str()), nullptr};
            ::execve("/bin/sleep", argv, envp);
            ::_exit(127);
        }
    }
    ~TaggedSleep() {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
    pid_t pid() const { return m_pid; }

  private:
    pid_t m_pid = -1;
};

} // namespace

TEST(RunSweepScript, ListsExactlyTheTaggedProcessesWithAndWithoutAGrepThatReadsNulLines) {
    // The sweep's script, as it runs inside a container (the argv after "docker exec pt"): one
    // grep over /proc where grep takes -z, the per-process loop where it does not (a grep that
    // refuses -z is put first on PATH); both list the tagged process and nothing whose tag only
    // begins the same, and with KILL they end it.
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    Campaign c;
    c.topologies = {*sv::parseTopology("1n1g")};
    c.batchSizes = {8};
    c.repeats = 1;
    c.outputDir = "/tmp/sweep";
    c.container = {"docker", "pt"};
    const auto argv = CommandBuilder(c, *profile, "/w").sweepArgv(0, "svTAG", "0");
    ASSERT_GE(argv.size(), 6u);
    const std::string script = argv[argv.size() - 4];
    const std::string dir = sv::test::tempDir("sweepscript");
    std::ofstream(dir + "/grep") << "#!/bin/sh\n"
                                    "for a in \"$@\"; do case \"$a\" in -*z*) exit 2;; esac; done\n"
                                    "exec /bin/grep \"$@\"\n";
    std::filesystem::permissions(dir + "/grep", std::filesystem::perms::owner_all);
    const std::string path = std::string("PATH=") + dir + ":" + std::getenv("PATH");
    const std::string tag = "sv" + std::to_string(::getpid()) + "sweep";
    for (const bool nulGrep : {true, false}) {
        SCOPED_TRACE(nulGrep ? "grep -z" : "the per-process loop");
        TaggedSleep tagged(tag), longer(tag + "x");
        std::vector<std::string> run{"/usr/bin/env"};
        if (!nulGrep) run.push_back(path);
        for (const std::string& a : {std::string("sh"), std::string("-c"), script,
                                     std::string("sh"), tag, std::string("0")})
            run.push_back(a);
        const auto listed = runProcess(run);
        ASSERT_EQ(listed.exitCode, 0) << listed.err;
        EXPECT_EQ(listed.out, std::to_string(tagged.pid()) + "\n");
        run.back() = "KILL";
        const auto killed = runProcess(run);
        EXPECT_EQ(killed.out, std::to_string(tagged.pid()) + "\n");
        int status = 0;
        ASSERT_EQ(::waitpid(tagged.pid(), &status, 0), tagged.pid());
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        EXPECT_EQ(::kill(longer.pid(), 0), 0); // the other tag lives on
    }
    // At a run's end: KILL, a moment, then only what survived is listed (nothing here).
    const auto end = CommandBuilder(c, *profile, "/w").sweepArgv(0, "svTAG", "KILL", true);
    ASSERT_EQ(end.back(), "then-list");
    ASSERT_EQ(end[end.size() - 5], script);
    TaggedSleep tagged(tag);
    const auto swept = runProcess({"/bin/sh", "-c", script, "sh", tag, "KILL", "then-list"});
    EXPECT_EQ(swept.exitCode, 0);
    EXPECT_EQ(swept.out, "");
    int status = 0;
    ASSERT_EQ(::waitpid(tagged.pid(), &status, WNOHANG), tagged.pid());
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

namespace {

// A workload that exits at once: a campaign of it ends in a blink (each run incomplete).
std::string quickProfile(const std::string& dir) {
    const std::string path = dir + "/quick-profile.json";
    std::ofstream(path) << R"({"name": "quick", "launchers": {"env": ["/usr/bin/env"]},)"
                        << R"( "program": ["/bin/true"], "args": ["{iterations}"]})";
    return path;
}

} // namespace

TEST(CampaignDirectory, OpeningDirOrItsCampaignJsonMeansDirEvenAfterAMove) {
    const std::string root = sv::test::tempDir("opendir");
    Campaign c;
    c.profile = quickProfile(root);
    c.topologies = {{1, 1}};
    c.batchSizes = {8};
    c.repeats = 3;
    c.outputDir = root + "/first";
    std::filesystem::create_directories(c.outputDir);
    std::string error;
    ASSERT_TRUE(saveCampaign(c, c.outputDir + "/campaign.json", &error)) << error;
    Journal journal(c.outputDir + "/journal.jsonl");
    RunEnd ok;
    ok.state = RunState::Ok;
    ASSERT_TRUE(journal.appendStart("bz8/1n1g/r50_b8_fp32_1", "t", {{"x"}}, {}, "l", &error));
    ASSERT_TRUE(journal.appendEnd("bz8/1n1g/r50_b8_fp32_1", "t", "l", ok, &error));
    std::filesystem::rename(c.outputDir, root + "/moved");

    for (const std::string& given :
         {root + "/moved", root + "/moved/", root + "/moved/campaign.json"}) {
        const auto d = CampaignDirectory::open(given);
        ASSERT_TRUE(d.ok()) << d.error();
        EXPECT_TRUE(d.isOwnDirectory());
        EXPECT_EQ(d.directory(), root + "/moved") << given;
        EXPECT_EQ(d.campaign().outputDir, root + "/moved");
        EXPECT_EQ(d.movedFrom(), root + "/first");
        EXPECT_TRUE(d.hasJournal());
        ASSERT_EQ(d.plan().size(), 3u);
        EXPECT_EQ(d.plan()[0].logPath.rfind(root + "/moved/", 0), 0u) << d.plan()[0].logPath;
        ASSERT_EQ(d.runsLeft().size(), 2u);
        EXPECT_EQ(d.runsLeft()[0].id, "bz8/1n1g/r50_b8_fp32_2");
    }
    // A journal line of another type (a hand edit, a future version): opening never throws.
    std::ofstream(root + "/moved/journal.jsonl", std::ios::app)
        << R"({"event":"end","id":5,"state":7})"
        << "\n";
    EXPECT_NO_THROW({
        const auto odd = CampaignDirectory::open(root + "/moved");
        EXPECT_TRUE(odd.ok()) << odd.error();
    });
    // A campaign file saved elsewhere keeps its outputDir; a relative one is beside the file.
    c.outputDir = "out";
    ASSERT_TRUE(saveCampaign(c, root + "/spec.json", &error)) << error;
    const auto spec = CampaignDirectory::open(root + "/spec.json");
    ASSERT_TRUE(spec.ok()) << spec.error();
    EXPECT_FALSE(spec.isOwnDirectory());
    EXPECT_EQ(spec.directory(), root + "/out");
    EXPECT_FALSE(spec.hasJournal());
    EXPECT_EQ(spec.runsLeft().size(), 3u);
    // Errors are values naming the file.
    const auto missing = CampaignDirectory::open(root + "/nowhere");
    EXPECT_FALSE(missing.ok());
    EXPECT_EQ(missing.error(), root + "/nowhere: no such campaign directory or campaign file");
    std::filesystem::create_directories(root + "/empty");
    const auto empty = CampaignDirectory::open(root + "/empty");
    EXPECT_FALSE(empty.ok());
    EXPECT_NE(empty.error().find(root + "/empty/campaign.json"), std::string::npos)
        << empty.error();
    std::filesystem::remove_all(root);
}

TEST(Cli, ARelativeOutIsStoredAbsoluteAndTheCampaignOpensFromAnotherDirectory) {
    const std::string root = sv::test::tempDir("relout");
    std::filesystem::create_directories(root + "/work");
    std::filesystem::create_directories(root + "/elsewhere");
    const auto r =
        runProcess({"/usr/bin/env", "-C", root + "/work", sv::test::kCli, "run", "--profile",
                    quickProfile(root), "--topologies", "1n1g", "--batch-size", "2", "--repeats",
                    "1", "--cooldown", "0", "--out", "runs"});
    ASSERT_TRUE(std::filesystem::exists(root + "/work/runs/journal.jsonl")) << r.out << r.err;
    std::string error;
    const auto stored = loadCampaign(root + "/work/runs/campaign.json", &error);
    ASSERT_TRUE(stored) << error;
    EXPECT_EQ(stored->outputDir, root + "/work/runs");

    // From another working directory: the campaign is still work/runs, all of it run.
    const auto here = std::filesystem::current_path();
    std::filesystem::current_path(root + "/elsewhere");
    const auto d = CampaignDirectory::open("../work/runs/campaign.json");
    std::filesystem::current_path(here);
    ASSERT_TRUE(d.ok()) << d.error();
    EXPECT_EQ(d.directory(), root + "/work/runs");
    EXPECT_TRUE(d.movedFrom().empty());
    EXPECT_TRUE(d.runsLeft().empty());
    const auto again = runProcess(
        {"/usr/bin/env", "-C", root + "/elsewhere", sv::test::kCli, "resume", "../work/runs"});
    EXPECT_NE(again.out.find("into " + root + "/work/runs"), std::string::npos)
        << again.out << again.err;
    EXPECT_FALSE(std::filesystem::exists(root + "/elsewhere/runs"));
    std::filesystem::remove_all(root);
}

TEST(DryRun, TheCliListsWhatTheLauncherFunctionDoes) {
    Campaign c;
    c.topologies = {{1, 1}, {1, 2}};
    c.batchSizes = {4};
    c.repeats = 2;
    c.outputDir = "/tmp/sv-dryrun-never-created";
    std::string error;
    const auto lines = dryRunLines(c, &error);
    ASSERT_EQ(lines.size(), 4u) << error;
    EXPECT_NE(lines[3].find("svDRYRUN4"), std::string::npos) << lines[3];
    // Issue 37: the preview showed port 29500 though each run takes a free one as it starts.
    EXPECT_NE(lines[3].find("  # master port: a free one, chosen as the run starts"),
              std::string::npos)
        << lines[3];
    const auto r = runProcess({sv::test::kCli, "run", "--dry-run", "--topologies", "1n1g,1n2g",
                               "--batch-size", "4", "--repeats", "2", "--out", c.outputDir});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::string expected;
    for (const auto& l : lines)
        expected += l + "\n";
    EXPECT_EQ(r.out, expected);
    EXPECT_FALSE(std::filesystem::exists(c.outputDir));
    // A campaign that cannot run says why, every problem.
    c.topologies = {{2, 8}};
    c.batchSizes = {};
    EXPECT_TRUE(dryRunLines(c, &error).empty());
    EXPECT_NE(error.find("2n8g needs 2 hosts"), std::string::npos) << error;
    EXPECT_NE(error.find("batchSizes"), std::string::npos) << error;
}

TEST(TopologyFit, TheCampaignCheckAndThePanelReadOneRule) {
    const std::vector<Host> hosts{{"node1", {}, 0, {}, 4}, {"node2", {}, 0, {}, 8}};
    EXPECT_TRUE(fitTopology(hosts, {2, 4}).fits());
    const auto gpus = fitTopology(hosts, {2, 8});
    EXPECT_EQ(gpus.shortfall, TopologyFit::Shortfall::TooFewGpus);
    EXPECT_EQ(gpus.host, "node1");
    EXPECT_EQ(gpus.available, 4);
    const auto few = fitTopology(hosts, {4, 8});
    EXPECT_EQ(few.shortfall, TopologyFit::Shortfall::TooFewHosts);
    EXPECT_EQ(few.needed, 4);
    EXPECT_EQ(fitTopology({}, {2, 1}).shortfall, TopologyFit::Shortfall::NoHosts);
    // The words the campaign check gives are the value's, and RunCapacity reads the value.
    Campaign c;
    c.hosts = hosts;
    c.topologies = {{2, 8}};
    const auto problems = c.validate();
    EXPECT_NE(std::find(problems.begin(), problems.end(),
                        "topologies: 2n8g needs 8 GPUs on node1, which has 4"),
              problems.end());
    const RunCapacity capacity(hosts, 2, QStringLiteral("CPU cores"));
    EXPECT_TRUE(capacity.whyNot({2, 8}).startsWith(QStringLiteral("2n8g needs 8 GPUs on node1")))
        << capacity.whyNot({2, 8}).toStdString();
}

TEST(CampaignDiff, SaysWhatDiffersInWords) {
    Campaign a;
    a.topologies = {{1, 1}, {1, 2}};
    a.batchSizes = {16};
    a.outputDir = "/tmp/a";
    Campaign b = a;
    b.topologies = {{1, 2}, {1, 1}}; // the same set
    b.outputDir = "/tmp/a/";
    EXPECT_TRUE(campaignDifferences(a, b).empty());
    b.iterations = 7;
    b.outputDir = "/tmp/b";
    b.topologies = {{1, 1}};
    const auto d = campaignDifferences(a, b);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0], "output directory: /tmp/a → /tmp/b");
    EXPECT_EQ(d[1], "topologies: 1n1g, 1n2g → 1n1g");
    EXPECT_EQ(d[2], "iterations: 120 → 7");
}
