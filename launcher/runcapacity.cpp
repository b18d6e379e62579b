#include "runcapacity.h"

#include <QObject>
#include <QThread>

namespace sv::launcher {

RunCapacity::RunCapacity(std::vector<Host> hosts, int localSlots, QString localUnit)
    : m_hosts(std::move(hosts)), m_localSlots(localSlots), m_localUnit(std::move(localUnit)) {}

QString RunCapacity::whyNot(const Topology& t) const {
    if (t.nodes < 1 || t.gpusPerNode < 1)
        return QObject::tr("%1 is not a topology").arg(QString::fromStdString(t.name()));
    if (m_hosts.empty()) {
        if (t.nodes > 1)
            return QObject::tr(
                       "%1 needs %2 hosts; without hosts, runs stay on this machine (1 node). "
                       "Add hosts above (or import them from an SSH config).")
                .arg(QString::fromStdString(t.name()))
                .arg(t.nodes);
        if (t.gpusPerNode > m_localSlots)
            return QObject::tr("%1 needs %2 ranks on this machine, which has %3 %4. Pick a smaller "
                               "topology or add hosts.")
                .arg(QString::fromStdString(t.name()))
                .arg(t.gpusPerNode)
                .arg(m_localSlots)
                .arg(m_localUnit);
        return {};
    }
    // The launcher's own rule, so the panel and the campaign check never disagree.
    Campaign probe;
    probe.hosts = m_hosts;
    probe.topologies = {t};
    for (const std::string& problem : probe.validate())
        if (problem.rfind("topologies:", 0) == 0)
            return QString::fromStdString(problem.substr(12)) +
                   QObject::tr(". Add hosts or GPUs, or pick a smaller topology.");
    return {};
}

std::vector<Topology> RunCapacity::standardTopologies() {
    return {{1, 1}, {1, 2}, {1, 4}, {1, 8}, {2, 8}, {4, 8}};
}

int RunCapacity::localSlotsFor(const std::string& profileNeeds) {
    // A GPU profile run without hosts runs on this machine's GPUs, which only preflight
    // (nvidia-smi) can count; DLPerf's largest node has 8.
    if (profileNeeds == "gpu") return 8;
    return qMax(1, QThread::idealThreadCount());
}

} // namespace sv::launcher
