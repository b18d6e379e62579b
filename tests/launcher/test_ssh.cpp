// Two sshd "nodes" on 127.0.0.1 and 127.0.0.2 (needs root): the CPU workload across them over
// SSH with mpirun, hosts that refuse or black-hole, a rank failing on the remote node, a node
// vanishing mid-run, and hostile argv through ssh -> remote shell -> mpirun -> ssh -> rank.

#include "sshnodes.h"

#include <chrono>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;

namespace {

class Ssh : public ::testing::Test {
  protected:
    void SetUp() override {
        if (::geteuid() != 0) GTEST_SKIP() << "sshd nodes need root (CI runs as root)";
        m_nodes = std::make_unique<sv::test::SshNodes>();
        ASSERT_TRUE(m_nodes->ready()) << sv::test::readFile(m_nodes->dir() + "/sshd1.log");
        m_dir = sv::test::tempDir("ssh");
    }
    void TearDown() override {
        if (!m_dir.empty()) {
            EXPECT_TRUE(sv::test::leftoverOf(m_dir + "/out").empty());
            std::filesystem::remove_all(m_dir);
        }
        m_nodes.reset();
    }
    json campaign(std::vector<std::string> hosts, const std::string& topology,
                  const std::string& profile = "local-cpu-rn50") {
        json c;
        c["profile"] = profile;
        c["hosts"] = json::array();
        for (const auto& h : hosts) {
            json host{{"name", h}, {"gpus", 1}};
            if (h == "node1") host["address"] = "127.0.0.1";
            if (h == "node2") host["address"] = "127.0.0.2";
            c["hosts"].push_back(host);
        }
        c["topologies"] = {topology};
        c["batchSizes"] = {2};
        c["repeats"] = 1;
        c["iterations"] = 10;
        c["warmup"] = 2;
        c["cooldownSeconds"] = 0;
        c["connectTimeoutSeconds"] = 3;
        c["aliveIntervalSeconds"] = 1;
        c["aliveCountMax"] = 3;
        c["graceSeconds"] = 1;
        c["sshConfig"] = m_nodes->config();
        c["outputDir"] = m_dir + "/out";
        c["variables"] = {{"image_size", "32"},
                          {"master_port", "29611"}}; // apart from the local test's 29500
        return c;
    }
    std::string write(const json& c) {
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }
    std::vector<json> ends() const {
        std::vector<json> out;
        std::istringstream in(sv::test::readFile(m_dir + "/out/journal.jsonl"));
        std::string line;
        while (std::getline(in, line)) {
            auto j = json::parse(line, nullptr, false);
            if (!j.is_discarded() && j["event"] == "end") out.push_back(j);
        }
        return out;
    }
    std::unique_ptr<sv::test::SshNodes> m_nodes;
    std::string m_dir;
};

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST_F(Ssh, TwoNodesRunTheCpuWorkloadOverSshWithMpirun) {
    const auto path = write(campaign({"node1", "node2"}, "2n1g"));
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 0) << pre.out << pre.err;
    EXPECT_NE(pre.out.find("node2: torch"), std::string::npos) << pre.out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    std::printf("2n1g over ssh: %.1f s\n", since(t0));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto s = runProcess({kCli, "summarize", m_dir + "/out", "--warmup", "2", "--iterations",
                               "10", "--format", "json"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto j = json::parse(s.out);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_EQ(j["runs"][0]["status"], "complete");
    EXPECT_EQ(j["runs"][0]["topology"], "2n1g");
    EXPECT_EQ(j["runs"][0]["speed_lines"], 20);
    // Environment captured from both hosts.
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(m_dir + "/out/environment"))
        files += e.path().extension() == ".txt";
    EXPECT_EQ(files, 2);
}

TEST_F(Ssh, RefusingHostFailsFastNamingTheHost) {
    const auto path = write(campaign({"refused"}, "1n1g"));
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 1);
    EXPECT_NE(pre.out.find("FAIL refused: ssh: SSH failed"), std::string::npos) << pre.out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    EXPECT_LT(since(t0), 60.0);
    EXPECT_EQ(r.exitCode, 1);
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed");
    EXPECT_EQ(e[0]["exitCode"], 255);
    EXPECT_EQ(e[0]["host"], "refused");
    EXPECT_NE(e[0]["reason"].get<std::string>().find("refused"), std::string::npos) << e[0].dump();
}

TEST_F(Ssh, BlackHoledHostFailsWithinTheConnectTimeout) {
    const auto path = write(campaign({"blackhole"}, "1n1g"));
    auto t0 = std::chrono::steady_clock::now();
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_LT(since(t0), 30.0);
    EXPECT_EQ(pre.exitCode, 1);
    EXPECT_NE(pre.out.find("FAIL blackhole: ssh"), std::string::npos) << pre.out;
    t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    EXPECT_LT(since(t0), 60.0);
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed");
    EXPECT_EQ(e[0]["host"], "blackhole");
}

TEST_F(Ssh, RankFailingOnTheRemoteNodeNamesThatNode) {
    const auto profile = sv::test::writeFakeProfile(
        m_dir, {"--fail-rank", "1", "--fail-at", "3", "--interval", "0.05"});
    auto c = campaign({"node1", "node2"}, "2n1g", profile);
    c["iterations"] = 40;
    const auto r = runProcess({kCli, "run", write(c)});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed");
    EXPECT_EQ(e[0]["host"], "node2") << e[0].dump();
    EXPECT_TRUE(e[0]["leftover"].empty());
}

TEST_F(Ssh, NodeVanishingMidRunEndsTheRunFailedWithoutHanging) {
    const auto profile = sv::test::writeFakeProfile(m_dir, {"--interval", "0.2"});
    auto c = campaign({"node1", "node2"}, "2n1g", profile);
    c["iterations"] = 600;
    const std::string path = write(c);
    const pid_t cli = sv::test::spawn({kCli, "run", path}, m_dir + "/cli.log");
    const std::string log = m_dir + "/out/logs/fake/bz2/2n1g/r50_b2_fp32_1.log";
    for (int i = 0; i < 300 && sv::test::readFile(log).find("[1,1]<stderr>") == std::string::npos;
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_NE(sv::test::readFile(log).find("[1,1]<stderr>"), std::string::npos)
        << sv::test::readFile(m_dir + "/cli.log");
    const auto t0 = std::chrono::steady_clock::now();
    m_nodes->killNode(1);
    int status = 0;
    for (int i = 0; i < 600 && ::waitpid(cli, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::printf("node loss detected and run ended in %.1f s\n", since(t0));
    EXPECT_LT(since(t0), 60.0);
    if (::waitpid(cli, &status, WNOHANG) == 0) {
        ::kill(cli, SIGKILL);
        ::waitpid(cli, &status, 0);
        FAIL() << "runner hung after the node vanished";
    }
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed") << e[0].dump();
}

TEST_F(Ssh, HostileArgvArrivesByteIdenticalThroughEveryHop) {
    const std::vector<std::string> hostile = {"a b",   "'",     "\"",      "$(touch /tmp/sv-pwned)",
                                              "`id`",  ";|&",   "*",       "a\nb",
                                              "-x",    "--",    "ü€ 漢字", "",
                                              "\\",    "$HOME", "'\"'\"'", "!",
                                              "~root", "#x",    "=a",      "%s"};
    json profile{{"name", "argv"},
                 {"model", "r50"},
                 {"logRoot", "logs/argv"},
                 {"defaultLauncher", "mpirun"}};
    profile["launchers"]["mpirun"] = {
        "mpirun",  "--tag-output", "--allow-run-as-root", "--oversubscribe", "-np",
        "{ranks}", "-H",           "{host_slots}",        "{mpi_env}",       "{mpi_ssh_agent}"};
    json program = {"/usr/bin/python3", sv::test::kFake, "--argv-dump", m_dir + "/argv"};
    for (const auto& h : hostile)
        program.push_back(h);
    profile["program"] = program;
    std::ofstream(m_dir + "/argv.json") << profile.dump();
    const auto r = runProcess(
        {kCli, "run", write(campaign({"node1", "node2"}, "2n1g", m_dir + "/argv.json"))});
    std::vector<std::string> expected;
    for (const auto& h : hostile) {
        std::string hex;
        for (unsigned char ch : h) {
            char b[3];
            std::snprintf(b, sizeof b, "%02x", ch);
            hex += b;
        }
        expected.push_back(hex);
    }
    for (int rank = 0; rank < 2; ++rank) {
        const std::string dump = sv::test::readFile(m_dir + "/argv." + std::to_string(rank));
        ASSERT_FALSE(dump.empty()) << "rank " << rank << " wrote nothing\n" << r.out << r.err;
        EXPECT_EQ(json::parse(dump).get<std::vector<std::string>>(), expected)
            << "rank " << rank << " (node" << rank + 1 << ")";
    }
    EXPECT_FALSE(std::filesystem::exists("/tmp/sv-pwned"));
}
