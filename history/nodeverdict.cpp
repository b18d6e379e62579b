#include "history/nodeverdict.h"

#include <algorithm>

namespace sv::history {

double ownBarPct(const NodeHealth& h, const NodeHealthOptions& o) {
    return h.ownNoisePct ? std::max(o.ownThresholdPct, 3.0 * *h.ownNoisePct) : o.ownThresholdPct;
}

bool fasterThanItself(const NodeHealth& h, const NodeHealthOptions& o) {
    return h.trendPct && *h.trendPct > ownBarPct(h, o);
}

bool fasterThanPeers(const NodeHealth& h, const NodeHealthOptions& o) {
    return h.peerPct && *h.peerPct > o.peerThresholdPct;
}

} // namespace sv::history
