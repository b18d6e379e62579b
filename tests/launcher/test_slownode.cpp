// --find-slow-node's search for real (issue 28): emulated nodes on this 2-core machine, each one
// rank of the real CPU workload pinned to a core (taskset) through an executor named after its
// node. A slow node is made slow in one of two real ways: a CPU hog on its core while its ranks
// run (a foreign process at a raised priority, in a session of its own, as on a node someone
// else uses), or its ranks held to a fraction of a CPU by the kernel's CFS bandwidth control (a
// cgroup's cpu quota, as a node held down by its power cap or clocks). The search runs every
// node alone at once first, against the 1-node pace.
#include "launcher/probe/slownode.h"
#include "launcher/runner/localexecutor.h"
#include "tests/launcher/cpuquota.h"

#include <gtest/gtest.h>


#include <iostream>

using namespace sv;
using namespace sv::launcher;
using sv::test::CpuQuota;

namespace {

// One emulated node's ranks on one core; hogged: a busy loop at autogroup nice -10 shares that
// core while each rank runs, and ends with it (it watches the rank's shell); throttled: each
// rank joins the quota's cgroup before it starts.
class EmulatedNode : public Executor {
  public:
    EmulatedNode(std::string name, int core, bool hogged, const CpuQuota* quota = nullptr)
        : m_name(std::move(name)), m_core(std::to_string(core)), m_hogged(hogged),
          m_quota(quota) {}
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override {
        std::vector<std::string> out;
        if (m_hogged) {
            const std::string hog = "p=$$; /usr/bin/taskset -c " + m_core +
                                    " /usr/bin/setsid /bin/sh -c 'echo -10 > /proc/$$/autogroup; "
                                    "while kill -0 '$p' 2>/dev/null; do :; done' & "
                                    "/usr/bin/taskset -c " + m_core + " \"$@\"";
            out = {"/bin/sh", "-c", hog, "sh"};
        } else if (m_quota) {
            // The test's own fixed text; the cgroup's path arrives as $1.
            out = {"/bin/sh", "-c", "echo $$ > \"$1\" && shift && exec /usr/bin/taskset -c " +
                                        m_core + " \"$@\"",
                   "sh", m_quota->procs()};
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
    const CpuQuota* m_quota;
};

ProbeNode node(const std::string& name, int core, bool hogged, const CpuQuota* quota = nullptr) {
    return {name, std::make_shared<EmulatedNode>(name, core, hogged, quota), "127.0.0.1"};
}

SoloProbeSpec workload() {
    SoloProbeSpec spec;
    spec.batch = 8;
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
        std::cout << (r.together ? "  together" : "  alone");
        for (const auto& n : r.nodes)
            std::cout << " " << n;
        std::cout << ": " << r.pacePerDevice << " samples/s per device\n";
    }
}

} // namespace

// Two nodes on their own cores, the second hogged: the first run (each node alone, at once)
// names it, with its pace against the 1-node pace.
TEST(SlowNode, TheHoggedNodeIsNamedAfterOneRun) {
    SlowNodeSearch s;
    s.nodes = {node("n1", 0, false), node("n2", 1, true)};
    s.spec = workload();
    s.healthyPace = healthyPace(s.nodes[0]);
    ASSERT_GT(s.healthyPace, 0.0);
    s.healthySource = "n1 alone";
    s.thresholdPct = 75; // a hogged core leaves its rank about a tenth: far beyond
    // The case as the campaign measured it: held to its hogged node's pace, about a tenth.
    s.setPace = s.healthyPace * 0.1;
    s.timeoutMs = 300000;
    const SlowNodeVerdict v = findSlowNode(s, nullptr);
    print(v);
    ASSERT_EQ(v.kind, SlowNodeVerdict::Kind::Named) << v.why;
    EXPECT_EQ(v.named, std::vector<std::string>{"n2"});
    EXPECT_FALSE(v.throughLink);
    EXPECT_EQ(v.runs.size(), 1u);
    ASSERT_EQ(v.alone.size(), 2u);
    for (const auto& a : v.alone) {
        const double slowerPct = 100 * (1 - a.pacePerDevice / s.healthyPace);
        std::cout << a.node << " alone is " << slowerPct << " % slower than the 1-node pace\n";
        if (a.node == "n2") {
            EXPECT_GT(slowerPct, 75.0);
        }
    }
    EXPECT_NE(v.why.find("n2 is slow on its own"), std::string::npos) << v.why;
    EXPECT_NE(v.why.find("the others: n1 "), std::string::npos) << v.why;
}

// Four nodes, two of them held to a sixth of a CPU by the kernel: both are named, after one run
// (against 4 for each node alone), and the two quiet nodes are not, though each shares its core
// with a throttled one.
TEST(SlowNode, TwoThrottledNodesOfFourAreBothNamedAfterOneRun) {
    CpuQuota quota(16);
    if (!quota.skipReason().empty()) GTEST_SKIP() << quota.skipReason();
    SlowNodeSearch s;
    s.nodes = {node("n1", 0, false), node("n2", 1, false), node("n3", 0, false, &quota),
               node("n4", 1, false, &quota)};
    s.spec = workload();
    s.healthyPace = healthyPace(s.nodes[0]);
    ASSERT_GT(s.healthyPace, 0.0);
    s.healthySource = "n1 alone";
    // The quota's cgroup holds both throttled nodes' ranks: a sixth of a CPU between them, a
    // twelfth each; a quiet node keeps most of its core. Far either side of 60 %.
    s.thresholdPct = 60;
    s.setPace = s.healthyPace * 0.1;
    s.timeoutMs = 300000;
    const SlowNodeVerdict v = findSlowNode(s, nullptr);
    print(v);
    ASSERT_EQ(v.kind, SlowNodeVerdict::Kind::Named) << v.why;
    EXPECT_EQ(v.named, (std::vector<std::string>{"n3", "n4"}));
    EXPECT_EQ(v.runs.size(), 1u);
    EXPECT_LT(v.runs.size(), s.nodes.size());
    ASSERT_EQ(v.alone.size(), 4u);
    for (const auto& a : v.alone)
        std::cout << a.node << " alone: " << a.pacePerDevice << " per device ("
                  << 100 * (1 - a.pacePerDevice / s.healthyPace) << " % below)\n";
    EXPECT_NE(v.why.find("n3, n4 are slow on their own"), std::string::npos) << v.why;
}

// Two quiet nodes: neither is slow alone, and together (no campaign pace given: probed) they
// are not slow against the 1-node pace; no node is named.
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
    EXPECT_EQ(v.kind, SlowNodeVerdict::Kind::NotSlow) << v.why;
    EXPECT_TRUE(v.named.empty());
    // Each alone, then (no campaign pace given) both together, as one job across "their link".
    ASSERT_EQ(v.runs.size(), 2u);
    EXPECT_FALSE(v.runs[0].together);
    EXPECT_TRUE(v.runs[1].together);
    ASSERT_TRUE(v.setPace);
    EXPECT_EQ(*v.setPace, v.runs[1].pacePerDevice);
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
