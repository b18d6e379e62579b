#pragma once
// The monitor of one run, from the Runner's side: started with the run's processes (this
// machine, and each remote host of the run over ssh, the remote sampler giving up by itself a
// little after the run's own wall-clock limit), finished before the run's end record, which
// carries its summary; what it saw is said: a disturbed run, a host it could not watch.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"

#include <QObject>
#include <cstdint>
#include <functional>
#include <string>

namespace sv::launcher {

class RunMonitor;

class RunWatch {
  public:
    using Said = std::function<void(const std::string& text)>;
    RunWatch(const CommandBuilder& builder, QObject* context, Said said);

    // iterations: how far the run is, stamped on each sample.
    void start(const PlannedRun& run, const std::string& tag,
               std::function<std::int64_t()> iterations);
    // The monitor's summary into end (and said); done(end) at once when nothing was watched.
    void finish(const PlannedRun& run, RunEnd end, std::function<void(RunEnd)> done);

  private:
    const CommandBuilder& m_builder;
    QObject* m_context;
    Said m_said;
    RunMonitor* m_monitor = nullptr; // the current run's, a child of the context
};

} // namespace sv::launcher
