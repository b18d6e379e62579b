#pragma once
// A run's processes, from the Runner's side: its launchers on this machine (one process group
// each, their output in whole lines) and everything that carries the run's tag, here and on
// every host the run uses. Signalled on a cancel or a timeout (TERM, then KILL), killed and
// looked for again once the run has ended, so that the journal can say whether anything
// survived, and killed by detached commands when the app quits.

#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/launchgroup.h"
#include "launcher/runner/runsweep.h"

#include <QByteArray>
#include <QObject>
#include <string>
#include <vector>

namespace sv::launcher {

class RunProcesses : public QObject {
    Q_OBJECT
  public:
    // launches: what the builder made of the run under this tag (CommandBuilder::launches).
    RunProcesses(const CommandBuilder& builder, const PlannedRun& run, std::string tag,
                 std::vector<Launch> launches, QObject* parent = nullptr);

    void start();
    int size() const { return static_cast<int>(m_launches.size()); }
    int running() const { return m_group ? m_group->running() : 0; }
    // How each launcher ended (until sweepAfter, which lets the launchers go).
    std::vector<LaunchExit> exits() const;
    const LaunchExit& exit(int member) const { return m_group->exit(member); }
    const std::vector<Launch>& launches() const { return m_launches; }
    // The host whose launcher member is.
    std::string hostOf(int member) const;

    // sig (SIGTERM, SIGKILL) to each launcher's process group here at once, and to every
    // tagged process here (from a worker thread) and on every host; nothing waits.
    void signal(int sig);
    // KILLs the launchers still running here.
    void kill();
    // Once the run has ended: KILL what is left, here and on every host, then look again;
    // done(pids still alive, hosts that could not be looked at), both empty when all is gone.
    void sweepAfter(RunSweep::Checked done);
    // The owner is going away (the app quits): KILL the process groups now, and start a KILL
    // sweep of the tag here and on every host, each bounded by timeout(1), that outlives this
    // process.
    void abandon() const;

  signals:
    void output(int member, const QByteArray& lines);
    // One launcher ended; finished() follows when it was the last.
    void memberExited(int member);
    void finished();
    void message(const QString& text);

  private:
    RunSweep sweep() const;
    // sig to the process groups here now, and to the tagged processes here from a worker.
    void signalHere(int sig);

    const CommandBuilder& m_builder;
    int m_hosts; // swept: CommandBuilder::sweepHostCount of the run
    std::string m_tag;
    std::vector<Launch> m_launches;
    LaunchGroup* m_group; // gone once the run has ended (sweepAfter)
};

} // namespace sv::launcher
