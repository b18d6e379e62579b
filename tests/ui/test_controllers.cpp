// The background machinery: loading with progress and cancel, stale loads dropped, recompute
// without reading files, and live updates of a directory being written.

#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/run/consolefeed.h"
#include "ui/settings/directorywindow.h"
#include "ui/browse/livecontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/browse/remotefilesystem.h"
#include "ui/models/runtablemodel.h"

#include <QFutureWatcher>
#include <QSettings>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

struct Loaded {
    ui::LoadController loader;
    ui::AnalysisController analysis;
    Loaded() {
        QObject::connect(&loader, &ui::LoadController::snapshotReady, &analysis,
                         &ui::AnalysisController::setSnapshot);
    }
    bool waitComplete(int ms = 20000) {
        return waitUntil(
            [this] {
                auto a = analysis.current();
                return a && a->complete && !analysis.isBusy();
            },
            ms);
    }
};

} // namespace

TEST(LoadController, ReadsEveryLogWithProgressThenACompleteSnapshot) {
    TempDir dir;
    writeCampaign(dir.path());
    ui::LoadController loader;
    QSignalSpy progress(&loader, &ui::LoadController::progress);
    QSignalSpy finished(&loader, &ui::LoadController::finished);
    loader.open(QString::fromStdString(dir.path().string()));
    EXPECT_TRUE(loader.isLoading());
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(finished.last().at(1).toBool()); // not cancelled
    ASSERT_FALSE(progress.isEmpty());
    EXPECT_EQ(progress.last().at(0).toInt(), 9);
    EXPECT_EQ(progress.last().at(1).toInt(), 9);
    const ui::LogSnapshot s = loader.snapshot();
    EXPECT_TRUE(s.complete);
    EXPECT_EQ(s.logs.size(), 9u);
    EXPECT_EQ(s.logs.front()->counters.markerLines, 120);
    EXPECT_EQ(s.logs.front()->retainedValues(), 3u * 120u); // the trace, not the lines
}

TEST(LoadController, ANewDirectoryDropsTheStaleLoad) {
    TempDir a, b;
    CampaignSpec big;
    big.topologies = {{1, 8}, {2, 8}};
    big.repeats = 6;
    writeCampaign(a.path(), big);
    CampaignSpec small;
    small.precision = "fp16";
    writeCampaign(b.path(), small);
    Loaded l;
    QSignalSpy shown(&l.analysis, &ui::AnalysisController::analysisReady);
    l.loader.open(QString::fromStdString(a.path().string()));
    l.analysis.clear();
    l.loader.open(QString::fromStdString(b.path().string()));
    ASSERT_TRUE(l.waitComplete());
    // Everything A had in flight has arrived once its dropped watchers are gone (each is
    // deleted when its future ends) and no analysis is computing.
    ASSERT_TRUE(waitUntil([&] {
        return l.loader.findChildren<QFutureWatcherBase*>().isEmpty() && !l.analysis.isBusy();
    }));
    for (const auto& args : shown) {
        const auto an = args.at(0).value<ui::AnalysisPtr>();
        EXPECT_EQ(an->summary.root, b.path().string());
        for (const auto& r : an->summary.runs)
            EXPECT_EQ(r.key.precision, "fp16");
    }
    EXPECT_EQ(l.analysis.current()->summary.runs.size(), 9u);
}

TEST(LoadController, CancelKeepsWhatWasReadAndSaysSo) {
    TempDir dir;
    CampaignSpec big;
    big.topologies = {{2, 8}, {4, 8}};
    big.repeats = 12;
    writeCampaign(dir.path(), big);
    ui::LoadController loader;
    QSignalSpy finished(&loader, &ui::LoadController::finished);
    loader.open(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(waitUntil([&] { return loader.snapshot().expected > 0; }));
    loader.cancel();
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_TRUE(finished.last().at(1).toBool());
    const ui::LogSnapshot s = loader.snapshot();
    EXPECT_TRUE(s.cancelled);
    EXPECT_EQ(s.expected, 24u);
    EXPECT_LT(s.logs.size(), 24u);
}

TEST(LoadController, AMissingDirectoryFailsWithAReason) {
    ui::LoadController loader;
    QSignalSpy failed(&loader, &ui::LoadController::failed);
    loader.open(QStringLiteral("/nonexistent/scaleview"));
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_FALSE(failed.last().at(1).toString().isEmpty());
}

// Issue 15: the loader took the new directory's name before knowing it could be opened. The
// directory open stays open, whole and under its own name, until another has logs to read.
TEST(LoadController, AFailedOpenLeavesTheOpenDirectoryAsItWas) {
    TempDir dir;
    writeCampaign(dir.path());
    const QString root = QString::fromStdString(dir.path().string());
    ui::LoadController loader;
    QSignalSpy finished(&loader, &ui::LoadController::finished);
    QSignalSpy scanned(&loader, &ui::LoadController::scanned);
    loader.open(root);
    ASSERT_TRUE(finished.wait(20000));
    ASSERT_EQ(scanned.count(), 1);
    QSignalSpy failed(&loader, &ui::LoadController::failed);
    loader.open(QStringLiteral("/nonexistent/scaleview"));
    EXPECT_EQ(loader.root(), root); // while scanning, too
    ASSERT_TRUE(failed.wait(5000));
    EXPECT_EQ(failed.last().at(0).toString(), QStringLiteral("/nonexistent/scaleview"));
    EXPECT_EQ(scanned.count(), 1);
    EXPECT_FALSE(loader.isLoading());
    EXPECT_EQ(loader.root(), root);
    const ui::LogSnapshot s = loader.snapshot();
    EXPECT_EQ(s.root, root);
    EXPECT_EQ(s.logs.size(), 9u);
    EXPECT_TRUE(s.complete);
    EXPECT_FALSE(s.cancelled);
}

TEST(AnalysisController, AMethodChangeRecomputesWithoutReadingTheFilesAgain) {
    TempDir dir;
    writeCampaign(dir.path());
    Loaded l;
    l.loader.open(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    const double before = *l.analysis.current()->summary.cases[0].median;
    // The files are gone: a re-read would find nothing.
    std::filesystem::remove_all(dir.path() / "bz64");
    ui::AnalysisOptions o = l.analysis.options();
    o.method = Method::Speed;
    l.analysis.setOptions(o);
    ASSERT_TRUE(waitUntil([&] {
        return l.analysis.current()->options.method == Method::Speed && !l.analysis.isBusy();
    }));
    const auto a = l.analysis.current();
    EXPECT_EQ(a->summary.runs.size(), 9u);
    for (const auto& r : a->summary.runs)
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path;
    ASSERT_TRUE(a->summary.cases[0].median);
    EXPECT_NEAR(*a->summary.cases[0].median, before, before * 0.01); // same data, another method
}

// Each log keeps its figures for one window: another window reads the logs again, off the GUI
// thread, and once: the next recompute uses what that read kept.
TEST(AnalysisController, AWindowChangeReadsTheLogsAgainOnce) {
    TempDir dir;
    writeCampaign(dir.path());
    Loaded l;
    l.loader.open(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    ui::AnalysisOptions o = l.analysis.options();
    o.measure = {10, 60};
    l.analysis.setOptions(o);
    ASSERT_TRUE(waitUntil([&] {
        auto a = l.analysis.current();
        return sameMeasure(a->summary.load.measure, o.measure) && !l.analysis.isBusy();
    }));
    auto a = l.analysis.current();
    LoadOptions load;
    load.measure = o.measure;
    const auto scan = scanLogDirectory(dir.path());
    const auto streamed = loadRuns(scan.logs, load);
    ASSERT_EQ(a->summary.runs.size(), streamed.size());
    for (std::size_t i = 0; i < streamed.size(); ++i) {
        EXPECT_EQ(a->summary.runs[i].timeThroughput, streamed[i].timeThroughput);
        EXPECT_EQ(a->summary.runs[i].speedThroughput, streamed[i].speedThroughput);
        EXPECT_TRUE(sameMeasure(a->logs[i]->measure, o.measure));
    }
    // Read for this window once: with the files gone, the next recompute still has them.
    std::filesystem::remove_all(dir.path() / "bz64");
    o.method = Method::Speed;
    l.analysis.setOptions(o);
    ASSERT_TRUE(waitUntil([&] {
        return l.analysis.current()->options.method == Method::Speed && !l.analysis.isBusy();
    }));
    a = l.analysis.current();
    for (std::size_t i = 0; i < streamed.size(); ++i) {
        EXPECT_EQ(a->summary.runs[i].status, RunStatus::Complete) << a->summary.runs[i].path;
        EXPECT_EQ(a->summary.runs[i].speedThroughput, streamed[i].speedThroughput);
    }
    // A window the logs were never read for: read again, and the files are gone, so it says
    // so rather than showing figures of another window.
    o.measure = {5, 50};
    l.analysis.setOptions(o);
    ASSERT_TRUE(waitUntil([&] {
        auto c = l.analysis.current();
        return sameMeasure(c->summary.load.measure, o.measure) && !l.analysis.isBusy();
    }));
    for (const auto& r : l.analysis.current()->summary.runs)
        EXPECT_EQ(r.status, RunStatus::Unreadable) << r.path;
}

TEST(AnalysisController, ALogACampaignIsWritingIsRunningNotAProblem) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 1}, {1, 2}};
    spec.repeats = 2;
    writeCampaign(dir.path(), spec);
    // Repeat 2 of 1n2g has 40 of its 120 iterations so far.
    const auto writing = logPath(dir.path(), spec, 1, 2, 2);
    const std::string full = runText(spec, 2, 2);
    std::size_t cut = 0;
    for (int lines = 0; lines < 80; ++lines)
        cut = full.find('\n', cut) + 1;
    writeFile(writing, full.substr(0, cut));
    Loaded l;
    l.loader.open(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    // Without knowing, it is an incomplete run: a warning, and excluded from its case.
    auto a = l.analysis.current();
    ASSERT_EQ(a->summary.warnings.size(), 1u);
    ASSERT_EQ(a->summary.cases.size(), 2u);
    EXPECT_EQ(a->summary.cases[1].excluded.size(), 1u);
    // Told that a campaign is writing it: running, neither a warning nor excluded.
    l.analysis.setLogsInProgress({writing});
    ASSERT_TRUE(waitUntil([&] {
        auto c = l.analysis.current();
        return c && c != a && !l.analysis.isBusy();
    }));
    a = l.analysis.current();
    EXPECT_TRUE(a->summary.warnings.empty());
    EXPECT_TRUE(a->summary.cases[1].excluded.empty());
    EXPECT_EQ(a->summary.cases[1].values.size(), 1u);
    ui::RunTableModel runs;
    runs.setSummary(a->summary);
    int running = 0;
    for (int r = 0; r < runs.rowCount(); ++r)
        running +=
            runs.index(r, ui::RunTableModel::Status).data().toString() == QLatin1String("running");
    EXPECT_EQ(running, 1);
    // The run ends: an incomplete log is a problem again.
    l.analysis.setLogsInProgress({});
    ASSERT_TRUE(waitUntil([&] {
        auto c = l.analysis.current();
        return c && c->summary.warnings.size() == 1u && !l.analysis.isBusy();
    }));
}

TEST(AnalysisController, RefusesAnEmptyWindow) {
    ui::AnalysisController c;
    QSignalSpy invalid(&c, &ui::AnalysisController::invalidOptions);
    ui::AnalysisOptions o;
    o.measure = {50, 40};
    c.setOptions(o);
    EXPECT_EQ(invalid.count(), 1);
    EXPECT_EQ(c.options().measure.warmup, 20);
}

TEST(LiveController, NewAndGrowingLogsUpdateTheAnalysis) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    writeCampaign(dir.path(), spec);
    // A run in progress: 40 of 120 iterations so far.
    const std::string full = runText(spec, 2, 1);
    const auto growing = logPath(dir.path(), spec, 1, 2, 1);
    const std::size_t cut = full.find("Batch [40-40]");
    const std::size_t lineStart = full.rfind('\n', cut) + 1;
    writeFile(growing, full.substr(0, lineStart));

    Loaded l;
    ui::LiveController live;
    live.setDebounce(100);
    QObject::connect(&live, &ui::LiveController::snapshotReady, &l.analysis,
                     &ui::AnalysisController::setSnapshot);
    l.loader.open(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    ASSERT_EQ(l.analysis.current()->summary.runs.size(), 4u);
    EXPECT_EQ(l.analysis.current()->summary.runs[3].status, RunStatus::Incomplete);
    QSignalSpy looked(&live, &ui::LiveController::refreshed);
    live.start(l.loader.snapshot());
    ASSERT_TRUE(looked.wait(5000)); // the first look sets up the watches
    EXPECT_FALSE(live.isPolling()); // a local directory: inotify sees its changes
    EXPECT_TRUE(live.remoteFileSystem().isEmpty());

    // The run finishes, and a new repeat appears.
    {
        std::ofstream out(growing, std::ios::app | std::ios::binary);
        out << full.substr(lineStart);
    }
    writeFile(logPath(dir.path(), spec, 1, 2, 2), runText(spec, 2, 2));
    ASSERT_TRUE(waitUntil(
        [&] {
            auto a = l.analysis.current();
            return a->summary.runs.size() == 5u && a->summary.runs[3].status == RunStatus::Complete;
        },
        5000))
        << "runs: " << l.analysis.current()->summary.runs.size();
    EXPECT_EQ(l.analysis.current()->summary.cases.back().values.size(), 2u);
}

namespace {

// A directory loaded while one of its runs was 40 iterations in; returns the growing log's path
// and the text it is missing.
struct GrowingRun {
    TempDir dir;
    CampaignSpec spec;
    std::filesystem::path growing;
    std::string rest;
    GrowingRun() {
        spec.topologies = {{1, 1}};
        spec.repeats = 1;
        writeCampaign(dir.path(), spec);
        const std::string full = runText(spec, 2, 1);
        growing = logPath(dir.path(), spec, 1, 2, 1);
        const std::size_t lineStart = full.rfind('\n', full.find("Batch [40-40]")) + 1;
        writeFile(growing, full.substr(0, lineStart));
        rest = full.substr(lineStart);
    }
    void finish() const {
        std::ofstream out(growing, std::ios::app | std::ios::binary);
        out << rest;
    }
    bool complete(const ui::AnalysisController& analysis) const {
        auto a = analysis.current();
        return a && a->summary.runs.size() == 2u &&
               a->summary.runs[1].status == RunStatus::Complete;
    }
};

} // namespace

TEST(LiveController, BytesAppendedBetweenTheLoadAndTheFirstLookAreRead) {
    GrowingRun run;
    Loaded l;
    l.loader.open(QString::fromStdString(run.dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    ASSERT_EQ(l.analysis.current()->summary.runs[1].status, RunStatus::Incomplete);
    // The run ends after the load read it, before Live looks: no file event will ever say so.
    run.finish();
    ui::LiveController live;
    live.setFileSystemEvents(false);
    QObject::connect(&live, &ui::LiveController::snapshotReady, &l.analysis,
                     &ui::AnalysisController::setSnapshot);
    QSignalSpy looked(&live, &ui::LiveController::refreshed);
    live.start(l.loader.snapshot());
    ASSERT_TRUE(looked.wait(5000));
    ASSERT_TRUE(waitUntil([&] { return run.complete(l.analysis) && !l.analysis.isBusy(); }, 5000))
        << l.analysis.current()->summary.runs[1].reason;
}

TEST(LiveController, PollingFindsWhatNoFileEventReports) {
    GrowingRun run;
    Loaded l;
    l.loader.open(QString::fromStdString(run.dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    ui::LiveController live;
    // As on NFS or Lustre written by another host: inotify reports nothing.
    live.setFileSystemEvents(false);
    live.setPolling(ui::LiveController::Polling::Always);
    live.setPollInterval(100);
    QObject::connect(&live, &ui::LiveController::snapshotReady, &l.analysis,
                     &ui::AnalysisController::setSnapshot);
    QSignalSpy looked(&live, &ui::LiveController::refreshed);
    live.start(l.loader.snapshot());
    ASSERT_TRUE(looked.wait(5000));
    EXPECT_TRUE(live.isPolling());
    run.finish();
    writeFile(logPath(run.dir.path(), run.spec, 1, 2, 2), runText(run.spec, 2, 2));
    ASSERT_TRUE(waitUntil(
        [&] {
            auto a = l.analysis.current();
            return a->summary.runs.size() == 3u && a->summary.runs[1].status == RunStatus::Complete;
        },
        5000))
        << "runs: " << l.analysis.current()->summary.runs.size();
    live.stop();
    EXPECT_FALSE(live.isPolling());
}

TEST(LiveController, RefreshNowLooksOnceWithoutFollowing) {
    GrowingRun run;
    Loaded l;
    l.loader.open(QString::fromStdString(run.dir.path().string()));
    ASSERT_TRUE(l.waitComplete());
    ui::LiveController live;
    QObject::connect(&live, &ui::LiveController::snapshotReady, &l.analysis,
                     &ui::AnalysisController::setSnapshot);
    run.finish();
    QSignalSpy looked(&live, &ui::LiveController::refreshed);
    live.refreshNow(l.loader.snapshot());
    ASSERT_TRUE(looked.wait(5000));
    EXPECT_FALSE(live.isActive()); // one look, no watches left behind
    ASSERT_TRUE(waitUntil([&] { return run.complete(l.analysis) && !l.analysis.isBusy(); }, 5000));
}

TEST(RemoteFileSystem, NetworkAndClusterMountsAreToldApart) {
    EXPECT_EQ(ui::remoteFileSystemName(0x6969), "nfs");
    EXPECT_EQ(ui::remoteFileSystemName(0x0BD00BD0), "lustre");
    EXPECT_EQ(ui::remoteFileSystemName(0xFF534D42), "cifs");
    EXPECT_EQ(ui::remoteFileSystemName(0x65735546), "fuse");
    EXPECT_EQ(ui::remoteFileSystemName(0xEF53), "");     // ext4
    EXPECT_EQ(ui::remoteFileSystemName(0x01021994), ""); // tmpfs
    TempDir local;
    EXPECT_EQ(ui::remoteFileSystem(local.path()), "");
}

TEST(ConsoleFeed, ShowsWholeLinesAndOnlyATailOfAFlood) {
    ui::ConsoleFeed feed;
    QStringList shown;
    QObject::connect(&feed, &ui::ConsoleFeed::text, [&](const QString& t) { shown << t; });
    // A line split across chunks, a multi-byte character split too, then nothing until the
    // line ends: the console never shows half a line.
    feed.append("first li");
    feed.append("ne\nsecond \xe2\x82");
    ASSERT_TRUE(waitUntil([&] { return !shown.isEmpty(); }, 2000));
    EXPECT_EQ(shown, QStringList{QStringLiteral("first line")});
    feed.append("\xac\n");
    ASSERT_TRUE(waitUntil([&] { return shown.size() == 2; }, 2000));
    EXPECT_EQ(shown[1], QStringLiteral("second €"));

    // 2 MB at once: one update with a note, the newest lines, bounded.
    shown.clear();
    QByteArray flood;
    for (int i = 0; i < 40000; ++i)
        flood += "line " + QByteArray::number(i) + " of a chatty run, padded to fifty bytes\n";
    feed.append(flood);
    feed.flush();
    ASSERT_EQ(shown.size(), 1);
    EXPECT_TRUE(shown[0].startsWith(QStringLiteral("[… earlier output skipped")));
    EXPECT_TRUE(
        shown[0].endsWith(QStringLiteral("line 39999 of a chatty run, padded to fifty bytes")));
    EXPECT_LT(shown[0].size(), 70 * 1024);
    // flush() also shows an unfinished last line.
    feed.append("no newline yet");
    feed.flush();
    EXPECT_EQ(shown.back(), QStringLiteral("no newline yet"));
}

namespace {
bool sameWindow(const MeasureOptions& a, const MeasureOptions& b) {
    return a.warmup == b.warmup && a.iterations == b.iterations;
}
} // namespace

// Issue 15: a window set once followed every directory opened later, and the next start. Each
// directory has its own: a run end's, else the user's choice for it, else its campaign's, else
// DLPerf's; what the user sets is remembered for that directory alone.
TEST(DirectoryWindow, EachDirectoryIsMeasuredWithItsOwnWindow) {
    QTemporaryDir config;
    ui::AppSettings settings(config.filePath(QStringLiteral("scaleview.ini")));
    ui::DirectoryWindow window(&settings);
    const QString campaignLogs = QStringLiteral("/c/logs"), plain = QStringLiteral("/plain");
    CampaignWindowLookup campaign;
    campaign.window = CampaignWindow{{5, 60}, "/c/campaign.json"};

    auto c = window.open(campaignLogs, campaign);
    EXPECT_EQ(c.source, ui::WindowSource::Campaign);
    EXPECT_TRUE(sameWindow(c.measure, {5, 60}));
    EXPECT_EQ(c.campaignFile, QStringLiteral("/c/campaign.json"));
    c = window.open(plain, {});
    EXPECT_EQ(c.source, ui::WindowSource::Dlperf);
    EXPECT_TRUE(c.measure.formatDefaults); // each log over its format's DLPerf window
    c = window.set({10, 30});
    EXPECT_EQ(c.source, ui::WindowSource::User);
    ASSERT_TRUE(settings.windowFor(plain));
    EXPECT_TRUE(sameWindow(*settings.windowFor(plain), {10, 30}));

    c = window.open(campaignLogs, campaign);
    EXPECT_EQ(c.source, ui::WindowSource::Campaign);
    EXPECT_TRUE(sameWindow(c.measure, {5, 60}));
    c = window.set({20, 120}); // DLPerf's, asked for in a campaign's directory: the user's
    EXPECT_EQ(c.source, ui::WindowSource::User);
    EXPECT_TRUE(settings.windowFor(campaignLogs));
    // Reset to each format's DLPerf window in a campaign's directory: the user's, remembered.
    c = window.set(ui::formatDefaults());
    EXPECT_EQ(c.source, ui::WindowSource::User);
    ASSERT_TRUE(settings.windowFor(campaignLogs));
    EXPECT_TRUE(settings.windowFor(campaignLogs)->formatDefaults);
    c = window.set({5, 60}); // back to the campaign's own: nothing to remember
    EXPECT_EQ(c.source, ui::WindowSource::Campaign);
    EXPECT_FALSE(settings.windowFor(campaignLogs));
    window.set({20, 120});
    c = window.useCampaign({5, 60}); // the campaign opened: its window, the user's forgotten
    EXPECT_EQ(c.source, ui::WindowSource::Campaign);
    EXPECT_FALSE(settings.windowFor(campaignLogs));

    // Another session reads what this one chose.
    ui::DirectoryWindow restarted(&settings);
    c = restarted.open(plain, {});
    EXPECT_EQ(c.source, ui::WindowSource::User);
    EXPECT_TRUE(sameWindow(c.measure, {10, 30}));
    c = restarted.set({20, 120}); // NGC MXNet's numbers, typed: still a window for every log
    EXPECT_EQ(c.source, ui::WindowSource::User);
    c = restarted.set(ui::formatDefaults()); // reset to DLPerf's: each format's own
    EXPECT_EQ(c.source, ui::WindowSource::Dlperf);
    EXPECT_FALSE(settings.windowFor(plain));

    // A run end's window measures the next directory opened, once; the campaign's is not
    // remembered as the user's, the user's is.
    restarted.setNext({2, 8}, ui::WindowSource::Campaign);
    c = restarted.open(plain, {});
    EXPECT_EQ(c.source, ui::WindowSource::Campaign);
    EXPECT_TRUE(sameWindow(c.measure, {2, 8}));
    EXPECT_FALSE(settings.windowFor(plain));
    EXPECT_EQ(restarted.open(plain, {}).source, ui::WindowSource::Dlperf);
    restarted.setNext({3, 9}, ui::WindowSource::User);
    EXPECT_EQ(restarted.open(QStringLiteral("/x"), {}).source, ui::WindowSource::User);
    EXPECT_TRUE(settings.windowFor(QStringLiteral("/x")));
    restarted.setNext({3, 9}, ui::WindowSource::Campaign);
    restarted.dropNext(); // the open it was for failed
    EXPECT_EQ(restarted.open(plain, {}).source, ui::WindowSource::Dlperf);
    // With nothing open, a window set is nobody's.
    ui::DirectoryWindow fresh(&settings);
    EXPECT_EQ(fresh.set({7, 70}).source, ui::WindowSource::Dlperf);
}

// The settings file is the user's: a broken entry is as if never chosen; paths with spaces work.
TEST(DirectoryWindow, BrokenRememberedWindowsAreIgnored) {
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    {
        QSettings raw(ini, QSettings::IniFormat);
        raw.setValue(QStringLiteral("analysis/windows"),
                     QStringList{QStringLiteral("x y /a"), QStringLiteral("50 30 /b"),
                                 QStringLiteral("5"), QStringLiteral("5 60 /c d")});
        raw.setValue(QStringLiteral("analysis/warmup"), 5); // an older version's global window
        raw.setValue(QStringLiteral("analysis/iterations"), 20);
    }
    ui::AppSettings settings(ini);
    EXPECT_FALSE(settings.windowFor(QStringLiteral("/a")));
    EXPECT_FALSE(settings.windowFor(QStringLiteral("/b")));
    ASSERT_TRUE(settings.windowFor(QStringLiteral("/c d")));
    EXPECT_TRUE(sameWindow(*settings.windowFor(QStringLiteral("/c d")), {5, 60}));
    EXPECT_TRUE(sameWindow(settings.analysisOptions().measure, {20, 120}));
}
