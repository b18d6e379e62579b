#include "history/nodehistory.h"
#include "history/historydatabase.h"
#include "history/nodeverdict.h"
#include "history/sqltext.h"

#include "core/model/numerics.h"
#include "core/stats/scalingloss.h"
#include "core/model/wording.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <map>

namespace sv::history {
using namespace sqltext;

namespace {

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::string pct(double v) {
    return formatShown(v, 1) + " %";
}

std::string workloadOf(const NodeProbeRecord& p) {
    std::string w = p.model.empty() ? std::string("any model") : p.model;
    if (!p.precision.empty()) w += " " + p.precision;
    if (p.batchPerDevice > 0) w += " b" + std::to_string(p.batchPerDevice);
    return w + ", " + countOf(p.devices, "device");
}

// One node's pace in each campaign of one workload, oldest first.
struct Series {
    std::string node, workload;
    std::vector<NodePoint> points;
};

// node -> workload -> campaign (by time, identity) -> the paces probed there.
using Grouped =
    std::map<std::string,
             std::map<std::string, std::map<std::pair<std::string, std::string>,
                                            std::pair<NodePoint, std::vector<double>>>>>;

Grouped group(const std::vector<NodeObservation>& all) {
    Grouped g;
    for (const auto& o : all) {
        if (o.probe.pacePerDevice <= 0) continue;
        auto& slot = g[o.probe.node][workloadOf(o.probe)][{o.campaignTime, o.campaignIdentity}];
        slot.first.campaignLabel = o.campaignLabel;
        slot.first.campaignTime = o.campaignTime;
        slot.second.push_back(o.probe.pacePerDevice);
    }
    return g;
}

// Against its own earlier campaigns: slower than their median by more than the threshold and
// three times their noise.
void judgeOwn(NodeHealth& h, const NodeHealthOptions& o, std::string& words) {
    if (h.history.size() < 2) {
        words += "no earlier campaign of this workload to compare with";
        return;
    }
    std::vector<double> earlier;
    for (std::size_t i = 0; i + 1 < h.history.size(); ++i)
        earlier.push_back(h.history[i].pace);
    const double med = medianOf(earlier);
    h.ownMedian = med;
    double bar = o.ownThresholdPct;
    if (earlier.size() >= 3) {
        std::vector<double> dev;
        for (double v : earlier)
            dev.push_back(std::abs(v - med));
        h.ownNoisePct = 100.0 * 1.4826 * medianOf(dev) / med;
        bar = std::max(bar, 3.0 * *h.ownNoisePct);
    }
    h.trendPct = 100.0 * (h.latestPace / med - 1.0);
    h.slowerThanItself = *h.trendPct < -bar;
    words += formatFixed(h.latestPace, 2) + " per device, " + pct(*h.trendPct) +
             " against its own median " + formatFixed(med, 2) + " over " +
             countOf(static_cast<long long>(earlier.size()), "earlier campaign");
    if (h.ownNoisePct) words += " (their noise " + pct(*h.ownNoisePct) + ")";
    words += h.slowerThanItself       ? ": slower than its own history (beyond " + pct(bar) + ")"
             : fasterThanItself(h, o) ? ": faster than its own history (beyond " + pct(bar) +
                                            "): check what changed in its setup"
                                      : ": within " + pct(bar);
}

} // namespace

std::vector<NodeProbeRecord> nodeProbesIn(const std::string& root, std::string* error) {
    std::vector<NodeProbeRecord> out;
    const ProbeFile f = readCampaignProbes(root);
    if (!f.error.empty()) {
        if (error) *error = f.error;
        return out;
    }
    for (const auto& r : f.records) {
        if (!r.solo) continue;
        out.push_back({r.solo->node, r.solo->devices, r.solo->pacePerDevice, r.solo->paceSamples,
                       r.topology, r.model, r.precision, r.batchPerDevice.value_or(0)});
    }
    return out;
}

std::vector<NodeHealth> nodeHealth(const std::vector<NodeObservation>& all,
                                   const NodeHealthOptions& o) {
    const Grouped g = group(all);
    // Each node's latest campaign and workload: the one it is judged on.
    std::vector<NodeHealth> out;
    for (const auto& [node, workloads] : g) {
        NodeHealth h;
        h.node = node;
        std::pair<std::string, std::string> latest;
        for (const auto& [workload, campaigns] : workloads)
            if (campaigns.rbegin()->first >= latest) {
                latest = campaigns.rbegin()->first;
                h.workload = workload;
            }
        for (const auto& [when, slot] : workloads.at(h.workload)) {
            NodePoint p = slot.first;
            p.pace = medianOf(slot.second);
            h.history.push_back(p);
        }
        h.latestPace = h.history.back().pace;
        std::string words;
        judgeOwn(h, o, words);
        // Its peers: the other nodes of the same workload in the same campaign.
        std::vector<double> peers;
        for (const auto& [other, ws] : g) {
            if (other == node) continue;
            const auto w = ws.find(h.workload);
            if (w == ws.end()) continue;
            if (const auto c = w->second.find(latest); c != w->second.end())
                peers.push_back(medianOf(c->second.second));
        }
        if (peers.empty()) {
            words += "; no other node probed with it";
        } else {
            h.peerMedian = medianOf(peers);
            h.peerPct = 100.0 * (h.latestPace / *h.peerMedian - 1.0);
            h.slowerThanPeers = *h.peerPct < -o.peerThresholdPct;
            words += "; " + pct(*h.peerPct) + " against the median of the " +
                     countOf(static_cast<long long>(peers.size()), "other node") + " in " +
                     h.history.back().campaignLabel + " (" + formatFixed(*h.peerMedian, 2) + ")" +
                     (h.slowerThanPeers
                          ? ": slower than its peers (beyond " + pct(o.peerThresholdPct) + ")"
                      : fasterThanPeers(h, o)
                          ? ": faster than its peers (beyond " + pct(o.peerThresholdPct) +
                                "): check the other nodes, or whether this one ran another setup"
                          : "");
        }
        h.evidence = words;
        out.push_back(std::move(h));
    }
    return out;
}

namespace detail {

bool writeNodeProbes(QSqlQuery& q, long long id, const std::vector<NodeProbeRecord>& probes) {
    for (const auto& p : probes) {
        q.prepare(QStringLiteral(
            "INSERT INTO node_probes (campaign_id, node, devices, pace_per_device, samples,"
            " topology, model, precision, batch_per_device) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (const QVariant& v :
             {QVariant(static_cast<qlonglong>(id)), QVariant(qs(p.node)), QVariant(p.devices),
              QVariant(p.pacePerDevice), QVariant(repeatsText(p.samples)), QVariant(qs(p.topology)),
              QVariant(qs(p.model)), QVariant(qs(p.precision)), QVariant(p.batchPerDevice)})
            q.addBindValue(v);
        if (!q.exec()) return false;
    }
    return true;
}

std::optional<std::vector<NodeObservation>> readNodeObservations(QSqlQuery& q, std::string* error) {
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT c.identity, c.label, c.ran_at, n.node, n.devices, n.pace_per_device,"
            " n.samples, n.topology, n.model, n.precision, n.batch_per_device"
            " FROM node_probes n JOIN campaigns c ON c.id = n.campaign_id"
            " ORDER BY c.ran_at, c.id, n.node"))) {
        if (error) *error = describe(q.lastError());
        return std::nullopt;
    }
    std::vector<NodeObservation> out;
    while (q.next()) {
        NodeObservation o;
        o.campaignIdentity = q.value(0).toString().toStdString();
        o.campaignLabel = q.value(1).toString().toStdString();
        o.campaignTime = q.value(2).toString().toStdString();
        o.probe.node = q.value(3).toString().toStdString();
        o.probe.devices = q.value(4).toInt();
        o.probe.pacePerDevice = q.value(5).toDouble();
        o.probe.samples = repeatsFrom(q.value(6).toString());
        o.probe.topology = q.value(7).toString().toStdString();
        o.probe.model = q.value(8).toString().toStdString();
        o.probe.precision = q.value(9).toString().toStdString();
        o.probe.batchPerDevice = q.value(10).toInt();
        out.push_back(std::move(o));
    }
    q.finish();
    return out;
}

} // namespace detail

std::optional<std::vector<NodeObservation>>
HistoryDatabase::nodeObservations(std::string* error) const {
    if (!m_open) {
        if (error) *error = m_error.empty() ? "the history is not open" : m_error;
        return std::nullopt;
    }
    if (!hasTable("node_probes")) return std::vector<NodeObservation>{}; // an older history
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    auto out = detail::readNodeObservations(q, nullptr);
    if (!out && error) *error = readFailed(q.lastError());
    return out;
}

} // namespace sv::history
