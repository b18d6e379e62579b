#pragma once
// Runs a few short commands at once (preflight checks, tag sweeps, staging), each with a time
// limit, without blocking the event loop; says when all have ended.

#include <QObject>
#include <QProcess>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

struct BatchCommand {
    std::vector<std::string> argv;
    std::string input; // written to standard input, then closed
    int timeoutMs = 30000;
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

class CommandBatch : public QObject {
    Q_OBJECT
  public:
    using Done = std::function<void(std::vector<BatchResult>)>;
    explicit CommandBatch(QObject* parent = nullptr) : QObject(parent) {}
    // Gone before its commands ended (its owner went away): each command's session is KILLed,
    // so that QProcess's own destructor, which waits for the process, has nothing to wait for.
    ~CommandBatch() override;
    // Calls done once, from the event loop, when every command has ended; then deletes itself.
    static void run(std::vector<BatchCommand> commands, QObject* context, Done done);

  private:
    void start(std::vector<BatchCommand> commands, Done done);
    void oneEnded();

    std::vector<BatchResult> m_results;
    int m_pending = 0;
    Done m_done;
};

} // namespace sv::launcher
