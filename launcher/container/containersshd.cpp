#include "launcher/container/containersshd.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"

#include <QProcess>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace sv::launcher {
namespace fs = std::filesystem;
namespace {

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Made {
    std::string error;
    std::vector<ContainerSsh::File> files; // every file of OUT/ssh, keys included
};

// On a worker thread: ssh-keygen waits for nothing but itself, yet the GUI thread must not.
std::string runKeygen(const std::string& path) {
    const auto argv = ContainerSsh::keygen(path);
    QStringList args;
    for (std::size_t i = 1; i < argv.size(); ++i)
        args << QString::fromStdString(argv[i]);
    QProcess p;
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(QString::fromStdString(argv[0]), args);
    if (!p.waitForStarted(10000))
        return "ssh-keygen could not start (" + p.errorString().toStdString() +
               "): install openssh-client";
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(5000);
        return "ssh-keygen did not finish within 30 s";
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return "ssh-keygen failed for " + path + ": " +
               p.readAllStandardError().trimmed().toStdString();
    return {};
}

Made makeKeys(const ContainerSsh& ssh, const std::vector<std::string>& addresses) {
    Made m;
    const fs::path dir = ssh.dir();
    std::error_code ec;
    // An earlier session's keys (kill -9, then resume): its containers are gone or going.
    fs::remove_all(dir, ec);
    if (ec) {
        m.error = "cannot remove " + dir.string() + ", left by an earlier session: " + ec.message();
        return m;
    }
    fs::create_directories(dir / "bin", ec);
    if (!ec) fs::permissions(dir, fs::perms::owner_all, ec);
    if (ec) {
        m.error = "cannot create " + dir.string() + ": " + ec.message();
        return m;
    }
    for (const char* key : {"id_ed25519", "host_ed25519"}) {
        m.error = runKeygen((dir / key).string());
        if (!m.error.empty()) return m;
    }
    const std::string user = readText(dir / "id_ed25519.pub");
    const std::string host = readText(dir / "host_ed25519.pub");
    m.files = {{"id_ed25519", "600", readText(dir / "id_ed25519")},
               {"id_ed25519.pub", "644", user},
               {"host_ed25519", "600", readText(dir / "host_ed25519")},
               {"host_ed25519.pub", "644", host}};
    for (auto& f : ssh.configFiles(user, host, addresses)) {
        const fs::path path = dir / f.name;
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << f.text;
        out.close();
        const auto perms = f.mode == "755" ? fs::perms::owner_all | fs::perms::group_read |
                                                 fs::perms::group_exec | fs::perms::others_read |
                                                 fs::perms::others_exec
                           : f.mode == "644" ? fs::perms::owner_read | fs::perms::owner_write |
                                                   fs::perms::group_read | fs::perms::others_read
                                             : fs::perms::owner_read | fs::perms::owner_write;
        if (out) fs::permissions(path, perms, ec);
        if (!out || ec) {
            m.error = "cannot write " + path.string();
            return m;
        }
        m.files.push_back(std::move(f));
    }
    return m;
}

int shortMs(const CommandBuilder& builder) {
    return (builder.campaign().connectTimeoutSeconds + 30) * 1000;
}

std::vector<std::string> hostNames(const CommandBuilder& builder) {
    std::vector<std::string> names;
    for (std::size_t h = 0; h < builder.campaign().hosts.size(); ++h)
        names.push_back(builder.hostName(static_cast<int>(h)));
    return names;
}

} // namespace

void ContainerSshd::prepare(const CommandBuilder& builder, QObject* context, Done done) {
    const ContainerSsh& ssh = builder.containerSsh();
    if (auto why = ssh.problem()) return done({*why, {}});
    const auto names = hostNames(builder);
    std::vector<std::string> addresses;
    for (std::size_t h = 0; h < names.size(); ++h)
        addresses.push_back(builder.rendezvous(static_cast<int>(h)));
    // The copies' command lines hold the files' sizes: built once the files are made.
    auto hosts = std::make_shared<CommandBuilder>(builder);
    async::runInBackground(
        context, [ssh, addresses] { return makeKeys(ssh, addresses); },
        [=, timeoutMs = shortMs(builder)](Made made) {
            if (!made.error.empty())
                return done({made.error + "; the containers' sshd needs the campaign's keys", {}});
            std::vector<BatchCommand> cmds;
            const std::string bundle = ContainerSsh::bundle(made.files);
            for (std::size_t h = 0; h < names.size(); ++h)
                cmds.push_back({hosts->onHost(static_cast<int>(h), ssh.install(made.files), false),
                                bundle, timeoutMs});
            CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
                Outcome o;
                for (std::size_t h = 0; h < results.size(); ++h)
                    if (results[h].exitCode != 0 && o.failure.empty())
                        o.failure = "could not copy the campaign's ssh keys to " + ssh.dir() +
                                    " on " + names[h] + " (" + failureLine(results[h]) +
                                    "); the containers' sshd needs them there";
                if (o.failure.empty())
                    o.messages.push_back(
                        "made a key pair and a host key for this campaign's containers (" +
                        ssh.dir() + ", never your own keys) and copied them to every host");
                done(std::move(o));
            });
        });
}

void ContainerSshd::start(const CommandBuilder& builder, QObject* context, Done done) {
    const ContainerSsh& ssh = builder.containerSsh();
    const auto names = hostNames(builder);
    std::vector<BatchCommand> cmds;
    std::vector<std::string> containers, addresses;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const int h = static_cast<int>(i);
        addresses.push_back(builder.rendezvous(h));
        containers.push_back(builder.containers().name(h));
        cmds.push_back(
            {builder.onHost(h, ssh.startSshd(addresses.back()), true), {}, shortMs(builder)});
    }
    const int port = ssh.port();
    CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
        Outcome o;
        for (std::size_t h = 0; h < results.size(); ++h) {
            const BatchResult& r = results[h];
            const std::string at = addresses[h] + " port " + std::to_string(port);
            if (r.exitCode == 0) {
                o.messages.push_back("started sshd in the container " + containers[h] + " on " +
                                     names[h] + ", listening at " + at);
                continue;
            }
            if (!o.failure.empty()) continue;
            const std::string all = r.errors + r.output;
            const std::string advice =
                all.find("Address already in use") != std::string::npos
                    ? at + " is taken there (a kept container of another campaign?): free it, or "
                           "give the campaign another port (variable ssh_port)"
                : r.exitCode == 127
                    ? "multi-node runs need sshd in the image: install openssh-server in it"
                    : "check the host with 'scaleview-cli preflight'";
            o.failure = "could not start sshd in the container " + containers[h] + " on " +
                        names[h] + " (" + failureLine(r) + "): " + advice;
        }
        done(std::move(o));
    });
}

std::vector<std::vector<std::string>> ContainerSshd::removals(const CommandBuilder& builder) {
    const ContainerSsh& ssh = builder.containerSsh();
    std::vector<std::vector<std::string>> out{ssh.removal()}; // this machine's
    for (std::size_t h = 0; h < builder.campaign().hosts.size(); ++h)
        out.push_back(builder.onHost(static_cast<int>(h), ssh.removal(), false));
    return out;
}

void ContainerSshd::remove(const CommandBuilder& builder, QObject* context, Done done) {
    std::vector<BatchCommand> cmds;
    for (auto& argv : removals(builder))
        cmds.push_back({std::move(argv), {}, shortMs(builder)});
    std::vector<std::string> where{"this machine"};
    for (const auto& n : hostNames(builder))
        where.push_back(n);
    const std::string dir = builder.containerSsh().dir();
    CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
        Outcome o;
        std::string failed;
        for (std::size_t i = 0; i < results.size(); ++i)
            if (results[i].exitCode != 0)
                failed +=
                    (failed.empty() ? "" : ", ") + where[i] + " (" + failureLine(results[i]) + ")";
        if (failed.empty())
            o.messages.push_back("removed the campaign's ssh keys (" + dir + ") on every host");
        else
            o.failure = "could not remove the campaign's ssh keys " + dir + " on " + failed +
                        "; remove them with rm -rf " + dir;
        done(std::move(o));
    });
}

} // namespace sv::launcher
