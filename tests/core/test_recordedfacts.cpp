// What a compared side recorded (core/compare/recordedfacts.h, environmentsummary.h): the
// launcher's environment files and campaign.json read into named facts, and their difference.

#include "core/compare/recordedfacts.h"
#include "core/load/campaignrecords.h"
#include "core/load/rundisturbance.h"
#include "core/stats/scalingloss.h"
#include "tests/support/files.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

using namespace sv;

namespace {

std::string valueOf(const RecordedFacts& facts, const std::string& what) {
    for (const auto& f : facts)
        if (f.what == what) return f.value;
    return "(absent)";
}

} // namespace

TEST(RecordedFacts, CapturedFilesGiveTheEnvironmentAndTheCampaignsSettings) {
    const std::vector<ReportFile> files = {
        {"campaign.json",
         R"({"profile": "pytorch-rn50", "launcher": "torchrun", "repeats": 5,
             "container": {"runtime": "docker", "image": "nvcr.io/nvidia/pytorch:24.03-py3"},
             "variables": {"NCCL_IB_DISABLE": "1", "python": "python3"}})"},
        {"environment/20261130-101010-node1.txt",
         "== hostname\nnode1\n== nvidia-smi -q\nDriver Version : 550.54.14\nCUDA Version : 12.4\n"
         "    Product Name : NVIDIA H100 80GB HBM3\n== python\n3.11.2 (main)\ntorch 2.3.0\n"
         "== mpirun\nmpirun (Open MPI) 4.1.4\n== container image x (id, repo digests)\n"
         "sha256:abc [\"x@sha256:def\"]\n"},
        {"environment/20261130-101010-node2.txt",
         "== hostname\nnode2\n== mpirun\nsh: 1: mpirun: not found\n"}};
    const RecordedFacts facts = capturedFacts(files);
    EXPECT_EQ(valueOf(facts, "driver"), "550.54.14");
    EXPECT_EQ(valueOf(facts, "cuda"), "12.4");
    EXPECT_EQ(valueOf(facts, "gpu_model"), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(valueOf(facts, "container_image"), "sha256:abc");
    EXPECT_EQ(valueOf(facts, "framework"), "torch 2.3.0");
    EXPECT_EQ(valueOf(facts, "mpi"), "mpirun (Open MPI) 4.1.4"); // "not found" is no version
    EXPECT_EQ(valueOf(facts, "hosts"), "node1 node2");
    EXPECT_EQ(valueOf(facts, "profile"), "pytorch-rn50");
    EXPECT_EQ(valueOf(facts, "launcher"), "torchrun");
    EXPECT_EQ(valueOf(facts, "campaign_image"), "nvcr.io/nvidia/pytorch:24.03-py3");
    EXPECT_EQ(valueOf(facts, "repeats"), "5");
    EXPECT_EQ(valueOf(facts, "variables.NCCL_IB_DISABLE"), "1");
    EXPECT_TRUE(campaignSettingsFacts("not json").empty());
}

TEST(RecordedFacts, DiffNamesWhatDiffersInOrderAndWhatOnlyOneSideRecorded) {
    const RecordedFacts a = {{"driver", "535"}, {"hosts", "n1"}, {"variables.NCCL_ALGO", "Ring"}};
    const RecordedFacts b = {{"driver", "550"}, {"hosts", "n1"}, {"variables.NCCL_PROTO", "LL"}};
    const auto d = diffFacts(a, b);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0], (EnvironmentChange{"driver", "535", "550"}));
    EXPECT_EQ(d[1], (EnvironmentChange{"variables.NCCL_ALGO", "Ring", ""}));
    EXPECT_EQ(d[2], (EnvironmentChange{"variables.NCCL_PROTO", "", "LL"}));
    EXPECT_TRUE(diffFacts(a, a).empty());
    EXPECT_EQ(describeChanges(d), "driver 535 -> 550; variables.NCCL_ALGO Ring -> (none); "
                                  "variables.NCCL_PROTO (none) -> LL");
}

// Issue 37's polish: What changed listed "(none) -> value" for every parameter one side's logs
// print. Those are named together; a parameter both print that changed keeps its values.
TEST(RecordedFacts, LogParametersOnlyOneSidePrintsAreNamedTogether) {
    const RecordedFacts a = {{"driver", "535"}, {"log.lr", "0.1"}};
    const RecordedFacts b = {{"driver", "535"},       {"log.lr", "0.2"},  {"log.wd", "1e-4"},
                             {"log.momentum", "0.9"}, {"log.seed", "42"}, {"log.epochs", "90"},
                             {"log.workers", "8"}};
    const std::string said = describeChanges(diffFacts(a, b));
    EXPECT_EQ(said, "log.lr 0.1 -> 0.2; 5 log parameters only one side prints: wd, momentum, "
                    "seed, epochs and 1 more");
    EXPECT_EQ(said.find("(none)"), std::string::npos) << said;
    EXPECT_EQ(describeChanges(diffFacts({{"log.wd", "1e-4"}}, {})),
              "a log parameter only one side prints: wd");
}

TEST(RecordedFacts, ACaseRecordsItsFormatAndTheWindowItWasMeasuredOver) {
    MeasureOptions chosen{10, 100};
    auto facts = caseFacts("ngc-mxnet", chosen);
    EXPECT_EQ(valueOf(facts, "format"), "ngc-mxnet");
    EXPECT_EQ(valueOf(facts, "warmup"), "10");
    EXPECT_EQ(valueOf(facts, "iterations"), "100");
    MeasureOptions defaults;
    defaults.formatDefaults = true; // each format's DLPerf window
    facts = caseFacts("ngc-mxnet", defaults);
    EXPECT_EQ(valueOf(facts, "warmup"), "20");
    EXPECT_EQ(valueOf(facts, "iterations"), "120");
    EXPECT_TRUE(caseFacts("", std::nullopt).empty());
}

namespace {

std::vector<std::string> namesOf(const std::vector<ReportFile>& files) {
    std::vector<std::string> out;
    for (const auto& f : files)
        out.push_back(f.name);
    return out;
}

} // namespace

// Issue 36 item 12: a report embeds the records of the campaign the folder belongs to, never the
// environment files of another tree a few folders above it.
TEST(RecordedFacts, OnlyTheCampaignTheFolderBelongsToIsEmbedded) {
    sv::test::TempDir tmp;
    const std::filesystem::path top = tmp.path();
    // Someone else's campaign two folders above the logs a user names: not a launcher campaign
    // holding them in its logs/, so none of it is theirs.
    sv::test::writeFile(top / "campaign.json", R"({"warmup": 100, "iterations": 200})");
    sv::test::writeFile(top / "environment/secret-host.txt", "== hostname\nsecret\n");
    const std::filesystem::path logs = top / "team/logs-a";
    sv::test::writeFile(logs / "r50.log", "not a log\n");
    EXPECT_TRUE(capturedFiles(logs).empty())
        << ::testing::PrintToString(namesOf(capturedFiles(logs)));

    // The launcher's campaign: OUT/campaign.json names a profile and OUT/logs/... holds the logs;
    // opened at the leaf, its campaign.json and environment are found.
    const std::filesystem::path out = top / "campaign-1";
    sv::test::writeFile(out / "campaign.json",
                        R"({"profile": "local-cpu-rn50", "warmup": 2, "iterations": 10})");
    sv::test::writeFile(out / "environment/20261205-node1.txt", "== hostname\nnode1\n");
    const std::filesystem::path leaf = out / "logs/local/pytorch-cpu/resnet50";
    sv::test::writeFile(leaf / "1n1g/r50_b8_fp32_1.log", "x\n");
    EXPECT_EQ(namesOf(capturedFiles(leaf)),
              (std::vector<std::string>{"campaign.json", "environment/20261205-node1.txt"}));

    // A folder's own campaign.json and environment/ are its own.
    EXPECT_EQ(namesOf(capturedFiles(top)),
              (std::vector<std::string>{"campaign.json", "environment/secret-host.txt"}));
}

// Issue 37 item 2: a campaign's records (probes, journal, campaign file) are found by one rule
// from whichever of its folders is opened: the app shows the Run tab's campaign at its leaf logs
// folder, and the CLI and a report may be given any of them.
TEST(RecordedFacts, ACampaignsRecordsAreFoundFromAnyOfItsFolders) {
    namespace fs = std::filesystem;
    sv::test::TempDir tmp;
    const fs::path out = tmp.path() / "campaign-1";
    sv::test::writeFile(out / "campaign.json", R"({"profile": "local-cpu-rn50"})");
    sv::test::writeFile(
        out / "journal.jsonl",
        R"({"event": "end", "id": "bz4/2n1g/r50_b4_fp32_1", "state": "ok", "disturbed": true, )"
        R"("log": "/gone/logs/local/pytorch-cpu/resnet50/bz4/2n1g/r50_b4_fp32_1.log", )"
        R"("evidence": ["load average 3.0 on node2"]})"
        "\n");
    sv::test::writeFile(out / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "2n1g", "node": "node1", "devices": 1, "pace_per_device": 7.0,
   "pace_samples": [6.9, 7.0, 7.1]}]})");
    const fs::path logs = out / "logs/local/pytorch-cpu/resnet50";
    sv::test::writeFile(logs / "bz4/2n1g/r50_b4_fp32_1.log", "x\n");
    for (const fs::path& opened : {out, logs, logs / "bz4", logs / "bz4/2n1g/"}) {
        EXPECT_EQ(campaignRecordsFolder(opened), out) << opened;
        const ProbeFile probes = readCampaignProbes(opened);
        EXPECT_EQ(probes.records.size(), 1u) << opened << " " << probes.error;
        const RunDisturbances d = readRunDisturbances(opened);
        EXPECT_EQ(d.journal, (out / "journal.jsonl").string()) << opened;
        EXPECT_EQ(d.byLog.size(), 1u) << opened;
    }
    EXPECT_EQ(campaignRecordsFolder(logs / "bz4/2n1g/r50_b4_fp32_1.log"), out);

    // Records of another tree a few folders up (no launcher campaign holding these logs in its
    // logs/) are not these logs': the folder's own, which are none.
    sv::test::writeFile(tmp.path() / "campaign.json", R"({"warmup": 1, "iterations": 2})");
    sv::test::writeFile(tmp.path() / "probes.json", R"({"probes": []})");
    sv::test::writeFile(tmp.path() / "journal.jsonl", "");
    const fs::path mine = tmp.path() / "team/a/logs-b";
    sv::test::writeFile(mine / "r50.log", "x\n");
    EXPECT_EQ(campaignRecordsFolder(mine), mine);
    EXPECT_TRUE(readRunDisturbances(mine).journal.empty());
    EXPECT_TRUE(readCampaignProbes(mine).path.empty());
}
