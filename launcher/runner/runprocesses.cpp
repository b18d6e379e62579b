#include "launcher/runner/runprocesses.h"

#include "launcher/exec/processtree.h"

#include <QProcess>
#include <csignal>
#include <utility>

namespace sv::launcher {
namespace {
// A scan of /proc here that takes longer is stuck on a process in D state: said, not waited on.
constexpr std::chrono::seconds kScanDeadline{10};

// A sweep's time limit: the hosts' connect timeout and some.
std::chrono::seconds sweepLimit(const Campaign& campaign) {
    return campaign.connectTimeout() + std::chrono::seconds(20);
}
} // namespace

RunProcesses::RunProcesses(const CommandBuilder& builder, const PlannedRun& run, std::string tag,
                           std::vector<Launch> launches, QObject* parent)
    : QObject(parent), m_builder(builder), m_hosts(builder.sweepHostCount(run)),
      m_tag(std::move(tag)), m_launches(std::move(launches)), m_group(new LaunchGroup(this)) {
    connect(m_group, &LaunchGroup::output, this, &RunProcesses::output);
    connect(m_group, &LaunchGroup::memberExited, this, &RunProcesses::memberExited);
    connect(m_group, &LaunchGroup::finished, this, &RunProcesses::finished);
}

void RunProcesses::start() {
    std::vector<std::vector<std::string>> argvs;
    for (const Launch& l : m_launches)
        argvs.push_back(l.argv);
    m_group->start(argvs);
}

std::vector<LaunchExit> RunProcesses::exits() const {
    std::vector<LaunchExit> out;
    for (int i = 0; m_group && i < m_group->size(); ++i)
        out.push_back(m_group->exit(i));
    return out;
}

std::string RunProcesses::hostOf(int member) const {
    return m_builder.hostName(m_launches.at(static_cast<std::size_t>(member)).host);
}

RunSweep RunProcesses::sweep() const {
    return RunSweep(
        m_builder, m_hosts, m_tag,
        static_cast<int>(std::chrono::milliseconds(sweepLimit(m_builder.campaign())).count()));
}

void RunProcesses::signal(int sig) {
    signalHere(sig);
    sweep().signal(sig == SIGKILL ? "KILL" : "TERM", this);
}

void RunProcesses::kill() {
    if (m_group) m_group->kill();
}

void RunProcesses::signalHere(int sig) {
    // Each launch's process group (the ssh clients and mpirun, even before the tag reaches a
    // payload) at once; every tagged process here from a worker thread.
    if (m_group)
        for (qint64 group : m_group->processGroups())
            ::kill(-static_cast<pid_t>(group), sig);
    ProcessTree(m_tag).inBackground(sig, 0, this, kScanDeadline, [this](ProcessTree::Scan scan) {
        if (!scan.finished)
            emit message(tr("The scan of this machine's processes did not finish within %1 s (a "
                            "process stuck in the kernel?); the sweep goes on without it.")
                             .arg(kScanDeadline.count()));
    });
}

void RunProcesses::sweepAfter(RunSweep::Checked done) {
    // Whatever the ending, nothing tagged may outlive the run: KILL the rest, then look again.
    signalHere(SIGKILL);
    m_group->disconnect(this);
    m_group->deleteLater();
    m_group = nullptr;
    sweep().killAndCheck(this, std::move(done));
}

void RunProcesses::abandon() const {
    if (m_group)
        for (qint64 group : m_group->processGroups())
            ::kill(-static_cast<pid_t>(group), SIGKILL);
    // Detached sweeps, each bounded by timeout(1): this process may be gone before they end.
    Campaign here = m_builder.campaign();
    here.hosts.clear();
    here.container = {};
    std::vector<std::vector<std::string>> sweeps{
        CommandBuilder(here, m_builder.profile(), {}).sweepArgv(0, m_tag, "KILL")};
    for (int h = 0; h < m_hosts; ++h)
        sweeps.push_back(m_builder.sweepArgv(h, m_tag, "KILL"));
    const auto limit = sweepLimit(m_builder.campaign());
    // Each sweep runs twice, the second time a moment later: a payload forking while the
    // first looked (its parent then killed) is caught by the second.
    for (const auto& argv : sweeps) {
        QStringList args{
            QStringLiteral("-s"), QStringLiteral("KILL"), QString::number(limit.count()),
            QStringLiteral("sh"), QStringLiteral("-c"),   QStringLiteral("\"$@\"; sleep 2; \"$@\""),
            QStringLiteral("sh")};
        for (const auto& a : argv)
            args << QString::fromStdString(a);
        QProcess::startDetached(QStringLiteral("timeout"), args);
    }
}

} // namespace sv::launcher
