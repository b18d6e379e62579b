#include "launcher/slurm/slurmjob.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace sv::launcher {
namespace {

std::atomic<int> g_pollMs{500};
// A read of the output file takes at most this much at a time: memory stays bounded when a job
// writes faster than it is followed.
constexpr qint64 kReadChunk = 4 << 20;
constexpr int kCommandMs = 30000;
// squeue failing this many polls in a row (the controller is gone): the job is given up on.
constexpr int kMaxFailedPolls = 120;

struct Chunk {
    QByteArray bytes;
    std::string error;
};

Chunk readFrom(const std::string& path, qint64 offset) {
    Chunk c;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT) c.error = path + ": " + std::strerror(errno);
        return c;
    }
    c.bytes.resize(kReadChunk);
    const ssize_t n = ::pread(fd, c.bytes.data(), static_cast<std::size_t>(kReadChunk), offset);
    c.bytes.resize(n > 0 ? n : 0);
    ::close(fd);
    return c;
}

// Written once: a script of this name is never replaced (the tag in its name is new per run).
std::string writeScript(const std::string& path, const std::string& text) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    if (ec)
        return "cannot create " + std::filesystem::path(path).parent_path().string() + ": " +
               ec.message();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                    ::fsync(fd) == 0;
    const std::string why = ok ? "" : "cannot write " + path + ": " + std::strerror(errno);
    ::close(fd);
    return why;
}

} // namespace

void SlurmJob::setPollInterval(int ms) {
    g_pollMs = ms;
}

SlurmJob::SlurmJob(SlurmSubmission submission, QObject* parent)
    : QObject(parent), m_submission(std::move(submission)) {
    connect(&m_timer, &QTimer::timeout, this, &SlurmJob::poll);
}

void SlurmJob::submit() {
    async::runInBackground(
        this,
        [path = m_submission.scriptPath, text = m_submission.script] {
            return writeScript(path, text);
        },
        [this](std::string error) {
            if (!error.empty()) return emit submitFailed(QString::fromStdString(error));
            CommandBatch::run(
                {{m_submission.sbatchArgv, {}, kCommandMs}}, this,
                [this](std::vector<BatchResult> r) {
                    const auto id = parseSbatchJobId(r[0].output);
                    if (r[0].exitCode != 0 || !id) {
                        std::string why =
                            r[0].startError.empty() ? r[0].errors + r[0].output : r[0].startError;
                        while (!why.empty() && why.back() == '\n')
                            why.pop_back();
                        return emit submitFailed(QString::fromStdString(
                            "sbatch refused the job: " +
                            (why.empty() ? "exit code " + std::to_string(r[0].exitCode) : why)));
                    }
                    attach(*id);
                    emit submitted(QString::fromStdString(*id));
                });
        });
}

void SlurmJob::attach(const std::string& jobId, qint64 outputBytes) {
    m_jobId = jobId;
    m_outputPath = m_submission.outputPath(jobId);
    m_offset = outputBytes;
    if (m_cancelled) cancel();
    m_timer.start(g_pollMs.load());
    QTimer::singleShot(0, this, &SlurmJob::poll);
}

void SlurmJob::cancel(bool kill) {
    m_cancelled = true;
    if (m_jobId.empty()) return;
    std::vector<std::string> argv{"scancel"};
    if (kill) argv.insert(argv.end(), {"--signal=KILL", "--full"});
    argv.push_back(m_jobId);
    CommandBatch::run({{argv, {}, kCommandMs}}, this, [](std::vector<BatchResult>) {});
}

void SlurmJob::poll() {
    if (m_busy || m_ending) return;
    m_busy = true;
    readOutput(false, [this] {
        CommandBatch::run(
            {{{"squeue", "-h", "-t", "all", "-j", m_jobId, "-o", "%T|%r|%S|%N"}, {}, kCommandMs}},
            this, [this](std::vector<BatchResult> r) {
                onQueue(r[0].exitCode, r[0].output + r[0].errors);
            });
    });
}

void SlurmJob::readOutput(bool last, std::function<void()> then) {
    async::runInBackground(
        this, [path = m_outputPath, offset = m_offset] { return readFrom(path, offset); },
        [this, last, then = std::move(then)](Chunk c) {
            m_offset += c.bytes.size();
            m_partial += c.bytes;
            const qsizetype cut = m_partial.lastIndexOf('\n') + 1;
            if (cut > 0) {
                emit output(m_partial.left(cut));
                m_partial.remove(0, cut);
            }
            // The last read may stop at the chunk size: go on until the file is read through.
            if (last && c.bytes.size() == kReadChunk) return readOutput(true, then);
            if (last && !m_partial.isEmpty()) {
                emit output(m_partial + '\n');
                m_partial.clear();
            }
            then();
        });
}

void SlurmJob::onQueue(int exitCode, const std::string& out) {
    m_busy = false;
    if (exitCode != 0) {
        // "Invalid job id specified": gone from the controller's memory (MinJobAge passed).
        if (out.find("Invalid job id") != std::string::npos) return lookUpEnd();
        if (++m_failedPolls >= kMaxFailedPolls) {
            SlurmJobEnd end;
            end.state = "UNKNOWN";
            end.reason = "squeue failed " + std::to_string(m_failedPolls) + " times: " + out;
            return endWith(end);
        }
        return;
    }
    m_failedPolls = 0;
    const auto state = parseSqueueLine(out);
    if (!state) return lookUpEnd(); // not listed any more
    const bool changed = state->state != m_queue.state || state->reason != m_queue.reason ||
                         state->start != m_queue.start;
    m_queue = *state;
    if (changed) emit queueChanged();
    if (m_queue.ended()) lookUpEnd();
}

void SlurmJob::lookUpEnd() {
    if (m_ending) return;
    m_ending = true;
    m_timer.stop();
    CommandBatch::run(
        {{{"sacct", "-n", "-P", "-X", "-j", m_jobId, "-o", "State,ExitCode,NodeList,Timelimit"},
          {},
          kCommandMs},
         {{"scontrol", "show", "job", "-o", m_jobId}, {}, kCommandMs}},
        this, [this](std::vector<BatchResult> r) {
            // sacct needs accounting (slurmdbd); without it, scontrol still knows the job for
            // MinJobAge after its end.
            std::optional<SlurmJobEnd> end;
            if (r[0].exitCode == 0) end = parseSacct(r[0].output);
            if (!end && r[1].exitCode == 0) end = parseScontrolJob(r[1].output);
            if (!end) {
                end = SlurmJobEnd{};
                end->state = m_queue.ended() ? m_queue.state : "UNKNOWN";
                end->nodes = m_queue.nodes;
            }
            if (auto detail = parseScontrolJob(r[1].output); detail) {
                if (end->reason.empty()) end->reason = detail->reason;
                if (end->timeLimit.empty()) end->timeLimit = detail->timeLimit;
            }
            if (end->state != "NODE_FAIL" || end->nodes.empty()) return endWith(*end);
            // Which of the job's nodes failed: the ones Slurm now holds down, with its reason.
            CommandBatch::run(
                {{{"sinfo", "-h", "-N", "-R", "-n", end->nodes, "-o", "%N|%E"}, {}, kCommandMs}},
                this, [this, end = *end](std::vector<BatchResult> s) mutable {
                    if (s[0].exitCode == 0) readDownNodes(s[0].output, end);
                    endWith(end);
                });
        });
}

void SlurmJob::endWith(SlurmJobEnd end) {
    m_ending = true;
    m_timer.stop();
    readOutput(true, [this, end] { emit ended(end); });
}

} // namespace sv::launcher
