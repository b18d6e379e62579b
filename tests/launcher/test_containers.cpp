// The container path on a real, private dockerd: the launcher starts a container of an image,
// runs inside it, and removes it; cancel, timeouts, a container that dies, kill -9 + resume; and
// preflight's answers for a missing image, a refused socket and a missing mount source.

#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbuilder.h"
#include "tests/launcher/dockerd.h"
#include "tests/launcher/launchertest.h"

#include <csignal>
#include <ctime>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <sys/socket.h>
#include <sys/un.h>
#include <thread>

using sv::test::journalEnds;
using sv::test::kCli;
using sv::test::readWhole;
using sv::test::runProcess;
namespace fs = std::filesystem;

namespace {

// Where the fake workload is inside the container (and nowhere on this machine).
const std::string kInside = "/sv-test-inside";

class Containers : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_FALSE(fs::exists(kInside));
        m_dockerd = std::make_unique<sv::test::PrivateDockerd>();
        if (!m_dockerd->skipReason().empty()) GTEST_SKIP() << m_dockerd->skipReason();
        // The launcher's docker client finds this dockerd through DOCKER_HOST, as a user's would.
        ::setenv("DOCKER_HOST", m_dockerd->host().c_str(), 1);
        m_dir = sv::test::tempDir("containers");
        m_out = m_dir + "/out";
    }
    void TearDown() override {
        m_dockerd.reset(); // removes what is left, stops dockerd by its pid
        ::unsetenv("DOCKER_HOST");
        if (!m_dir.empty()) fs::remove_all(m_dir);
    }

    // The fake workload under mpirun, started from inside the container (its path exists only
    // there). The empty image has no /tmp, which mpirun needs: a tmpfs.
    std::string profile(const std::vector<std::string>& extra) const {
        std::string args;
        for (const auto& a : extra)
            args += ", \"" + a + "\"";
        const std::string path = m_dir + "/profile.json";
        std::ofstream(path) << R"J({"name": "fake-container", "label": "fake workload (tests)",
          "model": "r50", "logRoot": "logs/fake",
          "containerArgs": ["--net=host", "--ipc=host", "--tmpfs=/tmp"],
          "defaultLauncher": "mpirun",
          "launchers": {"mpirun": ["mpirun", "--tag-output", "--allow-run-as-root",
                                   "--oversubscribe", "-np", "{ranks}", "-H", "{host_slots}",
                                   "{mpi_env}"]},
          "program": ["/usr/bin/python3", ")J"
                            << kInside << R"J(/fakeworkload.py"],
          "args": ["--iterations", "{iterations}", "--batch", "{batch}")J"
                            << args << "]}\n";
        return path;
    }

    // The host's programs, read-only; the fake workload's folder at kInside.
    static std::vector<std::string> mounts() {
        std::vector<std::string> out;
        for (const char* d : {"/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"})
            if (fs::exists(d))
                out.insert(out.end(), {"--container-mount", std::string(d) + ":" + d + ":ro"});
        out.insert(out.end(),
                   {"--container-mount",
                    fs::path(sv::test::kFake).parent_path().string() + ":" + kInside + ":ro"});
        return out;
    }

    std::vector<std::string> runArgv(const std::vector<std::string>& workload, int repeats,
                                     const std::vector<std::string>& extra = {}) const {
        std::vector<std::string> argv{kCli,
                                      "run",
                                      "--profile",
                                      profile(workload),
                                      "--topologies",
                                      "1n1g",
                                      "--batch-size",
                                      "2",
                                      "--repeats",
                                      std::to_string(repeats),
                                      "--iterations",
                                      "10",
                                      "--warmup",
                                      "2",
                                      "--cooldown",
                                      "0",
                                      "--out",
                                      m_out,
                                      "--container-image",
                                      "sv/empty:1",
                                      "--docker",
                                      sv::test::kDocker};
        const auto m = mounts();
        argv.insert(argv.end(), m.begin(), m.end());
        argv.insert(argv.end(), extra.begin(), extra.end());
        return argv;
    }

    std::vector<nlohmann::json> containerRecords() const {
        std::vector<nlohmann::json> out;
        std::istringstream in(readWhole(m_out + "/journal.jsonl"));
        for (std::string line; std::getline(in, line);) {
            auto j = nlohmann::json::parse(line, nullptr, false);
            if (!j.is_discarded() && j["event"] == "container") out.push_back(j);
        }
        return out;
    }

    // Waits (with a deadline) until the run's tagged processes are up, inside the container.
    bool runUp(std::size_t processes = 2) const {
        const auto t0 = std::chrono::steady_clock::now();
        while (sv::test::since(t0) < 60.0) {
            if (sv::test::leftoverOf(m_out).size() >= processes) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    std::unique_ptr<sv::test::PrivateDockerd> m_dockerd;
    std::string m_dir, m_out;
};

std::string environmentText(const std::string& out) {
    std::string text;
    for (const auto& e : fs::directory_iterator(out + "/environment"))
        if (e.path().extension() == ".txt") text += readWhole(e.path().string());
    return text;
}

} // namespace

TEST_F(Containers, ALocalCampaignStartsUsesAndRemovesItsContainer) {
    const auto r = runProcess(runArgv({}, 1));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << readWhole(m_out + "/journal.jsonl");
    const auto ends = journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    // The log came from the workload at a path only the container has.
    EXPECT_NE(readWhole(ends[0]["log"].get<std::string>()).find("Speed: "), std::string::npos);
    const auto records = containerRecords();
    ASSERT_EQ(records.size(), 2u) << readWhole(m_out + "/journal.jsonl");
    EXPECT_EQ(records[0]["action"], "started");
    EXPECT_EQ(records[1]["action"], "removed");
    const std::string name = records[0]["id"];
    EXPECT_EQ(name.rfind("sv-", 0), 0u);
    EXPECT_NE(records[0]["command"].dump().find("sv/empty:1"), std::string::npos);
    EXPECT_NE(r.err.find("started the container " + name), std::string::npos) << r.err;
    EXPECT_TRUE(m_dockerd->containers().empty());
    // The image id, the docker version and the container's run command are in the capture.
    const std::string id =
        m_dockerd->docker({"image", "inspect", "--format", "{{.Id}}", "sv/empty:1"}).out;
    ASSERT_EQ(id.rfind("sha256:", 0), 0u) << id;
    const std::string env = environmentText(m_out);
    EXPECT_NE(env.find(id.substr(0, id.size() - 1)), std::string::npos) << env;
    EXPECT_NE(env.find("== docker server version\n20."), std::string::npos) << env;
    EXPECT_NE(env.find("docker run -d --name " + name), std::string::npos) << env;
}

TEST_F(Containers, CancelMidRunLeavesNothingRunningInAKeptContainer) {
    const pid_t cli = sv::test::spawn(
        runArgv({"--ignore-term-fork", "--hang"}, 2, {"--grace", "1", "--container-keep"}),
        m_dir + "/cli.log");
    ASSERT_TRUE(runUp()) << readWhole(m_dir + "/cli.log");
    ::kill(cli, SIGTERM);
    int status = 0;
    ::waitpid(cli, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 130) << readWhole(m_dir + "/cli.log");
    const auto ends = journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "cancelled");
    EXPECT_TRUE(ends[0]["leftover"].empty()) << ends[0].dump();
    EXPECT_TRUE(sv::test::leftoverOf(m_out).empty());
    // Kept: still there, and nothing but its own sleep runs in it.
    const auto names = m_dockerd->containers();
    ASSERT_EQ(names.size(), 1u);
    const auto top = m_dockerd->docker({"top", names[0], "-o", "pid,args"});
    std::vector<std::string> lines;
    std::istringstream in(top.out);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 2u) << top.out << top.err; // the header and one process
    EXPECT_NE(lines[1].find("sleep infinity"), std::string::npos) << top.out;
    EXPECT_NE(readWhole(m_dir + "/cli.log").find("kept the container " + names[0]),
              std::string::npos);
}

TEST_F(Containers, AWallTimeoutInsideTheContainerEndsAsTimeoutWithNothingLeft) {
    const auto r = runProcess(
        runArgv({"--ignore-term-fork", "--hang"}, 1, {"--wall-timeout", "4", "--grace", "1"}));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto ends = journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "timeout");
    EXPECT_TRUE(ends[0]["leftover"].empty()) << ends[0].dump();
    EXPECT_TRUE(sv::test::leftoverOf(m_out).empty());
    EXPECT_TRUE(m_dockerd->containers().empty());
}

TEST_F(Containers, AContainerThatDiesMidRunFailsTheRunNamingTheHost) {
    const pid_t cli = sv::test::spawn(runArgv({"--hang"}, 1), m_dir + "/cli.log");
    ASSERT_TRUE(runUp()) << readWhole(m_dir + "/cli.log");
    const auto names = m_dockerd->containers();
    ASSERT_EQ(names.size(), 1u);
    m_dockerd->docker({"kill", names[0]});
    int status = 0;
    ::waitpid(cli, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 1) << readWhole(m_dir + "/cli.log");
    const auto ends = journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "failed") << ends[0].dump();
    EXPECT_EQ(ends[0]["host"], "this machine");
    EXPECT_TRUE(sv::test::leftoverOf(m_out).empty());
    EXPECT_TRUE(m_dockerd->containers().empty());
}

TEST_F(Containers, KillNineThenResumeRemovesTheStaleContainerAndReruns) {
    const pid_t cli = sv::test::spawn(runArgv({"--interval", "0.1", "--iterations", "20"}, 2),
                                      m_dir + "/cli.log");
    ASSERT_TRUE(runUp()) << readWhole(m_dir + "/cli.log");
    ::kill(cli, SIGKILL);
    ::waitpid(cli, nullptr, 0);
    const auto stale = m_dockerd->containers();
    ASSERT_EQ(stale.size(), 1u); // kill -9 leaves it, with the run still going inside
    const auto r = runProcess({kCli, "resume", m_out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("removed the container " + stale[0] +
                         " on this machine, left by an earlier session"),
              std::string::npos)
        << r.err;
    std::map<std::string, std::vector<std::string>> states;
    for (const auto& e : journalEnds(m_out))
        states[e["id"]].push_back(e["state"]);
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_1"], (std::vector<std::string>{"interrupted", "ok"}));
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_2"], std::vector<std::string>{"ok"});
    EXPECT_TRUE(sv::test::leftoverOf(m_out).empty());
    EXPECT_TRUE(m_dockerd->containers().empty());
}

TEST_F(Containers, PreflightSaysWhatToDoForAMissingImageARefusedSocketAndAMissingMount) {
    // A socket that exists and refuses: bound, never listening.
    const std::string refused = m_dir + "/refused.sock";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", refused.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const auto preflight = [&](const std::string& image, const std::string& host,
                               const std::string& mountSource) {
        const std::string file = m_dir + "/campaign.json";
        std::ofstream(file) << R"({"profile": ")" << profile({}) << R"(",
            "container": {"runtime": "docker", "image": ")"
                            << image << R"(", "program": ")" << sv::test::kDocker
                            << R"(", "host": ")" << host << R"(",
                          "runArgs": ["--env=SV_FROM_RUN_ARGS=1"],
                          "mounts": ["/usr:/usr:ro", "/lib:/lib:ro", "/lib64:/lib64:ro",
                                     "/bin:/bin:ro", "/sbin:/sbin:ro", "/etc:/etc:ro", ")"
                            << mountSource << R"(:/data"]},
            "topologies": ["1n1g"], "batchSizes": [2], "outputDir": ")"
                            << m_out << R"("})";
        return runProcess({kCli, "preflight", file});
    };
    const auto fine = preflight("sv/empty:1", m_dockerd->host(), m_dir);
    EXPECT_EQ(fine.exitCode, 0) << fine.out << fine.err;
    EXPECT_NE(fine.out.find("ok   this machine: image: image sv/empty:1 present"),
              std::string::npos)
        << fine.out;
    EXPECT_NE(fine.out.find("ok   this machine: launcher: mpirun found"), std::string::npos)
        << fine.out;                 // inside a one-off container of the image
    EXPECT_FALSE(fs::exists(m_out)); // preflight creates nothing

    const auto noImage = preflight("sv/absent:1", m_dockerd->host(), m_dir);
    EXPECT_NE(noImage.exitCode, 0);
    EXPECT_NE(noImage.out.find("FAIL this machine: image: image sv/absent:1 is not on this "
                               "machine"),
              std::string::npos)
        << noImage.out;
    EXPECT_NE(noImage.out.find("docker pull sv/absent:1"), std::string::npos);

    const auto noDocker = preflight("sv/empty:1", "unix://" + refused, m_dir);
    EXPECT_NE(noDocker.exitCode, 0);
    EXPECT_NE(noDocker.out.find("FAIL this machine: docker: docker is not reachable at unix://" +
                                refused),
              std::string::npos)
        << noDocker.out;
    EXPECT_NE(noDocker.out.find("systemctl start docker"), std::string::npos);

    const auto noMount = preflight("sv/empty:1", m_dockerd->host(), m_dir + "/no-such-data");
    EXPECT_NE(noMount.exitCode, 0);
    EXPECT_NE(noMount.out.find("FAIL this machine: mount: mount source " + m_dir +
                               "/no-such-data does not exist on this machine: create it there"),
              std::string::npos)
        << noMount.out;
    ::close(fd);
}

// Issue 28 in a container: a 2-rank case's probes run inside the campaign's container (docker
// exec into it, as the ranks do): dockerd's own events list an exec of each probe rank; the
// solo record and the all-reduce across both ranks are in probes.json, and nothing says the
// probes were not run.
TEST_F(Containers, ProbesRunInsideTheCampaignsContainer) {
    auto argv = runArgv({}, 1, {"--probes"});
    argv[5] = "1n2g";
    const auto since = std::to_string(std::time(nullptr) - 1);
    const auto r = runProcess(argv);
    const auto until = std::to_string(std::time(nullptr) + 1);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << readWhole(m_out + "/journal.jsonl");
    EXPECT_EQ((r.out + r.err).find("not run"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.out.find("ranks inside the campaign's container(s))"), std::string::npos) << r.out;
    const auto file = nlohmann::json::parse(readWhole(m_out + "/probes.json"), nullptr, false);
    ASSERT_TRUE(file.is_object()) << readWhole(m_out + "/journal.jsonl");
    ASSERT_EQ(file["probes"].size(), 2u) << file.dump();
    EXPECT_EQ(file["probes"][0]["kind"], "solo");
    EXPECT_EQ(file["probes"][0]["devices"], 2);
    EXPECT_GT(file["probes"][0]["pace_per_device"].get<double>(), 0.0);
    EXPECT_EQ(file["probes"][1]["kind"], "allreduce");
    EXPECT_EQ(file["probes"][1]["ranks"], 2);
    std::istringstream journal(readWhole(m_out + "/journal.jsonl"));
    int ok = 0;
    for (std::string line; std::getline(journal, line);)
        ok += line.find("\"event\":\"probes\"") != std::string::npos &&
              line.find("\"state\":\"ok\"") != std::string::npos;
    EXPECT_EQ(ok, 1) << readWhole(m_out + "/journal.jsonl");
    // dockerd's record: every probe rank (2 solo, 2 all-reduce) was an exec into the container
    // the campaign started, its command the probe's tagged python.
    const auto containers = containerRecords();
    ASSERT_FALSE(containers.empty());
    const std::string name = containers[0]["id"];
    const auto events = m_dockerd->docker({"events", "--since", since, "--until", until, "--filter",
                                           "event=exec_start", "--format",
                                           "{{.Actor.Attributes.name}}\t{{.Action}}"});
    ASSERT_EQ(events.exitCode, 0) << events.err;
    int probeExecs = 0;
    std::istringstream in(events.out);
    for (std::string line; std::getline(in, line);)
        if (line.find("SCALEVIEW_RUN_TAG=svprobe") != std::string::npos &&
            line.find("/usr/bin/python3 -c") != std::string::npos) {
            EXPECT_EQ(line.substr(0, line.find('\t')), name) << line.substr(0, 300);
            ++probeExecs;
        }
    EXPECT_EQ(probeExecs, 4) << events.out.substr(0, 2000);
}

// A cancel while the probes run inside a kept container: killing the docker exec clients
// leaves the probe's processes running in the container, so the tag sweep goes in after them;
// nothing but the container's own sleep is left.
TEST_F(Containers, CancelDuringTheProbesLeavesNothingInTheContainer) {
    auto argv = runArgv({}, 1, {"--probes", "--grace", "1", "--container-keep"});
    argv[5] = "1n2g";
    const pid_t cli = sv::test::spawn(argv, m_dir + "/cli.log");
    // The probe's ranks inside this test's container (not every svprobe process of the
    // machine: other tests' probes may run beside this one).
    auto probeRanksInside = [&] {
        const auto names = m_dockerd->containers();
        if (names.size() != 1) return 0;
        const auto top = m_dockerd->docker({"top", names[0], "-o", "pid,args"});
        int ranks = 0;
        std::istringstream in(top.out);
        for (std::string line; std::getline(in, line);)
            ranks += line.find("python") != std::string::npos;
        return ranks;
    };
    const auto t0 = std::chrono::steady_clock::now();
    while (probeRanksInside() < 2 && sv::test::since(t0) < 120)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_GE(probeRanksInside(), 2) << readWhole(m_dir + "/cli.log");
    ::kill(cli, SIGTERM);
    int status = 0;
    ::waitpid(cli, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 130) << readWhole(m_dir + "/cli.log");
    const auto names = m_dockerd->containers();
    ASSERT_EQ(names.size(), 1u);
    const auto top = m_dockerd->docker({"top", names[0], "-o", "pid,args"});
    std::vector<std::string> lines;
    std::istringstream in(top.out);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 2u) << top.out << top.err; // the header and one process
    EXPECT_NE(lines[1].find("sleep infinity"), std::string::npos) << top.out;
}

// rankExecutor: where the campaign's ranks run. In a docker campaign, docker exec into that
// host's container (over ssh with hosts: the same line onHost builds); without a container,
// exactly the host's executor.
TEST(ContainerRankExecutor, ExecsIntoTheHostsContainerAndIsTheHostsOwnExecutorWithout) {
    std::string error;
    auto profile = sv::launcher::loadProfile("local-cpu-rn50", &error);
    ASSERT_TRUE(profile) << error;
    sv::launcher::Campaign c = sv::test::fakeCampaign("local-cpu-rn50", "/tmp/sv-rankexec", 1);
    c.container.runtime = "docker";
    c.container.image = "sv/empty:1";
    const std::vector<std::string> argv{"env", "RANK=0", "/usr/bin/python3", "-c", "x; y"};
    {
        const sv::launcher::CommandBuilder b(c, *profile, "/tmp/w");
        const auto local = b.rankExecutor(0);
        std::vector<std::string> expected{"docker", "exec", b.containers().name(0)};
        expected.insert(expected.end(), argv.begin(), argv.end());
        EXPECT_EQ(local->wrap(argv), expected);
        EXPECT_EQ(local->wrap(argv), b.onHost(0, argv, true));
        EXPECT_FALSE(local->isRemote());
        EXPECT_NE(local->hostLabel().find(b.containers().name(0)), std::string::npos);
    }
    c.hosts = {sv::launcher::Host{"n1", "", 0, "", 1}, sv::launcher::Host{"n2", "", 0, "", 1}};
    {
        const sv::launcher::CommandBuilder b(c, *profile, "/tmp/w");
        const auto second = b.rankExecutor(1);
        EXPECT_EQ(second->wrap(argv), b.onHost(1, argv, true));
        EXPECT_EQ(second->wrap(argv).front(), "ssh");
        EXPECT_NE(second->wrap(argv).back().find("docker exec " + b.containers().name(1)),
                  std::string::npos)
            << second->wrap(argv).back();
        EXPECT_TRUE(second->isRemote());
        EXPECT_NE(second->hostLabel().find("n2"), std::string::npos);
    }
    c.container = {};
    const sv::launcher::CommandBuilder plain(c, *profile, "/tmp/w");
    EXPECT_EQ(plain.rankExecutor(1)->wrap(argv), plain.executor(1)->wrap(argv));
    EXPECT_EQ(plain.rankExecutor(1)->hostLabel(), "n2");
}
