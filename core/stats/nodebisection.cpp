#include "core/stats/nodebisection.h"

#include "core/model/numerics.h"

#include <algorithm>

namespace sv {
namespace {

std::string names(const std::vector<std::string>& nodes) {
    std::string out;
    for (const auto& n : nodes)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

std::vector<std::string> without(const std::vector<std::string>& all,
                                 const std::vector<std::string>& some) {
    std::vector<std::string> out;
    for (const auto& n : all)
        if (std::find(some.begin(), some.end(), n) == some.end()) out.push_back(n);
    return out;
}

} // namespace

BisectionStep nextBisectionStep(const std::vector<std::string>& nodes, double healthyPace,
                                double thresholdPct, const std::vector<NodeSetProbe>& done,
                                std::optional<double> setPace) {
    BisectionStep step;
    if (nodes.size() < 2 || !(healthyPace > 0)) {
        step.why = nodes.size() < 2 ? "a slow node is looked for among two nodes or more"
                                    : "no healthy pace to compare with";
        return step;
    }
    const double limit = healthyPace * (1.0 - thresholdPct / 100.0);
    const std::string against = " per device against a healthy " + formatFixed(healthyPace, 2);
    auto find = [&](const std::vector<std::string>& set, bool together) -> const NodeSetProbe* {
        for (const auto& d : done)
            if (d.nodes == set && d.together == together) return &d;
        return nullptr;
    };
    auto probe = [&](std::vector<std::string> set, bool together, std::string why) {
        step.state = BisectionStep::State::Probe;
        step.probe = std::move(set);
        step.together = together;
        step.why = std::move(why);
        return step;
    };
    auto end = [&](BisectionStep::State state, std::string why) {
        step.state = state;
        step.why = std::move(why);
        return step;
    };
    if (setPace && *setPace >= limit)
        return end(BisectionStep::State::NotSlow,
                   "the nodes together run at " + formatFixed(*setPace, 2) + against +
                       ": within " + formatFixed(thresholdPct, 0) + " %, no node to look for");

    // 1. Every node alone, at once.
    const NodeSetProbe* alone = find(nodes, false);
    if (!alone) return probe(nodes, false, "run every node alone, all at once");
    if (alone->nodePaces.size() != nodes.size())
        return end(BisectionStep::State::Invalid, "the run of every node alone has no pace for "
                                                  "each node");
    // Slow against the healthy pace and against the other nodes in the same run (their high
    // median): what slows every node at once (a busy machine, a shared file system, a healthy
    // pace from other conditions) is no node's doing.
    std::vector<double> sorted = alone->nodePaces;
    std::sort(sorted.begin(), sorted.end());
    const double peers = sorted[sorted.size() / 2];
    const double peerLimit = peers * (1.0 - thresholdPct / 100.0);
    const std::string commonText =
        peers < limit ? "; the median node alone, " + formatFixed(peers, 2) +
                            ", is slow too: look for what every node shares"
                      : "";
    std::string slowText, fineText;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string text = nodes[i] + " " + formatFixed(alone->nodePaces[i], 2);
        if (alone->nodePaces[i] < limit && alone->nodePaces[i] < peerLimit) {
            step.named.push_back(nodes[i]);
            slowText += (slowText.empty() ? "" : ", ") + text;
        } else {
            fineText += (fineText.empty() ? "" : ", ") + text;
        }
    }
    const std::string aloneText =
        "alone: " + (slowText.empty() ? fineText : slowText) + against +
        (slowText.empty() || fineText.empty() ? "" : " (the others: " + fineText + ")");
    if (!step.named.empty())
        return end(BisectionStep::State::Named,
                   names(step.named) + (step.named.size() == 1 ? " is" : " are") +
                       " slow on " + (step.named.size() == 1 ? "its" : "their") +
                       " own, more than " + formatFixed(thresholdPct, 0) + " % below: " +
                       aloneText + " and " + formatFixed(thresholdPct, 0) +
                       " % below the median node's " + formatFixed(peers, 2) + commonText);
    if (!commonText.empty())
        return end(BisectionStep::State::NotSlow,
                   "no node is slow against the others alone (" + aloneText + commonText +
                       "): no one node to blame");

    // 2. No node slow alone: is the set slow together?
    std::string trail = "every node healthy " + aloneText;
    if (!setPace) {
        const NodeSetProbe* all = find(nodes, true);
        if (!all)
            return probe(nodes, true, "no node is slow alone (" + trail +
                                          "): run every node together");
        setPace = all->pacePerDevice;
        if (*setPace >= limit)
            return end(BisectionStep::State::NotSlow,
                       "no node is slow alone (" + trail + ") and together they run at " +
                           formatFixed(*setPace, 2) + against + ": no node to look for");
    }
    trail += "; all together: " + formatFixed(*setPace, 2) + " (slow)";

    // 3. Slow together only: halves together, then the one left with a node from outside.
    auto slowRun = [&](const NodeSetProbe& p, const std::vector<std::string>& set) {
        const bool slow = p.pacePerDevice < limit;
        trail += "; " + names(set) + " together: " + formatFixed(p.pacePerDevice, 2) +
                 (slow ? " (slow)" : " (not slow)");
        return slow;
    };
    std::vector<std::string> candidates = nodes;
    bool candidatesSlow = true; // the candidates have run together, slow
    bool fabricHealthy = false; // some run together was not slow: the fabric itself works
    while (candidates.size() > 2) {
        const auto mid = candidates.begin() + std::ptrdiff_t((candidates.size() + 1) / 2);
        const std::vector<std::string> first(candidates.begin(), mid), rest(mid, candidates.end());
        const NodeSetProbe* p = find(first, true);
        if (!p)
            return probe(first, true, "slow only together (" + trail + "): run " +
                                          names(first) + " together");
        candidatesSlow = slowRun(*p, first);
        fabricHealthy = fabricHealthy || !candidatesSlow;
        candidates = candidatesSlow ? first : rest;
    }
    // The nodes outside the candidates: healthy alone, and (one node's link being the cause)
    // not the cause.
    const std::vector<std::string> partners = without(nodes, candidates);
    if (partners.empty())
        return end(BisectionStep::State::NeedsInterconnect,
                   "each node is healthy alone and the two are slow together (" + trail +
                       "): the link between them; a third node would tell whose end");
    auto named = [&](const std::string& node, const std::string& how) {
        step.named = {node};
        step.throughLink = true;
        return end(BisectionStep::State::Named, node + " is slow through its link: healthy "
                                                "alone, slow with others" +
                                                    how + " (" + trail + ")");
    };
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string& candidate = candidates[i];
        const std::vector<std::string> pair = {candidate, partners.front()};
        const NodeSetProbe* p = find(pair, true);
        if (!p)
            return probe(pair, true, "slow only together (" + trail + "): run " +
                                         names(pair) + " together");
        if (!slowRun(*p, pair)) {
            fabricHealthy = true;
            // Two candidates slow together, the first healthy with another node: the second.
            if (candidatesSlow && candidates.size() == 2 && i == 0)
                return named(candidates[1], ", the other healthy with " + partners.front());
            continue;
        }
        if (!fabricHealthy) {
            // Every run together so far was slow: two other nodes together say whether the
            // fabric is slow for everyone.
            const std::vector<std::string> others = without(nodes, {candidate});
            if (others.size() < 2)
                return end(BisectionStep::State::NeedsInterconnect,
                           "every run together is slow (" + trail +
                               "): the interconnect, or " + candidate + "'s link");
            const std::vector<std::string> control(others.begin(), others.begin() + 2);
            const NodeSetProbe* c = find(control, true);
            if (!c)
                return probe(control, true, "every run together is slow (" + trail + "): run " +
                                                names(control) + " together, without " +
                                                candidate);
            if (slowRun(*c, control)) break;
        }
        return named(candidate, "");
    }
    return end(BisectionStep::State::NeedsInterconnect,
               "no single node is slow, alone or with a healthy one (" + trail +
                   "): the slowness needs the interconnect, or more than one node");
}

} // namespace sv
