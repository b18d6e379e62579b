#include "launcher/runner/phasetimers.h"

namespace sv::launcher {

PhaseTimers::PhaseTimers(const Campaign& campaign, QObject* parent)
    : QObject(parent), m_campaign(campaign) {
    for (QTimer* t : {&m_start, &m_wall, &m_grace, &m_cooldown})
        t->setSingleShot(true);
    connect(&m_start, &QTimer::timeout, this, &PhaseTimers::startTimedOut);
    connect(&m_wall, &QTimer::timeout, this, &PhaseTimers::wallTimedOut);
    connect(&m_grace, &QTimer::timeout, this, &PhaseTimers::graceEnded);
    connect(&m_cooldown, &QTimer::timeout, this, &PhaseTimers::cooledDown);
}

void PhaseTimers::entered(bool running, bool terminating, bool cooling, bool queued) {
    if (!running || queued) {
        m_start.stop();
        m_wall.stop();
    }
    if (!terminating) m_grace.stop();
    if (!cooling) m_cooldown.stop();
    if (running && !queued) jobRunning();
    if (terminating) m_grace.start(m_campaign.grace());
    if (cooling) m_cooldown.start(m_campaign.cooldown());
}

void PhaseTimers::jobRunning() {
    m_start.start(m_campaign.startTimeout());
    m_wall.start(m_campaign.wallTimeout());
}

} // namespace sv::launcher
