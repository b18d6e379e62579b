// Hosts named only as ssh_config aliases (no address given), over the two sshd nodes: the ranks
// meet at the alias's HostName; an alias whose HostName resolves nowhere (a node reached through
// a ProxyCommand, as behind a bastion) fails in preflight naming it, and a run started anyway
// ends within seconds saying why, not at the start timeout.

#include "tests/launcher/sshnodes.h"

#include <chrono>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;
using sv::test::since;

namespace {

class SshAlias : public sv::test::SshNodesTest {
  protected:
    SshAlias() : SshNodesTest("sshalias") {}
    // Hosts by name only: what the address is, only the ssh config says.
    std::string write(const std::vector<std::string>& hosts, int startTimeoutSeconds = 600) {
        json c;
        c["profile"] = "local-cpu-rn50";
        c["hosts"] = json::array();
        for (const auto& h : hosts)
            c["hosts"].push_back({{"name", h}, {"gpus", 1}});
        c["topologies"] = {"2n1g"};
        c["batchSizes"] = {2};
        c["repeats"] = 1;
        c["iterations"] = 10;
        c["warmup"] = 2;
        c["cooldownSeconds"] = 0;
        c["startTimeoutSeconds"] = startTimeoutSeconds;
        c["connectTimeoutSeconds"] = 3;
        c["aliveIntervalSeconds"] = 1;
        c["aliveCountMax"] = 3;
        c["graceSeconds"] = 1;
        c["sshConfig"] = m_nodes->config();
        c["outputDir"] = m_dir + "/out";
        c["variables"] = {{"image_size", "32"}, {"master_port", sv::test::ownRendezvousPort()}};
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }
    std::vector<json> ends() const { return sv::test::journalEnds(m_dir + "/out"); }
    // The start records' commands, one line each.
    std::vector<std::string> startedCommands() const {
        std::vector<std::string> out;
        std::istringstream in(sv::test::readWhole(m_dir + "/out/journal.jsonl"));
        std::string line;
        while (std::getline(in, line)) {
            const auto j = json::parse(line, nullptr, false);
            if (j.is_discarded() || j["event"] != "start") continue;
            std::string cmd;
            for (const auto& a : j["command"])
                cmd += a.get<std::string>() + " ";
            out.push_back(cmd);
        }
        return out;
    }
};

std::string lineStartingWith(const std::string& text, const std::string& prefix) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0) return line;
    return {};
}

} // namespace

TEST_F(SshAlias, TwoNodesNamedByAliasMeetAtTheirHostName) {
    // node2 first: the master address is 127.0.0.2, which nothing but node2's HostName gives.
    const auto path = write({"node2", "node1"});
    const auto dry = runProcess({kCli, "run", path, "--dry-run"});
    ASSERT_EQ(dry.exitCode, 0) << dry.out << dry.err;
    EXPECT_NE(dry.out.find("--master-addr 127.0.0.2 "), std::string::npos) << dry.out;
    EXPECT_EQ(dry.out.find("--master-addr node2"), std::string::npos) << dry.out;

    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 0) << pre.out << pre.err;
    for (const char* host : {"node2", "node1"}) {
        const std::string ok =
            lineStartingWith(pre.out, std::string("ok   ") + host + ": rendezvous: ");
        EXPECT_NE(ok.find("127.0.0.2 (127.0.0.2 from "), std::string::npos) << pre.out;
    }

    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    std::printf("2n1g over ssh aliases: %.1f s\n", since(t0));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto started = startedCommands();
    ASSERT_EQ(started.size(), 1u);
    EXPECT_NE(started[0].find("--master-addr 127.0.0.2 "), std::string::npos) << started[0];
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "ok") << e[0].dump();
}

TEST_F(SshAlias, AliasWhoseHostNameResolvesNowhereFailsPreflightAndTheRunFailsFast) {
    // ssh reaches "ghost" (its ProxyCommand goes through node1); its HostName, ghost.invalid,
    // resolves on no host, so no rank can meet there.
    const auto path = write({"ghost", "node2"}, 150);
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 1) << pre.out << pre.err;
    EXPECT_NE(pre.out.find("ok   ghost: ssh: reachable"), std::string::npos) << pre.out;
    for (const char* host : {"ghost", "node2"}) {
        const std::string fail =
            lineStartingWith(pre.out, std::string("FAIL ") + host + ": rendezvous: ");
        EXPECT_NE(fail.find("'ghost.invalid' does not resolve here"), std::string::npos) << pre.out;
        EXPECT_NE(fail.find("NAME=ADDRESS"), std::string::npos) << fail;
    }

    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    const double seconds = since(t0);
    std::printf("unresolvable rendezvous ended after %.1f s\n", seconds);
    // Before, the ranks retried once a second until the start timeout (150 s here, 600 s by
    // default); now the first such line ends the run (15 s measured on 2 loaded cores).
    EXPECT_LT(seconds, 60.0);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    const auto e = ends();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed") << e[0].dump();
    const std::string reason = e[0].value("reason", "");
    EXPECT_NE(reason.find("cannot resolve the rendezvous address 'ghost.invalid'"),
              std::string::npos)
        << e[0].dump();
    EXPECT_NE(reason.find("NAME=ADDRESS"), std::string::npos) << e[0].dump();
    EXPECT_NE(r.out.find("ghost.invalid"), std::string::npos) << r.out;
}
