#pragma once
// A real PostgreSQL 15 server for the shared-history tests, private to the
// test: initdb into a temporary folder, run as an unprivileged user (as root:
// `nobody`, through runuser), listening on a Unix socket in that folder and on
// a free TCP port on 127.0.0.1. Trust authentication on both (the tests name
// their role in the URI). fsync is off (commits still write the WAL, which a
// killed server replays; only a machine crash would lose it);
// synchronous_commit stays on, or an immediate stop would lose commits the
// tests count on. No mock: ScaleView talks to it through Qt's QPSQL driver and
// libpq, as it would to a team's server. When it cannot start, error() says why
// and the tests fail (never skip): `make test` installs postgresql.

#include "tests/support/process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sv::test {

class PostgresServer {
public:
  static std::filesystem::path binaries() {
    if (const char *env = std::getenv("SCALEVIEW_PG_BIN"); env && *env)
      return env;
    return "/usr/lib/postgresql/15/bin";
  }

  // tls: the server also gets a certificate for localhost and 127.0.0.1 signed
  // by a self-signed CA made here (caFile()), and refuses TCP connections
  // without TLS.
  explicit PostgresServer(bool tls = false) {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "scaleview-pg-XXXXXX")
            .string();
    if (!::mkdtemp(tmpl.data())) {
      m_error = "cannot create a temporary folder for PostgreSQL";
      return;
    }
    m_root = tmpl;
    m_data = m_root / "data";
    m_socket = m_root / "socket";
    m_log = m_root / "server.log";
    std::filesystem::create_directories(m_socket);
    if (!std::filesystem::exists(binaries() / "initdb")) {
      m_error = "PostgreSQL 15 is not installed (" +
                (binaries() / "initdb").string() +
                " is missing; Debian: apt-get install postgresql)";
      return;
    }
    // postgres refuses to run as root: the server's files belong to an
    // unprivileged user.
    if (::geteuid() == 0) {
      const passwd *pw = ::getpwnam("nobody");
      if (!pw) {
        m_error = "running as root, and there is no user 'nobody' to run "
                  "PostgreSQL as";
        return;
      }
      m_asUser = "nobody";
      for (const auto &p : {m_root, m_socket})
        if (::chown(p.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
          m_error = "cannot give " + p.string() + " to nobody";
          return;
        }
      std::ofstream(m_log).flush();
      if (::chown(m_log.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        m_error = "cannot give " + m_log.string() + " to nobody";
        return;
      }
    }
    const auto init = asServer(
        {(binaries() / "initdb").string(), "-D", m_data.string(), "-U",
         "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"});
    if (init.exitCode != 0) {
      m_error = "initdb failed: " + init.out + init.err;
      return;
    }
    if (tls && !makeCertificates())
      return;
    for (int attempt = 0; attempt < 5; ++attempt) {
      m_port = freePort();
      std::ofstream conf(m_data / "postgresql.conf", std::ios::app);
      conf << "\n# scaleview tests\nport = " << m_port
           << "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '"
           << m_socket.string()
           << "'\nfsync = off\nfull_page_writes = off\n"
              "max_connections = 60\nshared_buffers = 16MB\n";
      conf.close();
      if (start())
        return;
    }
    m_error = "PostgreSQL did not start: " + readWhole(m_log.string());
  }

  ~PostgresServer() {
    if (m_started)
      stopImmediate();
    std::error_code ec;
    if (!m_root.empty())
      std::filesystem::remove_all(m_root, ec);
  }
  PostgresServer(const PostgresServer &) = delete;
  PostgresServer &operator=(const PostgresServer &) = delete;

  // The CA that signed the server's certificate, and one that did not.
  std::filesystem::path caFile() const { return m_root / "tls" / "ca.crt"; }
  std::filesystem::path otherCaFile() const {
    return m_root / "tls" / "other-ca.crt";
  }

  bool ok() const { return m_error.empty() && m_started; }
  const std::string &error() const { return m_error; }
  int port() const { return m_port; }
  const std::filesystem::path &socketDir() const { return m_socket; }
  std::string log() const { return readWhole(m_log.string()); }

  // postgresql:///DB?host=SOCKETDIR&port=N&user=ROLE: libpq's Unix-socket
  // spelling.
  std::string socketUri(const std::string &db,
                        const std::string &role = "postgres") const {
    return "postgresql:///" + db + "?host=" + m_socket.string() +
           "&port=" + std::to_string(m_port) + "&user=" + role;
  }
  // postgresql://ROLE@127.0.0.1:N/DB: over TCP on loopback.
  std::string tcpUri(const std::string &db,
                     const std::string &role = "postgres") const {
    return "postgresql://" + role + "@127.0.0.1:" + std::to_string(m_port) +
           "/" + db;
  }

  // psql as the superuser over the socket, stopping at the first error.
  ProcessResult psql(const std::string &sql,
                     const std::string &db = "postgres") const {
    return runProcess({(binaries() / "psql").string(), "-X", "-q", "-A", "-t",
                       "-v", "ON_ERROR_STOP=1", "-h", m_socket.string(), "-p",
                       std::to_string(m_port), "-U", "postgres", "-d", db, "-c",
                       sql},
                      std::chrono::seconds(60));
  }

  bool start() {
    const auto r =
        asServer({(binaries() / "pg_ctl").string(), "-D", m_data.string(), "-l",
                  m_log.string(), "-w", "-t", "60", "start"});
    m_started = r.exitCode == 0;
    return m_started;
  }
  // The server killed as a crash would (no shutdown checkpoint, clients cut
  // off).
  bool stopImmediate() {
    const auto r = asServer({(binaries() / "pg_ctl").string(), "-D",
                             m_data.string(), "-m", "immediate", "stop"});
    m_started = false;
    return r.exitCode == 0;
  }

private:
  bool makeCertificates() {
    const auto dir = m_root / "tls";
    std::filesystem::create_directories(dir);
    auto openssl = [&](std::vector<std::string> args) {
      args.insert(args.begin(), "/usr/bin/openssl");
      const auto r = runProcess(args, std::chrono::seconds(60));
      if (r.exitCode != 0)
        m_error = "openssl failed: " + r.err;
      return r.exitCode == 0;
    };
    std::ofstream(dir / "san.cnf")
        << "subjectAltName = DNS:localhost, IP:127.0.0.1\n";
    for (const char *ca : {"ca", "other-ca"})
      if (!openssl({"req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                    "2", "-subj", std::string("/CN=scaleview test ") + ca,
                    "-keyout", (dir / (std::string(ca) + ".key")).string(),
                    "-out", (dir / (std::string(ca) + ".crt")).string()}))
        return false;
    if (!openssl({"req", "-newkey", "rsa:2048", "-nodes", "-subj",
                  "/CN=localhost", "-keyout", (dir / "server.key").string(),
                  "-out", (dir / "server.csr").string()}) ||
        !openssl({"x509", "-req", "-in", (dir / "server.csr").string(), "-CA",
                  (dir / "ca.crt").string(), "-CAkey",
                  (dir / "ca.key").string(), "-CAcreateserial", "-days", "2",
                  "-extfile", (dir / "san.cnf").string(), "-out",
                  (dir / "server.crt").string()}))
      return false;
    // The server's key: its user's alone, as postgres insists.
    std::filesystem::permissions(dir / "server.key",
                                 std::filesystem::perms::owner_read |
                                     std::filesystem::perms::owner_write);
    if (::geteuid() == 0) {
      const passwd *pw = ::getpwnam(m_asUser.c_str());
      if (!pw ||
          ::chown((dir / "server.key").c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        m_error = "cannot give the server's key to " + m_asUser;
        return false;
      }
    }
    std::ofstream(m_data / "postgresql.conf", std::ios::app)
        << "\nssl = on\nssl_cert_file = '" << (dir / "server.crt").string()
        << "'\nssl_key_file = '" << (dir / "server.key").string() << "'\n";
    // TCP without TLS is refused (the first matching line wins); the socket
    // stays open.
    const std::string hba = readWhole((m_data / "pg_hba.conf").string());
    std::ofstream(m_data / "pg_hba.conf") << "hostnossl all all all reject\n"
                                          << hba;
    return true;
  }

  ProcessResult asServer(std::vector<std::string> argv) const {
    if (!m_asUser.empty())
      argv.insert(argv.begin(), {"/usr/sbin/runuser", "-u", m_asUser, "--"});
    return runProcess(argv, std::chrono::seconds(120));
  }

  // A port free now on loopback (the kernel's choice); another program may take
  // it before the server binds it, so the constructor tries up to five.
  static int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
      port = ntohs(a.sin_port);
    ::close(fd);
    return port;
  }

  std::filesystem::path m_root, m_data, m_socket, m_log;
  std::string m_asUser, m_error;
  int m_port = 0;
  bool m_started = false;
};

} // namespace sv::test
