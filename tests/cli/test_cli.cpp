// scaleview-cli as a user runs it: a real process on real generated log directories.

#include "tests/support/files.h"
#include "tests/support/dllwriter.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace sv::test;

namespace {

// 1n1g and 1n2g, three repeats each, batch 64, timestamps and speeds chosen so both methods
// are known: iteration k of repeat p ends at (k + 1) * step(p); every rank reports 'speed'.
void writeCampaign(const std::filesystem::path& root, const std::string& precision = "fp32",
                   int batch = 64) {
    const int steps1[] = {800, 820, 790}; // 1n1g: 64 / 0.8 s = 80 images/s, ...
    const int steps2[] = {850, 860, 840}; // 1n2g: 128 / 0.85 s
    for (int p = 0; p < 3; ++p) {
        for (auto [topo, ranks, step] :
             {std::tuple{"1n1g", 1, steps1[p]}, std::tuple{"1n2g", 2, steps2[p]}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.stepMs = step;
            const double rate = 1000.0 * batch * ranks / step;
            writeFile(root / "bz64" / topo /
                          ("r50_b" + std::to_string(batch) + "_" + precision + "_" +
                           std::to_string(p + 1) + ".log"),
                      makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
        }
    }
}

} // namespace

TEST(Cli, DlperfFormatGolden) {
    TempDir dir;
    writeCampaign(dir.path());
    const auto r = cli({"summarize", dir.path().string(), "--format", "dlperf"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    // 1n1g: 64/0.8 = 80, 64/0.82 = 78.05, 64/0.79 = 81.01 -> mean 79.69, median 80.0
    // 1n2g: 128/0.85 = 150.59, 128/0.86 = 148.84, 128/0.84 = 152.38 -> mean 150.6, median 150.59
    EXPECT_EQ(r.out, "{\"r50\": {\"1n1g\": {\"average_speed\": 79.69, \"batch_size_per_device\": "
                     "64, \"median_speed\": 80.0, \"speedup\": 1.0}, "
                     "\"1n2g\": {\"average_speed\": 150.6, \"batch_size_per_device\": 64, "
                     "\"median_speed\": 150.59, \"speedup\": 1.88}}}\n");
    EXPECT_EQ(r.err, "");
}

TEST(Cli, SpeedMethodReadsTheSpeedColumn) {
    TempDir dir;
    writeCampaign(dir.path());
    const auto r =
        cli({"summarize", dir.path().string(), "--format", "dlperf", "--method", "speed"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"1n1g\": {\"average_speed\": 79.69"), std::string::npos) << r.out;
}

TEST(Cli, TableIsTheDefaultFormat) {
    TempDir dir;
    writeCampaign(dir.path());
    const auto r = cli({"summarize", dir.path().string()});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(
        r.out.find("NGC MXNet  r50  fp32  batch 64 per GPU  (throughput in images/s, time method)"),
        std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("speedup"), std::string::npos);
}

TEST(Cli, WarningsNameTheFileAndStrictExitsOne) {
    TempDir dir;
    writeCampaign(dir.path());
    std::string partial = readWhole(dir / "bz64/1n2g/r50_b64_fp32_3.log");
    partial.resize(partial.size() / 3);
    std::filesystem::remove(dir / "bz64/1n2g/r50_b64_fp32_3.log");
    writeFile(dir / "bz64/1n2g/r50_b64_fp32_3.log", partial);
    writeFile(dir / "stray/r50_b64_fp32_9.log", "x\n");

    auto r = cli({"summarize", dir.path().string(), "--format", "csv"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.err.find("warning: bz64/1n2g/r50_b64_fp32_3.log: incomplete: found "),
              std::string::npos)
        << r.err;
    // A file outside DLPerf's layout that holds no throughput line: counted, not warned about.
    EXPECT_EQ(r.err.find("stray/r50_b64_fp32_9.log"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("note: read 7 files: 6 throughput logs, 1 other file skipped"),
              std::string::npos)
        << r.err;
    // The incomplete run is excluded, not counted as 0: the 1n2g median is of the two others.
    EXPECT_NE(r.out.find("\nr50,fp32,64,1,2,2,time,2,1,"), std::string::npos) << r.out;
    r = cli({"summarize", dir.path().string(), "--strict"});
    EXPECT_EQ(r.exitCode, 1);
}

TEST(Cli, UsageErrorsExitTwo) {
    TempDir dir;
    writeCampaign(dir.path());
    EXPECT_EQ(cli({"summarize"}).exitCode, 2);
    EXPECT_EQ(cli({"summarize", dir.path().string(), "--method", "fast"}).exitCode, 2);
    EXPECT_EQ(cli({"summarize", dir.path().string(), "--warmup", "0"}).exitCode, 2);
    EXPECT_EQ(
        cli({"summarize", dir.path().string(), "--warmup", "50", "--iterations", "40"}).exitCode,
        2);
    EXPECT_EQ(cli({"summarize", dir.path().string(), "--format", "xml"}).exitCode, 2);
    EXPECT_EQ(cli({"summarize", dir.path().string(), "--bogus"}).exitCode, 2);
    EXPECT_EQ(cli({"summarize", dir.path().string(), "--reference", "nope"}).exitCode, 2);
    EXPECT_EQ(cli({"frobnicate"}).exitCode, 2);
    const auto missing = cli({"summarize", "/nonexistent/logs"});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("/nonexistent/logs: no such directory"), std::string::npos);
}

// A typo in --iterations must neither ask for gigabytes nor fail oddly: one bound for every
// command, and the analyzer keeps per-iteration state only for the iterations a log holds.
TEST(Cli, HugeIterationsCostNothingOnASmallLog) {
    TempDir dir;
    RunSpec spec;
    spec.ranks = 16; // 16n1g: per-iteration state is kept per node
    spec.iterations = 5;
    writeFile(dir / "16n1g/r50_b64_fp32_1.log",
              makeLog(spec, [](int, int) { return std::string("100.0"); }));
    const std::string root = dir.path().string();
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizer build (make asan) builds the CLI without scaleview-plot, which plot execs,
    // and ASan's shadow memory and quarantine (freed blocks kept, up to 256 MiB) add to the peak:
    // 181 MiB measured once user formats and content detection came in. The bound that follows
    // the iterations is the plain build's 64 MiB; 16 M iterations held would be gigabytes.
    const std::vector<const char*> commands{"summarize"};
    const long rssLimitKiB = 256 * 1024;
#else
    const std::vector<const char*> commands{"summarize", "plot"};
    const long rssLimitKiB = 64 * 1024;
#endif
    for (const char* command : commands) {
        const auto tooMany = cli(
            {command, root, "--output", (dir / "x.png").string(), "--iterations", "2000000000"});
        EXPECT_EQ(tooMany.exitCode, 2) << command;
        EXPECT_NE(tooMany.err.find(
                      "--iterations must be a whole number from 2 to 1000000, not '2000000000'"),
                  std::string::npos)
            << command << ": " << tooMany.err;
        const auto warmup =
            cli({command, root, "--output", (dir / "x.png").string(), "--warmup", "5000000"});
        EXPECT_EQ(warmup.exitCode, 2) << command;
        EXPECT_NE(
            warmup.err.find("--warmup must be a whole number from 1 to 999999, not '5000000'"),
            std::string::npos)
            << command << ": " << warmup.err;
    }
    // The largest window allowed, on a 5-iteration log: an incomplete run, read in a few MiB
    // (and no usable run: exit 2, the JSON still says why).
    const auto r =
        cli({"summarize", root, "--iterations", "1000000", "--format", "json", "--threads", "1"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_NE(r.out.find("found 80 of 16000000 speed lines"), std::string::npos) << r.out;
    EXPECT_LT(r.peakRssKiB, rssLimitKiB) << "peak RSS " << r.peakRssKiB << " KiB";
}

TEST(Cli, NothingToSummarizeExitsTwo) {
    TempDir dir;
    writeFile(dir / "notes.txt", "hello\n");
    const auto r = cli({"summarize", dir.path().string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("no throughput logs"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("read 1 file: 0 throughput logs, 1 other file skipped"), std::string::npos)
        << r.err;
}

TEST(Cli, DlperfRefusesMixedPrecisionsAndNamesThem) {
    TempDir dir;
    writeCampaign(dir.path(), "fp32");
    writeCampaign(dir.path(), "fp16");
    auto r = cli({"summarize", dir.path().string(), "--format", "dlperf"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("holds precisions fp16 fp32: choose with --precision"), std::string::npos)
        << r.err;
    r = cli({"summarize", dir.path().string(), "--format", "dlperf", "--precision", "fp16"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"median_speed\": 80.0"), std::string::npos);
}

TEST(Cli, OutputFileAndJson) {
    TempDir dir;
    writeCampaign(dir.path());
    const auto out = dir / "result.json";
    const auto r =
        cli({"summarize", dir.path().string(), "--format=json", "--output", out.string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "");
    const std::string j = readWhole(out);
    EXPECT_NE(j.find("\"throughput_speed\""), std::string::npos);
    EXPECT_NE(j.find("\"cases\""), std::string::npos);
    EXPECT_NE(j.find("\"warmup\": 20"), std::string::npos);
}

TEST(Cli, VersionAndHelp) {
    const auto v = cli({"--version"});
    EXPECT_EQ(v.exitCode, 0);
    EXPECT_EQ(v.out.rfind("scaleview-cli 0.1.0 (git ", 0), 0u) << v.out;
    const auto h = cli({"--help"});
    EXPECT_EQ(h.exitCode, 0);
    EXPECT_NE(h.out.find("--format table|csv|json|dlperf"), std::string::npos);
    // A command's own help: that command only, on standard output, exit 0.
    for (const char* command : {"summarize", "plot", "run", "resume", "preflight", "references"}) {
        const auto c = cli({command, "--help"});
        EXPECT_EQ(c.exitCode, 0) << command << ": " << c.err;
        EXPECT_EQ(c.out.rfind(std::string(command) + ":", 0), 0u) << c.out;
        EXPECT_LT(c.out.size(), h.out.size() / 2) << command;
    }
    EXPECT_EQ(cli({"help", "plot"}).out, cli({"plot", "--help"}).out);
    // A usage error is short: what is wrong and where to read more, not the whole manual.
    const auto none = cli({});
    EXPECT_EQ(none.exitCode, 2);
    // (one line per command, 14 of them, and where to read more)
    EXPECT_LT(std::count(none.err.begin(), none.err.end(), '\n'), 20) << none.err;
    const auto unknown = cli({"summarise"});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << unknown.err;
}

TEST(Cli, BundledSamplesSummarize) {
    const auto r = cli({"summarize", SCALEVIEW_SAMPLES, "--format", "json"});
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("\"topology\": \"4n8g\""), std::string::npos);
    // The sample holds one truncated run on purpose, to show how it is reported.
    EXPECT_NE(r.err.find("bz128/2n8g/r50_b128_fp32_3.log: incomplete"), std::string::npos) << r.err;
}

TEST(Cli, CasesSayHowSureTheyAre) {
    TempDir dir;
    writeCampaign(dir.path());
    // 1n1g: 80, 78.05, 81.01 images/s (CV 1.9 %): quiet under the default 5 % threshold.
    auto r = cli({"summarize", dir.path().string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"median_ci95\": [\n        78.05,\n        81.01\n"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\"cv_threshold_pct\": 5.0"), std::string::npos);
    EXPECT_EQ(r.out.find("\"kind\""), std::string::npos) << "a clean set got a warning";

    r = cli({"summarize", dir.path().string(), "--cv-threshold", "1.5"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("warning: r50 fp32 b64 1n1g: CV 1.9 % is above 1.5 %"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("78.05-81.01"), std::string::npos) << r.out; // the 95 % CI column
    EXPECT_EQ(r.out.find("warning: r50 fp32 b64 1n2g"), std::string::npos) << r.out;

    r = cli({"summarize", dir.path().string(), "--cv-threshold", "0"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--cv-threshold must be a percentage"), std::string::npos) << r.err;
}

TEST(Cli, NothingUsableIsExitTwoNotASummary) {
    TempDir dir;
    writeCampaign(dir.path());
    // Every log has 120 iterations; a window to 500 leaves none complete.
    const auto r = cli({"summarize", dir.path().string(), "--iterations", "500"});
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.err.find("no usable run in"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("6 logs, none counts"), std::string::npos) << r.err;
}

namespace {

// Logs of `iterations` iterations at 128 images/s per GPU: 1n1g and 2n4g, two repeats each.
void writeShortLogs(const std::filesystem::path& root, int iterations) {
    writeSteadyRuns(root, {{"1n1g", 1}, {"2n4g", 8}}, iterations);
}

} // namespace

// Issue 15: `summarize DIR` on a 60-iteration campaign excluded every run as incomplete.
TEST(Cli, ACampaignsLogsAreMeasuredWithTheCampaignsWindow) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json", R"({"profile": "x", "warmup": 5, "iterations": 60})");
    writeShortLogs(dir.path() / "logs", 60);
    const auto r = cli({"summarize", (dir.path() / "logs").string(), "--format", "json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("incomplete"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("note: the campaign's window: warmup 5, iterations 60 (" +
                         (dir.path() / "campaign.json").string() + ")"),
              std::string::npos)
        << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["options"]["warmup"], 5);
    EXPECT_EQ(j["options"]["iterations"], 60);
    EXPECT_EQ(j["options"]["window_source"], "campaign");
    EXPECT_EQ(j["options"]["campaign_file"], (dir.path() / "campaign.json").string());
    // The command line wins, and says it does.
    const auto given =
        cli({"summarize", (dir.path() / "logs").string(), "--format", "json", "--warmup", "10"});
    EXPECT_EQ(given.exitCode, 0) << given.err;
    EXPECT_NE(given.err.find("note: the command line's window: warmup 10, iterations 60 instead "
                             "of the campaign's"),
              std::string::npos)
        << given.err;
    EXPECT_EQ(nlohmann::json::parse(given.out)["options"]["window_source"], "command line");
}

// A plain tree whose logs all stop at 60: the note names the flag that reads them.
TEST(Cli, LogsThatAllStopShortSuggestTheirLength) {
    TempDir dir;
    writeShortLogs(dir.path(), 60);
    const auto r = cli({"summarize", dir.path().string()});
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.err.find("these logs all have 60 iterations, fewer than the window's 120: use "
                         "--iterations 60"),
              std::string::npos)
        << r.err;
    const auto json = cli({"summarize", dir.path().string(), "--format", "json"});
    EXPECT_EQ(nlohmann::json::parse(json.out)["options"]["window_source"], "dlperf");
    const auto sixty = cli({"summarize", dir.path().string(), "--iterations", "60"});
    EXPECT_EQ(sixty.exitCode, 0) << sixty.err;
}

// The table's GPUs column is the total, as the window's Results table and the CSV have it.
TEST(Cli, TheTablesGpusColumnIsTheTotalAsInTheWindow) {
    TempDir dir;
    writeShortLogs(dir.path(), 120);
    const auto r = cli({"summarize", dir.path().string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\n    2     8       2 "), std::string::npos) << r.out; // 2n4g
    EXPECT_EQ(r.out.find("\n    2     4 "), std::string::npos) << r.out;
}

TEST(Cli, FormatsListsEveryFormatWithScriptAndDefaults) {
    const auto r = cli({"formats"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    for (const char* id :
         {"ngc-mxnet\n", "ngc-pytorch-rn50\n", "ngc-pytorch-bert\n", "ngc-tf-rn50\n"})
        EXPECT_NE(r.out.find(id), std::string::npos) << id << r.out;
    EXPECT_NE(r.out.find("PyTorch/BERT/extract_pytorch_logs_time.py"), std::string::npos);
    EXPECT_NE(r.out.find("defaults: warmup 20, iterations 110"), std::string::npos) << r.out;
    EXPECT_EQ(cli({"formats", "extra"}).exitCode, 2);
}

// Expected: DLPerf's NGC PyTorch extract_pytorch_logs_time.py on these logs (1n1g and 1n8g of
// tests/dllwriter.h, batch 256): 1n1g runs 790.77, 787.87 -> average 789.32, median 789.32;
// 1n8g runs 6101.08, 6057.97 -> 6079.52 (6079.525 in binary is below the tie), speedup 7.7.
TEST(Cli, DlperfFormatOfNgcPytorchPrintsItsScriptsJson) {
    TempDir dir;
    const std::tuple<const char*, std::int64_t, std::int64_t> topos[] = {{"1n1g", 300000, 1111},
                                                                         {"1n8g", 310000, 2222}};
    for (const auto& [topo, base, delta] : topos)
        for (int rep = 1; rep <= 2; ++rep) {
            DllSpec spec;
            spec.baseStepUs = base + rep * delta;
            writeFile(dir / "amp_ngc/pytorch" / topo /
                          ("r50_b256_amp_" + std::to_string(rep) + ".log"),
                      makeDllLog(spec));
        }
    const auto root = (dir / "amp_ngc/pytorch").string();
    const auto r = cli({"summarize", root, "--format", "dlperf"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out),
              nlohmann::json::parse(
                  R"({"r50": {"1n1g": {"average_speed": 789.32, "batch_size_per_device": 256,
                      "median_speed": 789.32, "speedup": 1.0}, "1n8g": {"average_speed": 6079.52,
                      "batch_size_per_device": 256, "median_speed": 6079.52, "speedup": 7.7}}})"))
        << r.out;
    EXPECT_EQ(r.err, "");
    // DLPerf has no speed script for NGC PyTorch: the same JSON, and a note that says so.
    const auto speed = cli({"summarize", root, "--format", "dlperf", "--method", "speed"});
    EXPECT_EQ(speed.out, r.out);
    EXPECT_NE(speed.err.find("note: DLPerf has no --method speed script for ngc-pytorch-rn50"),
              std::string::npos)
        << speed.err;
    // ScaleView's own table: another figure, and a note naming the quirk with both.
    const auto t = cli({"summarize", root});
    EXPECT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.err.find("note: 1n1g/r50_b256_amp_1.log: DLPerf's extract_pytorch_logs_time.py "
                         "gives 790.77"),
              std::string::npos)
        << t.err;
    EXPECT_EQ(cli({"summarize", root, "--log-format", "pytorch"}).exitCode, 2);
}

// Issue 27: the Run tab's own campaign keeps its logs four levels down
// (OUT/logs/local/pytorch-cpu/resnet50); its campaign.json in OUT is still its window.
TEST(Cli, ALauncherCampaignsDeepLogRootIsMeasuredWithItsWindow) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json",
              R"({"profile": "local-cpu-rn50", "warmup": 10, "iterations": 40})");
    const auto logs = dir.path() / "logs" / "local" / "pytorch-cpu" / "resnet50";
    writeShortLogs(logs, 40);
    const auto r = cli({"summarize", logs.string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("incomplete"), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["options"]["warmup"], 10);
    EXPECT_EQ(j["options"]["iterations"], 40);
    EXPECT_EQ(j["options"]["window_source"], "campaign");
    EXPECT_EQ(j["options"]["campaign_file"], (dir.path() / "campaign.json").string());
}

// Issue 37 item 2: the Run tab and `run` show a launcher campaign's leaf logs folder; its probes
// at the campaign's root are still its probes, and summarize at the leaf explains the loss with
// them, as at the root.
TEST(Cli, ACampaignOpenedAtItsLeafHasTheProbesAtItsRoot) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json", R"({"profile": "local-cpu-rn50"})");
    writeFile(dir.path() / "journal.jsonl", "");
    const auto logs = dir.path() / "logs" / "local" / "pytorch-cpu" / "resnet50";
    writeCampaign(logs);
    // 1n2g: its one node alone at 76 per device, the 1n1g case at 80 (a 5 % device slowdown of
    // the 1n2g case's 5.9 % loss).
    writeFile(dir.path() / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "1n2g", "node": "n1", "devices": 2, "pace_per_device": 76.0,
   "pace_samples": [75.9, 76.0, 76.1, 76.0, 76.0]}]})");
    const auto lossOf = [](const ProcessResult& r) {
        const auto j = nlohmann::json::parse(r.out);
        for (const auto& c : j["cases"])
            if (c["topology"] == "1n2g") return c["scaling_loss"];
        return nlohmann::json();
    };
    const auto atRoot = cli({"summarize", dir.path().string(), "--format", "json"});
    const auto atLeaf = cli({"summarize", (logs / "bz64").string(), "--format", "json"});
    ASSERT_EQ(atRoot.exitCode, 0) << atRoot.err;
    ASSERT_EQ(atLeaf.exitCode, 0) << atLeaf.err;
    const auto leafLoss = lossOf(atLeaf);
    ASSERT_TRUE(leafLoss.is_object()) << atLeaf.out;
    // Without probes every kind is "not measured"; with them only the all-reduce, not probed.
    EXPECT_EQ(leafLoss["not_measured"], nlohmann::json::array({"communication"}))
        << leafLoss.dump(2);
    bool device = false;
    for (const auto& p : leafLoss["parts"])
        device |= p["kind"] == "device-slowdown" && p["pct"].get<double>() > 3.0 &&
                  p["pct"].get<double>() < 7.0;
    EXPECT_TRUE(device) << leafLoss.dump(2);
    EXPECT_EQ(leafLoss["parts"], lossOf(atRoot)["parts"]);
}
