// torchrun, for machines with PyTorch and no Open MPI: one torchrun per node, started on every
// node at once. The exact commands; the real CPU workload on this machine (1n2g) and across two
// sshd "nodes" (2n1g), read back by summarize with every rank's tag; and a node whose torchrun
// fails while the other waits, which must end the run at once, naming that node.

#include "tests/launcher/sshnodes.h"

#include <chrono>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;
using sv::test::since;

namespace {

// summarize --format json of a campaign's output (the command must succeed).
json summarize(const std::string& out, int warmup, int iterations) {
    const auto s = runProcess({kCli, "summarize", out, "--warmup", std::to_string(warmup),
                               "--iterations", std::to_string(iterations), "--format", "json"});
    EXPECT_EQ(s.exitCode, 0) << s.err;
    return json::parse(s.out);
}

} // namespace

// The preview's 29500 is the profile's default; each run takes a free port as it starts.
constexpr const char* kFreePort = "  # master port: a free one, chosen as the run starts\n";

TEST(TorchrunCommandLine, OneTorchrunPerNodeExactly) {
    const auto r = runProcess({kCli, "run", "--profile", "local-cpu-rn50", "--launcher", "torchrun",
                               "--hosts", "node1=10.0.0.1,node2=10.0.0.2", "--topologies",
                               "1n2g,2n1g", "--batch-size", "16", "--repeats", "1", "--ssh-config",
                               "/etc/sv/ssh_config", "--out", "/srv/sv", "--dry-run"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string ssh = "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o "
                            "ConnectTimeout=10 -o ServerAliveInterval=5 -o ServerAliveCountMax=3 "
                            "-F /etc/sv/ssh_config -- ";
    auto torchrun = [](const std::string& tag, int nodes, int rank, int perNode,
                       const std::string& master) {
        return "'exec env SCALEVIEW_RUN_TAG=" + tag + " torchrun --nnodes " +
               std::to_string(nodes) + " --node_rank " + std::to_string(rank) +
               " --nproc_per_node " + std::to_string(perNode) + " --master_addr " + master +
               " --master_port 29500 --log_dir /srv/sv/workload/torchrun --redirects 9:1 --tee "
               "9:1 --no_python /usr/bin/python3 /srv/sv/workload/rn50_cpu.py --batch-size 16 "
               "--iterations 120 --image-size 64 --precision fp32 --device cpu --threads-per-rank "
               "1 --master-addr " +
               master + " --master-port 29500'" + kFreePort;
    };
    // 1n2g: one process on the first host; 2n1g: one per node, node ranks 0 and 1, both meeting
    // at the first host's address.
    EXPECT_EQ(r.out, ssh + "node1 " + torchrun("svDRYRUN1", 1, 0, 2, "127.0.0.1") + ssh + "node1 " +
                         torchrun("svDRYRUN2", 2, 0, 1, "10.0.0.1") + ssh + "node2 " +
                         torchrun("svDRYRUN2", 2, 1, 1, "10.0.0.1"));
    // Without hosts, on this machine: no ssh, the same torchrun.
    const auto local =
        runProcess({kCli, "run", "--launcher", "torchrun", "--topologies", "1n2g", "--batch-size",
                    "8", "--repeats", "1", "--iterations", "30", "--out", "/srv/l", "--dry-run"});
    ASSERT_EQ(local.exitCode, 0) << local.err;
    EXPECT_EQ(local.out,
              "env SCALEVIEW_RUN_TAG=svDRYRUN1 torchrun --nnodes 1 --node_rank 0 --nproc_per_node "
              "2 --master_addr 127.0.0.1 --master_port 29500 --log_dir /srv/l/workload/torchrun "
              "--redirects 9:1 --tee 9:1 --no_python /usr/bin/python3 /srv/l/workload/rn50_cpu.py "
              "--batch-size 8 --iterations 30 --image-size 64 --precision fp32 --device cpu "
              "--threads-per-rank 1 --master-addr 127.0.0.1 --master-port 29500" +
                  std::string(kFreePort));
    // In a container: each node's torchrun through `docker exec`, the tag passed with -e.
    const auto docker = runProcess({kCli, "run", "--launcher", "torchrun", "--hosts", "node1,node2",
                                    "--container", "pt", "--topologies", "2n1g", "--batch-size",
                                    "8", "--repeats", "1", "--out", "/srv/d", "--dry-run"});
    ASSERT_EQ(docker.exitCode, 0) << docker.err;
    const std::string plainSsh = "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o "
                                 "ConnectTimeout=10 -o ServerAliveInterval=5 -o "
                                 "ServerAliveCountMax=3 -- ";
    auto inDocker = [&](const std::string& host, int rank) {
        return plainSsh + host +
               " 'exec docker exec -e SCALEVIEW_RUN_TAG=svDRYRUN1 pt torchrun --nnodes 2 "
               "--node_rank " +
               std::to_string(rank) +
               " --nproc_per_node 1 --master_addr node1 --master_port 29500 --log_dir "
               "/srv/d/workload/torchrun --redirects 9:1 --tee 9:1 --no_python /usr/bin/python3 "
               "/srv/d/workload/rn50_cpu.py --batch-size 8 --iterations 120 --image-size 64 "
               "--precision fp32 --device cpu --threads-per-rank 1 --master-addr node1 "
               "--master-port 29500'" +
               kFreePort;
    };
    EXPECT_EQ(docker.out, inDocker("node1", 0) + inDocker("node2", 1));
    // A launcher the profile does not have is refused before anything runs.
    const auto bad = runProcess({kCli, "run", "--launcher", "srun", "--topologies", "1n1g",
                                 "--batch-size", "8", "--out", "/srv/x", "--dry-run"});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("launcher: 'srun'"), std::string::npos) << bad.err;
}

TEST(Torchrun, RealCpuWorkloadOnOneNodeIsReadBackWithEveryRank) {
    const std::string dir = sv::test::tempDir("torchrun");
    const std::string out = dir + "/out";
    const auto t0 = std::chrono::steady_clock::now();
    const auto r =
        runProcess({kCli,           "run",          "--launcher", "torchrun",  "--topologies",
                    "1n2g",         "--batch-size", "2",          "--repeats", "1",
                    "--iterations", "10",           "--warmup",   "2",         "--image-size",
                    "32",           "--cooldown",   "0",          "--out",     out});
    std::printf("torchrun 1n2g: %.1f s\n", since(t0));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = summarize(out, 2, 10);
    ASSERT_EQ(j["runs"].size(), 1u);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["status"], "complete") << run.dump();
    EXPECT_EQ(run["topology"], "1n2g");
    EXPECT_EQ(run["speed_lines"], 20);
    // The workload tags its lines "[rankN]:" under torchrun: both ranks are told apart.
    EXPECT_TRUE(run["ranks_tagged"].get<bool>()) << run.dump();
    const std::string log = sv::test::readWhole(out + "/logs/local/pytorch-cpu/resnet50/bz2/1n2g/"
                                                      "r50_b2_fp32_1.log");
    EXPECT_NE(log.find("[rank0]:"), std::string::npos);
    EXPECT_NE(log.find("[rank1]:"), std::string::npos);
    EXPECT_NE(log.find("rank 1 of 2"), std::string::npos) << log.substr(0, 2000);
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
    std::filesystem::remove_all(dir);
}

namespace {

class TorchrunSsh : public sv::test::SshNodesTest {
  protected:
    TorchrunSsh() : SshNodesTest("torchrun-ssh") {}
    // 2n1g over node1 (127.0.0.1) and node2 (127.0.0.2), launched by torchrun on each.
    std::string campaign(const std::string& profile, int iterations) {
        json c;
        c["profile"] = profile;
        c["launcher"] = "torchrun";
        c["hosts"] = {{{"name", "node1"}, {"address", "127.0.0.1"}, {"gpus", 1}},
                      {{"name", "node2"}, {"address", "127.0.0.2"}, {"gpus", 1}}};
        c["topologies"] = {"2n1g"};
        c["batchSizes"] = {2};
        c["repeats"] = 1;
        c["iterations"] = iterations;
        c["warmup"] = 2;
        c["cooldownSeconds"] = 0;
        c["connectTimeoutSeconds"] = 3;
        c["graceSeconds"] = 2;
        c["wallTimeoutSeconds"] = 120;
        c["sshConfig"] = m_nodes->config();
        c["outputDir"] = m_dir + "/out";
        c["variables"] = {{"image_size", "32"}, {"master_port", sv::test::ownRendezvousPort()}};
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }
};

} // namespace

TEST_F(TorchrunSsh, TwoNodesEachStartTheirTorchrunAndTrainTogether) {
    const auto path = campaign("local-cpu-rn50", 10);
    const auto pre = runProcess({kCli, "preflight", path});
    EXPECT_EQ(pre.exitCode, 0) << pre.out << pre.err;
    EXPECT_NE(pre.out.find("node2: launcher: torchrun found"), std::string::npos) << pre.out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", path});
    std::printf("torchrun 2n1g over ssh: %.1f s\n", since(t0));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto j = summarize(m_dir + "/out", 2, 10);
    ASSERT_EQ(j["runs"].size(), 1u);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["status"], "complete") << run.dump();
    EXPECT_EQ(run["topology"], "2n1g");
    EXPECT_EQ(run["speed_lines"], 20);
    EXPECT_TRUE(run["ranks_tagged"].get<bool>());
    // The journal records both processes it started, node rank 0 on node1 and 1 on node2.
    const std::string journal = sv::test::readWhole(m_dir + "/out/journal.jsonl");
    const auto start = json::parse(journal.substr(0, journal.find('\n')));
    ASSERT_EQ(start["commands"].size(), 2u) << start.dump();
    const std::string second = start["commands"][1].dump();
    EXPECT_NE(second.find("node2"), std::string::npos);
    EXPECT_NE(second.find("--node_rank 1"), std::string::npos) << second;
}

TEST_F(TorchrunSsh, NodeFailingWhileTheOtherWaitsEndsTheRunAtOnceNamingIt) {
    // Rank 1 (node2) exits 3 at its first iteration; rank 0 (node1) would go on for a minute and
    // then hang: the run must not wait for it.
    const std::string profile = m_dir + "/fake-torchrun.json";
    std::ofstream(profile) << json{
        {"name", "fake-torchrun"},
        {"model", "r50"},
        {"logRoot", "logs/fake"},
        {"defaultLauncher", "torchrun"},
        {"launchers",
         {{"torchrun",
           {{"perNode", true},
            {"argv",
             {"torchrun", "--nnodes", "{nodes}", "--node_rank", "{node_rank}", "--nproc_per_node",
              "{gpus_per_node}", "--master_addr", "{master_addr}", "--master_port", "{master_port}",
              "--redirects", "9:1", "--tee", "9:1", "--no_python"}},
            {"failureMarker", "failed (exitcode: "}}}}},
        {"variables", {{"master_port", "29500"}}},
        {"program", {"/usr/bin/python3", sv::test::kFake}},
        {"args",
         {"--iterations", "{iterations}", "--interval", "0.1", "--fail-rank", "1", "--fail-at", "0",
          "--hang"}}}.dump(2);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runProcess({kCli, "run", campaign(profile, 600)});
    const double seconds = since(t0);
    std::printf("failing node ended the run in %.1f s\n", seconds);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    // Waiting for the other node would take at least 120 s: it runs 60 s, then hangs to the
    // campaign's 120 s limit. Ending on node2's failure takes seconds, or tens of seconds on a
    // loaded machine (48 s beside a parallel build), so the bound sits between the two.
    EXPECT_LT(seconds, 90.0);
    const auto e = sv::test::journalEnds(m_dir + "/out");
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0]["state"], "failed") << e[0].dump();
    EXPECT_EQ(e[0]["host"], "node2") << e[0].dump() << "\n" << r.out << r.err;
    const std::string reason = e[0]["reason"].get<std::string>();
    EXPECT_NE(reason.find("workers failed on node2"), std::string::npos) << reason;
    EXPECT_NE(reason.find("exitcode: 3"), std::string::npos) << reason;
    EXPECT_TRUE(e[0]["leftover"].empty());
}
