// Issue 28 on two loopback SSH "nodes" (sshnodes.h), from the command line: --exclude-node
// leaves a node out of every topology and the journal and campaign.json say why (a topology
// that then needs more nodes is refused, naming the node and the reason); --probes with
// --find-slow-node probes each node alone over SSH, then searches the 2-node case's nodes and
// records its verdict in the journal and its runs in probes.json.
#include "tests/launcher/cpuquota.h"
#include "tests/launcher/sshnodes.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>

using nlohmann::json;
using sv::test::kCli;
using sv::test::runProcess;

class SlowNodeSsh : public sv::test::SshNodesTest {
  protected:
    SlowNodeSsh() : SshNodesTest("slownodessh") {}
    std::string write(const std::string& topology, std::vector<std::string> more = {}) {
        json c;
        c["profile"] = "local-cpu-rn50";
        c["hosts"] = {{{"name", "node1"}, {"address", "127.0.0.1"}, {"gpus", 1}},
                      {{"name", "node2"}, {"address", "127.0.0.2"}, {"gpus", 1}}};
        c["topologies"] = {topology};
        for (const auto& t : more)
            c["topologies"].push_back(t);
        c["batchSizes"] = {16}; // 16 and up: PyTorch's fast path on one thread
        c["repeats"] = 1;
        c["iterations"] = 8;
        c["warmup"] = 2;
        c["cooldownSeconds"] = 0;
        c["connectTimeoutSeconds"] = 5;
        c["sshConfig"] = m_nodes->config();
        c["outputDir"] = m_dir + "/out";
        c["variables"] = {{"image_size", "32"}};
        const std::string path = m_dir + "/campaign.json";
        std::ofstream(path) << c.dump(2);
        return path;
    }
    std::vector<json> events(const std::string& event) const {
        std::vector<json> found;
        std::istringstream lines(sv::test::readWhole(m_dir + "/out/journal.jsonl"));
        for (std::string line; std::getline(lines, line);) {
            const auto j = json::parse(line, nullptr, false);
            if (j.is_object() && j.value("event", "") == event) found.push_back(j);
        }
        return found;
    }
};

TEST_F(SlowNodeSsh, ExcludedNodeIsLeftOutAndTheJournalSaysWhy) {
    // Two nodes needed, one left: refused before anything runs, naming the node and why.
    const auto refused = runProcess({kCli, "run", write("2n1g"), "--exclude-node", "node1",
                                     "--exclude-reason", "a hog on it"});
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_NE(refused.err.find("left out: node1, a hog on it"), std::string::npos) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(m_dir + "/out/journal.jsonl"));
    const auto typo = runProcess({kCli, "run", write("1n1g"), "--exclude-node", "node9"});
    EXPECT_EQ(typo.exitCode, 2);
    EXPECT_NE(typo.err.find("'node9' is not one of the campaign's hosts (node1, node2)"),
              std::string::npos)
        << typo.err;

    const auto r = runProcess({kCli, "run", write("1n1g"), "--exclude-node", "node1",
                               "--exclude-reason", "a hog on it"},
                              std::chrono::seconds(180));
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("node1 is left out of every topology: a hog on it"), std::string::npos)
        << r.err;
    const auto excluded = events("exclude");
    ASSERT_EQ(excluded.size(), 1u);
    EXPECT_EQ(excluded[0]["id"], "node1");
    EXPECT_EQ(excluded[0]["reason"], "a hog on it");
    const auto starts = events("start");
    ASSERT_EQ(starts.size(), 1u);
    EXPECT_EQ(starts[0]["hosts"], json::array({"node2"})); // the run went to node2
    const auto stored = json::parse(sv::test::readWhole(m_dir + "/out/campaign.json"));
    EXPECT_EQ(stored["hosts"].size(), 1u);
    EXPECT_EQ(stored["hosts"][0]["name"], "node2");
    ASSERT_EQ(stored["excludeNodes"].size(), 1u);
    EXPECT_EQ(stored["excludeNodes"][0]["name"], "node1");
    EXPECT_EQ(stored["excludeNodes"][0]["reason"], "a hog on it");
}

TEST_F(SlowNodeSsh, ProbesOverSshThenFindSlowNodeRecordsItsVerdict) {
    const auto r = runProcess({kCli, "run", write("2n1g"), "--probes", "--find-slow-node",
                               "--slow-threshold", "40"},
                              std::chrono::seconds(280));
    std::cout << r.out;
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    const auto probes = events("probes");
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0]["state"], "ok") << probes[0].dump();
    // Quiet nodes: none is named (40 %: beyond this loaded machine's noise between two probes
    // of one node, 12 % seen); the verdict says why, with the paces it compared.
    EXPECT_NE(r.out.find("find-slow-node: bz16/2n1g/r50_b16_fp32: 2 nodes, against"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("the median of 2 nodes' solo paces in probes.json"), std::string::npos);
    const auto verdicts = events("slow-node");
    ASSERT_EQ(verdicts.size(), 1u);
    const std::string verdict = verdicts[0]["verdict"];
    EXPECT_TRUE(verdict == "not-slow" || verdict == "needs-interconnect") << verdicts[0].dump();
    EXPECT_NE(verdicts[0]["why"].get<std::string>().find("per device"), std::string::npos);
    // probes.json: each node alone (the case's probes) and the all-reduce.
    const auto file = json::parse(sv::test::readWhole(m_dir + "/out/probes.json"));
    int solo = 0, allreduce = 0;
    std::set<std::string> nodes;
    for (const auto& p : file["probes"]) {
        solo += p["kind"] == "solo";
        allreduce += p["kind"] == "allreduce";
        if (p["kind"] == "solo") nodes.insert(p["node"].get<std::string>());
    }
    EXPECT_EQ(allreduce, 1);
    EXPECT_EQ(solo, 2); // the search's runs add no second record of a node the probes had
    EXPECT_EQ(nodes, (std::set<std::string>{"node1", "node2"}));
}


// Issue 28's "made k % slower": node2's sshd, and so every session and rank it starts, is held
// to 35 % of a CPU by the kernel (CFS bandwidth control), and a real campaign runs 1n1g on node1
// and 2n1g with --probes. The 2-node case waits for node2 at every step: the breakdown puts
// about 65 points of its loss in the slowest-node part (node2 alone against node1 alone), not
// in the device-slowdown part (node1 alone against the 1n1g case), and slow_nodes names node2.
// (Half a CPU left too little margin: node2 at its quota keeps its pace when the machine slows,
// node1 does not, and twice in a day the whole machine ran a third slower unseen by the
// monitor and node2 came out only 32-34 % slower.)
// SCALEVIEW_TEST_KEEP_CAMPAIGN=DIR keeps a copy of the campaign (docs/screenshots comes from
// one).
TEST_F(SlowNodeSsh, ANodeMadeSlowIsTheSlowestNodePartNotDeviceSlowdown) {
    sv::test::CpuQuota quota(35);
    if (!quota.skipReason().empty()) GTEST_SKIP() << quota.skipReason();
    ASSERT_TRUE(quota.add(m_nodes->sshdPid(1)));
    // One repeat of each case: the parts' intervals come from the probes' paces (their steps),
    // and the 1n1g pace is the one run's.
    const std::string campaign = write("1n1g", {"2n1g"});
    auto r = runProcess({kCli, "run", campaign, "--probes"}, std::chrono::seconds(400));
    std::cout << r.out;
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    // The paces below are judged against a quiet machine. Where the campaign's own monitor found
    // it was not (something else took the CPU: node1 slows, node2 stays at its quota, and the
    // gap shrinks), the figures are the product's "not reliable": measured once more, afresh.
    // (Seen once in a whole-suite run: every run's pace a third below the quiet one, node2
    // 32 % slower.)
    bool disturbed = false;
    for (const auto& end : sv::test::journalEnds(m_dir + "/out"))
        disturbed = disturbed || end.value("disturbed", false);
    if (disturbed) {
        std::cout << "a run was disturbed: the campaign runs once more\n";
        std::filesystem::remove_all(m_dir + "/out");
        r = runProcess({kCli, "run", campaign, "--probes"}, std::chrono::seconds(400));
        std::cout << r.out;
        ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    }
    if (const char* keep = std::getenv("SCALEVIEW_TEST_KEEP_CAMPAIGN"))
        std::filesystem::copy(m_dir + "/out", keep, std::filesystem::copy_options::recursive);
    const auto s = runProcess({kCli, "summarize", m_dir + "/out", "--format", "json"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const json j = json::parse(s.out);
    const json* twoNodes = nullptr;
    for (const auto& cs : j["cases"])
        if (cs["topology"] == "2n1g") twoNodes = &cs;
    ASSERT_TRUE(twoNodes) << s.out;
    const json& loss = (*twoNodes)["scaling_loss"];
    std::map<std::string, json> parts;
    for (const auto& p : loss["parts"])
        parts[p["kind"].get<std::string>()] = p;
    std::cout << loss.dump(2) << "\n" << (*twoNodes)["slow_nodes"].dump(2) << "\n";
    ASSERT_TRUE(parts.count("slowest-node") && parts.count("device-slowdown")) << loss.dump(2);
    const double slowest = parts["slowest-node"]["pct"];
    const double device = parts["device-slowdown"]["pct"];
    // 35 % of a CPU makes node2 about 64 % slower than the median node here (26 against 73 per
    // device, twice). The parts are points of the 1-device case's pace, and the median node
    // alone is itself (100 - device) % of it (the 1n1g runs and the probes ran minutes apart),
    // so the slowest-node part's interval meets k x (1 - device / 100) points for a k between
    // 40 and 85. The device-slowdown part, node1 alone against the 1n1g case, does not carry it.
    ASSERT_TRUE(parts["slowest-node"]["ci95"].is_array()) << loss.dump(2);
    const double ofMedian = 1.0 - device / 100.0;
    EXPECT_LE(parts["slowest-node"]["ci95"][0].get<double>(), 85.0 * ofMedian) << loss.dump(2);
    EXPECT_GE(parts["slowest-node"]["ci95"][1].get<double>(), 40.0 * ofMedian) << loss.dump(2);
    EXPECT_GT(slowest, 30.0 * ofMedian) << loss.dump(2);
    EXPECT_LT(device, 25.0) << loss.dump(2);
    EXPECT_GT(slowest, device + 15.0) << loss.dump(2);
    ASSERT_EQ((*twoNodes)["slow_nodes"].size(), 1u) << s.out;
    EXPECT_EQ((*twoNodes)["slow_nodes"][0]["node"], "node2");
    const double slowerPct = (*twoNodes)["slow_nodes"][0]["slower_pct"];
    // node2 alone against node1 alone, minutes apart at most: near what the quota leaves.
    EXPECT_GT(slowerPct, 35.0);
    EXPECT_LT(slowerPct, 85.0);
    // The whole loss is the logs' own, whatever the parts: 100 x (1 - efficiency).
    EXPECT_GT(loss["total_pct"].get<double>(), 25.0) << loss.dump(2);
}
