// --find-slow-node's plan: every node alone first (names every node slow on its own, in one
// run), then, when only the nodes together are slow, halves together until the node whose link
// slows them is named or the slowness is shown to need the interconnect.
#include "core/stats/nodebisection.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace sv;

namespace {

// A cluster: nodes in `slowAlone` run at 80 per device alone and in any run; a run together
// that holds `slowLink` runs at 80 (the node itself is 100 alone); interconnect: every run
// together of two nodes or more runs at 80. Everything else runs at 100.
struct Cluster {
    std::vector<std::string> slowAlone;
    std::string slowLink;
    bool interconnect = false;

    double alone(const std::string& n) const {
        return std::count(slowAlone.begin(), slowAlone.end(), n) ? 80.0 : 100.0;
    }
    NodeSetProbe run(const std::vector<std::string>& set, bool together) const {
        NodeSetProbe p{set, together, 100.0, {}};
        for (const auto& n : set) {
            const double a = alone(n);
            if (!together) p.nodePaces.push_back(a);
            p.pacePerDevice = std::min(p.pacePerDevice, a);
            if (together && (n == slowLink || interconnect)) p.pacePerDevice = 80.0;
        }
        return p;
    }
};

struct Outcome {
    BisectionStep last;
    int probes = 0;
};
Outcome plan(const std::vector<std::string>& nodes, const Cluster& c,
             std::optional<double> setPace = std::nullopt) {
    std::vector<NodeSetProbe> done;
    for (int guard = 0; guard < 64; ++guard) {
        BisectionStep s = nextBisectionStep(nodes, 100.0, 5.0, done, setPace);
        if (s.state != BisectionStep::State::Probe) return {s, int(done.size())};
        done.push_back(c.run(s.probe, s.together));
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

TEST(NodeBisection, ANodeSlowAloneIsNamedInOneRunWhateverTheCount) {
    for (int n : {2, 3, 4, 8, 16}) {
        const auto nodes = nodeNames(n);
        for (const auto& slow : nodes) {
            const Outcome o = plan(nodes, {{slow}, "", false}, 80.0);
            ASSERT_EQ(o.last.state, BisectionStep::State::Named) << n << " " << slow;
            EXPECT_EQ(o.last.named, std::vector<std::string>{slow}) << o.last.why;
            EXPECT_FALSE(o.last.throughLink);
            EXPECT_EQ(o.probes, 1); // every node alone, at once
        }
    }
}

TEST(NodeBisection, TwoSlowNodesAreBothNamed) {
    const Outcome o = plan(nodeNames(8), {{"n3", "n7"}, "", false}, 80.0);
    ASSERT_EQ(o.last.state, BisectionStep::State::Named);
    EXPECT_EQ(o.last.named, (std::vector<std::string>{"n3", "n7"}));
    EXPECT_NE(o.last.why.find("n3, n7 are slow on their own"), std::string::npos) << o.last.why;
    EXPECT_NE(o.last.why.find("n3 80.00, n7 80.00 per device against a healthy 100.00"),
              std::string::npos)
        << o.last.why;
    EXPECT_NE(o.last.why.find("the others: n1 100.00"), std::string::npos) << o.last.why;
}

// What slows every node at once is no node's doing: against the healthy pace of 100 all four
// are slow, against each other only n2. With every node as slow, none is named, and it says why.
TEST(NodeBisection, ANodeIsSlowAgainstItsPeersInTheSameRunToo) {
    const std::vector<std::string> nodes = nodeNames(4);
    std::vector<NodeSetProbe> done = {{nodes, false, 20.0, {60.0, 20.0, 58.0, 61.0}}};
    BisectionStep s = nextBisectionStep(nodes, 100.0, 30.0, done, 10.0);
    ASSERT_EQ(s.state, BisectionStep::State::Named) << s.why;
    EXPECT_EQ(s.named, std::vector<std::string>{"n2"});
    EXPECT_NE(s.why.find("the median node alone, 60.00, is slow too"), std::string::npos)
        << s.why;
    done = {{nodes, false, 20.0, {20.0, 22.0, 21.0, 23.0}}};
    s = nextBisectionStep(nodes, 100.0, 30.0, done, 10.0);
    EXPECT_EQ(s.state, BisectionStep::State::NotSlow) << s.why;
    EXPECT_TRUE(s.named.empty());
    EXPECT_NE(s.why.find("no one node to blame"), std::string::npos) << s.why;
}

TEST(NodeBisection, ANodeSlowOnlyThroughItsLinkIsNamed) {
    for (int n : {3, 4, 5, 8, 16}) {
        const auto nodes = nodeNames(n);
        for (const auto& slow : nodes) {
            const Outcome o = plan(nodes, {{}, slow, false}, 80.0);
            ASSERT_EQ(o.last.state, BisectionStep::State::Named) << n << " " << slow;
            EXPECT_EQ(o.last.named, std::vector<std::string>{slow}) << o.last.why;
            EXPECT_TRUE(o.last.throughLink);
            EXPECT_NE(o.last.why.find(slow + " is slow through its link"), std::string::npos)
                << o.last.why;
            // Fewer runs than every node from 8 nodes on; with a few, about as many.
            EXPECT_LE(o.probes, n >= 8 ? n - 1 : n + 1) << n << " nodes, slow link " << slow;
        }
    }
    // 16 nodes: the alone run, 3 halvings down to two candidates, one or two pairs.
    EXPECT_LE(plan(nodeNames(16), {{}, "n16", false}, 80.0).probes, 6);
}

TEST(NodeBisection, TwoNodesSlowOnlyTogetherNeedTheirLink) {
    const Outcome o = plan(nodeNames(2), {{}, "n2", false}, 80.0);
    EXPECT_EQ(o.last.state, BisectionStep::State::NeedsInterconnect);
    EXPECT_NE(o.last.why.find("the link between them"), std::string::npos) << o.last.why;
    EXPECT_EQ(o.probes, 1);
}

TEST(NodeBisection, EveryRunTogetherSlowMeansTheInterconnect) {
    const Outcome o = plan(nodeNames(8), {{}, "", true}, 80.0);
    EXPECT_EQ(o.last.state, BisectionStep::State::NeedsInterconnect);
    EXPECT_NE(o.last.why.find("needs the interconnect"), std::string::npos) << o.last.why;
    EXPECT_TRUE(o.last.named.empty());
}

TEST(NodeBisection, WithoutTheCampaignsPaceTheNodesRunTogetherOnce) {
    // Quiet: alone, then together, and nothing to look for.
    Outcome o = plan(nodeNames(4), {});
    EXPECT_EQ(o.last.state, BisectionStep::State::NotSlow) << o.last.why;
    EXPECT_EQ(o.probes, 2);
    // A slow link found the same way, the together run of all standing for the campaign's.
    o = plan(nodeNames(4), {{}, "n2", false});
    EXPECT_EQ(o.last.named, std::vector<std::string>{"n2"}) << o.last.why;
    // The campaign's own pace, healthy: no run at all.
    o = plan(nodeNames(4), {{"n1"}, "", false}, 99.0);
    EXPECT_EQ(o.last.state, BisectionStep::State::NotSlow);
    EXPECT_EQ(o.probes, 0);
}

TEST(NodeBisection, BadInput) {
    EXPECT_EQ(nextBisectionStep({"a"}, 100, 5, {}).state, BisectionStep::State::Invalid);
    EXPECT_EQ(nextBisectionStep({"a", "b"}, 0, 5, {}).state, BisectionStep::State::Invalid);
    // The first run asked for is every node alone.
    const auto first = nextBisectionStep(nodeNames(4), 100, 5, {}, 50.0);
    EXPECT_EQ(first.probe, nodeNames(4));
    EXPECT_FALSE(first.together);
    // An alone run without each node's pace is not taken for one.
    const NodeSetProbe broken{nodeNames(4), false, 90.0, {}};
    EXPECT_EQ(nextBisectionStep(nodeNames(4), 100, 5, {broken}, 50.0).state,
              BisectionStep::State::Invalid);
}
