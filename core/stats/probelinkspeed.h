#pragma once
// The inter-node link speed the launcher's probes measured: a multi-node all-reduce of known bytes
// timed (probes.json), read back through the ring's volume, 2 (N - 1) / N x bytes per link. The
// prediction takes it before the speed its multi-node cases imply (docs/prediction.md).

#include "core/stats/scalingloss.h"

#include <optional>
#include <string>

namespace sv {

struct ProbeLinkSpeed {
    double bytesPerSecond = 0.0;
    // "from the probes' all-reduce (100.0 MB across 4 ranks at 2n2g, median of 20 timings)"
    std::string source;
};

// The median over the multi-node all-reduces of their implied speeds; none when no all-reduce
// spans two or more nodes (a single node's measures its own NVLink or PCIe, not the link).
std::optional<ProbeLinkSpeed> probeLinkSpeed(const ProbeFile& probes);

} // namespace sv
