#include "launcher/runner/runrecorder.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/campaigndirectory.h"

#include <QThread>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace sv::launcher {
namespace {
std::atomic<RunRecorder::SyncFunction> g_sync{&::fdatasync};
} // namespace

void RunRecorder::setSyncFunction(SyncFunction sync) {
    g_sync = sync ? sync : &::fdatasync;
}

void RunRecorder::open(Journal journal, PlannedRun run, std::string tag,
                       std::vector<std::vector<std::string>> commands,
                       std::vector<std::string> hosts, RunState before, QObject* context,
                       std::function<void(Opened)> done) {
    QThread* home = context->thread();
    async::runInBackground(
        context,
        [=]() mutable {
            Opened o;
            // The start record comes first: a crash right after it leaves an interrupted run,
            // whose log (if any) resume moves aside, rather than a log no record explains.
            if (!journal.appendStart(run.id, tag, commands, hosts, run.logPath, &o.journalError))
                return o;
            o.log = createRunLog(run, before, &o.logFailure);
            if (o.log) {
                o.log->moveToThread(home);
            } else {
                RunEnd end;
                end.reason = o.logFailure;
                journal.appendEnd(run.id, tag, run.logPath, end, &o.journalError);
            }
            return o;
        },
        std::move(done), async::recordQueue());
}

void RunRecorder::close(Journal journal, PlannedRun run, std::string tag,
                        std::unique_ptr<QFile> log, RunEnd end, QObject* context,
                        std::function<void(Closed)> done) {
    // The QFile stays on this thread; the worker syncs a duplicate of its descriptor.
    std::string flushError;
    int fd = -1;
    if (log) {
        if (!log->flush()) flushError = log->errorString().toStdString();
        fd = ::dup(log->handle());
        if (fd < 0) flushError = std::strerror(errno);
        log->close();
    }
    async::runInBackground(
        context,
        [=]() mutable {
            Closed c;
            std::string why = flushError;
            if (fd >= 0) {
                if (g_sync.load()(fd) != 0 && why.empty()) why = std::strerror(errno);
                ::close(fd);
            }
            if (!why.empty()) {
                // Its end may be in the page cache only: never ok. A run that ended otherwise
                // keeps its state (a cancelled one still runs again on resume).
                if (end.state == RunState::Ok) end.state = RunState::Failed;
                end.reason += (end.reason.empty() ? "" : "; ") +
                              std::string("cannot write the log ") + run.logPath +
                              " to disk: " + why;
            }
            journal.appendEnd(run.id, tag, run.logPath, end, &c.journalError);
            c.end = std::move(end);
            return c;
        },
        std::move(done), async::recordQueue());
}

bool RunRecorder::append(QFile& log, const QByteArray& bytes, std::string* error) {
    // Straight to the descriptor, unbuffered: the bytes are in the kernel when this returns,
    // and a failure says why in errno (QFile's buffered flush says "Unknown error").
    const int fd = log.handle();
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n =
            ::write(fd, bytes.constData() + done, static_cast<std::size_t>(bytes.size() - done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            *error = n == 0 ? std::string("no progress writing") : std::strerror(errno);
            return false;
        }
        done += n;
    }
    return true;
}

void RunRecorder::recordQuit(Journal& journal, const PlannedRun& run, const std::string& tag,
                             std::unique_ptr<QFile> log, std::optional<RunState> forced,
                             const std::string& forcedReason) {
    if (log) log->close();
    RunEnd end;
    end.state = forced.value_or(RunState::Cancelled);
    end.reason = forcedReason.empty() ? "the app quit during the run"
                                      : forcedReason + "; the app quit while stopping it";
    std::string error;
    journal.appendEnd(run.id, tag, run.logPath, end, &error);
}

} // namespace sv::launcher
