#include "core/stats/scalingloss.h"

#include "core/load/campaignrecords.h"
#include "core/model/numerics.h"
#include "core/model/wording.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

namespace sv {
namespace {

std::string pts(double v) {
    return formatFixed(v, 2) + " points";
}

std::optional<Interval> medianCi(const std::vector<double>& samples, const std::string& what) {
    if (samples.size() < 2) return std::nullopt;
    return bootstrapMedianCi(samples, seedFor(what));
}

// lo/hi of a / b over the intervals' extremes (b positive).
Interval ratioRange(Interval a, Interval b) {
    const double lo = a.lo / (a.lo >= 0 ? b.hi : b.lo);
    const double hi = a.hi / (a.hi >= 0 ? b.lo : b.hi);
    return {std::min(lo, hi), std::max(lo, hi)};
}

// The nodes' solo paces per device, ascending, with the median node's and the slowest's.
struct SoloPaces {
    std::vector<const SoloProbe*> nodes;
    double median = 0, slowest = 0;
    std::optional<Interval> medianCi95, slowestCi95;
};

SoloPaces soloPaces(const CaseProbes& probes) {
    SoloPaces p;
    for (const auto& s : probes.solo)
        if (s.pacePerDevice > 0) p.nodes.push_back(&s);
    std::sort(p.nodes.begin(), p.nodes.end(), [](const SoloProbe* a, const SoloProbe* b) {
        return a->pacePerDevice < b->pacePerDevice;
    });
    if (p.nodes.empty()) return p;
    // The high median: of an even count, the upper middle node, so that one slow node of two is
    // measured against the other, not against their mean (which would put half of its slowness
    // into the device-slowdown part).
    const SoloProbe* median = p.nodes[p.nodes.size() / 2];
    p.median = median->pacePerDevice;
    p.medianCi95 = medianCi(median->paceSamples, "solo " + median->node);
    p.slowest = p.nodes.front()->pacePerDevice;
    p.slowestCi95 = medianCi(p.nodes.front()->paceSamples, "solo " + p.nodes.front()->node);
    return p;
}

// The median node alone against the 1-device case: what the devices lose by themselves.
LossPart deviceSlowdown(const SoloPaces& p, double t1, Interval t1Range) {
    LossPart dev{"device-slowdown", 100.0 * (1.0 - p.median / t1), std::nullopt, {}};
    if (p.medianCi95) {
        const Interval r = ratioRange(*p.medianCi95, t1Range);
        dev.ci95 = Interval{100.0 * (1.0 - r.hi), 100.0 * (1.0 - r.lo)};
    }
    dev.evidence = "the median node alone: " + formatFixed(p.median, 2) +
                   " per device against the 1-device case's " + formatFixed(t1, 2) + " (" +
                   countOf(static_cast<long long>(p.nodes.size()), "node") + " probed alone at " +
                   countOf(p.nodes.front()->devices, "device") + " each)";
    return dev;
}

// The slowest node alone against the median node: what every other node waits for.
LossPart slowestNode(const SoloPaces& p, double t1, Interval t1Range) {
    LossPart slow{"slowest-node", 0.0, std::nullopt, {}};
    if (p.nodes.size() == 1) {
        slow.ci95 = Interval{0.0, 0.0};
        slow.evidence = "one node: no other node to wait for";
        return slow;
    }
    slow.pct = 100.0 * (p.median - p.slowest) / t1;
    if (p.medianCi95 && p.slowestCi95) {
        const Interval num{p.medianCi95->lo - p.slowestCi95->hi,
                           p.medianCi95->hi - p.slowestCi95->lo};
        const Interval r = ratioRange(num, t1Range);
        slow.ci95 = Interval{100.0 * r.lo, 100.0 * r.hi};
    }
    slow.evidence = "the slowest node, " + p.nodes.front()->node +
                    ", alone: " + formatFixed(p.slowest, 2) +
                    " per device against the median node's " + formatFixed(p.median, 2);
    return slow;
}

// Each node more than the threshold below the median node alone, with its evidence.
std::vector<SlowNode> slowNodes(const SoloPaces& p, double thresholdPct) {
    std::vector<SlowNode> out;
    for (const SoloProbe* s : p.nodes) {
        const double slower = 100.0 * (1.0 - s->pacePerDevice / p.median);
        if (p.nodes.size() < 2 || slower <= thresholdPct) continue;
        out.push_back({s->node, slower,
                       "alone at " + countOf(s->devices, "device") + ": " +
                           formatFixed(s->pacePerDevice, 2) + " per device, " +
                           formatFixed(slower, 1) + " % below the median node's " +
                           formatFixed(p.median, 2) + " (" + std::to_string(p.nodes.size()) +
                           " nodes probed; threshold " + formatFixed(thresholdPct, 1) + " %)"});
    }
    return out;
}

// The all-reduce's cost, if the workload did not overlap it; nullopt where it was not probed.
std::optional<LossPart> communication(const CaseProbes& probes, const SoloPaces& p, double t1,
                                      int batchPerDevice) {
    const auto& ar = probes.allReduce;
    if (!ar || ar->seconds.empty() || batchPerDevice <= 0) return std::nullopt;
    // The pace a device keeps between all-reduces: the slowest node's alone, else the 1-device
    // case's.
    const double q = p.nodes.empty() ? t1 : p.slowest;
    const double tComp = double(batchPerDevice) / q;
    auto cost = [&](double tAr) { return 100.0 * (q / t1) * tAr / (tComp + tAr); };
    const double tAr = numpyMedian(ar->seconds);
    LossPart comm{"communication", cost(tAr), std::nullopt, {}};
    if (auto ci = medianCi(ar->seconds, "allreduce"))
        comm.ci95 = Interval{cost(ci->lo), cost(ci->hi)};
    comm.evidence = "all-reduce of " + formatFixed(ar->bytes / 1e6, 1) + " MB across " +
                    std::to_string(ar->ranks) + " ranks (" + ar->backend +
                    "): " + formatFixed(tAr * 1000.0, 2) + " ms per iteration (median of " +
                    std::to_string(ar->seconds.size()) + ") against " +
                    formatFixed(tComp * 1000.0, 2) +
                    " ms of compute; its cost if the workload did not overlap it";
    return comm;
}

// The loss less the measured parts; a negative one says what it means.
LossPart remainder(const ScalingLoss& out, double measured,
                   const std::vector<std::string>& missing) {
    LossPart rest{"remainder", out.totalPct - measured, std::nullopt, {}};
    rest.evidence =
        "the loss (" + pts(out.totalPct) + ") less the measured parts (" + pts(measured) + ")";
    if (!missing.empty()) {
        std::string names;
        for (const auto& m : missing)
            names += (names.empty() ? "" : ", ") + m;
        rest.evidence += "; it includes what was not measured: " + names;
    }
    if (rest.pct >= 0) return rest;
    // Overlap can hide at most the whole communication part; an excess beyond it means the
    // probes ran slower than the case itself.
    double commPct = 0.0;
    for (const auto& p : out.parts)
        if (p.kind == "communication") commPct = p.pct;
    rest.evidence += "; negative: the measured parts exceed the loss by " + pts(-rest.pct);
    if (-rest.pct <= commPct)
        rest.evidence += ", so the workload hides at least that much of the communication "
                         "behind its compute";
    else
        rest.evidence += ", more than overlapping the communication (" + pts(commPct) +
                         ") could hide: the probes ran slower than the case itself (a busier "
                         "machine, or other settings); rerun them beside the case";
    return rest;
}

} // namespace

const std::vector<std::string>& scalingLossKinds() {
    static const std::vector<std::string> kinds = {"device-slowdown", "slowest-node",
                                                   "communication", "remainder"};
    return kinds;
}

ScalingLoss scalingLoss(const ScalingLossInput& in) {
    ScalingLoss out;
    out.totalPct = 100.0 * (1.0 - in.efficiency);
    if (in.efficiencyCi95)
        out.totalCi95 =
            Interval{100.0 * (1.0 - in.efficiencyCi95->hi), 100.0 * (1.0 - in.efficiencyCi95->lo)};
    const double t1 = in.baselinePace;
    const Interval t1Range = in.baselineCi95 ? *in.baselineCi95 : Interval{t1, t1};
    const CaseProbes* probes = in.probes && !in.probes->empty() && t1 > 0 ? in.probes : nullptr;
    if (!probes) {
        out.notMeasured = scalingLossKinds();
        return out;
    }
    const SoloPaces solo = soloPaces(*probes);
    double measured = 0.0;
    std::vector<std::string> missing;
    if (!solo.nodes.empty()) {
        for (LossPart part : {deviceSlowdown(solo, t1, t1Range), slowestNode(solo, t1, t1Range)}) {
            measured += part.pct;
            out.parts.push_back(std::move(part));
        }
        out.slowNodes = slowNodes(solo, in.slowNodeThresholdPct);
    } else {
        missing = {"device-slowdown", "slowest-node"};
    }
    if (auto comm = communication(*probes, solo, t1, in.batchPerDevice)) {
        measured += comm->pct;
        out.parts.push_back(std::move(*comm));
    } else {
        missing.push_back("communication");
    }
    out.parts.push_back(remainder(out, measured, missing));
    out.notMeasured = missing;
    if (const double rest = out.parts.back().pct; rest < 0) {
        double commPct = 0.0;
        for (const auto& p : out.parts)
            if (p.kind == "communication") commPct = p.pct;
        out.partsExceedLoss = -rest > commPct;
        if (out.partsExceedLoss)
            out.unreliable = "the measured parts (" + pts(measured) + ") exceed the whole loss (" +
                             pts(out.totalPct) +
                             "): the probes ran slower than the case itself, so the parts "
                             "overstate where the loss went";
    }
    return out;
}

ProbeFile parseProbeFile(const std::string& text, const std::string& path) {
    ProbeFile f;
    f.path = path;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        f.error = path + ": not JSON: " + e.what();
        return f;
    }
    if (!j.is_object() || !j.contains("probes") || !j["probes"].is_array()) {
        f.error = path + ": no \"probes\" array";
        return f;
    }
    const auto& list = j["probes"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& p = list[i];
        const std::string where = path + ": probes[" + std::to_string(i) + "]";
        auto fail = [&](const std::string& why) {
            f.error = where + ": " + why;
            f.records.clear();
            return f;
        };
        if (!p.is_object()) return fail("not an object");
        auto str = [&](const char* k) {
            return p.contains(k) && p[k].is_string() ? p[k].get<std::string>() : std::string();
        };
        auto num = [&](const char* k) -> std::optional<double> {
            if (!p.contains(k) || !p[k].is_number()) return std::nullopt;
            const double v = p[k].get<double>();
            return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
        };
        auto nums = [&](const char* k, std::vector<double>& out) {
            if (!p.contains(k)) return true;
            if (!p[k].is_array()) return false;
            for (const auto& v : p[k]) {
                if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
                    return false;
                out.push_back(v.get<double>());
            }
            return true;
        };
        ProbeRecord r;
        r.topology = str("topology");
        if (r.topology.empty()) return fail("no \"topology\"");
        r.model = str("model");
        r.precision = str("precision");
        if (auto b = num("batch_size_per_device")) r.batchPerDevice = int(*b);
        const std::string kind = str("kind");
        if (kind == "solo") {
            SoloProbe s;
            s.node = str("node");
            if (s.node.empty()) return fail("no \"node\"");
            s.devices = int(num("devices").value_or(0));
            const auto pace = num("pace_per_device");
            if (!pace || *pace <= 0) return fail("no positive \"pace_per_device\"");
            s.pacePerDevice = *pace;
            if (!nums("pace_samples", s.paceSamples))
                return fail("\"pace_samples\" is not a list of non-negative numbers");
            r.solo = std::move(s);
        } else if (kind == "allreduce") {
            AllReduceProbe a;
            a.backend = str("backend");
            a.bytes = num("bytes").value_or(0);
            a.ranks = int(num("ranks").value_or(0));
            if (!p.contains("seconds") || !nums("seconds", a.seconds) || a.seconds.empty())
                return fail("no \"seconds\" list of non-negative numbers");
            r.allReduce = std::move(a);
        } else {
            return fail("unknown \"kind\" \"" + kind + "\" (solo or allreduce)");
        }
        f.records.push_back(std::move(r));
    }
    return f;
}

ProbeFile readProbeFile(const std::filesystem::path& root) {
    if (root.empty()) return {};
    std::error_code ec;
    const auto dir = std::filesystem::is_directory(root, ec) ? root : root.parent_path();
    const auto file = dir / "probes.json";
    ProbeFile f;
    if (!std::filesystem::exists(file, ec)) return f;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        f.path = file.string();
        f.error = file.string() + ": cannot be read";
        return f;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parseProbeFile(text.str(), file.string());
}

ProbeFile readCampaignProbes(const std::filesystem::path& opened) {
    if (opened.empty()) return {};
    return readProbeFile(campaignRecordsFolder(opened));
}

CaseProbes probesFor(const ProbeFile& file, const std::string& topology, const std::string& model,
                     const std::string& precision, int batchPerDevice) {
    CaseProbes c;
    for (const auto& r : file.records) {
        if (r.topology != topology || (!r.model.empty() && r.model != model) ||
            (!r.precision.empty() && r.precision != precision) ||
            (r.batchPerDevice && *r.batchPerDevice != batchPerDevice))
            continue;
        if (r.solo) c.solo.push_back(*r.solo);
        if (r.allReduce) c.allReduce = r.allReduce; // the last one wins
    }
    return c;
}

std::optional<ScalingLoss> scalingLossFor(const std::vector<CaseStats>& cases, const CaseStats& c,
                                          const ProbeFile& probes) {
    if (!c.efficiency) return std::nullopt;
    const CaseStats* base = nullptr;
    for (const auto& b : cases)
        if (b.key.sameGroup(c.key) && b.key.topology == Topology{1, 1} && b.median) base = &b;
    if (!base) return std::nullopt;
    const CaseProbes p = probesFor(probes, c.key.topology.name(), c.key.model, c.key.precision,
                                   c.key.batchPerDevice);
    ScalingLossInput in;
    in.devices = c.gpus();
    in.batchPerDevice = c.key.batchPerDevice;
    in.efficiency = *c.efficiency;
    in.efficiencyCi95 = c.efficiencyCi95;
    in.baselinePace = *base->median;
    in.baselineCi95 = base->medianCi95;
    in.probes = &p;
    ScalingLoss loss = scalingLoss(in);
    // What the run monitor saw on a slow node during the case's runs (a foreign process, its
    // load, throttling): each piece of the disturbed warning's evidence that names the node.
    for (SlowNode& slow : loss.slowNodes)
        for (const CaseWarning& w : c.warnings) {
            if (w.kind != "disturbed") continue;
            const auto open = w.message.find(" (");
            if (open == std::string::npos) continue;
            std::string rest = w.message.substr(open + 2);
            if (!rest.empty() && rest.back() == ')') rest.pop_back();
            std::string seen;
            for (std::size_t at = 0; at <= rest.size();) {
                const auto end = std::min(rest.find("; ", at), rest.size());
                const std::string piece = rest.substr(at, end - at);
                const auto on = piece.find(" on " + slow.node);
                const std::size_t after = on + 4 + slow.node.size();
                if (on != std::string::npos &&
                    (after == piece.size() ||
                     std::string(" ,:)").find(piece[after]) != std::string::npos))
                    seen += (seen.empty() ? "" : "; ") + piece;
                at = end + 2;
            }
            if (!seen.empty())
                slow.evidence += "; the run monitor saw during the case's runs: " + seen;
        }
    // Parts measured beside runs that something else disturbed are no better than the runs.
    if (!loss.parts.empty())
        for (const CaseWarning& w : c.warnings)
            if (w.kind == "disturbed" && !std::exchange(loss.runsDisturbed, true))
                loss.unreliable += (loss.unreliable.empty() ? "" : "; and ") +
                                   std::string("the case's runs were disturbed (") +
                                   w.message.substr(0, w.message.find(" (")) + ")";
    return loss;
}

} // namespace sv
