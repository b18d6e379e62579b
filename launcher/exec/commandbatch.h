#pragma once
// Runs a few short commands at once (preflight checks, tag sweeps, staging), each with a time
// limit, without blocking the event loop; says when all have ended. Commands that log in to the
// same host take turns, a few at a time.

#include <QObject>
#include <QProcess>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sv::launcher {

struct BatchCommand {
    std::vector<std::string> argv;
    std::string input; // written to standard input, then closed
    int timeoutMs = 30000; // from the moment it starts
    // The host it logs in to over ssh, if any: at most CommandBatch::kPerHost of a batch's
    // commands to one host run at once, the rest wait their turn. A host's sshd drops new
    // connections at random beyond 10 unauthenticated ones by default (MaxStartups 10:30:100),
    // and a burst of logins on a busy host outlasts their time limits.
    std::string host = {};
};

struct BatchResult {
    int exitCode = -1; // -1: did not start or crashed
    bool timedOut = false;
    std::string output; // standard output
    std::string errors; // standard error
    std::string startError;
};

// The last line of text, its line end dropped.
std::string lastLineOf(std::string text);
// Why a command of a batch failed, in one line: its time limit, why it did not start, else the
// last line it printed (standard error's, else standard output's).
std::string failureLine(const BatchResult& r);
// Whether ssh itself failed (exit 255 with ssh's own words: the login was refused, dropped or
// timed out), so the command never ran on the host and says nothing about what it checks.
bool loginFailed(const BatchResult& r);

class CommandBatch : public QObject {
    Q_OBJECT
  public:
    using Done = std::function<void(std::vector<BatchResult>)>;
    static constexpr int kPerHost = 4;
    explicit CommandBatch(QObject* parent = nullptr) : QObject(parent) {}
    // Gone before its commands ended (its owner went away): each command's session is KILLed,
    // so that QProcess's own destructor, which waits for the process, has nothing to wait for.
    ~CommandBatch() override;
    // Calls done once, from the event loop, when every command has ended; then deletes itself.
    static void run(std::vector<BatchCommand> commands, QObject* context, Done done);

  private:
    void start(std::vector<BatchCommand> commands, Done done);
    void launch(std::size_t i);
    void oneEnded(std::size_t i);

    std::vector<BatchCommand> m_commands;
    std::vector<BatchResult> m_results;
    std::map<std::string, std::deque<std::size_t>> m_waiting; // by host
    std::map<std::string, int> m_running;                      // by host
    int m_pending = 0;
    Done m_done;
};

} // namespace sv::launcher
