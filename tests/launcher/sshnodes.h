#pragma once
// Two "nodes" for the launcher's tests: two real sshd processes on 127.0.0.1 and 127.0.0.2,
// own ports, temporary host and user keys, an ssh config naming them node1 and node2 (plus
// "refused": a closed port, "blackhole": a socket that accepts and never answers,
// "passwordonly": a third sshd that takes passwords and no keys, and "changedkey": node1's sshd
// on a second port, whose known_hosts entry holds another ed25519 key than the one it presents;
// "ghost": an alias whose HostName resolves nowhere, reached through node1 by ProxyCommand, as a
// node behind a bastion is). Runs as root or as a normal user: sshd then runs as that user
// (no privilege separation, UsePAM no, ports above 1024) and only that user logs in. Everything
// it starts is stopped by its destructor.

#include "tests/launcher/launchertest.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <pwd.h>
#include <random>
#include <arpa/inet.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <utility>
#include <vector>

namespace sv::test {

// The user the tests run as: the only one a non-root sshd can log in.
inline std::string currentUser() {
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? pw->pw_name : "root";
}

// An IPv4 address ("127.0.0.1") and port, as the socket calls take them.
inline sockaddr_in inetAddress(const char* address, int port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    ::inet_pton(AF_INET, address, &a.sin_addr);
    return a;
}

// Binds socket fd to a port the kernel chooses on address; that port.
inline int bindAnyPort(int fd, const char* address) {
    sockaddr_in a = inetAddress(address, 0);
    ::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    return ntohs(a.sin_port);
}

// Whether a TCP port can be bound on address right now.
inline bool canBind(const char* address, int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_in a = inetAddress(address, port);
    const bool ok = ::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

// A port free on address, for a server a test starts. Drawn at random below the kernel's
// ephemeral range (ip_local_port_range), which every connect() and bind() to port 0 here draws
// from, so that nothing can take it in the moment before the server binds it (other tests
// drawing the same way aside: one chance in 10 000), and above the ports the tests fix (the
// containers' sshd on 10001); not 29500-29699 either, their rendezvous ports.
inline int freePort(const char* address) {
    int low = 32768; // the range's first port; 0 when the file does not read as a number
    std::ifstream("/proc/sys/net/ipv4/ip_local_port_range") >> low;
    static std::mt19937 draw(static_cast<unsigned>(::getpid()) ^ std::random_device{}());
    constexpr int kFirst = 12000;
    for (int tries = 0; low - kFirst > 1000 && tries < 200; ++tries) {
        const int port = std::uniform_int_distribution<int>(kFirst, low - 1)(draw);
        if ((port < 29500 || port > 29699) && canBind(address, port)) return port;
    }
    // An ephemeral range that leaves no room below it: one the kernel gives.
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int port = bindAnyPort(fd, address);
    ::close(fd);
    return port;
}

// A campaign's own rendezvous port (its "master_port" variable): tests of one fixture run side by
// side, and two runs meeting at one port join each other's rendezvous.
inline std::string ownRendezvousPort() {
    return std::to_string(freePort("127.0.0.1"));
}

class SshNodes {
  public:
    SshNodes() {
        char tmpl[] = "/tmp/sv-sshnodes-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        // Root's sshd chroots its privilege-separated child there; a user's sshd has none.
        if (::geteuid() == 0) std::filesystem::create_directories("/run/sshd");
        runProcess(
            {"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", m_dir + "/hostkey"});
        runProcess(
            {"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", m_dir + "/userkey"});
        // Not the host key: what known_hosts holds for "changedkey".
        runProcess({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                    m_dir + "/otherhostkey"});
        std::filesystem::copy_file(m_dir + "/userkey.pub", m_dir + "/authorized_keys");
        // Black hole: the kernel completes the TCP handshake (backlog), nobody ever speaks.
        m_blackhole = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        m_blackholePort = bindAnyPort(m_blackhole, "127.0.0.1");
        ::listen(m_blackhole, 16);
        // Should a port found free still be taken before sshd binds it, sshd logs that it could
        // not bind it and ssh would reach whatever holds it: then all sshd start again on other
        // ports, until each has bound all of its own.
        for (int attempt = 0; attempt < 5; ++attempt) {
            start();
            bool up = false;
            for (int tries = 0; tries < 50 && !notBound() && !(up = ready()); ++tries)
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
            if (up && !notBound()) break;
            for (pid_t& p : m_sshd)
                stop(std::exchange(p, 0));
        }
    }
    ~SshNodes() {
        for (pid_t p : m_sshd)
            stop(p);
        ::close(m_blackhole);
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
    }
    bool ready() const {
        for (const char* n : {"node1", "node2"})
            if (runProcess(ssh(n, "true")).exitCode != 0) return false;
        return listening("127.0.0.1", m_ports[2]) && listening("127.0.0.1", m_changedKeyPort);
    }
    std::vector<std::string> ssh(const std::string& host, const std::string& command) const {
        return {"/usr/bin/ssh",
                "-F",
                config(),
                "-o",
                "BatchMode=yes",
                "-o",
                "StrictHostKeyChecking=accept-new",
                "-o",
                "ConnectTimeout=5", // a port held by something that never speaks ssh
                "--",
                host,
                command};
    }
    // Why a node does not answer: ssh's words and each sshd's log.
    std::string whyNotReady() const {
        std::string why;
        for (const char* n : {"node1", "node2"}) {
            const auto r = runProcess(ssh(n, "true"));
            if (r.exitCode != 0)
                why += std::string("ssh ") + n + " true: exit code " + std::to_string(r.exitCode) +
                       ", " + r.out + r.err + "\n";
        }
        if (const passwd* pw = ::getpwuid(::geteuid())) {
            const std::string shell = pw->pw_shell;
            if (shell.ends_with("nologin") || shell.ends_with("false"))
                why += "the login shell of " + std::string(pw->pw_name) + " is " + shell +
                       ": sshd runs every command through it, so nothing can run (usermod -s "
                       "/bin/sh " +
                       pw->pw_name + ")\n";
        }
        for (int i = 1; i <= 3; ++i)
            why += "sshd" + std::to_string(i) +
                   ".log: " + readWhole(m_dir + "/sshd" + std::to_string(i) + ".log");
        return why;
    }
    std::string config() const { return m_dir + "/ssh_config"; }
    // The sshd of node i (0-based): what a test puts in a cgroup to slow that node's sessions.
    pid_t sshdPid(int i) const { return m_sshd[i]; }
    std::string knownHosts() const { return m_dir + "/known_hosts"; }
    int changedKeyPort() const { return m_changedKeyPort; }
    const std::string& dir() const { return m_dir; }
    // Node i (0 or 1) disappears: its sshd and every process below it, KILLed.
    void killNode(int i) {
        std::vector<int> tree{m_sshd[i]};
        for (std::size_t k = 0; k < tree.size(); ++k)
            for (const auto& e : std::filesystem::directory_iterator("/proc")) {
                std::ifstream stat(e.path() / "stat");
                std::string line;
                if (!std::getline(stat, line)) continue;
                const auto paren = line.rfind(')');
                if (paren == std::string::npos) continue;
                int ppid = 0;
                char state = 0;
                std::sscanf(line.c_str() + paren + 2, "%c %d", &state, &ppid);
                const int pid = std::atoi(e.path().filename().c_str());
                if (ppid == tree[k] && pid > 0) tree.push_back(pid);
            }
        for (int pid : tree)
            ::kill(pid, SIGKILL);
        ::waitpid(m_sshd[i], nullptr, 0);
        m_sshd[i] = 0;
    }

  private:
    // Draws the ports, writes the configs and starts the three sshd, each logging to a file of
    // its own (emptied first).
    void start() {
        const char* addresses[] = {"127.0.0.1", "127.0.0.2", "127.0.0.1"};
        // Four listening ports, three on 127.0.0.1: drawn apart.
        for (int i = 0; i < 3; ++i)
            do
                m_ports[i] = freePort(addresses[i]);
            while (i == 2 && m_ports[2] == m_ports[0]);
        do
            m_changedKeyPort = freePort("127.0.0.1");
        while (m_changedKeyPort == m_ports[0] || m_changedKeyPort == m_ports[2]);
        // SetEnv SHLVL=1: bash reads ~/.bashrc for a command sshd starts only as a top-level
        // shell (SHLVL unset), so the nodes' sessions skip the login user's rc file, as a fresh
        // machine's root has none. A developer's may be slow: root's pyenv init here took 0.6 s of
        // CPU per login, three quarters of the container preflight test's time (95 s, 22 s
        // without). What the product sends through sshd is the same either way.
        // sshd's own limits otherwise, as on users' hosts: MaxStartups 10:30:100 drops new
        // connections at random beyond 10 unauthenticated ones, so a burst of logins fails here
        // as it would there.
        for (int i = 0; i < 3; ++i) {
            const std::string cfg = m_dir + "/sshd" + std::to_string(i + 1) + ".conf";
            std::ofstream out(cfg);
            out << "Port " << m_ports[i] << "\n";
            if (i == 0) out << "Port " << m_changedKeyPort << "\n";
            out << "ListenAddress " << addresses[i] << "\nHostKey " << m_dir
                << "/hostkey\nAuthorizedKeysFile " << m_dir << "/authorized_keys\nPidFile " << m_dir
                << "/sshd" << i + 1 << ".pid\nStrictModes no\nUsePAM no\nPermitRootLogin yes\n"
                << (i == 2 ? "PubkeyAuthentication no\nPasswordAuthentication yes\n"
                           : "PasswordAuthentication no\n")
                << "KbdInteractiveAuthentication no\n"
                << "MaxSessions 100\nLogLevel ERROR\nSetEnv SHLVL=1\n";
            out.close();
            const std::string log = m_dir + "/sshd" + std::to_string(i + 1) + ".log";
            std::filesystem::remove(log);
            m_sshd[i] = spawn({"/usr/sbin/sshd", "-D", "-e", "-f", cfg}, log);
        }
        {
            const std::string other = readWhole(m_dir + "/otherhostkey.pub");
            std::ofstream(knownHosts()) << "[127.0.0.1]:" << m_changedKeyPort << " "
                                        << other.substr(0, other.rfind(' ')) << "\n";
        }
        do
            m_refusedPort = freePort("127.0.0.1");
        while (m_refusedPort == m_ports[0] || m_refusedPort == m_ports[2] ||
               m_refusedPort == m_changedKeyPort);
        std::ofstream(config())
            << "Host node1\n  HostName 127.0.0.1\n  Port " << m_ports[0]
            << "\nHost node2\n  HostName 127.0.0.2\n  Port " << m_ports[1]
            << "\nHost refused\n  HostName 127.0.0.1\n  Port " << m_refusedPort
            << "\nHost blackhole\n  HostName 127.0.0.1\n  Port " << m_blackholePort
            << "\nHost passwordonly\n  HostName 127.0.0.1\n  Port " << m_ports[2]
            << "\nHost changedkey\n  HostName 127.0.0.1\n  Port " << m_changedKeyPort
            << "\nHost ghost\n  HostName ghost.invalid\n  ProxyCommand /usr/bin/ssh -F " << config()
            << " -W 127.0.0.1:" << m_ports[0] << " node1"
            << "\nHost *\n  User " << currentUser() << "\n  IdentityFile " << m_dir
            << "/userkey\n  IdentitiesOnly yes\n  UserKnownHostsFile " << m_dir
            << "/known_hosts\n  GlobalKnownHostsFile /dev/null\n  LogLevel ERROR\n";
    }
    // Whether an sshd has ended or could not bind one of its ports (it carries on without it,
    // saying so in its log).
    bool notBound() const {
        for (int i = 0; i < 3; ++i)
            if (m_sshd[i] <= 0 || ended(m_sshd[i]) ||
                readWhole(m_dir + "/sshd" + std::to_string(i + 1) + ".log").find("Bind to port") !=
                    std::string::npos)
                return true;
        return false;
    }
    // Whether child p has ended (not reaped: stop() still waits for it).
    static bool ended(pid_t p) {
        siginfo_t info{};
        return ::waitid(P_PID, static_cast<id_t>(p), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
               info.si_pid != 0;
    }
    static bool listening(const char* address, int port) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const sockaddr_in a = inetAddress(address, port);
        const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
    static void stop(pid_t p) {
        if (p <= 0) return;
        ::kill(p, SIGTERM);
        ::waitpid(p, nullptr, 0);
    }
    std::string m_dir;
    int m_ports[3] = {0, 0, 0}; // node1, node2, passwordonly
    pid_t m_sshd[3] = {0, 0, 0};
    int m_changedKeyPort = 0; // node1's sshd, second port
    int m_refusedPort = 0;
    int m_blackhole = -1;
    int m_blackholePort = 0;
};

// A test with the nodes up and a temporary directory of its own (its campaign's output under
// out/, which must hold no live tagged process at the end). As root, or as a normal user whose
// own sshd lets it log in; skipped, saying why, when that user cannot.
class SshNodesTest : public ::testing::Test {
  protected:
    explicit SshNodesTest(std::string name) : m_name(std::move(name)) {}
    void SetUp() override {
        if (!std::filesystem::exists("/usr/sbin/sshd") || !std::filesystem::exists("/usr/bin/ssh"))
            GTEST_SKIP() << "needs /usr/sbin/sshd and /usr/bin/ssh (apt-get install "
                            "openssh-server openssh-client)";
        m_nodes = std::make_unique<SshNodes>();
        if (m_nodes->ready()) {
            m_dir = tempDir(m_name);
            return;
        }
        const std::string why = m_nodes->whyNotReady();
        // Root's sshd has nothing in its way: a failure there is a failure.
        ASSERT_NE(::geteuid(), 0u) << why;
        // A user's sshd can be refused by what only root can change (a locked account, a
        // login shell that is nologin, a host that forbids unprivileged listeners).
        GTEST_SKIP() << "sshd run as user " << currentUser()
                     << " (not root) does not let that user log in, so the ssh nodes cannot "
                        "start; run as root, or fix what sshd and ssh said:\n"
                     << why;
    }
    void TearDown() override {
        if (!m_dir.empty()) {
            EXPECT_TRUE(leftoverOf(m_dir + "/out").empty());
            std::filesystem::remove_all(m_dir);
        }
        m_nodes.reset();
    }
    std::string m_name;
    std::unique_ptr<SshNodes> m_nodes;
    std::string m_dir;
};

} // namespace sv::test
