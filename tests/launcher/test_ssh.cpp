// Two sshd "nodes" on 127.0.0.1 and 127.0.0.2 (as root or a normal user): the CPU workload across
// them over SSH with mpirun, hosts that refuse or black-hole, a host that takes only passwords, a
// host whose key changed, a rank failing on the remote node, a node vanishing mid-run, and hostile
// argv through ssh -> remote shell -> mpirun -> ssh -> rank; and the session each host gives a run.

#include "tests/launcher/sshnodes.h"

#include "launcher/ssh/sshdiagnosis.h"

#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;
using sv::test::since;

namespace {

class Ssh : public sv::test::SshNodesTest {
  protected:
    Ssh() : SshNodesTest("ssh") {}
    void TearDown() override {
        ::unsetenv("SSH_ASKPASS");
        ::unsetenv("SSH_ASKPASS_REQUIRE");
        SshNodesTest::TearDown();
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
        c["variables"] = {{"image_size", "32"}, {"master_port", sv::test::ownRendezvousPort()}};
        return c;
    }
    std::string write(const json& c) {
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }

  public:
    std::vector<json> ends() const { return sv::test::journalEnds(m_dir + "/out"); }
    // `scaleview-cli run path`, given 180 s (each test has 240): should it not end by then, the
    // result says what every process was waiting on, and after a failure the journal and the
    // runs' logs follow the CLI's own words, so that a failure here explains itself.
    sv::test::ProcessResult runCampaign(const std::string& path) const {
        auto r = runProcess({kCli, "run", path}, std::chrono::seconds(180));
        if (r.exitCode == 0) return r;
        r.err += "\njournal.jsonl:\n" + sv::test::readWhole(m_dir + "/out/journal.jsonl");
        std::error_code ec;
        for (std::filesystem::recursive_directory_iterator it(m_dir + "/out", ec), end;
             !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".log")
                r.err += "\n" + it->path().string() + ":\n" + sv::test::readWhole(it->path());
        return r;
    }

  protected:
    // Should ssh ever ask for a password (BatchMode off), it would run this instead of failing:
    // the file it touches says so, and its sleeps (one per password prompt) outlast every time
    // limit below.
    std::string armAskpass() {
        const std::string asked = m_dir + "/askpass-was-run";
        std::ofstream(m_dir + "/askpass") << "#!/bin/sh\ntouch " << asked << "\nsleep 10\nexit 1\n";
        std::filesystem::permissions(m_dir + "/askpass", std::filesystem::perms::owner_all);
        ::setenv("SSH_ASKPASS", (m_dir + "/askpass").c_str(), 1);
        ::setenv("SSH_ASKPASS_REQUIRE", "force", 1);
        return asked;
    }
    // Live processes (ssh clients, askpass) whose command line names the nodes' ssh config or
    // this test's directory.
    std::vector<std::string> sshProcesses() const {
        std::vector<std::string> out;
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            std::string cmd = sv::test::readWhole((e.path() / "cmdline").string());
            if (cmd.find(m_nodes->config()) == std::string::npos &&
                cmd.find(m_dir + "/askpass") == std::string::npos)
                continue;
            const std::string stat = sv::test::readWhole((e.path() / "stat").string());
            const auto paren = stat.rfind(')');
            if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z')
                continue;
            for (char& c : cmd)
                if (c == '\0') c = ' ';
            out.push_back(e.path().filename().string() + " " + cmd);
        }
        return out;
    }
};

// The name of the login shell of the user the tests run as ("bash", "sh").
std::string loginShell() {
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? std::filesystem::path(pw->pw_shell).filename().string() : std::string();
}

// The line of text that starts with prefix; empty when none does.
std::string lineStartingWith(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0) return line;
    return {};
}

// The connect timeout of campaign() above; the bound for a failure that must come fast.
constexpr double kConnectTimeout = 3.0;

// What `run` of a one-host campaign said when ssh could not get onto that host.
struct Refusal {
    std::string out;    // the CLI's output
    std::string advice; // its advice line for the host, without the "[1/1] id: host: " prefix
    double seconds = 0;
};

// Runs the campaign at `path` and checks what every refused host must give: fast, exit code 255
// from ssh, failed on that host with ssh's words (`sshSays`) as the reason, nothing left, and the
// same advice in the CLI's output and the journal.
Refusal runRefusedBy(const Ssh& test, const std::string& path, const std::string& host,
                     const std::string& sshSays) {
    Refusal out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = test.runCampaign(path);
    out.seconds = since(t0);
    out.out = r.out;
    EXPECT_LT(out.seconds, kConnectTimeout + 5.0);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto e = test.ends();
    EXPECT_EQ(e.size(), 1u);
    if (e.size() != 1) return out;
    EXPECT_EQ(e[0]["state"], "failed");
    EXPECT_EQ(e[0]["exitCode"], 255);
    EXPECT_EQ(e[0]["host"], host);
    EXPECT_NE(e[0]["reason"].get<std::string>().find(sshSays), std::string::npos) << e[0].dump();
    EXPECT_TRUE(e[0]["leftover"].empty());
    const std::string prefix = "[1/1] " + e[0]["id"].get<std::string>() + ": " + host + ": ";
    const std::string line = lineStartingWith(r.out, prefix);
    EXPECT_FALSE(line.empty()) << r.out;
    out.advice = line.empty() ? std::string() : line.substr(prefix.size());
    // The journal holds the same advice, for the window and for whoever reads it later.
    EXPECT_EQ(e[0].value("advice", ""), out.advice);
    return out;
}

} // namespace

TEST_F(Ssh, TwoNodesRunTheCpuWorkloadOverSshWithMpirun) {
    const auto path = write(campaign({"node1", "node2"}, "2n1g"));
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 0) << pre.out << pre.err;
    EXPECT_NE(pre.out.find("node2: torch"), std::string::npos) << pre.out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runCampaign(path);
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
    const auto r = runCampaign(path);
    EXPECT_LT(since(t0), 60.0);
    EXPECT_EQ(r.exitCode, 1);
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed");
    EXPECT_EQ(e[0]["exitCode"], 255);
    EXPECT_EQ(e[0]["host"], "refused");
    // ssh's words, not the host's name (which is "refused" too).
    EXPECT_NE(e[0]["reason"].get<std::string>().find("Connection refused"), std::string::npos)
        << e[0].dump();
}

TEST_F(Ssh, BlackHoledHostFailsWithinTheConnectTimeout) {
    const auto path = write(campaign({"blackhole"}, "1n1g"));
    auto t0 = std::chrono::steady_clock::now();
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_LT(since(t0), 30.0);
    EXPECT_EQ(pre.exitCode, 1);
    EXPECT_NE(pre.out.find("FAIL blackhole: ssh"), std::string::npos) << pre.out;
    t0 = std::chrono::steady_clock::now();
    const auto r = runCampaign(path);
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
    const auto r = runCampaign(write(c));
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
    for (int i = 0; i < 300 && sv::test::readWhole(log).find("[1,1]<stderr>") == std::string::npos;
         ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_NE(sv::test::readWhole(log).find("[1,1]<stderr>"), std::string::npos)
        << sv::test::readWhole(m_dir + "/cli.log");
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
    const auto r = runCampaign(write(campaign({"node1", "node2"}, "2n1g", m_dir + "/argv.json")));
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
        const std::string dump = sv::test::readWhole(m_dir + "/argv." + std::to_string(rank));
        ASSERT_FALSE(dump.empty()) << "rank " << rank << " wrote nothing\n" << r.out << r.err;
        EXPECT_EQ(json::parse(dump).get<std::vector<std::string>>(), expected)
            << "rank " << rank << " (node" << rank + 1 << ")";
    }
    EXPECT_FALSE(std::filesystem::exists("/tmp/sv-pwned"));
}

TEST_F(Ssh, PasswordOnlyHostFailsFastSayingKeyAuthenticationWasRefused) {
    const std::string asked = armAskpass();
    const auto path = write(campaign({"passwordonly"}, "1n1g"));
    auto t0 = std::chrono::steady_clock::now();
    const auto pre = runProcess({kCli, "preflight", path});
    const double preSeconds = since(t0);
    EXPECT_LT(preSeconds, kConnectTimeout + 3.0);
    EXPECT_EQ(pre.exitCode, 1) << pre.out << pre.err;
    const std::string fail = lineStartingWith(pre.out, "FAIL passwordonly: ssh: SSH failed (");
    ASSERT_FALSE(fail.empty()) << pre.out;
    EXPECT_NE(fail.find(sv::test::currentUser() + "@127.0.0.1: Permission denied (password)."),
              std::string::npos)
        << fail;
    EXPECT_NE(fail.find("key authentication was refused by passwordonly"), std::string::npos)
        << fail;
    EXPECT_NE(fail.find("PubkeyAuthentication yes"), std::string::npos) << fail;
    EXPECT_NE(fail.find("ssh-copy-id -F " + m_nodes->config() + " passwordonly"), std::string::npos)
        << fail;
    EXPECT_NE(fail.find("User and IdentityFile for passwordonly"), std::string::npos) << fail;
    EXPECT_TRUE(sshProcesses().empty());

    const Refusal r = runRefusedBy(*this, path, "passwordonly", "Permission denied (password)");
    EXPECT_NE(r.advice.find("key authentication was refused by passwordonly"), std::string::npos)
        << r.out;
    EXPECT_NE(r.advice.find("ssh-copy-id -F " + m_nodes->config() + " passwordonly"),
              std::string::npos)
        << r.out;
    // Never a prompt: ssh did not ask (the askpass would have said so) and nothing lingers.
    EXPECT_FALSE(std::filesystem::exists(asked));
    EXPECT_TRUE(sshProcesses().empty());
    std::printf("preflight %.1f s, run %.1f s\n%s%s", preSeconds, r.seconds, pre.out.c_str(),
                r.out.c_str());
}

TEST_F(Ssh, ChangedHostKeyIsRefusedKnownHostsKeptAndTheAdviceIsToVerifyThenRemove) {
    const std::string asked = armAskpass();
    const std::string entry = "[127.0.0.1]:" + std::to_string(m_nodes->changedKeyPort());
    const std::string before = sv::test::readWhole(m_nodes->knownHosts());
    ASSERT_NE(before.find(entry + " ssh-ed25519 "), std::string::npos) << before;
    // What the sshd presents, which is not what known_hosts holds for it.
    const auto print = runProcess({"/usr/bin/ssh-keygen", "-l", "-f", m_nodes->dir() + "/hostkey"});
    const auto sha = print.out.find("SHA256:");
    ASSERT_NE(sha, std::string::npos) << print.out;
    const std::string fingerprint = print.out.substr(sha, print.out.find(' ', sha) - sha);
    const std::string removeWith =
        "ssh-keygen -f \"" + m_nodes->knownHosts() + "\" -R \"" + entry + "\"";
    const auto path = write(campaign({"changedkey"}, "1n1g"));

    auto t0 = std::chrono::steady_clock::now();
    const auto pre = runProcess({kCli, "preflight", path});
    const double preSeconds = since(t0);
    EXPECT_LT(preSeconds, kConnectTimeout + 3.0);
    EXPECT_EQ(pre.exitCode, 1) << pre.out << pre.err;
    const std::string fail = lineStartingWith(pre.out, "FAIL changedkey: ssh: SSH failed (");
    ASSERT_FALSE(fail.empty()) << pre.out;
    EXPECT_NE(fail.find("Host key verification failed."), std::string::npos) << fail;
    EXPECT_NE(fail.find("the host key of changedkey changed"), std::string::npos) << fail;
    EXPECT_NE(fail.find(m_nodes->knownHosts() + ":1"), std::string::npos) << fail;
    EXPECT_NE(fail.find("Verify the new key"), std::string::npos) << fail;
    EXPECT_NE(fail.find(fingerprint), std::string::npos) << fail << "\n" << fingerprint;
    EXPECT_NE(fail.find("remove the old entry with: " + removeWith), std::string::npos) << fail;
    EXPECT_EQ(sv::test::readWhole(m_nodes->knownHosts()), before);
    EXPECT_TRUE(sshProcesses().empty());

    const Refusal r = runRefusedBy(*this, path, "changedkey", "Host key verification failed");
    EXPECT_NE(r.advice.find("the host key of changedkey changed"), std::string::npos) << r.out;
    EXPECT_NE(r.advice.find("remove the old entry with: " + removeWith), std::string::npos)
        << r.out;
    // Refused, never accepted: not a byte of known_hosts changed, and checking stays on.
    EXPECT_EQ(sv::test::readWhole(m_nodes->knownHosts()), before);
    for (const std::string& text : {pre.out, r.out})
        for (const char* off : {"StrictHostKeyChecking=no", "StrictHostKeyChecking no",
                                "UserKnownHostsFile=/dev/null", "UserKnownHostsFile /dev/null"})
            EXPECT_EQ(text.find(off), std::string::npos) << off << " in\n" << text;
    EXPECT_FALSE(std::filesystem::exists(asked));
    EXPECT_TRUE(sshProcesses().empty());
    std::printf("preflight %.1f s, run %.1f s\n%s%s", preSeconds, r.seconds, pre.out.c_str(),
                r.out.c_str());
}

// The run's log may be gone or cut: ssh's last line alone still says what to do.
TEST(SshDiagnosis, LastLineAloneStillNamesTheHostAndTheFix) {
    const sv::launcher::Host host{"gpu7", {}, 2222, "bench", 8};
    const auto key = sv::launcher::diagnoseSsh(
        "bench@10.0.0.7: Permission denied (publickey,password).\n", host, "");
    EXPECT_EQ(key.failure, sv::launcher::SshFailure::KeyRefused);
    EXPECT_NE(key.advice.find("key authentication was refused by gpu7 (it accepts "
                              "publickey,password, but not the key offered)"),
              std::string::npos)
        << key.advice;
    EXPECT_NE(key.advice.find("ssh-copy-id -p 2222 bench@gpu7"), std::string::npos) << key.advice;
    const auto changed = sv::launcher::diagnoseSsh(
        "exit code 255 (host gpu7): Host key verification failed.", host, "");
    EXPECT_EQ(changed.failure, sv::launcher::SshFailure::HostKeyChanged);
    EXPECT_NE(changed.advice.find("ssh-keygen -R '[gpu7]:2222'"), std::string::npos)
        << changed.advice;
    // Not a host key that changed: one never recorded, under StrictHostKeyChecking=yes.
    EXPECT_EQ(sv::launcher::diagnoseSsh("No ED25519 host key is known for gpu7 and you have "
                                        "requested strict checking.\nHost key verification "
                                        "failed.\n",
                                        host, "")
                  .failure,
              sv::launcher::SshFailure::Other);
    EXPECT_EQ(sv::launcher::diagnoseSsh("sh: 1: ./run: Permission denied\n", host, "").failure,
              sv::launcher::SshFailure::Other);
}

TEST_F(Ssh, EachHostRunsTheRunInASessionOfItsOwn) {
    // Each rank says which session and process group it is in. On every host the run's
    // processes must be in a session made for this run: its leader (mpirun, or the orted that
    // mpirun starts over ssh) a child of sshd's connection, not sshd's own session and not this
    // test's; and each rank in a process group of its own or of that session.
    json profile{
        {"name", "ids"}, {"model", "r50"}, {"logRoot", "logs/ids"}, {"defaultLauncher", "mpirun"}};
    profile["launchers"]["mpirun"] = {
        "mpirun",  "--tag-output", "--allow-run-as-root", "--oversubscribe", "-np",
        "{ranks}", "-H",           "{host_slots}",        "{mpi_env}",       "{mpi_ssh_agent}"};
    profile["program"] = {"/usr/bin/python3", sv::test::kFake, "--ids-dump", m_dir + "/ids"};
    profile["args"] = {"--iterations", "{iterations}", "--batch", "{batch}"};
    std::ofstream(m_dir + "/ids.json") << profile.dump();
    const auto r = runCampaign(write(campaign({"node1", "node2"}, "2n1g", m_dir + "/ids.json")));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    std::vector<int> sessions;
    for (int rank = 0; rank < 2; ++rank) {
        const auto ids = json::parse(sv::test::readWhole(m_dir + "/ids." + std::to_string(rank)));
        const std::string leader = ids["leader"];
        // Under an sh or ksh login shell Open MPI starts orted inside "( . ./.profile; ...
        // orted ...)", so that shell, which sshd started for this connection, leads.
        EXPECT_TRUE(leader == "orted" || leader == "mpirun" || leader == loginShell())
            << "rank " << rank << ": " << ids.dump();
        EXPECT_EQ(ids["leaderParent"], "sshd") << "rank " << rank << ": " << ids.dump();
        EXPECT_TRUE(ids["pgid"] == ids["pid"] || ids["pgid"] == ids["sid"]) << ids.dump();
        EXPECT_NE(ids["sid"].get<int>(), static_cast<int>(::getsid(0)));
        sessions.push_back(ids["sid"].get<int>());
    }
    // One session per host: each node's part of the run came through its own ssh connection.
    EXPECT_NE(sessions[0], sessions[1]);
}
