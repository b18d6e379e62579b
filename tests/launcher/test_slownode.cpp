// --find-slow-node's search for real (issue 28): four emulated nodes on this 2-core machine,
// each one rank of the real CPU workload pinned to a core (taskset) through an executor named
// after its node. The slow node has a CPU hog on its core while its ranks run (a foreign
// process at a raised priority, in a session of its own, as on a node someone else uses): a
// node's hog lives with that node's ranks, since the emulated nodes share the machine's two
// cores. Node sets run at once (each node alone), as the bisection plans them, against the
// 1-node pace.
#include "launcher/probe/slownode.h"
#include "launcher/runner/localexecutor.h"

#include <gtest/gtest.h>

#include <iostream>

using namespace sv;
using namespace sv::launcher;

namespace {

// One emulated node's ranks on one core; hogged: a busy loop at autogroup nice -10 shares that
// core while each rank runs, and ends with it (it watches the rank's shell).
class EmulatedNode : public Executor {
  public:
    EmulatedNode(std::string name, int core, bool hogged)
        : m_name(std::move(name)), m_core(std::to_string(core)), m_hogged(hogged) {}
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override {
        std::vector<std::string> out;
        if (m_hogged) {
            const std::string hog = "p=$$; /usr/bin/taskset -c " + m_core +
                                    " /usr/bin/setsid /bin/sh -c 'echo -10 > /proc/$$/autogroup; "
                                    "while kill -0 '$p' 2>/dev/null; do :; done' & "
                                    "/usr/bin/taskset -c " + m_core + " \"$@\"";
            out = {"/bin/sh", "-c", hog, "sh"};
        } else {
            out = {"/usr/bin/taskset", "-c", m_core};
        }
        out.insert(out.end(), argv.begin(), argv.end());
        return out;
    }
    std::string hostLabel() const override { return m_name; }
    bool isRemote() const override { return false; }

  private:
    std::string m_name, m_core;
    bool m_hogged;
};

ProbeNode node(const std::string& name, int core, bool hogged) {
    return {name, std::make_shared<EmulatedNode>(name, core, hogged), "127.0.0.1"};
}

SoloProbeSpec workload() {
    SoloProbeSpec spec;
    spec.batch = 16;
    spec.imageSize = 64;
    spec.iterations = 5;
    spec.warmup = 1;
    return spec;
}

// The 1-node pace: one quiet node alone (what the campaign's 1-node case measures).
double healthyPace(const ProbeNode& quiet) {
    SoloProbeSpec spec = workload();
    spec.node = quiet.name;
    spec.masterPort = probePort();
    const auto r = runSoloProbe(spec, probeRanks({quiet}, 1), 240000);
    EXPECT_TRUE(r.probe) << r.error;
    return r.probe ? r.probe->pacePerDevice : 0.0;
}

void print(const SlowNodeVerdict& v) {
    std::cout << "verdict " << v.kindName() << " " << v.node << ": " << v.why << "\n";
    for (const auto& r : v.runs) {
        std::cout << "  run";
        for (const auto& n : r.nodes)
            std::cout << " " << n;
        std::cout << ": " << r.pacePerDevice << " samples/s per device\n";
    }
}

} // namespace

// n3 is hogged; n1 shares core 0 with it (never at once), n2 and n4 are on core 1. The case as
// a whole ran slow (its pace given, as the campaign measured it): the bisection probes n1 and
// n2 (not slow), then n3 alone (slow): named in 2 runs, against 4 for each node alone.
TEST(SlowNode, BisectionOfFourNodesNamesTheHoggedOneInFewerRunsThanEveryNode) {
    SlowNodeSearch s;
    s.nodes = {node("n1", 0, false), node("n2", 1, false), node("n3", 0, true),
               node("n4", 1, false)};
    s.spec = workload();
    s.healthyPace = healthyPace(s.nodes[0]);
    ASSERT_GT(s.healthyPace, 0.0);
    s.healthySource = "n1 alone";
    s.thresholdPct = 75; // a hogged core leaves its rank about a tenth: far beyond
    // The case as the campaign measured it: held to its hogged node's pace, about a tenth. (A
    // quarter sat exactly on the 75 % threshold, and "more than 75 % below" then depended on the
    // last bit of a double: CI-style runs found the set not slow.)
    s.setPace = s.healthyPace * 0.1;
    s.timeoutMs = 300000;
    const SlowNodeVerdict v = findSlowNode(s, nullptr);
    print(v);
    ASSERT_EQ(v.kind, SlowNodeVerdict::Kind::Named) << v.why;
    EXPECT_EQ(v.node, "n3");
    EXPECT_LT(v.runs.size(), s.nodes.size()); // fewer probe runs than trying every node
    ASSERT_EQ(v.alone.size(), 3u); // n1 and n2 in the first run, n3 in the second
    EXPECT_EQ(v.alone[2].node, "n3");
    const double slowerPct = 100 * (1 - v.alone[2].pacePerDevice / s.healthyPace);
    std::cout << "n3 alone is " << slowerPct << " % slower than the 1-node pace\n";
    EXPECT_GT(slowerPct, 75.0);
    // The evidence: n3's own pace against the healthy one, and the set that was not slow.
    EXPECT_NE(v.why.find("n3 alone"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("n1, n2"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("(not slow)"), std::string::npos) << v.why;
}

// The same nodes with no hog: the whole set, probed together first (no campaign pace given),
// is not slow against the 1-node pace, and no node is named.
TEST(SlowNode, QuietNodesNameNone) {
    SlowNodeSearch s;
    s.nodes = {node("q1", 0, false), node("q2", 1, false)};
    s.spec = workload();
    s.healthyPace = healthyPace(s.nodes[0]);
    ASSERT_GT(s.healthyPace, 0.0);
    s.healthySource = "q1 alone";
    s.thresholdPct = 75;
    s.timeoutMs = 300000;
    const SlowNodeVerdict v = findSlowNode(s, nullptr);
    print(v);
    EXPECT_NE(v.kind, SlowNodeVerdict::Kind::Named) << v.why;
    EXPECT_NE(v.kind, SlowNodeVerdict::Kind::Failed) << v.why;
    EXPECT_TRUE(v.node.empty());
    ASSERT_TRUE(v.setPace);
}

TEST(SlowNode, NeedsTwoNodesAndAHealthyPace) {
    SlowNodeSearch s;
    s.nodes = {node("only", 0, false)};
    s.healthyPace = 10;
    EXPECT_EQ(findSlowNode(s, nullptr).kind, SlowNodeVerdict::Kind::Failed);
    s.nodes.push_back(node("other", 1, false));
    s.healthyPace = 0;
    const auto v = findSlowNode(s, nullptr);
    EXPECT_EQ(v.kind, SlowNodeVerdict::Kind::Failed);
    EXPECT_NE(v.why.find("healthy pace"), std::string::npos);
    EXPECT_TRUE(v.runs.empty());
}
