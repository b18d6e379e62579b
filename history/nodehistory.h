#pragma once
// Per-node health across campaigns (issue 28 item 3): every campaign recorded in the history
// keeps each node's probe figures from its probes.json (the node alone at its device count:
// its pace per device, for which case); nodeHealth() lists the nodes with their latest pace, its
// trend over their own history, and flags a node that got slower than its own past or than its
// peers in the same campaign, with the evidence in words. Paces are compared only within one
// workload (model, precision, batch per device, devices): a node probed at 4 devices is not set
// beside itself at 1.

#include <optional>
#include <string>
#include <vector>

class QSqlQuery;

namespace sv::history {

// One node's solo probe in one campaign, as recorded (probes.json's "solo" entries).
struct NodeProbeRecord {
    std::string node;
    int devices = 0;
    double pacePerDevice = 0.0;
    std::vector<double> samples;
    std::string topology, model, precision; // the case it was probed for
    int batchPerDevice = 0;
};

// The solo probes of the probes.json in root; an unreadable file: none and *error set.
std::vector<NodeProbeRecord> nodeProbesIn(const std::string& root, std::string* error);

// A node's probe as the history holds it: the record, and its campaign.
struct NodeObservation {
    NodeProbeRecord probe;
    std::string campaignIdentity, campaignLabel, campaignTime; // time: ISO 8601, when it ran
};

struct NodeHealthOptions {
    double ownThresholdPct = 5.0;  // slower than its own median by more: flagged (and its noise)
    double peerThresholdPct = 5.0; // slower than the other nodes' median by more: flagged
};

struct NodePoint {
    std::string campaignLabel, campaignTime;
    double pace = 0.0; // per device, the median of the campaign's probes of the node
};

struct NodeHealth {
    std::string node;
    std::string workload;           // "r50 fp32 b64, 4 devices"
    std::vector<NodePoint> history; // oldest first; the last is the latest
    double latestPace = 0.0;
    std::optional<double> ownMedian;   // of its earlier campaigns
    std::optional<double> ownNoisePct; // their spread (1.4826 MAD / median), with 3+ points
    std::optional<double> trendPct;    // latest against its own median (negative: slower)
    std::optional<double> peerMedian;  // the other nodes' in its latest campaign
    std::optional<double> peerPct;     // latest against them (negative: slower)
    bool slowerThanItself = false, slowerThanPeers = false;
    std::string evidence; // in words, why flagged or why not
    bool flagged() const { return slowerThanItself || slowerThanPeers; }
};

// Every node's health from all observations (any order), nodes by name.
std::vector<NodeHealth> nodeHealth(const std::vector<NodeObservation>& observations,
                                   const NodeHealthOptions& options = {});

namespace detail {
// The database's side (HistoryDatabase uses these; internal to history/).
bool writeNodeProbes(QSqlQuery& q, long long campaignId, const std::vector<NodeProbeRecord>& p);
// The node_probes rows joined with their campaigns, oldest first; nullopt with *error.
std::optional<std::vector<NodeObservation>> readNodeObservations(QSqlQuery& q, std::string* error);
} // namespace detail

} // namespace sv::history
