#include "launcher/probe/slownode.h"

#include "core/stats/numerics.h"

#include <future>

namespace sv::launcher {
namespace {

std::string joined(const std::vector<std::string>& names, const char* sep) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : sep) + n;
    return out;
}

// The nodes of `names` each alone, all at once (a thread each): the set's pace per device is
// its slowest node's, the pace a synchronous job over the set is held to.
std::optional<double> probeSet(const SlowNodeSearch& s, const std::vector<std::string>& names,
                               SlowNodeVerdict& v, const std::atomic<bool>* cancel) {
    std::vector<std::future<SoloProbeResult>> runs;
    for (const auto& name : names)
        for (const auto& n : s.nodes)
            if (n.name == name) {
                SoloProbeSpec spec = s.spec;
                spec.node = name;
                spec.masterAddr = "127.0.0.1"; // alone: its ranks meet on the node itself
                spec.masterPort = probePort();
                runs.push_back(std::async(std::launch::async, [spec, n, &s, cancel] {
                    return runSoloProbe(spec, probeRanks({n}, s.ranksPerNode), s.timeoutMs,
                                        cancel);
                }));
            }
    std::optional<double> slowest;
    std::string failures;
    for (auto& f : runs) {
        const SoloProbeResult r = f.get();
        if (!r.probe) {
            failures += (failures.empty() ? "" : "; ") + r.error;
            continue;
        }
        v.alone.push_back(*r.probe);
        if (!slowest || r.probe->pacePerDevice < *slowest) slowest = r.probe->pacePerDevice;
    }
    if (!failures.empty() || !slowest) {
        v.kind = SlowNodeVerdict::Kind::Failed;
        v.why = "the probe run of " + joined(names, ", ") + " failed: " + failures;
        return std::nullopt;
    }
    v.runs.push_back({names, *slowest});
    return slowest;
}

} // namespace

const char* SlowNodeVerdict::kindName() const {
    switch (kind) {
    case Kind::Named: return "named";
    case Kind::NeedsInterconnect: return "needs-interconnect";
    case Kind::NotSlow: return "not-slow";
    case Kind::Failed: break;
    }
    return "failed";
}

SlowNodeVerdict findSlowNode(const SlowNodeSearch& s, const std::atomic<bool>* cancel) {
    SlowNodeVerdict v;
    std::vector<std::string> names;
    for (const auto& n : s.nodes)
        names.push_back(n.name);
    if (names.size() < 2 || !(s.healthyPace > 0)) {
        v.why = names.size() < 2 ? "a slow node is looked for among two nodes or more"
                                 : "no healthy pace to compare with";
        return v;
    }
    const std::string healthy = "a healthy " + formatFixed(s.healthyPace, 2) +
                                " samples/s per device (" + s.healthySource + ")";
    v.setPace = s.setPace;
    if (!v.setPace && !(v.setPace = probeSet(s, names, v, cancel))) return v;
    if (*v.setPace >= s.healthyPace * (1 - s.thresholdPct / 100)) {
        v.kind = SlowNodeVerdict::Kind::NotSlow;
        v.why = "the nodes together run at " + formatFixed(*v.setPace, 2) +
                " per device against " + healthy + ": within " + formatFixed(s.thresholdPct, 0) +
                " %, no node to look for";
        return v;
    }
    for (;;) {
        if (cancel && cancel->load()) {
            v.kind = SlowNodeVerdict::Kind::Failed;
            v.why = "cancelled";
            return v;
        }
        const BisectionStep step = nextBisectionStep(names, s.healthyPace, s.thresholdPct, v.runs);
        if (step.state == BisectionStep::State::Probe) {
            if (!probeSet(s, step.probe, v, cancel)) return v;
            continue;
        }
        v.kind = step.state == BisectionStep::State::Named ? SlowNodeVerdict::Kind::Named
                 : step.state == BisectionStep::State::NeedsInterconnect
                     ? SlowNodeVerdict::Kind::NeedsInterconnect
                     : SlowNodeVerdict::Kind::Failed;
        v.node = step.node;
        v.why = step.why + " (all " + std::to_string(names.size()) + " together: " +
                formatFixed(*v.setPace, 2) + " per device; " + healthy + ")";
        return v;
    }
}

} // namespace sv::launcher
