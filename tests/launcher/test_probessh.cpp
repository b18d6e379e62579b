// Issue 28's all-reduce probe across two "nodes" reached over real SSH (two sshd on 127.0.0.1
// and 127.0.0.2, as the launcher's other SSH tests use), through the executor campaigns use.
#include "launcher/probe/probe.h"
#include "launcher/exec/sshexecutor.h"
#include "core/model/numerics.h"
#include "tests/launcher/sshnodes.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::launcher;

class ProbeSsh : public sv::test::SshNodesTest {
  protected:
    ProbeSsh() : SshNodesTest("probessh") {}
};

TEST_F(ProbeSsh, AllReduceAcrossTwoSshNodes) {
    SshOptions o;
    o.configFile = m_nodes->config();
    Host h1, h2;
    h1.name = "node1";
    h1.address = "127.0.0.1";
    h2.name = "node2";
    h2.address = "127.0.0.2";
    const SshExecutor node1(h1, o), node2(h2, o);
    AllReduceProbeSpec spec;
    spec.bytes = gradientBytes(kResNet50Parameters, "fp16"); // 51.2 MB
    spec.iterations = 5;
    spec.warmup = 2;
    spec.masterAddr = "127.0.0.1";
    spec.masterPort = sv::test::freePort("127.0.0.1");
    const auto r = runAllReduceProbe(spec, {{&node1, 0}, {&node2, 0}}, 120000);
    ASSERT_TRUE(r.probe) << r.error;
    EXPECT_EQ(r.probe->ranks, 2);
    EXPECT_EQ(r.probe->bytes, 51200000);
    ASSERT_EQ(r.probe->seconds.size(), 5u);
    for (double t : r.probe->seconds)
        EXPECT_GT(t, 0.0);
    std::cout << "all-reduce over ssh nodes node1/node2, gloo, 51.2 MB: "
              << numpyMedian(r.probe->seconds) * 1000 << " ms (median of 5)\n";
}
