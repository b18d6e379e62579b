// The window a directory's logs call for: the campaign.json above them, or the length its logs
// all stop at. Real directories, written by the tests.

#include "core/formats/formatregistry.h"
#include "core/load/campaignwindow.h"
#include "tests/support/logwriter.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

void writeLogs(const std::filesystem::path& root, int iterations, int repeats = 2) {
    writeSteadyRuns(root, {{"1n1g", 1}, {"1n2g", 2}}, iterations, repeats);
}

} // namespace

TEST(CampaignWindow, FoundBesideTheLogsAndAFewDirectoriesUp) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json", R"({"profile": "x", "warmup": 5, "iterations": 60})");
    writeLogs(dir.path() / "logs" / "bz64", 60);
    for (const auto& at : {dir.path(), dir.path() / "logs", dir.path() / "logs" / "bz64"}) {
        const auto found = findCampaignWindow(at);
        ASSERT_TRUE(found.window) << at;
        EXPECT_FALSE(found.error);
        EXPECT_EQ(found.window->measure.warmup, 5);
        EXPECT_EQ(found.window->measure.iterations, 60);
        EXPECT_EQ(found.window->file, (dir.path() / "campaign.json").string());
    }
    // Four levels down is another tree, not this campaign's logs.
    EXPECT_FALSE(findCampaignWindow(dir.path() / "a" / "b" / "c" / "d").window);
}

// Issue 27: a launcher profile's logs sit four levels under the campaign
// (OUT/logs/local/pytorch-cpu/resnet50): its campaign.json is theirs; a campaign.json as far
// up that is not the launcher's, or whose logs/ does not hold the directory, is not.
TEST(CampaignWindow, ALauncherCampaignIsFoundAboveItsDeepLogRoot) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json",
              R"({"profile": "local-cpu-rn50", "warmup": 10, "iterations": 40})");
    const auto logs = dir.path() / "logs" / "local" / "pytorch-cpu" / "resnet50";
    writeLogs(logs, 40);
    for (const auto& at : {logs, logs / "1n2g"}) {
        const auto found = findCampaignWindow(at);
        ASSERT_TRUE(found.window) << at;
        EXPECT_EQ(found.window->measure.warmup, 10);
        EXPECT_EQ(found.window->measure.iterations, 40);
    }
    EXPECT_FALSE(findCampaignWindow(dir.path() / "other" / "b" / "c" / "d").window);
    TempDir plain;
    writeFile(plain.path() / "campaign.json", R"({"warmup": 10, "iterations": 40})");
    EXPECT_FALSE(findCampaignWindow(plain.path() / "logs" / "b" / "c" / "d").window);
}

TEST(CampaignWindow, NoneInAPlainTree) {
    TempDir dir;
    writeLogs(dir.path(), 120);
    const auto found = findCampaignWindow(dir.path());
    EXPECT_FALSE(found.window);
    EXPECT_FALSE(found.error);
}

TEST(CampaignWindow, AMissingKeyIsDlperfsAsTheLauncherHasIt) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json", R"({"iterations": 300})");
    const auto found = findCampaignWindow(dir.path());
    ASSERT_TRUE(found.window);
    EXPECT_EQ(found.window->measure.warmup, 20);
    EXPECT_EQ(found.window->measure.iterations, 300);
}

TEST(CampaignWindow, BrokenCampaignFilesAreErrorsNamingTheFile) {
    TempDir dir;
    const auto file = (dir.path() / "campaign.json").string();
    for (const std::string text :
         {"{not json", "[1, 2]", R"({"warmup": "five"})", R"({"warmup": 2.5})",
          R"({"iterations": -4})", R"({"warmup": 50, "iterations": 40})",
          R"({"iterations": 99999999999})"}) {
        writeFile(file, text);
        const auto found = findCampaignWindow(dir.path());
        EXPECT_FALSE(found.window) << text;
        ASSERT_TRUE(found.error) << text;
        EXPECT_EQ(found.error->rfind(file, 0), 0u) << *found.error;
    }
}

TEST(CampaignWindow, LogsThatAllStopAtTheSameLengthNameIt) {
    TempDir dir;
    writeLogs(dir.path(), 60);
    const Summary s = summarizeDirectory(dir.path(), {}, {});
    ASSERT_EQ(s.runs.size(), 4u);
    EXPECT_EQ(commonShortIterations(s.runs), 60);
    // Read with that window, they all count, and nothing is offered.
    LoadOptions sixty;
    sixty.measure.iterations = 60;
    const Summary read = summarizeDirectory(dir.path(), sixty, {});
    for (const auto& r : read.runs)
        EXPECT_TRUE(r.usable()) << r.reason;
    EXPECT_FALSE(commonShortIterations(read.runs));
}

TEST(CampaignWindow, LogsOfDifferentLengthsOrTooShortNameNothing) {
    TempDir mixed;
    writeLogs(mixed.path(), 60);
    RunSpec spec;
    spec.iterations = 80;
    writeFile(mixed.path() / "1n1g" / "r50_b64_fp32_3.log",
              makeLog(spec, [](int, int) { return std::string("128.0"); }));
    EXPECT_FALSE(commonShortIterations(summarizeDirectory(mixed.path(), {}, {}).runs));
    TempDir tiny; // 15 iterations: not even past DLPerf's warmup
    writeLogs(tiny.path(), 15);
    EXPECT_FALSE(commonShortIterations(summarizeDirectory(tiny.path(), {}, {}).runs));
    TempDir whole;
    writeLogs(whole.path(), 120);
    EXPECT_FALSE(commonShortIterations(summarizeDirectory(whole.path(), {}, {}).runs));
}

// The one rule compare, report and the desktop app's added series measure a directory by: a
// value given wins, then the campaign's window, then DLPerf's.
TEST(CampaignWindow, ASeriesWindowIsTheGivenThenTheCampaignsThenDlperfs) {
    TempDir dir;
    writeFile(dir.path() / "campaign.json", R"({"warmup": 5, "iterations": 60})");
    const auto found = findCampaignWindow(dir.path());
    const SeriesWindow campaign = seriesWindow(found);
    EXPECT_EQ(campaign.measure.warmup, 5);
    EXPECT_EQ(campaign.measure.iterations, 60);
    EXPECT_EQ(campaign.source, "campaign");
    EXPECT_EQ(campaign.campaignFile, (dir.path() / "campaign.json").string());

    const SeriesWindow given = seriesWindow(found, std::nullopt, 40);
    EXPECT_EQ(given.measure.warmup, 5); // the campaign's, where nothing was given
    EXPECT_EQ(given.measure.iterations, 40);
    EXPECT_EQ(given.source, "command line");
    EXPECT_TRUE(given.campaignFile.empty());

    const SeriesWindow none = seriesWindow(CampaignWindowLookup{});
    EXPECT_TRUE(none.measure.formatDefaults); // each log's format's own DLPerf window
    EXPECT_EQ(none.source, "dlperf");
    EXPECT_FALSE(campaign.measure.formatDefaults);
    EXPECT_FALSE(given.measure.formatDefaults);
    // Its window for a format: TF2 ResNet-50's script reads 100/600, NGC MXNet's 20/120.
    EXPECT_EQ(windowFor(*findLogFormat("tf2-rn50"), none.measure).warmup, 100);
    EXPECT_EQ(windowFor(*findLogFormat("tf2-rn50"), none.measure).iterations, 600);
    EXPECT_EQ(windowFor(ngcMxnetFormat(), none.measure).warmup, 20);
    EXPECT_EQ(windowFor(ngcMxnetFormat(), none.measure).iterations, 120);
    EXPECT_EQ(windowFor(*findLogFormat("tf2-rn50"), campaign.measure).warmup, 5);
    // A campaign.json that cannot be read gives no window: DLPerf's (its error is the caller's
    // to say).
    writeFile(dir.path() / "campaign.json", "{not json");
    EXPECT_EQ(seriesWindow(findCampaignWindow(dir.path())).source, "dlperf");
}
