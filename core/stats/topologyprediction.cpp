#include "core/stats/topologyprediction.h"

#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sv {

namespace {

// Iteration time of a case: N x B samples per iteration at X samples/s.
double iterationSeconds(const Topology& t, int batch, double throughput) {
    return t.ranks() * static_cast<double>(batch) / throughput;
}

// The ring's bytes per link for N ranks, per byte of gradient: 2 (N - 1) / N.
double ringFactor(int ranks) {
    return ranks <= 1 ? 0.0 : 2.0 * (ranks - 1) / ranks;
}

std::string ms(double seconds) {
    return formatFixed(seconds * 1e3, 1) + " ms";
}

} // namespace

double ringAllReduceSeconds(int ranks, double gradientBytes, double linkBytesPerSecond) {
    return ringFactor(ranks) * gradientBytes / linkBytesPerSecond;
}

PredictionResult predictTopologies(const PredictionInput& in,
                                   const std::vector<Topology>& targets) {
    PredictionResult out;
    int multiDevice = 0;
    for (const auto& p : in.points)
        if (p.topology.ranks() > 1) ++multiDevice;
    if (multiDevice < 2) {
        // Counted in words: "only 0 multi-device case" was shown where every run was left out.
        out.refused = std::string(multiDevice == 0 ? "no multi-device case with a figure"
                                                   : "only 1 multi-device case") +
                      ": a prediction needs two or more (a single node at several devices and "
                      "a multi-node case, or more node counts)";
        return out;
    }
    if (in.batchPerDevice <= 0) {
        out.refused = "the batch size per device is not known: no iteration time";
        return out;
    }
    if (in.gradientBytes <= 0.0) {
        out.refused = "the model's parameter count is not in the catalogue: no all-reduce volume";
        return out;
    }
    // The multi-node cases, at the devices per node most of them have.
    std::map<int, int> perNode;
    for (const auto& p : in.points)
        if (p.topology.nodes > 1) ++perNode[p.topology.gpusPerNode];
    if (perNode.empty()) {
        out.refused = "no multi-node case: the residual cannot be fitted";
        return out;
    }
    const int g = std::max_element(perNode.begin(), perNode.end(), [](auto& a, auto& b) {
                      return a.second < b.second;
                  })->first;
    out.gpusPerNode = g;
    const ScalingPoint* node = nullptr;
    std::vector<const ScalingPoint*> multi;
    for (const auto& p : in.points) {
        if (p.topology.nodes == 1 && p.topology.gpusPerNode == g) node = &p;
        if (p.topology.nodes > 1 && p.topology.gpusPerNode == g) multi.push_back(&p);
    }
    if (!node) {
        out.refused = "no single-node case at " + std::to_string(g) +
                      " devices: the per-node compute is not measured";
        return out;
    }
    const int b = in.batchPerDevice;
    const double s = in.gradientBytes;
    // The link: given, else implied by two or more multi-node cases (least squares of the
    // iteration time on the ring's volume: its slope is 1 / link speed).
    if (in.linkBytesPerSecond && *in.linkBytesPerSecond > 0) {
        out.linkBytesPerSecond = *in.linkBytesPerSecond;
        out.linkSource = in.linkSource;
    } else if (multi.size() >= 2) {
        double mx = 0, my = 0;
        for (const auto* p : multi) {
            mx += ringFactor(p->topology.ranks()) * s;
            my += iterationSeconds(p->topology, b, p->throughput);
        }
        mx /= multi.size();
        my /= multi.size();
        double sxy = 0, sxx = 0;
        for (const auto* p : multi) {
            const double x = ringFactor(p->topology.ranks()) * s - mx;
            sxy += x * (iterationSeconds(p->topology, b, p->throughput) - my);
            sxx += x * x;
        }
        if (sxx <= 0 || sxy <= 0) {
            out.refused = "the link speed is not known, and the multi-node cases imply none "
                          "(their iteration time does not grow with the ring's volume): give "
                          "it (--link-gbps)";
            return out;
        }
        out.linkBytesPerSecond = sxx / sxy;
        out.linkSource = "implied by the " + std::to_string(multi.size()) + " multi-node cases";
    } else {
        out.refused = "the link speed is not known and one multi-node case cannot imply it: "
                      "give it (--link-gbps), or measure another node count";
        return out;
    }
    const double w = out.linkBytesPerSecond;
    out.nodeSeconds = iterationSeconds(node->topology, b, node->throughput);
    // r, and the same with each measured figure at its interval's ends (slow: long iterations).
    double r = 0, rSlow = 0, rFast = 0;
    const auto tAt = [&](const ScalingPoint& p, int end) {
        double x = p.throughput;
        if (p.ci95 && end < 0) x = p.ci95->lo;
        if (p.ci95 && end > 0) x = p.ci95->hi;
        return iterationSeconds(p.topology, b, x);
    };
    for (const auto* p : multi) {
        const double c = ringAllReduceSeconds(p->topology.ranks(), s, w);
        r += tAt(*p, 0) - out.nodeSeconds - c;
        rSlow += tAt(*p, -1) - tAt(*node, -1) - c;
        rFast += tAt(*p, 1) - tAt(*node, 1) - c;
    }
    r /= multi.size();
    rSlow /= multi.size();
    rFast /= multi.size();
    out.residualSeconds = r;
    for (const auto& t : targets) {
        Prediction pr;
        pr.topology = Topology{t.nodes, t.gpusPerNode > 0 ? t.gpusPerNode : g};
        if (pr.topology.gpusPerNode != g) continue; // only more nodes of the measured kind
        const double c = ringAllReduceSeconds(pr.topology.ranks(), s, w);
        const double samples = pr.topology.ranks() * static_cast<double>(b);
        const double tHat = out.nodeSeconds + c + r;
        pr.throughput = samples / tHat;
        // The measured figures' own intervals carried through, widened to the backtest's.
        const double lo = samples / (tAt(*node, -1) + c + rSlow);
        const double hi = samples / (tAt(*node, 1) + c + rFast);
        const double h = in.calibratedHalfWidth;
        pr.ci95 = Interval{std::min(lo, pr.throughput * (1.0 - h)),
                           std::max(hi, pr.throughput * (1.0 + h))};
        pr.model = "node " + ms(out.nodeSeconds) + " (" + node->topology.name() +
                   ") + ring all-reduce " + ms(c) + " (" + formatFixed(s / 1e6, 1) + " MB at " +
                   formatFixed(w * 8 / 1e9, 1) + " Gbit/s, " + out.linkSource + ") + residual " +
                   ms(r) + " (fitted on " + std::to_string(multi.size()) + " multi-node case" +
                   (multi.size() == 1 ? "" : "s") + ")";
        pr.backtest = in.backtest;
        out.predictions.push_back(pr);
    }
    return out;
}

} // namespace sv
