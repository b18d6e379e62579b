#include "launcher/exec/commandbatch.h"

#include <csignal>
#include <unistd.h>

#include <QPointer>
#include <QTimer>
#include <memory>

namespace sv::launcher {

std::string lastLineOf(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    const auto nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

std::string failureLine(const BatchResult& r) {
    if (r.timedOut) return "no answer within the time limit";
    if (!r.startError.empty()) return r.startError;
    return lastLineOf(r.errors.empty() ? r.output : r.errors);
}

bool loginFailed(const BatchResult& r) {
    if (r.exitCode != 255) return false;
    for (const char* words : {"ssh: ", "kex_exchange_identification", "Connection closed by",
                              "Connection reset by", "Connection timed out during banner"})
        if (r.errors.find(words) != std::string::npos) return true;
    return false;
}

CommandBatch::~CommandBatch() {
    for (QProcess* p : findChildren<QProcess*>())
        if (p->state() != QProcess::NotRunning && p->processId() > 0)
            ::kill(-static_cast<pid_t>(p->processId()), SIGKILL);
}

void CommandBatch::run(std::vector<BatchCommand> commands, QObject* context, Done done) {
    auto* batch = new CommandBatch(context);
    batch->start(std::move(commands), std::move(done));
}

void CommandBatch::start(std::vector<BatchCommand> commands, Done done) {
    m_done = std::move(done);
    m_commands = std::move(commands);
    m_results.resize(m_commands.size());
    m_pending = static_cast<int>(m_commands.size());
    if (m_pending == 0) {
        m_pending = 1;
        QTimer::singleShot(0, this, [this] { oneEnded(0); });
        return;
    }
    for (std::size_t i = 0; i < m_commands.size(); ++i) {
        const std::string& host = m_commands[i].host;
        if (!host.empty() && m_running[host] >= kPerHost)
            m_waiting[host].push_back(i);
        else
            launch(i);
    }
}

void CommandBatch::launch(std::size_t i) {
    const BatchCommand& command = m_commands[i];
    if (!command.host.empty()) ++m_running[command.host];
    auto* p = new QProcess(this);
    // Its own session, as a run's processes have: a terminal's ^C reaches ScaleView, which
    // cancels in order, and never the sweeps that do the cancelling.
    // The app ignores SIGXFSZ (a full log is an error it reports); exec keeps an ignored
    // signal ignored, so the workload gets the default back.
    p->setChildProcessModifier([] {
        ::setsid();
        ::signal(SIGXFSZ, SIG_DFL);
    });
    const auto& argv = command.argv;
    QStringList args;
    for (std::size_t k = 1; k < argv.size(); ++k)
        args << QString::fromStdString(argv[k]);
    auto* timer = new QTimer(p);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, p, [this, p, i] {
        m_results[i].timedOut = true;
        // The whole session: what the command started (a hung nvidia-smi under sh) too.
        if (p->processId() > 0) ::kill(-static_cast<pid_t>(p->processId()), SIGKILL);
        p->kill();
    });
    connect(p, &QProcess::finished, this,
            [this, p, i, timer](int code, QProcess::ExitStatus status) {
                timer->stop();
                m_results[i].exitCode = status == QProcess::NormalExit ? code : -1;
                m_results[i].output = p->readAllStandardOutput().toStdString();
                m_results[i].errors = p->readAllStandardError().toStdString();
                p->deleteLater();
                oneEnded(i);
            });
    connect(p, &QProcess::errorOccurred, this, [this, p, i, timer](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        timer->stop();
        m_results[i].startError = p->errorString().toStdString();
        p->deleteLater();
        oneEnded(i);
    });
    p->start(QString::fromStdString(argv.at(0)), args);
    if (!command.input.empty())
        p->write(command.input.data(), static_cast<qint64>(command.input.size()));
    p->closeWriteChannel();
    timer->start(command.timeoutMs);
}

void CommandBatch::oneEnded(std::size_t i) {
    if (i < m_commands.size() && !m_commands[i].host.empty()) {
        const std::string& host = m_commands[i].host;
        --m_running[host];
        auto& waiting = m_waiting[host];
        if (!waiting.empty()) {
            const std::size_t next = waiting.front();
            waiting.pop_front();
            launch(next);
        }
    }
    if (--m_pending > 0) return;
    auto done = std::move(m_done);
    auto results = std::move(m_results);
    deleteLater();
    if (done) done(std::move(results));
}

} // namespace sv::launcher
