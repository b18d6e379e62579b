// scaleview-cli compare: what changed beside each verdict, on generated campaigns (logs,
// campaign.json and the environment the launcher captures) and on logs from elsewhere (their
// format, window and parameter dumps): the JSON pair's "changed", the table's and Markdown's lines, the CSV
// column, the HTML report's list.

#include "tests/support/formatlogs.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace sv::test;

namespace {

ProcessResult cliRun(std::vector<std::string> args) {
    args.insert(args.begin(), SCALEVIEW_CLI);
    return runProcess(args);
}

struct Machine {
    std::string driver = "535.104.05";
    std::string image = "sha256:6f1c3a9e27b4";
    int warmup = 20;
};

// A host's file as the launcher's environment capture writes it.
std::string capture(const std::string& host, const Machine& m) {
    return "ScaleView 0.1.0\nprofile ngc-mxnet-rn50: NGC MXNet\n== hostname\n" + host +
           "\n== kernel\nLinux " + host + " 6.1.0\n== cpus\n64\n== nvidia-smi -q\n\n"
           "Driver Version                            : " + m.driver +
           "\nCUDA Version                              : 12.4\n\nAttached GPUs : 8\n"
           "GPU 00000000:18:00.0\n    Product Name                          : NVIDIA "
           "A100-SXM4-80GB\n== container image nvcr.io/nvidia/mxnet:24.03-py3 (id, repo digests)\n" +
           m.image + " [\"nvcr.io/nvidia/mxnet@sha256:2b7e\"]\n== docker server version\n24.0.7\n"
                     "== mpirun\nmpirun (Open MPI) 4.1.4\n";
}

// A campaign as the launcher leaves it: OUT/campaign.json, OUT/environment/, OUT/logs/ (1n1g
// and 1n2g, five repeats each).
void writeCampaign(const std::filesystem::path& out, const Machine& m) {
    const int steps[] = {1000, 1008, 995, 1004, 992};
    for (int p = 0; p < 5; ++p)
        for (auto [topo, ranks] : {std::pair{"1n1g", 1}, std::pair{"1n2g", 2}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.stepMs = steps[p];
            const double rate = 1000.0 * 64 * ranks / static_cast<double>(spec.stepMs);
            writeFile(out / "logs" / topo / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                      makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
        }
    writeFile(out / "campaign.json",
              "{\"profile\": \"ngc-mxnet-rn50\", \"warmup\": " + std::to_string(m.warmup) +
                  ", \"iterations\": 120, \"hosts\": [{\"name\": \"node1\", \"gpus\": 8}]}\n");
    writeFile(out / "environment" / "20261130-101010-node1.txt", capture("node1", m));
}

nlohmann::json compareJson(const std::filesystem::path& a, const std::filesystem::path& b) {
    const auto r = cliRun({"compare", a.string(), b.string(), "--format", "json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

bool hasChange(const nlohmann::json& changed, const std::string& what, const std::string& a,
               const std::string& b) {
    for (const auto& c : changed)
        if (c["what"] == what && c["a"] == a && c["b"] == b) return true;
    return false;
}

} // namespace

TEST(CliCompareChanged, ADriverAndImageUpgradeIsInEveryPairOfTheJsonAndTheTable) {
    TempDir dir;
    writeCampaign(dir / "before", Machine{});
    writeCampaign(dir / "after", Machine{"550.54.14", "sha256:9d8e7f6a5b4c", 20});
    const auto j = compareJson(dir / "before", dir / "after" );
    ASSERT_EQ(j["cases"].size(), 2u);
    for (const auto& c : j["cases"]) {
        // The pair's flat fields (second series against the first) and "comparisons".
        for (const auto* changed : {&c["changed"], &c["comparisons"][0]["changed"]}) {
            ASSERT_EQ(changed->size(), 2u) << c.dump();
            EXPECT_TRUE(hasChange(*changed, "driver", "535.104.05", "550.54.14")) << c.dump();
            EXPECT_TRUE(
                hasChange(*changed, "container_image", "sha256:6f1c3a9e27b4", "sha256:9d8e7f6a5b4c"))
                << c.dump();
        }
    }
    const auto t = cliRun({"compare", (dir / "before" ).string(),
                           (dir / "after" ).string(), "--label", "monday", "--label",
                           "tuesday"});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("what changed, tuesday against monday: driver 535.104.05 -> 550.54.14; "
                         "container_image sha256:6f1c3a9e27b4 -> sha256:9d8e7f6a5b4c\n"),
              std::string::npos)
        << t.out;
    EXPECT_EQ(t.out.find("nothing recorded changed"), std::string::npos) << t.out;
    // CSV: a column per pair; Markdown: the same line under the table.
    const auto csv = cliRun({"compare", (dir / "before" ).string(),
                             (dir / "after" ).string(), "--format", "csv"});
    EXPECT_NE(csv.out.find("changed after/before"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find("driver 535.104.05 -> 550.54.14"), std::string::npos) << csv.out;
    const auto md = cliRun({"compare", (dir / "before" ).string(),
                            (dir / "after" ).string(), "--format", "markdown"});
    EXPECT_NE(md.out.find("- what changed, after against before: driver"), std::string::npos)
        << md.out;
}

TEST(CliCompareChanged, IdenticalCampaignsChangeNothingAndTheTableSaysSo) {
    TempDir dir;
    writeCampaign(dir / "monday", Machine{});
    writeCampaign(dir / "tuesday", Machine{});
    const auto j = compareJson(dir / "monday", dir / "tuesday" );
    ASSERT_EQ(j["cases"].size(), 2u);
    for (const auto& c : j["cases"]) {
        ASSERT_TRUE(c["changed"].is_array()) << c.dump();
        EXPECT_TRUE(c["changed"].empty()) << c.dump();
        EXPECT_TRUE(c["comparisons"][0]["changed"].empty()) << c.dump();
    }
    const auto t = cliRun(
        {"compare", (dir / "monday" ).string(), (dir / "tuesday" ).string()});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("what changed, tuesday against monday: nothing recorded changed\n"),
              std::string::npos)
        << t.out;
}

TEST(CliCompareChanged, TheCampaignsOwnWindowIsAChange) {
    TempDir dir;
    writeCampaign(dir / "a", Machine{});
    Machine shorter;
    shorter.warmup = 10;
    writeCampaign(dir / "b", shorter);
    const auto j = compareJson(dir / "a", dir / "b" );
    for (const auto& c : j["cases"]) {
        ASSERT_EQ(c["changed"].size(), 1u) << c.dump();
        EXPECT_TRUE(hasChange(c["changed"], "warmup", "20", "10")) << c.dump();
    }
}

TEST(CliCompareChanged, LogsFromElsewhereCarryTheirFormatAndWindow) {
    // An NGC MXNet tree and a TensorFlow 2 one meet at r50 fp32 bs128 1n1g: no environment was
    // captured for either, so what differs is what their logs record: format and window.
    TempDir dir;
    for (int p = 0; p < 3; ++p) {
        RunSpec spec;
        spec.stepMs = 1000 + 5 * p;
        const double rate = 128000.0 / static_cast<double>(spec.stepMs);
        writeFile(dir / "mxnet" / "1n1g" / ("r50_b128_fp32_" + std::to_string(p + 1) + ".log"),
                  makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
    }
    writeTf2Rn50Tree(dir / "tf2");
    const auto j = compareJson(dir / "mxnet", dir / "tf2");
    const nlohmann::json* oneGpu = nullptr;
    for (const auto& c : j["cases"])
        if (c["topology"] == "1n1g") oneGpu = &c;
    ASSERT_NE(oneGpu, nullptr) << j.dump(1);
    const auto& changed = (*oneGpu)["changed"];
    bool format = false;
    for (const auto& c : changed)
        if (c["what"] == "format" && c["a"] == "ngc-mxnet" && c["b"] != "ngc-mxnet") format = true;
    EXPECT_TRUE(format) << changed.dump();
    EXPECT_TRUE(hasChange(changed, "warmup", "20", std::to_string(100))) << changed.dump();
    for (const auto& c : changed)
        EXPECT_NE(c["what"], "driver") << "nothing captured on either side: " << changed.dump();
}

// Logs from elsewhere: their parameter dumps are their environment. Two trees whose Namespace
// lines differ in lr and kv_store show those two as changed, under "log."; the seed, which
// differs between the repeats of each side, is no change; two trees that agree show none.
void writeNamespaceTree(const std::filesystem::path& dir, const std::string& lr,
                        const std::string& kvStore) {
    for (int p = 0; p < 3; ++p) {
        RunSpec spec;
        spec.stepMs = 1000 + 5 * p;
        const double rate = 128000.0 / static_cast<double>(spec.stepMs);
        std::string log = makeLog(spec, [rate](int, int) { return std::to_string(rate); });
        const std::string dump = "Namespace(arch='resnetv15', batch_size=256)";
        log.replace(log.find(dump), dump.size(),
                    "Namespace(arch='resnetv15', batch_size=128, kv_store='" + kvStore +
                        "', lr=" + lr + ", seed=" + std::to_string(17 + p) + ")");
        writeFile(dir / "1n1g" / ("r50_b128_fp32_" + std::to_string(p + 1) + ".log"), log);
    }
}

TEST(CliCompareChanged, LogsFromElsewhereCarryTheParametersTheirDumpsState) {
    TempDir dir;
    writeNamespaceTree(dir / "a", "0.256", "horovod");
    writeNamespaceTree(dir / "b", "0.512", "device");
    writeNamespaceTree(dir / "c", "0.256", "horovod");
    const auto changedAt1n1g = [](const nlohmann::json& j) {
        for (const auto& c : j["cases"])
            if (c["topology"] == "1n1g") return c["changed"];
        return nlohmann::json();
    };
    const auto changed = changedAt1n1g(compareJson(dir / "a", dir / "b"));
    EXPECT_TRUE(hasChange(changed, "log.lr", "0.256", "0.512")) << changed.dump();
    EXPECT_TRUE(hasChange(changed, "log.kv_store", "horovod", "device")) << changed.dump();
    for (const auto& c : changed)
        EXPECT_NE(c["what"], "log.seed") << "differs within each side: " << changed.dump();
    const auto same = changedAt1n1g(compareJson(dir / "a", dir / "c"));
    for (const auto& c : same)
        EXPECT_NE(c["what"].get<std::string>().rfind("log.", 0), 0u) << same.dump();
    // The table says it too, beside the verdict.
    const auto table = cliRun({"compare", (dir / "a").string(), (dir / "b").string()});
    EXPECT_NE(table.out.find("log.lr 0.256 -> 0.512"), std::string::npos) << table.out;
}

TEST(CliCompareChanged, TheReportListsWhatChangedUnderTheComparison) {
    TempDir dir;
    writeCampaign(dir / "before", Machine{});
    writeCampaign(dir / "after", Machine{"550.54.14", "sha256:6f1c3a9e27b4", 20});
    const auto out = dir / "report.md";
    const auto r = cliRun({"report", (dir / "before" ).string(),
                           (dir / "after" ).string(), "--output", out.string(), "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string md = readWhole(out);
    EXPECT_NE(md.find("- what changed, after against before: driver 535.104.05 -> 550.54.14\n"),
              std::string::npos)
        << md;
}
