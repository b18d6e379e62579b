// The seed's topology in containers, for real: two sshd "nodes" (127.0.0.1, 127.0.0.2), a
// private dockerd, one container per node started over SSH, an sshd inside each on its node's
// address and port 10001 started by the launcher with the campaign's keys, and mpirun inside
// container 1 reaching container 2 through it; cancel; and preflight over SSH on each node.
// Every test binds port 10001 on both addresses: ctest runs them one at a time (RESOURCE_LOCK).

#include "tests/launcher/dockerd.h"
#include "tests/launcher/sshnodes.h"

#include <csignal>
#include <sys/socket.h>
#include <sys/un.h>
#include <filesystem>
#include <map>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

using nlohmann::json;
using sv::test::kCli;
using sv::test::readWhole;
using sv::test::runProcess;
namespace fs = std::filesystem;

namespace {

// Where the fake workload is inside the containers (and nowhere on this machine: a rank that
// ran outside a container could not start).
const std::string kInside = "/sv-test-inside";

class ContainersOverSsh : public sv::test::SshNodesTest {
  protected:
    ContainersOverSsh() : SshNodesTest("containerssh") {}
    void SetUp() override {
        ASSERT_FALSE(fs::exists(kInside));
        SshNodesTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        m_dockerd = std::make_unique<sv::test::PrivateDockerd>();
        if (!m_dockerd->skipReason().empty()) GTEST_SKIP() << m_dockerd->skipReason();
        m_out = m_dir + "/out";
    }
    void TearDown() override {
        m_dockerd.reset(); // removes what is left, stops dockerd by its pid
        SshNodesTest::TearDown();
    }

    // The fake workload under mpirun, started inside container 1; program: what follows python3.
    std::string profile(const std::vector<std::string>& program) const {
        json p = {{"name", "fake-container"},
                  {"label", "fake workload (tests)"},
                  {"model", "r50"},
                  {"logRoot", "logs/fake"},
                  {"containerArgs", {"--net=host", "--ipc=host", "--tmpfs=/tmp"}},
                  {"defaultLauncher", "mpirun"},
                  {"launchers",
                   {{"mpirun",
                     {"mpirun", "--tag-output", "--allow-run-as-root", "--oversubscribe", "-np",
                      "{ranks}", "-H", "{host_slots}", "{mpi_env}", "{mpi_ssh_agent}"}}}},
                  {"program", {"/usr/bin/python3", kInside + "/fakeworkload.py"}},
                  {"args", {"--iterations", "{iterations}", "--batch", "{batch}"}}};
        for (const auto& a : program)
            p["program"].push_back(a);
        const std::string path = m_dir + "/profile.json";
        std::ofstream(path) << p.dump(2);
        return path;
    }

    // Both nodes, a container of the empty image on each with the host's programs read-only and
    // the fake workload's folder at kInside. DOCKER_HOST does not travel over ssh: "host" does.
    json campaign(const std::vector<std::string>& program, bool keep = false) const {
        json mounts = json::array();
        for (const char* d : {"/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"})
            if (fs::exists(d)) mounts.push_back(std::string(d) + ":" + d + ":ro");
        mounts.push_back(fs::path(sv::test::kFake).parent_path().string() + ":" + kInside + ":ro");
        return {{"profile", profile(program)},
                {"hosts",
                 {{{"name", "node1"}, {"address", "127.0.0.1"}, {"gpus", 1}},
                  {{"name", "node2"}, {"address", "127.0.0.2"}, {"gpus", 1}}}},
                {"container",
                 {{"runtime", "docker"},
                  {"image", "sv/empty:1"},
                  {"program", sv::test::kDocker},
                  {"host", m_dockerd->host()},
                  {"mounts", mounts},
                  {"keep", keep}}},
                {"topologies", {"2n1g"}},
                {"batchSizes", {2}},
                {"repeats", 1},
                {"iterations", 10},
                {"warmup", 2},
                {"cooldownSeconds", 0},
                {"connectTimeoutSeconds", 3},
                {"aliveIntervalSeconds", 1},
                {"aliveCountMax", 3},
                {"graceSeconds", 1},
                {"sshConfig", m_nodes->config()},
                {"outputDir", m_out}};
    }
    std::string write(const json& c, const std::string& name = "campaign.json") const {
        const std::string path = m_dir + "/" + name;
        std::ofstream(path) << c.dump(2);
        return path;
    }

    std::vector<json> containerRecords() const {
        std::vector<json> out;
        std::istringstream in(readWhole(m_out + "/journal.jsonl"));
        for (std::string line; std::getline(in, line);) {
            auto j = json::parse(line, nullptr, false);
            if (!j.is_discarded() && j["event"] == "container") out.push_back(j);
        }
        return out;
    }

    // The command lines of the processes running in a container (docker top).
    std::vector<std::string> processesIn(const std::string& container) const {
        std::vector<std::string> out;
        // docker top wants the pid column; the command line follows it.
        std::istringstream in(m_dockerd->docker({"top", container, "-o", "pid,args"}).out);
        std::string line;
        std::getline(in, line); // the header
        while (std::getline(in, line)) {
            const auto args = line.find_first_not_of(' ', line.find_first_of(' '));
            if (args != std::string::npos) out.push_back(line.substr(args));
        }
        return out;
    }
    static bool isSleepOrSshdListener(const std::string& args) {
        return args == "sleep infinity" || (args.find("sshd") != std::string::npos &&
                                            args.find("/ssh/sshd_config") != std::string::npos);
    }

    // Live processes on this machine whose command line names the campaign's ssh folder.
    std::vector<std::string> campaignSshProcesses() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator("/proc")) {
            std::string cmd = readWhole((e.path() / "cmdline").string());
            if (cmd.find(m_out + "/ssh") == std::string::npos) continue;
            for (char& c : cmd)
                if (c == '\0') c = ' ';
            out.push_back(e.path().filename().string() + " " + cmd);
        }
        return out;
    }

    std::unique_ptr<sv::test::PrivateDockerd> m_dockerd;
    std::string m_out;
};

} // namespace

TEST_F(ContainersOverSsh, TwoNodesRunInsideContainersThatReachEachOtherThroughTheirOwnSshd) {
    const auto r = runProcess({kCli, "run", write(campaign({}))});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << readWhole(m_out + "/journal.jsonl");
    const auto ends = sv::test::journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    // Both ranks' lines, read back from the log.
    const std::string log = readWhole(ends[0]["log"].get<std::string>());
    for (const char* rank : {"[1,0]<stderr>:", "[1,1]<stderr>:"}) {
        int speeds = 0;
        std::istringstream in(log);
        for (std::string line; std::getline(in, line);)
            speeds += line.rfind(rank, 0) == 0 && line.find("Speed: ") != std::string::npos;
        EXPECT_EQ(speeds, 10) << rank << "\n" << log;
    }
    // One container per node, started over SSH, and an sshd in each on its node's address: rank 1
    // came through container 2's (mpirun's ssh to 127.0.0.2 port 10001, where only it listens;
    // the workload's path exists only inside the containers).
    const auto records = containerRecords();
    ASSERT_EQ(records.size(), 4u) << readWhole(m_out + "/journal.jsonl");
    std::map<std::string, std::string> started;
    for (const auto& rec : records)
        if (rec["action"] == "started") started[rec["host"]] = rec["id"];
    ASSERT_EQ(started.size(), 2u);
    EXPECT_NE(started["node1"], started["node2"]);
    for (const auto& [host, address] :
         {std::pair<std::string, std::string>{"node1", "127.0.0.1"}, {"node2", "127.0.0.2"}})
        EXPECT_NE(r.err.find("started sshd in the container " + started[host] + " on " + host +
                             ", listening at " + address + " port 10001"),
                  std::string::npos)
            << r.err;
    // At the end: no container, no sshd, no key, here or in either container.
    EXPECT_TRUE(m_dockerd->containers().empty());
    EXPECT_FALSE(fs::exists(m_out + "/ssh"));
    EXPECT_TRUE(campaignSshProcesses().empty());
    EXPECT_NE(r.err.find("removed the campaign's ssh keys (" + m_out + "/ssh) on every host"),
              std::string::npos)
        << r.err;
}

// The seed's topology with the real workload: ResNet-50 (PyTorch, gloo) in a container on each
// of the two nodes, mpirun in container 1 starting rank 1 in container 2 through its sshd.
TEST_F(ContainersOverSsh, TwoNodesRunTheLocalWorkloadInsideTheContainers) {
    json c = campaign({});
    c["profile"] = "local-cpu-rn50";
    c["variables"] = {{"image_size", "32"}};
    c["iterations"] = 6;
    // The profile's own flags give the host's network (--net=host); the empty image has no /tmp.
    c["container"]["runArgs"] = {"--tmpfs=/tmp"};
    const auto r = runProcess({kCli, "run", write(c)});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err << readWhole(m_out + "/journal.jsonl");
    const auto ends = sv::test::journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "ok") << ends[0].dump();
    const std::string log = readWhole(ends[0]["log"].get<std::string>());
    EXPECT_NE(log.find("rank 1 of 2"), std::string::npos) << log;
    for (const char* rank : {"[1,0]<stderr>:", "[1,1]<stderr>:"}) {
        int speeds = 0;
        std::istringstream in(log);
        for (std::string line; std::getline(in, line);)
            speeds += line.rfind(rank, 0) == 0 && line.find("Speed: ") != std::string::npos;
        EXPECT_EQ(speeds, 6) << rank << "\n" << log;
    }
    EXPECT_TRUE(m_dockerd->containers().empty());
    EXPECT_TRUE(campaignSshProcesses().empty());
}

TEST_F(ContainersOverSsh, CancelMidRunLeavesNothingRunningInEitherContainer) {
    const pid_t cli = sv::test::spawn(
        {kCli, "run", write(campaign({"--ignore-term-fork", "--hang"}, /*keep=*/true))},
        m_dir + "/cli.log");
    // Up when each container runs a rank of the workload: rank 1 in container 2, reached through
    // its sshd.
    const auto t0 = std::chrono::steady_clock::now();
    auto ranksUp = [&] {
        const auto names = m_dockerd->containers();
        int up = 0;
        for (const auto& n : names)
            for (const auto& p : processesIn(n))
                if (p.find("fakeworkload.py") != std::string::npos) {
                    ++up;
                    break;
                }
        return names.size() == 2 && up == 2;
    };
    while (!ranksUp() && sv::test::since(t0) < 60.0)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(ranksUp()) << readWhole(m_dir + "/cli.log");
    ::kill(cli, SIGTERM);
    int status = 0;
    ::waitpid(cli, &status, 0);
    EXPECT_EQ(WEXITSTATUS(status), 130) << readWhole(m_dir + "/cli.log");
    const auto ends = sv::test::journalEnds(m_out);
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0]["state"], "cancelled");
    EXPECT_TRUE(ends[0]["leftover"].empty()) << ends[0].dump();
    // Kept: both containers are still there, and each runs its sleep and its sshd, nothing else
    // (what mpirun's ssh session left in container 2 included).
    const auto names = m_dockerd->containers();
    ASSERT_EQ(names.size(), 2u);
    for (const auto& n : names) {
        std::vector<std::string> others;
        auto onlyOwn = [&] {
            others.clear();
            for (const auto& p : processesIn(n))
                if (!isSleepOrSshdListener(p)) others.push_back(p);
            return others.empty();
        };
        const auto t1 = std::chrono::steady_clock::now();
        while (!onlyOwn() && sv::test::since(t1) < 10.0)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_TRUE(others.empty()) << n << ": " << json(others).dump();
        EXPECT_EQ(processesIn(n).size(), 2u) << n << ": " << json(processesIn(n)).dump();
    }
    // The keys stay with the kept containers' sshd, and the CLI says how to remove them.
    EXPECT_TRUE(fs::exists(m_out + "/ssh/host_ed25519"));
    EXPECT_NE(readWhole(m_dir + "/cli.log").find("kept the campaign's ssh keys in " + m_out),
              std::string::npos)
        << readWhole(m_dir + "/cli.log");
}

TEST_F(ContainersOverSsh, PreflightChecksDockerTheImageTheMountsAndSshdOnEveryNodeOverSsh) {
    // Each preflight opens a dozen ssh sessions per node at once: on a loaded 2-core machine
    // (ctest -j3) a handshake can take longer than the other tests' 3 s connect timeout.
    const auto preflight = [&](json c) {
        c["connectTimeoutSeconds"] = 30;
        return runProcess({kCli, "preflight", write(c)});
    };
    const auto fine = preflight(campaign({}));
    EXPECT_EQ(fine.exitCode, 0) << fine.out << fine.err;
    for (const char* node : {"node1", "node2"}) {
        const std::string n = node;
        for (const std::string& line : {"ok   " + n + ": docker: docker 20.",
                                        "ok   " + n + ": image: image sv/empty:1 present",
                                        "ok   " + n + ": mount: mount source /usr present",
                                        "ok   " + n + ": sshd: sshd /usr/sbin/sshd in the image"})
            EXPECT_NE(fine.out.find(line), std::string::npos) << line << "\n" << fine.out;
    }
    EXPECT_FALSE(fs::exists(m_out)); // preflight creates nothing

    json absent = campaign({});
    absent["container"]["image"] = "sv/absent:1";
    const auto noImage = preflight(absent);
    EXPECT_NE(noImage.exitCode, 0);
    EXPECT_NE(noImage.out.find("FAIL node2: image: image sv/absent:1 is not on node2"),
              std::string::npos)
        << noImage.out;

    // A socket on the nodes that exists and refuses: bound, never listening.
    const std::string refused = m_dir + "/refused.sock";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", refused.c_str());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    json noDaemon = campaign({});
    noDaemon["container"]["host"] = "unix://" + refused;
    const auto noDocker = preflight(noDaemon);
    ::close(fd);
    EXPECT_NE(noDocker.exitCode, 0);
    EXPECT_NE(noDocker.out.find("FAIL node1: docker: docker is not reachable at unix://" + refused),
              std::string::npos)
        << noDocker.out;

    // A mount whose source is not on the nodes.
    json noSource = campaign({});
    noSource["container"]["mounts"].push_back(m_dir + "/no-such-data:/data");
    const auto noMount = preflight(noSource);
    EXPECT_NE(noMount.exitCode, 0);
    EXPECT_NE(noMount.out.find("FAIL node2: mount: mount source " + m_dir +
                               "/no-such-data does not exist on node2: create it there"),
              std::string::npos)
        << noMount.out;
    EXPECT_FALSE(fs::exists(m_dir + "/no-such-data")); // the checks' containers made none

    // An image without sshd: an empty folder over /usr/sbin hides the host's (and /sbin, its
    // symlink on a merged /usr, is left out).
    fs::create_directories(m_dir + "/empty");
    json withoutSshd = campaign({});
    json mounts = json::array();
    for (const auto& m : withoutSshd["container"]["mounts"])
        if (m != "/sbin:/sbin:ro") mounts.push_back(m);
    mounts.push_back(m_dir + "/empty:/usr/sbin:ro");
    withoutSshd["container"]["mounts"] = mounts;
    const auto noSshd = preflight(withoutSshd);
    EXPECT_NE(noSshd.exitCode, 0);
    for (const char* node : {"node1", "node2"})
        EXPECT_NE(noSshd.out.find(std::string("FAIL ") + node +
                                  ": sshd: the image sv/empty:1 has no sshd"),
                  std::string::npos)
            << noSshd.out;
    EXPECT_NE(noSshd.out.find("install openssh-server in the image"), std::string::npos);
}
