// Runs the launcher's monitor marked disturbed: read back from a campaign's journal by core,
// warned about per case with the repeats and the evidence, and left out on request.
#include "tests/support/logwriter.h"
#include "core/load/rundisturbance.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

const char* kLogRoot = "logs/local/pytorch-cpu/resnet50";

fs::path logOf(const fs::path& campaign, const std::string& topo, int repeat) {
    return campaign / kLogRoot / "bz64" / topo /
           ("r50_b64_fp32_" + std::to_string(repeat) + ".log");
}

// Three steady repeats of 1n1g and of 1n2g (2x), as a campaign writes them.
void writeCampaignLogs(const fs::path& campaign) {
    for (const auto& [topo, ranks, speed] :
         {std::tuple{"1n1g", 1, "100.0"}, std::tuple{"1n2g", 2, "200.0"}})
        for (int p = 1; p <= 3; ++p) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.iterations = 120;
            spec.stepMs = 640;
            const std::string s = speed;
            writeFile(logOf(campaign, topo, p), makeLog(spec, [s](int, int) { return s; }));
        }
}

std::string endRecord(const fs::path& log, const std::string& state,
                      const std::optional<std::vector<std::string>>& evidence) {
    nlohmann::json j{
        {"event", "end"}, {"id", "x"}, {"tag", "t"}, {"state", state}, {"log", log.string()}};
    if (evidence) {
        j["disturbed"] = true;
        j["evidence"] = *evidence;
    } else {
        j["disturbed"] = false;
    }
    return j.dump() + "\n";
}

const CaseWarning* warningOf(const CaseStats& c, const std::string& kind) {
    for (const auto& w : c.warnings)
        if (w.kind == kind) return &w;
    return nullptr;
}

const CaseStats& caseOf(const Summary& s, const std::string& topo) {
    for (const auto& c : s.cases)
        if (c.key.topology.name() == topo) return c;
    throw std::runtime_error("no case " + topo);
}

} // namespace

TEST(Disturbance, JournalMarksTheRunItNamesAndTheCaseIsWarnedWithTheEvidence) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    writeCampaignLogs(campaign);
    // Repeat 2 of 1n1g was disturbed; repeat 1 of 1n1g was disturbed once, then rerun quietly on
    // resume (the latest end record wins); a start record and a torn last line are passed over.
    writeFile(campaign / "journal.jsonl",
              R"({"event":"start","id":"x","log":")" + logOf(campaign, "1n1g", 2).string() +
                  "\"}\n" +
                  endRecord(logOf(campaign, "1n1g", 1), "ok",
                            std::vector<std::string>{"stale evidence"}) +
                  endRecord(logOf(campaign, "1n1g", 1), "ok", std::nullopt) +
                  endRecord(logOf(campaign, "1n1g", 2), "ok",
                            std::vector<std::string>{"pid 4242 (python3) used 97 % of a core",
                                                     "load 3.1 above 1 run processes"}) +
                  endRecord(logOf(campaign, "1n2g", 1), "ok", std::nullopt) + "{\"event\":\"en");

    LoadOptions load;
    load.measure = {20, 120};
    // Read from the logs' own folder too: the journal is found a few folders up.
    for (const fs::path& root : {campaign, campaign / kLogRoot / "bz64"}) {
        const Summary s = summarizeDirectory(root, load, SummaryOptions{});
        ASSERT_EQ(s.cases.size(), 2u) << root;
        int disturbed = 0;
        for (const auto& r : s.runs) {
            disturbed += r.disturbed;
            if (r.disturbed) {
                EXPECT_EQ(r.key.topology.name(), "1n1g");
                EXPECT_EQ(r.key.repeat, 2);
                EXPECT_EQ(r.disturbance,
                          "pid 4242 (python3) used 97 % of a core; load 3.1 above 1 run processes");
            }
        }
        EXPECT_EQ(disturbed, 1) << root;
        const CaseStats& one = caseOf(s, "1n1g");
        const CaseWarning* w = warningOf(one, "disturbed");
        ASSERT_NE(w, nullptr) << root;
        EXPECT_NE(w->message.find("repeat 2 ran on a busy host"), std::string::npos) << w->message;
        EXPECT_NE(w->message.find("pid 4242 (python3) used 97 % of a core"), std::string::npos);
        EXPECT_EQ(one.values.size(), 3u); // default: counted, and warned about
        EXPECT_EQ(one.warnings.size(), 1u) << "a steady case gets only the disturbed warning";
        for (const auto& w : caseOf(s, "1n2g").warnings)
            ADD_FAILURE() << w.kind << ": " << w.message;
    }
}

TEST(Disturbance, ExcludedRunsLeaveTheStatisticsAndAreStillNamed) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    writeCampaignLogs(campaign);
    // The disturbed repeat ran at half speed: counted, it drags the mean; left out, it does not.
    RunSpec spec;
    spec.stepMs = 1280;
    writeFile(logOf(campaign, "1n1g", 3), makeLog(spec, [](int, int) { return "50.0"; }));
    writeFile(campaign / "journal.jsonl",
              endRecord(logOf(campaign, "1n1g", 3), "ok",
                        std::vector<std::string>{"pid 77 (sh) used 99 % of a core"}));
    LoadOptions load;
    load.measure = {20, 120};

    const Summary counted = summarizeDirectory(campaign, load, SummaryOptions{});
    EXPECT_EQ(caseOf(counted, "1n1g").values.size(), 3u);
    EXPECT_NEAR(*caseOf(counted, "1n1g").mean, (100.0 + 100.0 + 50.0) / 3, 0.5);

    SummaryOptions exclude;
    exclude.excludeDisturbed = true;
    const Summary s = summarizeDirectory(campaign, load, exclude);
    const CaseStats& one = caseOf(s, "1n1g");
    EXPECT_EQ(one.repeats, (std::vector<int>{1, 2}));
    EXPECT_NEAR(*one.mean, 100.0, 0.5);
    ASSERT_EQ(one.excluded.size(), 1u);
    EXPECT_EQ(one.excluded[0].repeat, 3);
    EXPECT_EQ(one.excluded[0].reason, "disturbed: pid 77 (sh) used 99 % of a core");
    const CaseWarning* w = warningOf(one, "disturbed");
    ASSERT_NE(w, nullptr);
    EXPECT_NE(w->message.find("repeat 3 ran on a busy host and is left out of the statistics"),
              std::string::npos)
        << w->message;
    // Two usable repeats now: few-repeats says so too.
    EXPECT_NE(warningOf(one, "few-repeats"), nullptr);
}

TEST(Disturbance, NoJournalOrAQuietOneMarksNothing) {
    TempDir dir;
    const fs::path campaign = dir / "campaign";
    writeCampaignLogs(campaign);
    LoadOptions load;
    load.measure = {20, 120};
    for (bool withJournal : {false, true}) {
        if (withJournal)
            writeFile(campaign / "journal.jsonl",
                      endRecord(logOf(campaign, "1n1g", 1), "ok", std::nullopt) +
                          "not json at all\n[1,2]\n");
        const Summary s = summarizeDirectory(campaign, load, SummaryOptions{});
        // Three repeats of 1n1g and 1n2g: loops over no run and no case would pass.
        ASSERT_EQ(s.runs.size(), 6u);
        ASSERT_EQ(s.cases.size(), 2u);
        for (const auto& r : s.runs)
            EXPECT_FALSE(r.disturbed) << r.path;
        for (const auto& c : s.cases)
            EXPECT_TRUE(c.warnings.empty()) << c.key.topology.name();
    }
}

TEST(Disturbance, KeyIsTheTailOfTheLogPathSoAMovedCampaignStillMatches) {
    EXPECT_EQ(
        disturbanceKey("/old/place/logs/local/pytorch-cpu/resnet50/bz2/1n1g/r50_b2_fp32_1.log"),
        disturbanceKey("/new/x/logs/local/pytorch-cpu/resnet50/bz2/1n1g/r50_b2_fp32_1.log"));
    EXPECT_NE(disturbanceKey("/c/resnet50/bz2/1n1g/r50_b2_fp32_1.log"),
              disturbanceKey("/c/resnet50/bz2/1n2g/r50_b2_fp32_1.log"));
}

// A run on two hosts: their samples, taken at slightly different moments, interleave in the
// monitor file. The trace's curve is, at each point, the max over the samples covering it, so a
// quiet host's points do not pull the curve down between a busy host's.
TEST(Disturbance, MonitorCurveOfSeveralHostsIsTheMaxOverTheHostsAtEachPoint) {
    TempDir dir;
    const fs::path file = fs::path(dir.path()) / "run.jsonl";
    auto line = [](const char* host, double iteration, double load, double foreign) {
        return nlohmann::json{{"host", host},
                              {"tag", "svx"},
                              {"iteration", iteration},
                              {"load1", load},
                              {"foreign", {{{"pid", 7}, {"cpu_pct", foreign}}}}}
                   .dump() +
               "\n";
    };
    writeFile(file, line("node1", 10, 0.5, 2) + line("node2", 11, 3.0, 97) +
                        line("node1", 20, 0.6, 3) + line("node2", 21, 3.2, 98) +
                        line("node1", 30, 0.4, 1) + line("other", 5, 9, 99) +
                        R"({"host":"node2","tag":"older-attempt","iteration":25,"load1":50})"
                        "\n");
    // "other" is a third host whose only sample covers iterations up to 5.
    const auto curve = readMonitorCurve(file, "svx");
    std::vector<double> at, foreign, load;
    for (const auto& p : curve) {
        at.push_back(p.iteration);
        foreign.push_back(p.foreignCpuPct);
        load.push_back(p.load1);
    }
    EXPECT_EQ(at, (std::vector<double>{5, 10, 11, 20, 21, 30}));
    // At 5 every host's first sample covers it; at 10, node1's and node2's (11); at 30 only
    // node1's (node2 stopped at 21).
    EXPECT_EQ(foreign, (std::vector<double>{99, 97, 97, 98, 98, 1}));
    EXPECT_EQ(load, (std::vector<double>{9, 3.0, 3.0, 3.2, 3.2, 0.4}));

    // One host (or samples without a host field): the samples as they are.
    writeFile(file, line("local", 10, 0.5, 2) + line("local", 20, 0.6, 3));
    const auto one = readMonitorCurve(file, "svx");
    ASSERT_EQ(one.size(), 2u);
    EXPECT_EQ(one[1].foreignCpuPct, 3);
}
