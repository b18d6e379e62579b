#pragma once
// Finds a run's processes by its tag on every host the run used, at once, without blocking:
// signals them (TERM on cancel, KILL after the grace period) or, once the run has ended, kills
// what is left and looks again, so that the journal can say whether anything survived.

#include "launcher/exec/commandbatch.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

class RunSweep {
  public:
    // hosts: how many to sweep (CommandBuilder::sweepHostCount).
    RunSweep(const CommandBuilder& builder, int hosts, std::string tag, int timeoutMs)
        : m_builder(builder), m_hosts(hosts), m_tag(std::move(tag)), m_timeoutMs(timeoutMs) {}

    // Sends `signal` ("TERM", "KILL") to the tagged processes on every host; nothing waits.
    void signal(const std::string& signal, QObject* context) const;
    // KILLs what is tagged on every host, then lists what is still alive here and there:
    // done(pids, hosts that could not be looked at), both empty when all is known gone.
    using Checked = std::function<void(std::vector<int>, std::vector<std::string>)>;
    void killAndCheck(QObject* context, Checked done) const;

  private:
    std::vector<BatchCommand> commands(const std::string& signal, bool thenList = false) const;

    const CommandBuilder& m_builder;
    int m_hosts;
    std::string m_tag;
    int m_timeoutMs;
};

} // namespace sv::launcher
