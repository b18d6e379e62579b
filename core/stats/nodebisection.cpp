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

// One call's reasoning over the probe runs done, phase after phase: each phase ends the plan (a
// probe to run, a verdict) or hands on to the next with what it found in the trail.
class Bisection {
  public:
    Bisection(const std::vector<std::string>& nodes, double healthyPace, double thresholdPct,
              const std::vector<NodeSetProbe>& done)
        : m_nodes(nodes), m_done(done), m_threshold(thresholdPct),
          m_limit(healthyPace * (1.0 - thresholdPct / 100.0)),
          m_against(" per device against a healthy " + formatFixed(healthyPace, 2)) {}

    std::optional<BisectionStep> togetherWithin(std::optional<double> setPace);
    std::optional<BisectionStep> alone();
    std::optional<BisectionStep> together(std::optional<double> setPace);
    BisectionStep throughLinks();

  private:
    const NodeSetProbe* find(const std::vector<std::string>& set, bool together) const;
    BisectionStep probe(std::vector<std::string> set, bool together, std::string why);
    BisectionStep end(BisectionStep::State state, std::string why);
    BisectionStep named(const std::string& node, const std::string& how);
    bool slowRun(const NodeSetProbe& p, const std::vector<std::string>& set);
    std::optional<BisectionStep> halve();
    std::optional<BisectionStep> pairWith(const std::vector<std::string>& partners);

    const std::vector<std::string>& m_nodes;
    const std::vector<NodeSetProbe>& m_done;
    double m_threshold, m_limit;
    std::string m_against;
    BisectionStep m_step;
    std::string m_trail; // every run read so far, in words: the evidence of every step
    std::vector<std::string> m_candidates;
    bool m_candidatesSlow = true; // the candidates have run together, slow
    bool m_fabricHealthy = false; // some run together was not slow: the fabric itself works
};

const NodeSetProbe* Bisection::find(const std::vector<std::string>& set, bool together) const {
    for (const auto& d : m_done)
        if (d.nodes == set && d.together == together) return &d;
    return nullptr;
}

BisectionStep Bisection::probe(std::vector<std::string> set, bool together, std::string why) {
    m_step.state = BisectionStep::State::Probe;
    m_step.probe = std::move(set);
    m_step.together = together;
    m_step.why = std::move(why);
    return m_step;
}

BisectionStep Bisection::end(BisectionStep::State state, std::string why) {
    m_step.state = state;
    m_step.why = std::move(why);
    return m_step;
}

BisectionStep Bisection::named(const std::string& node, const std::string& how) {
    m_step.named = {node};
    m_step.throughLink = true;
    return end(BisectionStep::State::Named,
               node + " is slow through its link: healthy alone, slow with others" + how + " (" +
                   m_trail + ")");
}

bool Bisection::slowRun(const NodeSetProbe& p, const std::vector<std::string>& set) {
    const bool slow = p.pacePerDevice < m_limit;
    m_trail += "; " + names(set) + " together: " + formatFixed(p.pacePerDevice, 2) +
               (slow ? " (slow)" : " (not slow)");
    return slow;
}

// The campaign's own pace of the case, where it is within the threshold: nothing to look for.
std::optional<BisectionStep> Bisection::togetherWithin(std::optional<double> setPace) {
    if (!setPace || *setPace < m_limit) return std::nullopt;
    return end(BisectionStep::State::NotSlow,
               "the nodes together run at " + formatFixed(*setPace, 2) + m_against + ": within " +
                   formatFixed(m_threshold, 0) + " %, no node to look for");
}

// 1. Every node alone, at once.
std::optional<BisectionStep> Bisection::alone() {
    const NodeSetProbe* run = find(m_nodes, false);
    if (!run) return probe(m_nodes, false, "run every node alone, all at once");
    if (run->nodePaces.size() != m_nodes.size())
        return end(BisectionStep::State::Invalid, "the run of every node alone has no pace for "
                                                  "each node");
    // Slow against the healthy pace and against the other nodes in the same run (their high
    // median): what slows every node at once (a busy machine, a shared file system, a healthy
    // pace from other conditions) is no node's doing.
    std::vector<double> sorted = run->nodePaces;
    std::sort(sorted.begin(), sorted.end());
    const double peers = sorted[sorted.size() / 2];
    const double peerLimit = peers * (1.0 - m_threshold / 100.0);
    const std::string commonText = peers < m_limit
                                       ? "; the median node alone, " + formatFixed(peers, 2) +
                                             ", is slow too: look for what every node shares"
                                       : "";
    std::string slowText, fineText;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const std::string text = m_nodes[i] + " " + formatFixed(run->nodePaces[i], 2);
        if (run->nodePaces[i] < m_limit && run->nodePaces[i] < peerLimit) {
            m_step.named.push_back(m_nodes[i]);
            slowText += (slowText.empty() ? "" : ", ") + text;
        } else {
            fineText += (fineText.empty() ? "" : ", ") + text;
        }
    }
    const std::string aloneText =
        "alone: " + (slowText.empty() ? fineText : slowText) + m_against +
        (slowText.empty() || fineText.empty() ? "" : " (the others: " + fineText + ")");
    const std::vector<std::string>& slow = m_step.named;
    if (!slow.empty())
        return end(BisectionStep::State::Named,
                   names(slow) + (slow.size() == 1 ? " is" : " are") + " slow on " +
                       (slow.size() == 1 ? "its" : "their") + " own, more than " +
                       formatFixed(m_threshold, 0) + " % below: " + aloneText + " and " +
                       formatFixed(m_threshold, 0) + " % below the median node's " +
                       formatFixed(peers, 2) + commonText);
    if (!commonText.empty())
        return end(BisectionStep::State::NotSlow, "no node is slow against the others alone (" +
                                                      aloneText + commonText +
                                                      "): no one node to blame");
    m_trail = "every node healthy " + aloneText;
    return std::nullopt;
}

// 2. No node slow alone: is the set slow together?
std::optional<BisectionStep> Bisection::together(std::optional<double> setPace) {
    if (!setPace) {
        const NodeSetProbe* all = find(m_nodes, true);
        if (!all)
            return probe(m_nodes, true,
                         "no node is slow alone (" + m_trail + "): run every node together");
        setPace = all->pacePerDevice;
        if (*setPace >= m_limit)
            return end(BisectionStep::State::NotSlow,
                       "no node is slow alone (" + m_trail + ") and together they run at " +
                           formatFixed(*setPace, 2) + m_against + ": no node to look for");
    }
    m_trail += "; all together: " + formatFixed(*setPace, 2) + " (slow)";
    return std::nullopt;
}

// 3. Slow together only: halves together down to two candidates, then each candidate with a
// node from outside them.
BisectionStep Bisection::throughLinks() {
    m_candidates = m_nodes;
    if (auto step = halve()) return *step;
    // The nodes outside the candidates: healthy alone, and (one node's link being the cause)
    // not the cause.
    const std::vector<std::string> partners = without(m_nodes, m_candidates);
    if (partners.empty())
        return end(BisectionStep::State::NeedsInterconnect,
                   "each node is healthy alone and the two are slow together (" + m_trail +
                       "): the link between them; a third node would tell whose end");
    if (auto step = pairWith(partners)) return *step;
    return end(BisectionStep::State::NeedsInterconnect,
               "no single node is slow, alone or with a healthy one (" + m_trail +
                   "): the slowness needs the interconnect, or more than one node");
}

// A slow half holds the node, a healthy half's nodes are healthy.
std::optional<BisectionStep> Bisection::halve() {
    while (m_candidates.size() > 2) {
        const auto mid = m_candidates.begin() + std::ptrdiff_t((m_candidates.size() + 1) / 2);
        const std::vector<std::string> first(m_candidates.begin(), mid),
            rest(mid, m_candidates.end());
        const NodeSetProbe* p = find(first, true);
        if (!p)
            return probe(first, true,
                         "slow only together (" + m_trail + "): run " + names(first) + " together");
        m_candidatesSlow = slowRun(*p, first);
        m_fabricHealthy = m_fabricHealthy || !m_candidatesSlow;
        m_candidates = m_candidatesSlow ? first : rest;
    }
    return std::nullopt;
}

// Each candidate together with the first partner: slow, it is named through its link (once
// another run together was healthy, or a control pair of other nodes is); nullopt where none is.
std::optional<BisectionStep> Bisection::pairWith(const std::vector<std::string>& partners) {
    for (std::size_t i = 0; i < m_candidates.size(); ++i) {
        const std::string& candidate = m_candidates[i];
        const std::vector<std::string> pair = {candidate, partners.front()};
        const NodeSetProbe* p = find(pair, true);
        if (!p)
            return probe(pair, true,
                         "slow only together (" + m_trail + "): run " + names(pair) + " together");
        if (!slowRun(*p, pair)) {
            m_fabricHealthy = true;
            // Two candidates slow together, the first healthy with another node: the second.
            if (m_candidatesSlow && m_candidates.size() == 2 && i == 0)
                return named(m_candidates[1], ", the other healthy with " + partners.front());
            continue;
        }
        if (!m_fabricHealthy) {
            // Every run together so far was slow: two other nodes together say whether the
            // fabric is slow for everyone.
            const std::vector<std::string> others = without(m_nodes, {candidate});
            if (others.size() < 2)
                return end(BisectionStep::State::NeedsInterconnect,
                           "every run together is slow (" + m_trail + "): the interconnect, or " +
                               candidate + "'s link");
            const std::vector<std::string> control(others.begin(), others.begin() + 2);
            const NodeSetProbe* c = find(control, true);
            if (!c)
                return probe(control, true,
                             "every run together is slow (" + m_trail + "): run " + names(control) +
                                 " together, without " + candidate);
            if (slowRun(*c, control)) return std::nullopt;
        }
        return named(candidate, "");
    }
    return std::nullopt;
}

} // namespace

BisectionStep nextBisectionStep(const std::vector<std::string>& nodes, double healthyPace,
                                double thresholdPct, const std::vector<NodeSetProbe>& done,
                                std::optional<double> setPace) {
    if (nodes.size() < 2 || !(healthyPace > 0)) {
        BisectionStep step;
        step.why = nodes.size() < 2 ? "a slow node is looked for among two nodes or more"
                                    : "no healthy pace to compare with";
        return step;
    }
    Bisection plan(nodes, healthyPace, thresholdPct, done);
    if (auto step = plan.togetherWithin(setPace)) return *step;
    if (auto step = plan.alone()) return *step;
    if (auto step = plan.together(setPace)) return *step;
    return plan.throughLinks();
}

} // namespace sv
