// Where ranks meet when hosts are ssh_config aliases: the address read from `ssh -G` (the real
// OpenSSH client on a real config file), put wherever a rendezvous address goes on a command
// line; and the output lines that say a rank cannot reach it, taken from PyTorch 1.13 and gloo.

#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/shellquote.h"
#include "launcher/runner/rendezvousfailure.h"
#include "launcher/ssh/hostaddresses.h"
#include "tests/launcher/launchertest.h"

#include <QCoreApplication>
#include <QTimer>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

using namespace sv::launcher;

namespace {

Campaign aliasCampaign(const std::string& sshConfig) {
    Campaign c;
    c.hosts = {{"node1", "", 0, "", 1}, {"node2", "", 0, "", 1}};
    c.topologies = {*sv::parseTopology("2n1g")};
    c.batchSizes = {2};
    c.repeats = 1;
    c.outputDir = "/tmp/sv-rendezvous";
    c.sshConfig = sshConfig;
    return c;
}

// The run's command as this machine starts it.
std::string commandOf(const Campaign& c, const std::vector<std::string>& addresses) {
    std::string error;
    auto profile = loadProfile(c.profile, &error);
    EXPECT_TRUE(profile) << error;
    CommandBuilder builder(c, *profile, "/tmp/w");
    if (!addresses.empty()) builder.setRendezvousAddresses(addresses);
    return shellCommand(builder.runArgv(planRuns(c, *profile).at(0), "svT"));
}

// Runs resolveHostAddresses in an event loop of its own; fails the test after 20 s.
HostAddresses resolve(const Campaign& c) {
    int argc = 1;
    char name[] = "test";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    std::optional<HostAddresses> out;
    resolveHostAddresses(c, &app, [&](HostAddresses a) {
        out = std::move(a);
        app.quit();
    });
    QTimer::singleShot(20000, &app, &QCoreApplication::quit);
    app.exec();
    EXPECT_TRUE(out) << "resolveHostAddresses never answered";
    return out.value_or(HostAddresses{});
}

} // namespace

TEST(HostAddresses, AliasesResolveToTheirHostNameAsSshReadsTheConfig) {
    const std::string dir = sv::test::tempDir("rendezvous");
    const std::string cfg = dir + "/ssh_config";
    // %h: ssh's own expansion, which a config reader of our own would have to copy.
    std::ofstream(cfg) << "Host node1\n  HostName 127.0.0.1\nHost node2\n  HostName 127.0.0.2\n"
                          "Host gpu*\n  HostName %h.cluster.example\n";
    Campaign c = aliasCampaign(cfg);
    c.hosts.push_back({"gpu7", "", 0, "", 1});
    c.hosts.push_back({"node3", "10.9.9.9", 0, "", 1}); // explicit: taken as it is
    c.hosts.push_back({"plain.example", "", 0, "", 1});
    const HostAddresses a = resolve(c);
    EXPECT_TRUE(a.problems.empty()) << a.problems.front();
    EXPECT_EQ(a.addresses,
              (std::vector<std::string>{"127.0.0.1", "127.0.0.2", "gpu7.cluster.example",
                                        "10.9.9.9", "plain.example"}));
    std::filesystem::remove_all(dir);
}

TEST(HostAddresses, AnUnreadableConfigKeepsTheNamesAndSaysWhy) {
    const HostAddresses a = resolve(aliasCampaign("/nonexistent/ssh_config"));
    EXPECT_EQ(a.addresses, (std::vector<std::string>{"node1", "node2"}));
    ASSERT_EQ(a.problems.size(), 2u);
    EXPECT_NE(a.problems[0].find("could not read the address of node1 from ssh -G"),
              std::string::npos)
        << a.problems[0];
    EXPECT_NE(a.problems[0].find("/nonexistent/ssh_config"), std::string::npos) << a.problems[0];
    EXPECT_NE(a.problems[0].find("node1=ADDRESS"), std::string::npos) << a.problems[0];
}

TEST(HostAddresses, QueryIsSshDashGWithTheCampaignsConfigPortAndUser) {
    Campaign c = aliasCampaign("/etc/sv/ssh_config");
    const Host h{"node1", "", 2222, "bench", 1};
    EXPECT_EQ(sshConfigQueryArgv(c, h),
              (std::vector<std::string>{"ssh", "-G", "-F", "/etc/sv/ssh_config", "-p", "2222", "-l",
                                        "bench", "--", "node1"}));
    EXPECT_EQ(hostnameOfSshConfig("user bench\nhostname 10.1.2.3\nport 22\n"), "10.1.2.3");
    EXPECT_FALSE(hostnameOfSshConfig("user bench\nport 22\n"));
}

TEST(HostAddresses, ResolvedAddressIsTheMasterAddressAndTheNamesStayForSsh) {
    const Campaign c = aliasCampaign("/etc/sv/ssh_config");
    const std::string before = commandOf(c, {});
    EXPECT_NE(before.find("--master-addr node1 "), std::string::npos) << before;
    const std::string cmd = commandOf(c, {"127.0.0.1", "127.0.0.2"});
    EXPECT_NE(cmd.find("--master-addr 127.0.0.1 "), std::string::npos) << cmd;
    // ssh and mpirun's own ssh hop read the same config: they keep the alias.
    EXPECT_NE(cmd.find("-- node1 'exec env"), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("-H node1:1,node2:1"), std::string::npos) << cmd;
}

TEST(HostAddresses, InAContainerTheHostListCarriesTheResolvedAddresses) {
    // There mpirun's hop is the containers' sshd, which knows no alias of this machine.
    Campaign c = aliasCampaign("/etc/sv/ssh_config");
    c.container = {"docker", "pt"};
    const std::string cmd = commandOf(c, {"10.0.0.1", "10.0.0.2"});
    EXPECT_NE(cmd.find("-H 10.0.0.1:1,10.0.0.2:1"), std::string::npos) << cmd;
    EXPECT_NE(cmd.find("--master-addr 10.0.0.1 "), std::string::npos) << cmd;
}

// Lines as PyTorch 1.13 (Debian 12) wrote them under mpirun --tag-output, with
// --master-addr nowhere.invalid: once a second per rank until the start timeout.
TEST(RendezvousFailure, UnresolvableMasterAddressNamesItAndWhatToDo) {
    const std::string chunk =
        "[1,1]<stderr>:WARNING: Logging before InitGoogleLogging() is written to STDERR\n"
        "[1,1]<stderr>:W20261130 18:47:01.633322  9965 socket.cpp:601] [c10d] The IPv6 network "
        "addresses of (nowhere.invalid, 29777) cannot be retrieved (gai error: -2 - Name or "
        "service not known).\n";
    const auto why = rendezvousFailure(chunk);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cannot resolve the rendezvous address 'nowhere.invalid'"),
              std::string::npos)
        << *why;
    EXPECT_NE(why->find("Name or service not known"), std::string::npos) << *why;
    EXPECT_NE(why->find("NAME=ADDRESS"), std::string::npos) << *why;
    EXPECT_EQ(why->find("WARNING: Logging"), std::string::npos) << *why; // that line only
}

TEST(RendezvousFailure, AddressWithNoRouteEndsTheRun) {
    // As PyTorch 1.13 wrote it, rank 1 given MASTER_ADDR=2001:db8::1 on a host without IPv6
    // routes; the next line is the IPv4 lookup of that literal, which is no verdict by itself.
    const std::string chunk =
        "W20261130 19:22:21.772724 10437 socket.cpp:601] [c10d] The client socket has failed to "
        "connect to [2001:db8::1]:29779 (errno: 113 - No route to host).\n"
        "W20261130 19:22:21.772761 10437 socket.cpp:601] [c10d] The IPv4 network addresses of "
        "(2001:db8::1, 29779) cannot be retrieved (gai error: -9 - Address family for hostname "
        "not supported).\n";
    const auto why = rendezvousFailure(chunk);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("cannot reach the rendezvous address '2001:db8::1'"), std::string::npos)
        << *why;
    EXPECT_NE(why->find("No route to host"), std::string::npos) << *why;
    EXPECT_FALSE(rendezvousFailure(chunk.substr(chunk.find('\n') + 1)));
}

// The same shape as the line above, for the other errno values of an address nothing answers.
TEST(RendezvousFailure, AddressWithNoRouteOrNoAnswerEndsTheRun) {
    for (const char* errno_ : {"(errno: 113 - No route to host)",
                               "(errno: 101 - Network is "
                               "unreachable)",
                               "(errno: 110 - Connection timed out)"}) {
        const std::string line =
            std::string("[1,0]<stderr>:W20261130 socket.cpp:558] [c10d] The client socket has "
                        "failed to connect to [10.255.255.1]:29500 ") +
            errno_ + ".\n";
        const auto why = rendezvousFailure(line);
        ASSERT_TRUE(why) << line;
        EXPECT_NE(why->find("cannot reach the rendezvous address '10.255.255.1'"),
                  std::string::npos)
            << *why;
    }
}

TEST(RendezvousFailure, RefusedConnectionsAndOrdinaryOutputAreNotFatal) {
    // Rank 0's store may not listen yet: refused is retried, and that is right.
    EXPECT_FALSE(rendezvousFailure("[c10d] The client socket has failed to connect to "
                                   "[127.0.0.1]:29500 (errno: 111 - Connection refused).\n"));
    EXPECT_FALSE(rendezvousFailure("[1,0]<stderr>:2026-11-30 INFO: Epoch[0] Batch [3-3]\tSpeed: "
                                   "52.1 samples/sec\n"));
    // Not about the rendezvous: a machine's own addresses.
    EXPECT_FALSE(rendezvousFailure("The local network addresses cannot be retrieved (gai error: "
                                   "-3 - Temporary failure in name resolution).\n"));
    EXPECT_FALSE(rendezvousFailure("Connection timed out\n")); // names no address
    // A resolver hiccup is retried by c10d and may pass.
    EXPECT_FALSE(rendezvousFailure("[c10d] The IPv6 network addresses of (node1, 29500) cannot be "
                                   "retrieved (gai error: -3 - Temporary failure in name "
                                   "resolution).\n"));
}
