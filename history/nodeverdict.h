#pragma once
// What a node's figures say beside "flagged": far faster than its peers or its own history is no
// fault of the node, but no "OK" either (the others may be slow, or its setup changed).

#include "history/nodehistory.h"

namespace sv::history {

// The bar its own history is judged at: the threshold, or three times its own noise if larger.
double ownBarPct(const NodeHealth& h, const NodeHealthOptions& o = {});
// Faster than its own earlier campaigns' median by more than ownBarPct.
bool fasterThanItself(const NodeHealth& h, const NodeHealthOptions& o = {});
// Faster than the other nodes' median by more than the peer threshold.
bool fasterThanPeers(const NodeHealth& h, const NodeHealthOptions& o = {});

} // namespace sv::history
