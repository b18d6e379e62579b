#include "launcher/exec/launchgroup.h"

#include <csignal>
#include <unistd.h>

namespace sv::launcher {
namespace {
// A line this long without a newline is written as it is rather than held without bound.
constexpr qsizetype kMaxPartial = 1 << 20;
} // namespace

LaunchGroup::LaunchGroup(QObject* parent) : QObject(parent) {}

LaunchGroup::~LaunchGroup() {
    // A QProcess destroyed while running is killed and waited for; say nothing on the way out.
    for (Member& m : m_members)
        if (m.process) m.process->disconnect(this);
}

void LaunchGroup::start(const std::vector<std::vector<std::string>>& argvs) {
    m_members.resize(argvs.size());
    m_running = static_cast<int>(argvs.size());
    for (std::size_t i = 0; i < argvs.size(); ++i) {
        auto* p = new QProcess(this);
        m_members[i].process = p;
        p->setProcessChannelMode(QProcess::MergedChannels);
        // Its own session and process group: cancel signals the group, and a terminal's ^C
        // reaches ScaleView, which then cancels in order, rather than the payload directly.
        // The app ignores SIGXFSZ (a full log is an error it reports); exec keeps an ignored
        // signal ignored, so the workload gets the default back.
        p->setChildProcessModifier([] {
            ::setsid();
            ::signal(SIGXFSZ, SIG_DFL);
        });
        connect(p, &QProcess::readyReadStandardOutput, this, [this, i] { read(i); });
        connect(p, &QProcess::started, this,
                [this, i] { m_members[i].pid = m_members[i].process->processId(); });
        connect(p, &QProcess::finished, this, [this, i](int code, QProcess::ExitStatus status) {
            ended(i,
                  {status == QProcess::NormalExit ? std::optional<int>(code) : std::nullopt, {}});
        });
        connect(p, &QProcess::errorOccurred, this, [this, i](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                ended(i, {std::nullopt, m_members[i].process->errorString().toStdString()});
        });
    }
    for (std::size_t i = 0; i < argvs.size(); ++i) {
        QStringList args;
        for (std::size_t k = 1; k < argvs[i].size(); ++k)
            args << QString::fromStdString(argvs[i][k]);
        m_members[i].process->start(QString::fromStdString(argvs[i].front()), args);
        m_members[i].process->closeWriteChannel();
    }
}

void LaunchGroup::read(std::size_t index) {
    Member& m = m_members[index];
    const QByteArray chunk = m.process->readAllStandardOutput();
    if (chunk.isEmpty()) return;
    if (m_members.size() == 1) {
        // Alone, nothing can interleave: pass it on as it comes.
        emit output(static_cast<int>(index), chunk);
        return;
    }
    m.partial += chunk;
    const qsizetype cut =
        m.partial.size() > kMaxPartial ? m.partial.size() : m.partial.lastIndexOf('\n') + 1;
    if (cut <= 0) return;
    emit output(static_cast<int>(index), m.partial.left(cut));
    m.partial.remove(0, cut);
}

void LaunchGroup::ended(std::size_t index, LaunchExit exit) {
    Member& m = m_members[index];
    if (m.done) return; // FailedToStart and finished may both arrive
    m.done = true;
    m.exit = std::move(exit);
    if (m.process->bytesAvailable() > 0) read(index);
    if (!m.partial.isEmpty()) {
        emit output(static_cast<int>(index), m.partial + '\n');
        m.partial.clear();
    }
    --m_running;
    emit memberExited(static_cast<int>(index));
    if (m_running == 0) emit finished();
}

void LaunchGroup::kill() {
    for (Member& m : m_members)
        if (!m.done && m.process) m.process->kill();
}

std::vector<qint64> LaunchGroup::processGroups() const {
    std::vector<qint64> groups;
    for (const Member& m : m_members)
        if (m.pid > 0 && !m.done) groups.push_back(m.pid);
    return groups;
}

} // namespace sv::launcher
