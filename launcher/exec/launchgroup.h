#pragma once
// The processes one run starts on this machine: one launcher (mpirun, horovodrun), or one per
// node (torchrun), each in its own session and process group. Their output arrives as whole
// lines, merged in arrival order, so a log never holds half a line of one node glued to
// another's. No shell: program and arguments go to QProcess as they are.

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct LaunchExit {
    std::optional<int> exitCode; // none: killed by a signal, or never started
    std::string startError;      // why it could not start
};

class LaunchGroup : public QObject {
    Q_OBJECT
  public:
    explicit LaunchGroup(QObject* parent = nullptr);
    ~LaunchGroup() override;

    // Starts every argv at once; standard input is closed at once.
    void start(const std::vector<std::vector<std::string>>& argvs);
    // KILLs the processes still running (their children are the caller's to sweep).
    void kill();
    // The process group of each started process not yet reaped (its pid, as each is a session
    // leader). A reaped leader's id is forgotten: once its group empties, the kernel may give
    // the id to an unrelated process, which a signal to it would hit.
    std::vector<qint64> processGroups() const;
    int size() const { return static_cast<int>(m_members.size()); }
    int running() const { return m_running; }
    const LaunchExit& exit(int index) const { return m_members.at(index).exit; }

  signals:
    // Whole lines (a final unfinished line when a process ends) from process `member`, in
    // arrival order; a lone process's bytes as they come.
    void output(int member, const QByteArray& lines);
    // One process ended; finished() follows when it was the last.
    void memberExited(int index);
    void finished();

  private:
    struct Member {
        QProcess* process = nullptr;
        QByteArray partial; // the unfinished last line
        qint64 pid = 0;
        bool done = false;
        LaunchExit exit;
    };
    void read(std::size_t index);
    void ended(std::size_t index, LaunchExit exit);

    std::vector<Member> m_members;
    int m_running = 0;
};

} // namespace sv::launcher
