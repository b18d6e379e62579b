#include "launcher/campaign/runcapacity.h"

#include "launcher/campaign/topologyfit.h"

#include <QObject>
#include <QThread>

namespace sv::launcher {

RunCapacity::RunCapacity(std::vector<Host> hosts, int localSlots, QString localUnit)
    : m_hosts(std::move(hosts)), m_localSlots(localSlots), m_localUnit(std::move(localUnit)) {}

QString RunCapacity::whyNot(const Topology& t) const {
    const QString name = QString::fromStdString(t.name());
    // The launcher's own rule (Campaign::validate words the same value), so the panel and the
    // campaign check never disagree.
    const TopologyFit fit = fitTopology(m_hosts, t);
    switch (fit.shortfall) {
    case TopologyFit::Shortfall::NotATopology:
        return QObject::tr("%1 is not a topology").arg(name);
    case TopologyFit::Shortfall::NoHosts:
        return QObject::tr("%1 needs %2 hosts; without hosts, runs stay on this machine (1 node). "
                           "Add hosts above (or import them from an SSH config).")
            .arg(name)
            .arg(fit.needed);
    case TopologyFit::Shortfall::TooFewHosts:
        return QObject::tr("%1 needs %2 hosts, %3 given. Add hosts, or pick a smaller topology.")
            .arg(name)
            .arg(fit.needed)
            .arg(fit.available);
    case TopologyFit::Shortfall::TooFewGpus:
        return QObject::tr("%1 needs %2 GPUs on %3, which has %4. Add GPUs to that host, or pick a "
                           "smaller topology.")
            .arg(name)
            .arg(fit.needed)
            .arg(QString::fromStdString(fit.host))
            .arg(fit.available);
    case TopologyFit::Shortfall::None:
        break;
    }
    // Without hosts this machine is the one node: its cores (or GPUs) bound the ranks.
    if (m_hosts.empty() && t.gpusPerNode > m_localSlots)
        return QObject::tr("%1 needs %2 ranks on this machine, which has %3 %4. Pick a smaller "
                           "topology or add hosts.")
            .arg(name)
            .arg(t.gpusPerNode)
            .arg(m_localSlots)
            .arg(m_localUnit);
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
