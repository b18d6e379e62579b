// The Runner's parts in this process: its phases, the journal read back from lines a future
// version or a typo wrote, timer caps, process groups forgotten once reaped, the output check
// of preflight, an environment capture that a hung nvidia-smi cannot hold, and a command batch
// that lets a few logins at a time reach each host.

#include "tests/launcher/launchertest.h"
#include "tests/launcher/qtloop.h"

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/outputspace.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/exec/launchgroup.h"
#include "launcher/monitor/environmentcapture.h"
#include "launcher/runner/runner.h"
#include "launcher/session/preflight.h"

#include <QSignalSpy>
#include <gtest/gtest.h>
#include <chrono>
#include <csignal>
#include <optional>
#include <sys/stat.h>

using namespace sv::launcher;
using sv::test::fakeCampaign;
using sv::test::waitFor;

namespace {} // namespace

TEST(Journal, AMistypedOrFutureRecordIsSkippedWithAWarningNeverThrown) {
    const std::string dir = sv::test::tempDir("journal");
    const std::string path = dir + "/journal.jsonl";
    std::ofstream(path) << R"({"event":"start","id":"a","tag":"sv1"})"
                           "\n"
                        << R"({"event":"end","id":"a","tag":"sv1","state":"ok","future":{"x":[1]}})"
                           "\n"
                        << R"({"event":"end","id":5,"state":7})"
                           "\n"
                        << R"({"event":"end","id":"b","state":7})"
                           "\n"
                        << R"({"event":"end","id":"c","state":"ok","exitCode":"zero","reason":3})"
                           "\n"
                        << R"([1,2])"
                           "\n"
                        << R"({"event":"start","id":"d","tag":"sv2"})"
                           "\n"
                        << R"({"event":"end","id":"d","tag)"; // torn by a crash: no warning
    std::vector<std::string> warnings;
    std::map<std::string, JournalEntry> entries;
    ASSERT_NO_THROW(entries = Journal(path).read(&warnings));
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries["a"].state(), RunState::Ok);
    // Optional fields of the wrong type lose their value, not the record.
    EXPECT_EQ(entries["c"].state(), RunState::Ok);
    EXPECT_FALSE(entries["c"].end->exitCode);
    EXPECT_EQ(entries["d"].state(), RunState::Interrupted);
    ASSERT_EQ(warnings.size(), 3u);
    EXPECT_NE(warnings[0].find("journal.jsonl line 3: \"id\" is number, not a string"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[1].find("line 4: \"state\" is number"), std::string::npos) << warnings[1];
    EXPECT_NE(warnings[2].find("line 6: not a JSON object"), std::string::npos) << warnings[2];
    std::filesystem::remove_all(dir);
}

TEST(Campaign, TimerValuesBeyondTheirCapsAreRefusedNeverOverflow) {
    std::string error;
    // Beyond int: refused when read, not wrapped to a negative number.
    auto c = campaignFromJson(
        R"({"topologies":["1n1g"],"batchSizes":[2],"outputDir":"o","wallTimeoutSeconds":4000000000})",
        &error);
    EXPECT_FALSE(c);
    EXPECT_EQ(error, "wallTimeoutSeconds: 4000000000 is out of range");
    // Within int, but * 1000 would overflow: refused by validate, naming the cap.
    c = campaignFromJson(
        R"({"topologies":["1n1g"],"batchSizes":[2],"outputDir":"o","startTimeoutSeconds":2147483,
            "graceSeconds":86400,"cooldownSeconds":-1})",
        &error);
    ASSERT_TRUE(c) << error;
    const auto problems = c->validate();
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[0], "cooldownSeconds: -1 is out of range (0 to 86400 s)");
    EXPECT_EQ(problems[1], "startTimeoutSeconds: 2147483 is out of range (1 to 864000 s)");
    EXPECT_EQ(problems[2], "graceSeconds: 86400 is out of range (0 to 3600 s)");
    c->startTimeoutSeconds = kMaxTimeoutSeconds;
    c->graceSeconds = 5;
    c->cooldownSeconds = 0;
    EXPECT_TRUE(c->validate().empty());
    EXPECT_EQ(std::chrono::milliseconds(c->startTimeout()).count(), 864000000);
}

TEST(LaunchGroup, AReapedLeadersGroupIsForgotten) {
    sv::test::EventLoop loop;
    LaunchGroup group;
    QSignalSpy exited(&group, &LaunchGroup::memberExited);
    group.start({{"/bin/sleep", "30"}, {"/bin/sleep", "31"}});
    ASSERT_TRUE(waitFor([&] { return group.processGroups().size() == 2; }, 10000));
    const auto both = group.processGroups();
    // The first leader dies and is reaped.
    ::kill(static_cast<pid_t>(both[0]), SIGKILL);
    ASSERT_TRUE(waitFor([&] { return exited.size() == 1; }, 10000));
    EXPECT_EQ(exited.at(0).at(0).toInt(), 0);
    // Only the live one's group is left to signal: the dead one's id may belong to anyone now.
    EXPECT_EQ(group.processGroups(), std::vector<qint64>{both[1]});
    group.kill();
    ASSERT_TRUE(waitFor([&] { return group.running() == 0; }, 10000));
    EXPECT_TRUE(group.processGroups().empty());
}

TEST(LaunchGroup, TheWorkloadGetsSigxfszBackItsDefaultThatTheAppIgnores) {
    sv::test::EventLoop loop;
    const auto before = std::signal(SIGXFSZ, SIG_IGN); // as both apps' main() do
    LaunchGroup group;
    QByteArray out;
    QObject::connect(&group, &LaunchGroup::output,
                     [&](int, const QByteArray& bytes) { out += bytes; });
    QSignalSpy finished(&group, &LaunchGroup::finished);
    group.start({{"/bin/grep", "^SigIgn:", "/proc/self/status"}});
    const bool ended = waitFor([&] { return !finished.isEmpty(); }, 10000);
    std::signal(SIGXFSZ, before);
    ASSERT_TRUE(ended);
    const QByteArray mask = out.trimmed().mid(out.indexOf(':') + 1).trimmed();
    bool ok = false;
    const qulonglong ignored = mask.toULongLong(&ok, 16);
    ASSERT_TRUE(ok) << out.toStdString();
    EXPECT_EQ(ignored & (1ull << (SIGXFSZ - 1)), 0u) << out.toStdString();
}

TEST(RunnerPhases, EachRunGoesSetupRunningSettlingAndCooldownSitsBetween) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("phases");
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {"--interval", "0.01"}), &error);
    ASSERT_TRUE(profile) << error;
    Runner runner(fakeCampaign(dir + "/fake-profile.json", dir + "/out", 2), *profile);
    ASSERT_TRUE(runner.prepare(false, &error)) << error;
    std::vector<Runner::Phase> phases;
    QObject::connect(&runner, &Runner::phaseChanged, [&](Runner::Phase p) { phases.push_back(p); });
    std::optional<CampaignEnd> end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) { end = e; });
    runner.start();
    ASSERT_TRUE(waitFor([&] { return end.has_value(); }, 60000));
    EXPECT_EQ(end->outcome, CampaignEnd::Outcome::Done);
    using P = Runner::Phase;
    EXPECT_EQ(phases, (std::vector<P>{P::Setup, P::Running, P::Settling, P::Cooldown, P::Setup,
                                      P::Running, P::Settling, P::Setup, P::Done}));
    EXPECT_EQ(runner.state(0), RunState::Ok);
    EXPECT_EQ(runner.state(1), RunState::Ok);
    std::filesystem::remove_all(dir);
}

TEST(RunnerPhases, CancelDuringTheCooldownEndsTheCampaignAtOnce) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("cooldown");
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {"--interval", "0.01"}), &error);
    ASSERT_TRUE(profile) << error;
    Campaign c = fakeCampaign(dir + "/fake-profile.json", dir + "/out", 2);
    c.cooldownSeconds = 600;
    Runner runner(c, *profile);
    ASSERT_TRUE(runner.prepare(false, &error)) << error;
    std::optional<CampaignEnd> end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) { end = e; });
    runner.start();
    ASSERT_TRUE(waitFor([&] { return runner.phase() == Runner::Phase::Cooldown; }, 60000));
    const auto t0 = std::chrono::steady_clock::now();
    runner.cancel();
    ASSERT_TRUE(waitFor([&] { return end.has_value(); }, 10000));
    EXPECT_LT(sv::test::since(t0), 5.0);
    EXPECT_EQ(end->outcome, CampaignEnd::Outcome::Cancelled);
    EXPECT_EQ(runner.state(0), RunState::Ok);
    EXPECT_EQ(runner.state(1), RunState::Pending);
    std::filesystem::remove_all(dir);
}

TEST(RunnerAbandon, TheOwnerGoingAwayMidRunLeavesNoTaggedProcess) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("abandon");
    std::string error;
    // The payload ignores TERM and forks a child that leaves the run's process group: only a
    // sweep by its tag finds that one.
    auto profile =
        loadProfile(sv::test::writeFakeProfile(dir, {"--ignore-term-fork", "--hang"}), &error);
    ASSERT_TRUE(profile) << error;
    const std::string out = dir + "/out";
    auto runner =
        std::make_unique<Runner>(fakeCampaign(dir + "/fake-profile.json", out, 1), *profile);
    ASSERT_TRUE(runner->prepare(false, &error)) << error;
    runner->start();
    // mpirun, the payload and its escaped child, all carrying the run's tag.
    ASSERT_TRUE(waitFor([&] { return sv::test::leftoverOf(out).size() >= 3; }, 30000))
        << static_cast<int>(runner->phase()) << sv::test::readWhole(out + "/journal.jsonl");
    ASSERT_EQ(runner->phase(), Runner::Phase::Running);
    runner->abandon();
    runner.reset(); // as ~RunController does when the app quits
    EXPECT_TRUE(waitFor([&] { return sv::test::leftoverOf(out).empty(); }, 30000))
        << sv::test::leftoverOf(out).front();
    // Its end record was the last act: resume finds the run cancelled, not guessed interrupted.
    const auto ends = sv::test::journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << sv::test::readWhole(out + "/journal.jsonl");
    EXPECT_EQ(ends[0]["state"], "cancelled");
    EXPECT_EQ(ends[0]["reason"], "the app quit during the run");
    std::filesystem::remove_all(dir);
}

TEST(OutputSpace, TheEstimateScalesWithRunsIterationsAndRanks) {
    Campaign c;
    c.topologies = {*sv::parseTopology("1n1g"), *sv::parseTopology("1n8g")};
    c.batchSizes = {2};
    c.repeats = 3;
    c.iterations = 1000;
    c.outputDir = "/tmp";
    WorkloadProfile p;
    p.name = "x";
    p.model = "r50";
    // 3 x 1000 x (1 + 8) lines of 160 bytes, doubled, and 64 KiB per run.
    EXPECT_EQ(expectedLogBytes(c, p), 3ull * 1000 * 9 * 160 * 2 + 6ull * 64 * 1024);
    const OutputSpace s = checkOutputSpace(c, p);
    EXPECT_TRUE(s.writable) << s.writeError;
    EXPECT_GT(s.available, 0u);
}

TEST(EnvironmentCapture, AHungNvidiaSmiEndsAtTheTimeoutNamingWhereItHung) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("hungsmi");
    std::filesystem::create_directories(dir + "/bin");
    std::ofstream(dir + "/bin/nvidia-smi") << "#!/bin/sh\nsleep 30\n";
    ::chmod((dir + "/bin/nvidia-smi").c_str(), 0755);
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QByteArray::fromStdString(dir + "/bin:") + path);
    Campaign c = fakeCampaign("local-cpu-rn50", dir + "/out", 1);
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    std::optional<EnvironmentCapture::Result> result;
    const auto t0 = std::chrono::steady_clock::now();
    EnvironmentCapture::run(
        c, *profile, "test", &loop.app, [&](const EnvironmentCapture::Result& r) { result = r; },
        std::chrono::seconds(1));
    qputenv("PATH", path);
    ASSERT_TRUE(waitFor([&] { return result.has_value(); }, 20000));
    EXPECT_LT(sv::test::since(t0), 10.0);
    ASSERT_EQ(result->problems.size(), 1u);
    EXPECT_EQ(result->problems[0],
              "capturing the environment of this machine: no answer within 1 s "
              "(stuck in 'nvidia-smi -q'); the campaign goes on without it");
    EXPECT_EQ(result->files, 2); // the campaign file and this machine's, with what it said
    // The stand-in (and the sleep under it) went with the probe's session.
    EXPECT_TRUE(waitFor(
        [&] {
            for (const auto& e : std::filesystem::directory_iterator("/proc")) {
                std::string cmd = sv::test::readWhole((e.path() / "cmdline").string());
                if (cmd.find(dir + "/bin/nvidia-smi") != std::string::npos) return false;
            }
            return true;
        },
        5000));
    std::filesystem::remove_all(dir);
}

// torch's version is read from torch/version.py without importing torch (seconds of CPU on every
// host of every campaign), and by the import where the package has no version.py. Two stand-in
// torch packages on PYTHONPATH: the first one's __init__ fails if it is imported at all.
TEST(EnvironmentCapture, TorchsVersionComesFromItsVersionFileOrElseItsImport) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("torchversion");
    std::string error;
    auto profile = loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    const QByteArray pythonPath = qgetenv("PYTHONPATH");
    auto capture = [&](const std::string& name, const std::string& init,
                       const std::string& versionFile) {
        const std::string root = dir + "/" + name;
        std::filesystem::create_directories(root + "/torch");
        std::ofstream(root + "/torch/__init__.py") << init;
        if (!versionFile.empty()) std::ofstream(root + "/torch/version.py") << versionFile;
        qputenv("PYTHONPATH", QByteArray::fromStdString(root));
        std::optional<EnvironmentCapture::Result> result;
        EnvironmentCapture::run(
            fakeCampaign("local-cpu-rn50", root + "/out", 1), *profile, "test", &loop.app,
            [&](const EnvironmentCapture::Result& r) { result = r; }, std::chrono::seconds(60));
        qputenv("PYTHONPATH", pythonPath);
        EXPECT_TRUE(waitFor([&] { return result.has_value(); }, 90000));
        std::string text;
        for (const auto& e : std::filesystem::recursive_directory_iterator(root + "/out"))
            if (e.path().extension() == ".txt" && e.path().string().find("campaign") ==
                                                      std::string::npos)
                text += sv::test::readWhole(e.path().string());
        return text;
    };
    const std::string fromFile =
        capture("file", "raise SystemExit('imported')\n", "__version__ = '1.2.3+file'\n");
    EXPECT_NE(fromFile.find("\ntorch 1.2.3+file\n"), std::string::npos) << fromFile;
    EXPECT_EQ(fromFile.find("imported"), std::string::npos) << fromFile;
    const std::string fromImport = capture("import", "__version__ = '4.5.6+import'\n", "");
    EXPECT_NE(fromImport.find("\ntorch 4.5.6+import\n"), std::string::npos) << fromImport;
    std::filesystem::remove_all(dir);
}

// Twelve commands "to" host a and three to host b, each noting its start and end in a file of its
// host's (appends of one short line are atomic): host a has exactly CommandBatch::kPerHost
// running at most, all twelve in turn; b's three run at once beside a's; a command without a host
// runs too; every result lands in its own slot.
TEST(CommandBatchTurns, AtMostAFewCommandsPerHostRunAtOnceTheRestWaitTheirTurn) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("batchturns");
    std::vector<BatchCommand> cmds;
    auto noting = [&](const std::string& host, int i) {
        const std::string file = dir + "/" + (host.empty() ? "none" : host) + ".log";
        BatchCommand c{{"/bin/sh", "-c",
                        "echo s >> \"$0\"; sleep 0.3; echo e >> \"$0\"; echo " + std::to_string(i),
                        file},
                       {},
                       20000};
        c.host = host;
        return c;
    };
    for (int i = 0; i < 12; ++i)
        cmds.push_back(noting("a", i));
    for (int i = 12; i < 15; ++i)
        cmds.push_back(noting("b", i));
    cmds.push_back(noting("", 15));
    std::optional<std::vector<BatchResult>> results;
    QObject context;
    CommandBatch::run(cmds, &context, [&](std::vector<BatchResult> r) { results = std::move(r); });
    ASSERT_TRUE(waitFor([&] { return results.has_value(); }, 30000));
    ASSERT_EQ(results->size(), 16u);
    for (std::size_t i = 0; i < results->size(); ++i) {
        EXPECT_EQ((*results)[i].exitCode, 0) << i << (*results)[i].errors;
        EXPECT_EQ((*results)[i].output, std::to_string(i) + "\n");
    }
    // The most of one host's commands that ran at once, from its start/end marks in order.
    auto mostAtOnce = [&](const std::string& host) {
        std::ifstream in(dir + "/" + host + ".log");
        int now = 0, most = 0, starts = 0;
        for (std::string line; std::getline(in, line);) {
            now += line == "s" ? 1 : -1;
            starts += line == "s";
            most = std::max(most, now);
        }
        EXPECT_EQ(now, 0) << host;
        return std::pair{most, starts};
    };
    EXPECT_EQ(mostAtOnce("a"), std::pair(CommandBatch::kPerHost, 12));
    EXPECT_EQ(mostAtOnce("b"), std::pair(3, 3));
    EXPECT_EQ(mostAtOnce("none"), std::pair(1, 1));
    std::filesystem::remove_all(dir);
}

// ssh's own failures (exit 255 with its words) are told apart from a command that ran and failed:
// preflight then says it could not log in, not that mpirun or the image's sshd is missing.
TEST(CommandBatchTurns, AnSshLoginTurnedAwayIsNotTheCommandsFailure) {
    BatchResult dropped;
    dropped.exitCode = 255;
    dropped.errors = "kex_exchange_identification: read: Connection reset by peer\r\n";
    EXPECT_TRUE(loginFailed(dropped));
    dropped.errors = "ssh: connect to host 127.0.0.2 port 2222: Connection refused\n";
    EXPECT_TRUE(loginFailed(dropped));
    BatchResult ran;
    ran.exitCode = 255; // the command's own 255, its own words
    ran.errors = "nvidia-smi: internal error\n";
    EXPECT_FALSE(loginFailed(ran));
    ran.exitCode = 1;
    ran.errors = "kex_exchange_identification: read: Connection reset by peer\n";
    EXPECT_FALSE(loginFailed(ran)); // not ssh's exit code
}

// Issue 27: the Run panel said "Preflight: all 4 checks passed" beside its own red "busy" line.
// The headline carries the worst finding.
TEST(PreflightHeadline, CarriesTheWorstFinding) {
    std::vector<PreflightFinding> f = {
        {"localhost", "launcher", true, "mpirun 4.1.4"},
        {"localhost", "torch", true, "torch 1.13"},
        {"localhost", "output", true, "12 GiB free"},
        {"localhost", "busy", true, "a python3 uses 98 % of a core", true}};
    auto h = preflightHeadline(f);
    EXPECT_EQ(h.warnings, 1);
    EXPECT_EQ(h.failures, 0);
    EXPECT_EQ(h.text.find("all 4 checks passed"), std::string::npos) << h.text;
    EXPECT_NE(h.text.find("Preflight: 3 of 4 checks passed; 1 warning. "), std::string::npos)
        << h.text;
    EXPECT_NE(h.text.find("localhost · busy: a python3 uses 98 % of a core"), std::string::npos)
        << h.text;
    f.push_back({"node2", "ssh", false, "connection refused"});
    h = preflightHeadline(f);
    EXPECT_EQ(h.failures, 1);
    EXPECT_NE(
        h.text.find("Preflight found 1 problem and 1 warning. node2 · ssh: connection refused"),
        std::string::npos)
        << h.text;
    f = {{"localhost", "launcher", true, "ok"}};
    EXPECT_EQ(preflightHeadline(f).text, "Preflight: the one check passed.");
}
