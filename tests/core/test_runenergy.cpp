// The GPUs' energy per image, read back by core from what the launcher's monitor journalled with
// each run (generated here as the monitor writes them): the counters' readings over the smallest
// span of samples that covers the measured window, each board once per node, nvidia-smi's power
// beside them, the power alone where no counter was read, and "energy not measured" with the
// end record's reason where neither was.
#include "tests/support/logwriter.h"
#include "core/load/runenergy.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

const char* kLogRoot = "logs/local/pytorch-cpu/resnet50";

std::string idOf(const std::string& topo, int repeat) {
    return "bz64/" + topo + "/r50_b64_fp32_" + std::to_string(repeat);
}
fs::path logOf(const fs::path& campaign, const std::string& topo, int repeat) {
    return campaign / kLogRoot / (idOf(topo, repeat) + ".log");
}

struct Host {
    std::string name;
    int gpus = 1;
    bool counters = true, power = true;
};

// A monitor file as RunMonitor writes it: a sample every 10 iterations (6.4 s at 640 ms per
// iteration); each board uses `joulesPerIteration` in the measured window and ten times that in
// the warm-up (iterations 0-19), which the window must leave out; nvidia-smi reads `powerRatio`
// times the counters' mean power.
std::string monitorLines(const std::vector<Host>& hosts, double joulesPerIteration,
                         double powerRatio = 1.05) {
    std::string out;
    for (const Host& h : hosts) {
        std::uint64_t mj = 7'000'000'000;
        for (int it = 0; it <= 120; it += 10) {
            nlohmann::json l{{"host", h.name},
                             {"tag", "t"},
                             {"seconds", it ? 6.4 : 0.0},
                             {"iteration", it},
                             {"load1", 1.0}};
            const double perIteration = it <= 20 ? 10 * joulesPerIteration : joulesPerIteration;
            if (it) mj += static_cast<std::uint64_t>(perIteration * 10 * 1000);
            if (h.counters) {
                nlohmann::json e = nlohmann::json::array();
                for (int g = 0; g < h.gpus; ++g)
                    e.push_back(
                        {{"index", g}, {"uuid", h.name + "-GPU-" + std::to_string(g)}, {"mj", mj}});
                // A second rank's view of the same board: a board is counted once.
                e.push_back(e.front());
                l["energy"] = e;
            }
            if (h.power) {
                nlohmann::json g = nlohmann::json::array();
                for (int i = 0; i < h.gpus; ++i)
                    g.push_back({{"index", i}, {"power_w", perIteration * 10 / 6.4 * powerRatio}});
                l["gpus"] = g;
            }
            out += l.dump() + "\n";
        }
    }
    return out;
}

// Three repeats of `topo` (ranks GPUs on `hosts`); repeat p's boards use (1 + p/100) times
// `joules` per iteration.
void writeCase(const fs::path& campaign, const std::string& topo, int ranks,
               const std::vector<Host>& hosts, double joules, const nlohmann::json& energy,
               std::string& journal) {
    for (int p = 1; p <= 3; ++p) {
        RunSpec spec;
        spec.ranks = ranks;
        spec.iterations = 120;
        spec.stepMs = 640;
        writeFile(logOf(campaign, topo, p), makeLog(spec, [](int, int) { return "100.0"; }));
        writeFile(campaign / "monitor" / (idOf(topo, p) + ".jsonl"),
                  monitorLines(hosts, joules * (1 + p / 100.0)));
        nlohmann::json monitor{{"samples", 12}};
        if (!energy.is_null()) monitor["energy"] = energy;
        journal += nlohmann::json{{"event", "end"},
                                  {"id", idOf(topo, p)},
                                  {"tag", "t"},
                                  {"state", "ok"},
                                  {"log", logOf(campaign, topo, p).string()},
                                  {"disturbed", false},
                                  {"monitor", monitor}}
                       .dump() +
                   "\n";
    }
}

const CaseStats& caseOf(const Summary& s, const std::string& topo) {
    for (const auto& c : s.cases)
        if (c.key.topology.name() == topo) return c;
    throw std::runtime_error("no case " + topo);
}

const nlohmann::json kRead = {{"source", "nvml"}, {"joules", 1.0}};

} // namespace

TEST(RunEnergy, TheCountersOverTheMeasuredWindowGiveJoulesPerImageEachBoardOncePerNode) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    std::string journal;
    // 1n1g: one board, 6.4 J per iteration of 64 images: 0.1 J/image (repeat 1: 0.101).
    writeCase(campaign, "1n1g", 1, {{"local", 1}}, 6.4, kRead, journal);
    // 2n2g: two nodes of two boards, each board 6.4 J per iteration of 4 x 64 images: 0.1 too.
    writeCase(campaign, "2n2g", 4, {{"node1", 2}, {"node2", 2}}, 6.4, kRead, journal);
    writeFile(campaign / "journal.jsonl", journal);
    const Summary s = summarizeDirectory(campaign, LoadOptions{}, SummaryOptions{});
    for (const std::string topo : {"1n1g", "2n2g"}) {
        const CaseStats& c = caseOf(s, topo);
        ASSERT_TRUE(c.energy) << topo << ": " << c.energyNote;
        EXPECT_EQ(c.energy->source, "nvml");
        // Median of 0.101, 0.102, 0.103: the warm-up's tenfold energy left out.
        EXPECT_NEAR(c.energy->joulesPerImage, 0.102, 1e-9) << topo;
        EXPECT_NEAR(c.energy->imagesPerJoule(), 1 / 0.102, 1e-9);
        ASSERT_TRUE(c.energy->ci95);
        EXPECT_NEAR(c.energy->ci95->lo, 0.101, 1e-9);
        EXPECT_NEAR(c.energy->ci95->hi, 0.103, 1e-9);
        // nvidia-smi's power read 5 % above the counters: beside them, not instead.
        ASSERT_TRUE(c.energy->powerJoulesPerImage);
        EXPECT_NEAR(*c.energy->powerJoulesPerImage, 0.102 * 1.05, 1e-9);
    }
    EXPECT_EQ(caseOf(s, "1n1g").energy->gpus, 1);
    EXPECT_EQ(caseOf(s, "2n2g").energy->gpus, 4) << "two boards on each of two nodes, once each";

    const auto j = nlohmann::json::parse(formatJson(s, "test"));
    const auto& e = j["cases"][0]["energy"];
    EXPECT_EQ(e["source"], "nvml");
    EXPECT_NEAR(e["j_per_image"].get<double>(), 0.102, 1e-9);
    EXPECT_NEAR(e["images_per_s_per_w"].get<double>(), 1 / 0.102, 1e-9);
    EXPECT_NEAR(e["images_per_s_per_w_ci95"][0].get<double>(), 1 / 0.103, 1e-9);
    EXPECT_EQ(e["scope"], "the GPUs' only: a lower bound on the nodes' energy");
    EXPECT_EQ(j["runs"][0]["energy"]["source"], "nvml");
    const std::string table = formatTable(s);
    EXPECT_NE(table.find("J/image"), std::string::npos) << table;
    EXPECT_NE(table.find("r50 fp32 b64 2n2g: GPU energy 0.102 J/image [95 % CI 0.101, 0.103] = "
                         "9.80 images/s/W, from the GPUs' energy counters (NVML), 4 GPUs, each "
                         "once per node, over 3 runs; nvidia-smi's power samples: 0.107 J/image; "
                         "the GPUs' only: a lower bound on the nodes' energy"),
              std::string::npos)
        << table;
    const std::string csv = formatCsv(s);
    EXPECT_NE(csv.find(",energy_source,j_per_image,j_per_image_ci95_lo,"), std::string::npos);
    EXPECT_NE(csv.find(",nvml,0.1020,0.1010,0.1030,9.8039,0.1071,"), std::string::npos) << csv;
}

TEST(RunEnergy, WithoutCountersThePowerSamplesAreUsedAndSaidSo) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    std::string journal;
    writeCase(campaign, "1n1g", 1, {{"local", 1, false, true}}, 6.4,
              {{"not_measured", "nvmlDeviceGetTotalEnergyConsumption: Not Supported"}}, journal);
    writeFile(campaign / "journal.jsonl", journal);
    const Summary s = summarizeDirectory(campaign, LoadOptions{}, SummaryOptions{});
    const CaseStats& c = caseOf(s, "1n1g");
    ASSERT_TRUE(c.energy) << c.energyNote;
    EXPECT_EQ(c.energy->source, "power samples");
    EXPECT_NEAR(c.energy->joulesPerImage, 0.102 * 1.05, 1e-9);
    EXPECT_FALSE(c.energy->powerJoulesPerImage) << "nothing beside it";
    EXPECT_EQ(s.runs[0].energyNote,
              "energy counters: nvmlDeviceGetTotalEnergyConsumption: Not Supported");
    EXPECT_NE(formatTable(s).find("from nvidia-smi's power samples, over 3 runs"),
              std::string::npos);
}

TEST(RunEnergy, NeitherReadSaysEnergyNotMeasuredWithTheMonitorsReasonNeverZero) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    std::string journal;
    const std::string why =
        "libnvidia-ml.so.1: cannot open shared object file: No such file or directory";
    writeCase(campaign, "1n1g", 1, {{"local", 1, false, false}}, 6.4, {{"not_measured", why}},
              journal);
    writeFile(campaign / "journal.jsonl", journal);
    const Summary s = summarizeDirectory(campaign, LoadOptions{}, SummaryOptions{});
    const CaseStats& c = caseOf(s, "1n1g");
    EXPECT_FALSE(c.energy);
    EXPECT_NE(c.energyNote.find("energy not measured: "), std::string::npos) << c.energyNote;
    EXPECT_NE(c.energyNote.find(why), std::string::npos) << c.energyNote;
    const auto j = nlohmann::json::parse(formatJson(s, "test"));
    EXPECT_EQ(j["cases"][0]["energy"]["measured"], false);
    EXPECT_FALSE(j["cases"][0]["energy"].contains("j_per_image"));
    const std::string table = formatTable(s);
    EXPECT_NE(table.find("note: energy not measured: "), std::string::npos) << table;
}

TEST(RunEnergy, ACounterThatWentBackInTheWindowIsNotMeasured) {
    std::map<std::string, std::vector<EnergySample>> hosts;
    auto& h = hosts["local"];
    for (int it = 0; it <= 120; it += 10) {
        EnergySample e;
        e.iteration = it;
        e.seconds = 6.4;
        e.counters = true;
        e.millijoules["GPU-a"] = it < 60 ? 9'000'000 + it * 1000 : it * 1000; // reloaded at 60
        h.push_back(e);
    }
    std::string note;
    EXPECT_FALSE(energyOver(hosts, 20, 120, 64, &note));
    EXPECT_EQ(note, "neither the GPUs' energy counters nor nvidia-smi's power were read");
}
