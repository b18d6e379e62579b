#include "launcher/probe/slownode.h"

#include "core/model/numerics.h"

#include <algorithm>
#include <future>

namespace sv::launcher {
namespace {

std::string joined(const std::vector<std::string>& names, const char* sep) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : sep) + n;
    return out;
}

std::vector<ProbeNode> nodesNamed(const SlowNodeSearch& s, const std::vector<std::string>& names) {
    std::vector<ProbeNode> out;
    for (const auto& name : names)
        for (const auto& n : s.nodes)
            if (n.name == name) out.push_back(n);
    return out;
}

// The nodes of `names` each alone, all at once (a thread each): each node's own pace.
std::optional<NodeSetProbe> probeAlone(const SlowNodeSearch& s,
                                       const std::vector<std::string>& names, SlowNodeVerdict& v,
                                       const std::atomic<bool>* cancel) {
    std::vector<std::future<SoloProbeResult>> runs;
    for (const ProbeNode& n : nodesNamed(s, names)) {
        SoloProbeSpec spec = s.spec;
        spec.node = n.name;
        spec.masterAddr = "127.0.0.1"; // alone: its ranks meet on the node itself
        spec.masterPort = probePort();
        runs.push_back(std::async(std::launch::async, [spec, n, &s, cancel] {
            return runSoloProbe(spec, probeRanks({n}, s.ranksPerNode), s.timeoutMs, cancel);
        }));
    }
    NodeSetProbe set{names, false, 0.0, {}};
    std::string failures;
    for (auto& f : runs) {
        const SoloProbeResult r = f.get();
        if (!r.probe) {
            failures += (failures.empty() ? "" : "; ") + r.error;
            continue;
        }
        v.alone.push_back(*r.probe);
        set.nodePaces.push_back(r.probe->pacePerDevice);
    }
    if (!failures.empty() || set.nodePaces.size() != names.size()) {
        v.kind = SlowNodeVerdict::Kind::Failed;
        v.why = "the probe run of " + joined(names, ", ") + " alone failed: " + failures;
        return std::nullopt;
    }
    set.pacePerDevice = *std::min_element(set.nodePaces.begin(), set.nodePaces.end());
    return set;
}

// The nodes of `names` as one job: their ranks meet at the first node's rendezvous address.
std::optional<NodeSetProbe> probeTogether(const SlowNodeSearch& s,
                                          const std::vector<std::string>& names,
                                          SlowNodeVerdict& v, const std::atomic<bool>* cancel) {
    const std::vector<ProbeNode> nodes = nodesNamed(s, names);
    SoloProbeSpec spec = s.spec;
    spec.node = joined(names, "+");
    spec.masterAddr = nodes.front().rendezvous;
    spec.masterPort = probePort();
    spec.localWorld = s.ranksPerNode;
    const SoloProbeResult r = runSoloProbe(spec, probeRanks(nodes, s.ranksPerNode), s.timeoutMs,
                                           cancel);
    if (!r.probe) {
        v.kind = SlowNodeVerdict::Kind::Failed;
        v.why = "the probe run of " + joined(names, ", ") + " together failed: " + r.error;
        return std::nullopt;
    }
    return NodeSetProbe{names, true, r.probe->pacePerDevice, {}};
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
    v.setPace = s.setPace;
    const std::string healthy = "a healthy " + formatFixed(s.healthyPace, 2) +
                                " samples/s per device (" + s.healthySource + ")";
    for (;;) {
        if (cancel && cancel->load()) {
            v.kind = SlowNodeVerdict::Kind::Failed;
            v.why = "cancelled";
            return v;
        }
        const BisectionStep step =
            nextBisectionStep(names, s.healthyPace, s.thresholdPct, v.runs, s.setPace);
        if (step.state == BisectionStep::State::Probe) {
            const auto run = step.together ? probeTogether(s, step.probe, v, cancel)
                                           : probeAlone(s, step.probe, v, cancel);
            if (!run) return v;
            if (run->together && run->nodes == names) v.setPace = run->pacePerDevice;
            v.runs.push_back(*run);
            continue;
        }
        switch (step.state) {
        case BisectionStep::State::Named: v.kind = SlowNodeVerdict::Kind::Named; break;
        case BisectionStep::State::NeedsInterconnect:
            v.kind = SlowNodeVerdict::Kind::NeedsInterconnect;
            break;
        case BisectionStep::State::NotSlow: v.kind = SlowNodeVerdict::Kind::NotSlow; break;
        default: v.kind = SlowNodeVerdict::Kind::Failed; break;
        }
        v.named = step.named;
        v.throughLink = step.throughLink;
        v.node = v.named.empty() ? std::string() : v.named.front();
        v.why = step.why;
        if (step.state != BisectionStep::State::Invalid)
            v.why += " (" + (v.setPace ? "all " + std::to_string(names.size()) + " together: " +
                                             formatFixed(*v.setPace, 2) + " per device; "
                                       : std::string()) +
                     healthy + ")";
        return v;
    }
}

} // namespace sv::launcher
