#pragma once
// N "nodes" with links of their own, for tests of what a slow network does (issue 28's
// communication part, a node slow only through its link). Each node is a network namespace with
// one address, 10.77.S.i (S drawn per fixture, i = 1..N), running its own sshd on port 22 of
// that address (temporary host and user keys, its own config, as sshnodes.h). The nodes hang on
// a bridge in a "switch" namespace of their own, each by a veth pair: the switch's end pI and
// the node's eth0; one more veth joins the switch to this machine's namespace (10.77.S.254),
// through which ssh reaches every node. The bridge lives outside this machine's namespace so
// that its firewall (Docker's FORWARD DROP, with br_netfilter) has no say over node-to-node
// traffic.
//
// slowLink(i, rate) puts a token bucket (tc tbf) on node i's link in both directions: on the
// switch's end (traffic to the node) and the node's end (traffic from it). Traffic between the
// other nodes does not cross that link, so it keeps its pace. Nodes are numbered from 0 here;
// their ssh aliases are node1..nodeN (in config()).
//
// Root only (namespaces, veth pairs, tc). unavailable() says why this machine cannot have the
// nodes (not root, no ip, tc or sshd, namespaces or tbf refused): the test skips with it;
// error() says why they did not come up where they could: the test fails with it. The
// destructor kills every process left in the namespaces (sshd, what it started) and deletes
// them, links and all; namespaces a killed test process left behind (its pid gone) are deleted
// by the next fixture.

#include "tests/launcher/launchertest.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sv::test {

class NetnsNodes {
  public:
    explicit NetnsNodes(int nodes) : m_count(nodes) {
        static int instances = 0;
        m_prefix = "svnn" + std::to_string(::getpid()) + "-" + std::to_string(instances++);
        if (!(m_unavailable = requirements()).empty()) return;
        removeStale();
        char tmpl[] = "/tmp/sv-netnsnodes-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        if (!(m_unavailable = buildNetwork()).empty()) return;
        m_error = startSshd();
    }
    ~NetnsNodes() {
        for (pid_t p : m_sshd)
            if (p > 0) {
                ::kill(p, SIGTERM);
                ::waitpid(p, nullptr, 0);
            }
        for (const auto& ns : m_namespaces)
            deleteNamespace(ns);
        if (!m_dir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(m_dir, ec);
        }
    }
    NetnsNodes(const NetnsNodes&) = delete;
    NetnsNodes& operator=(const NetnsNodes&) = delete;

    // Why the nodes cannot exist on this machine; empty when they can.
    const std::string& unavailable() const { return m_unavailable; }
    // Why they did not come up although they could; empty when they did.
    const std::string& error() const { return m_error; }
    int size() const { return m_count; }
    // Node i's ssh alias in config(): node1..nodeN.
    std::string name(int i) const { return "node" + std::to_string(i + 1); }
    // Node i's address, where its sshd listens and where ranks meet it.
    std::string address(int i) const {
        return "10.77." + std::to_string(m_subnet) + "." + std::to_string(i + 1);
    }
    std::string config() const { return m_dir + "/ssh_config"; }
    const std::string& dir() const { return m_dir; }
    // Node i's network namespace (ip netns exec NAME ...).
    std::string netns(int i) const { return m_prefix + "-n" + std::to_string(i + 1); }
    // /usr/bin/python3 at a CPU priority above the machine's other work (autogroup and nice
    // -19; other tests, builds, a test's hog at -10): probes run with it measure the link, not
    // a neighbour's load. Both a test's "before" and "after" should use it.
    std::string priorityPython() const { return m_dir + "/python3-ahead"; }
    std::vector<std::string> ssh(int i, const std::string& command) const {
        return {"/usr/bin/ssh", "-F", config(), "-o", "BatchMode=yes", "-o",
                "StrictHostKeyChecking=accept-new", "-o", "ConnectTimeout=5", "--", name(i),
                command};
    }

    // Node i's link at `rate` (tc's words: "400mbit") in both directions. Returns tc's error,
    // empty on success.
    std::string slowLink(int i, const std::string& rate) {
        // A 1 MB bucket: above rate / HZ at any kernel tick (a bucket smaller than that caps the
        // rate below the one asked for), and the 64 KB segments of a TCP stream fit in it.
        std::string why;
        for (const auto& [ns, dev] : linkEnds(i)) {
            const auto r = run({m_tc, "-n", ns, "qdisc", "replace", "dev", dev, "root", "tbf",
                                "rate", rate, "burst", "1mb", "latency", "50ms"});
            if (r.exitCode != 0) why += "tc on " + dev + " in " + ns + ": " + r.err;
        }
        return why;
    }
    // Node i's link as it was: no qdisc of ours on either end.
    void clearLink(int i) {
        for (const auto& [ns, dev] : linkEnds(i))
            run({m_tc, "-n", ns, "qdisc", "del", "dev", dev, "root"});
    }

  private:
    std::string switchNs() const { return m_prefix + "-sw"; }
    // Both ends of node i's link: the switch's port and the node's eth0.
    std::vector<std::pair<std::string, std::string>> linkEnds(int i) const {
        return {{switchNs(), "p" + std::to_string(i + 1)}, {netns(i), "eth0"}};
    }
    static std::string program(const std::string& name) {
        for (const char* d : {"/usr/sbin/", "/sbin/", "/usr/bin/", "/bin/"})
            if (::access((d + name).c_str(), X_OK) == 0) return d + name;
        return {};
    }
    static ProcessResult run(const std::vector<std::string>& argv) {
        return runProcess(argv, std::chrono::seconds(30));
    }
    std::string requirements() {
        if (::geteuid() != 0)
            return "not root: network namespaces, veth pairs and tc need root (the test runs as "
                   "uid " + std::to_string(::geteuid()) + ")";
        m_ip = program("ip");
        m_tc = program("tc");
        if (m_ip.empty() || m_tc.empty())
            return "no ip or tc on this machine (apt-get install iproute2)";
        for (const char* p : {"/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen"})
            if (::access(p, X_OK) != 0)
                return std::string("no ") + p + " (apt-get install openssh-server openssh-client)";
        return {};
    }
    // Namespaces of fixtures whose process is gone (killed by a test's timeout).
    void removeStale() {
        std::istringstream list(run({m_ip, "netns", "list"}).out);
        std::string line;
        while (std::getline(list, line)) {
            const std::string ns = line.substr(0, line.find(' '));
            if (!ns.starts_with("svnn")) continue;
            const int pid = std::atoi(ns.c_str() + 4);
            if (pid > 0 && pid != ::getpid() && !std::filesystem::exists("/proc/" + std::to_string(pid)))
                deleteNamespace(ns);
        }
    }
    void deleteNamespace(const std::string& ns) {
        // Everything still running in it: the sshd's sessions, ranks a failed probe left.
        std::istringstream pids(run({m_ip, "netns", "pids", ns}).out);
        for (int pid = 0; pids >> pid;)
            if (pid > 1 && pid != ::getpid()) ::kill(pid, SIGKILL);
        run({m_ip, "netns", "del", ns});
    }
    // A /24 no interface here has an address in yet.
    int drawSubnet() {
        const std::string addresses = run({m_ip, "-o", "-4", "addr", "show"}).out;
        std::mt19937 draw(static_cast<unsigned>(::getpid()) ^ std::random_device{}());
        for (int tries = 0; tries < 100; ++tries) {
            const int s = std::uniform_int_distribution<int>(1, 250)(draw);
            if (addresses.find("10.77." + std::to_string(s) + ".") == std::string::npos) return s;
        }
        return 0;
    }
    // The namespaces and links; why not, as unavailable().
    std::string buildNetwork() {
        auto step = [&](const std::vector<std::string>& argv, const std::string& what) {
            const auto r = run(argv);
            if (r.exitCode == 0) return std::string();
            std::string cmd;
            for (const auto& a : argv)
                cmd += (cmd.empty() ? "" : " ") + a;
            return what + " refused (" + cmd + "): " + r.err;
        };
        m_subnet = drawSubnet();
        if (m_subnet == 0) return "no free subnet 10.77.S.0/24 on this machine";
        const std::string sw = switchNs();
        const std::string net = "10.77." + std::to_string(m_subnet) + ".";
        std::vector<std::string> nss = {sw};
        for (int i = 0; i < m_count; ++i)
            nss.push_back(netns(i));
        for (const auto& ns : nss) {
            if (auto why = step({m_ip, "netns", "add", ns}, "a network namespace"); !why.empty())
                return why;
            m_namespaces.push_back(ns);
            if (auto why = step({m_ip, "-n", ns, "link", "set", "lo", "up"}, "loopback");
                !why.empty())
                return why;
        }
        if (auto why = step({m_ip, "-n", sw, "link", "add", "br0", "type", "bridge"}, "a bridge");
            !why.empty())
            return why;
        if (auto why = step({m_ip, "-n", sw, "link", "set", "br0", "up"}, "a bridge"); !why.empty())
            return why;
        // This machine's port on the switch (the name unique here: it lives in this namespace
        // until its switch goes).
        const std::string host = "svh" + m_prefix.substr(4, m_prefix.find('-') - 4) + "k" +
                                 m_prefix.substr(m_prefix.find('-') + 1);
        for (const auto& argv : std::vector<std::vector<std::string>>{
                 {m_ip, "link", "add", host, "type", "veth", "peer", "name", "host", "netns", sw},
                 {m_ip, "addr", "add", net + "254/24", "dev", host},
                 {m_ip, "link", "set", host, "up"},
                 {m_ip, "-n", sw, "link", "set", "host", "master", "br0", "up"}})
            if (auto why = step(argv, "a veth pair"); !why.empty()) return why;
        for (int i = 0; i < m_count; ++i) {
            const std::string port = "p" + std::to_string(i + 1), ns = netns(i);
            for (const auto& argv : std::vector<std::vector<std::string>>{
                     {m_ip, "-n", sw, "link", "add", port, "type", "veth", "peer", "name", "eth0",
                      "netns", ns},
                     {m_ip, "-n", sw, "link", "set", port, "master", "br0", "up"},
                     {m_ip, "-n", ns, "addr", "add", address(i) + "/24", "dev", "eth0"},
                     {m_ip, "-n", ns, "link", "set", "eth0", "up"}})
                if (auto why = step(argv, "a veth pair"); !why.empty()) return why;
        }
        // tbf, tried once here: a kernel without sch_tbf refuses it.
        if (auto why = slowLink(0, "1gbit"); !why.empty())
            return "tc's tbf qdisc refused: " + why;
        clearLink(0);
        return {};
    }
    // Keys, configs and one sshd per node; why they do not answer, as error().
    std::string startSshd() {
        if (::access("/run/sshd", F_OK) != 0) std::filesystem::create_directories("/run/sshd");
        for (const char* key : {"hostkey", "userkey"})
            runProcess({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                        m_dir + "/" + key});
        std::filesystem::copy_file(m_dir + "/userkey.pub", m_dir + "/authorized_keys");
        // Each ssh session is an autogroup of its own (sshd's setsid): its nice first.
        std::ofstream(priorityPython())
            << "#!/bin/sh\necho -19 > /proc/self/autogroup 2>/dev/null\n"
               "exec /usr/bin/nice -n -19 /usr/bin/python3 \"$@\"\n";
        std::filesystem::permissions(priorityPython(), std::filesystem::perms::owner_all |
                                                           std::filesystem::perms::group_read |
                                                           std::filesystem::perms::group_exec |
                                                           std::filesystem::perms::others_read |
                                                           std::filesystem::perms::others_exec);
        {
            std::ofstream cfg(config());
            for (int i = 0; i < m_count; ++i)
                cfg << "Host " << name(i) << "\n  HostName " << address(i) << "\n  Port 22\n";
            cfg << "Host *\n  User root\n  IdentityFile " << m_dir
                << "/userkey\n  IdentitiesOnly yes\n  UserKnownHostsFile " << m_dir
                << "/known_hosts\n  GlobalKnownHostsFile /dev/null\n  LogLevel ERROR\n";
        }
        m_sshd.assign(m_count, 0);
        for (int i = 0; i < m_count; ++i) {
            const std::string n = std::to_string(i + 1);
            const std::string conf = m_dir + "/sshd" + n + ".conf";
            std::ofstream(conf) << "Port 22\nListenAddress " << address(i) << "\nHostKey "
                                << m_dir << "/hostkey\nAuthorizedKeysFile " << m_dir
                                << "/authorized_keys\nPidFile " << m_dir << "/sshd" << n
                                << ".pid\nStrictModes no\nUsePAM no\nPermitRootLogin yes\n"
                                   "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                   "MaxSessions 100\nLogLevel ERROR\n"
                                   "SetEnv SHLVL=1\n"; // no ~/.bashrc per login (sshnodes.h)
            // ip netns exec enters the namespace and execs sshd: the pid is sshd's.
            m_sshd[i] = spawn({m_ip, "netns", "exec", netns(i), "/usr/sbin/sshd", "-D", "-e", "-f",
                               conf},
                              m_dir + "/sshd" + n + ".log");
        }
        std::string why;
        for (int tries = 0; tries < 50; ++tries) {
            why.clear();
            for (int i = 0; i < m_count; ++i) {
                const auto r = runProcess(ssh(i, "true"), std::chrono::seconds(20));
                if (r.exitCode != 0)
                    why += "ssh " + name(i) + " (" + address(i) + ") true: exit code " +
                           std::to_string(r.exitCode) + ", " + r.err + "sshd" +
                           std::to_string(i + 1) + ".log: " +
                           readWhole(m_dir + "/sshd" + std::to_string(i + 1) + ".log") + "\n";
            }
            if (why.empty()) return {};
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return why;
    }

    int m_count = 0;
    std::string m_prefix; // svnn<pid>-<instance>: the namespaces' names begin with it
    std::string m_ip, m_tc, m_dir;
    int m_subnet = 0;
    std::vector<std::string> m_namespaces; // created, to delete
    std::vector<pid_t> m_sshd;
    std::string m_unavailable, m_error;
};

} // namespace sv::test
