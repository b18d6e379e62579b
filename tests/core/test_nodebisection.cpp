// --find-slow-node's plan: bisect the node set with probe runs until the slow node is named or
// the slowness is shown to need the interconnect, in fewer runs than trying every node.
#include "core/stats/nodebisection.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace sv;

namespace {

// Runs the plan against a cluster where any set holding `slow` runs at 80 per device, every
// other at 100 (a set of one node included); interconnect: every set of two or more runs at 80.
struct Outcome {
    BisectionStep last;
    int probes = 0;
};
Outcome bisect(const std::vector<std::string>& nodes, const std::string& slow,
               bool interconnect = false) {
    std::vector<NodeSetProbe> done;
    for (int guard = 0; guard < 64; ++guard) {
        BisectionStep s = nextBisectionStep(nodes, 100.0, 5.0, done);
        if (s.state != BisectionStep::State::Probe) return {s, int(done.size())};
        const bool hasSlow = std::find(s.probe.begin(), s.probe.end(), slow) != s.probe.end();
        done.push_back({s.probe, hasSlow || (interconnect && s.probe.size() > 1) ? 80.0 : 100.0});
    }
    ADD_FAILURE() << "the plan did not end";
    return {};
}

std::vector<std::string> nodeNames(int n) {
    std::vector<std::string> out;
    for (int i = 1; i <= n; ++i)
        out.push_back("n" + std::to_string(i));
    return out;
}

} // namespace

TEST(NodeBisection, NamesEverySlowNodeInFewerRunsThanTryingEachNode) {
    for (int n : {4, 5, 8, 16}) {
        const auto nodes = nodeNames(n);
        for (const auto& slow : nodes) {
            const Outcome o = bisect(nodes, slow);
            EXPECT_EQ(o.last.state, BisectionStep::State::Named) << n << " " << slow;
            EXPECT_EQ(o.last.node, slow) << o.last.why;
            EXPECT_LT(o.probes, n) << n << " nodes, slow " << slow;
        }
    }
    // 16 nodes: 4 halvings and, where the last half probed was the other one, the node alone.
    EXPECT_EQ(bisect(nodeNames(16), "n16").probes, 5);
    EXPECT_EQ(bisect(nodeNames(16), "n11").probes, 4); // its last halving ran it alone
}

TEST(NodeBisection, ThreeNodesAtMostThreeRunsTwoNodesTwo) {
    for (const auto& slow : nodeNames(3)) {
        const Outcome o = bisect(nodeNames(3), slow);
        EXPECT_EQ(o.last.node, slow);
        EXPECT_LE(o.probes, 3);
    }
    EXPECT_EQ(bisect(nodeNames(2), "n2").last.node, "n2");
    EXPECT_LE(bisect(nodeNames(2), "n2").probes, 2);
}

TEST(NodeBisection, NoSlowNodeMeansTheInterconnect) {
    const Outcome o = bisect(nodeNames(8), "none", /*interconnect=*/true);
    EXPECT_EQ(o.last.state, BisectionStep::State::NeedsInterconnect);
    EXPECT_NE(o.last.why.find("interconnect"), std::string::npos);
    EXPECT_NE(o.last.why.find("alone: 100.00 per device"), std::string::npos) << o.last.why;
    EXPECT_TRUE(o.last.node.empty());
}

TEST(NodeBisection, EvidenceAndBadInput) {
    const Outcome o = bisect(nodeNames(4), "n3");
    EXPECT_NE(o.last.why.find("n3 alone: 80.00 per device against a healthy 100.00"),
              std::string::npos)
        << o.last.why;
    EXPECT_EQ(nextBisectionStep({}, 100, 5, {}).state, BisectionStep::State::Invalid);
    EXPECT_EQ(nextBisectionStep({"a"}, 0, 5, {}).state, BisectionStep::State::Invalid);
    // The first run asked for is the first half.
    const auto first = nextBisectionStep(nodeNames(4), 100, 5, {});
    EXPECT_EQ(first.probe, (std::vector<std::string>{"n1", "n2"}));
}
