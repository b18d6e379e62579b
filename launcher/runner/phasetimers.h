#pragma once
// The timers that belong to the Runner's phases, each started on entering its phase and
// stopped on leaving it: while a run runs, the start timeout (met by its first speed line) and
// the wall-clock timeout; while it is being stopped, the grace between TERM and KILL; between
// two runs, the cooldown. A Slurm job's two run timers wait until the job runs: queued is not
// started.

#include "launcher/campaign/campaign.h"

#include <QObject>
#include <QTimer>

namespace sv::launcher {

class PhaseTimers : public QObject {
    Q_OBJECT
  public:
    PhaseTimers(const Campaign& campaign, QObject* parent = nullptr);

    // The phase entered is one of these (or none: every timer stops). queued: a run that is a
    // Slurm job still waiting for its nodes.
    void entered(bool running, bool terminating, bool cooling, bool queued = false);
    // The run's first speed line: no start timeout any more.
    void firstSample() { m_start.stop(); }
    // The queued job now runs: the run's timers start.
    void jobRunning();

  signals:
    void startTimedOut();
    void wallTimedOut();
    void graceEnded();
    void cooledDown();

  private:
    const Campaign& m_campaign;
    QTimer m_start, m_wall, m_grace, m_cooldown;
};

} // namespace sv::launcher
