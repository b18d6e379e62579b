// Blocking work that never ends, in this process: /proc scans stuck on a process in the kernel
// must not hold the journal's records (the campaign still ends, every run recorded), and a log
// that cannot be made durable is never recorded ok.

#include "tests/launcher/launchertest.h"
#include "tests/launcher/qtloop.h"

#include "launcher/campaign/campaign.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/exec/processtree.h"
#include "launcher/runner/runner.h"
#include "launcher/runner/runrecorder.h"

#include <gtest/gtest.h>
#include <cerrno>
#include <condition_variable>
#include <mutex>

using namespace sv::launcher;
using sv::test::waitFor;

namespace {

// The shared tiny campaign, without a cooldown and with a short connect timeout.
Campaign stuckCampaign(const std::string& profile, const std::string& out, int repeats) {
    Campaign c = sv::test::fakeCampaign(profile, out, repeats);
    c.cooldownSeconds = 0;
    c.connectTimeoutSeconds = 1;
    return c;
}

// Every find() blocks until released, as a read of a hung mount's process environ would.
struct StuckScans {
    std::mutex mutex;
    std::condition_variable released;
    bool stuck = true;
    StuckScans() {
        ProcessTree::setScanHook([this] {
            std::unique_lock lock(mutex);
            released.wait(lock, [this] { return !stuck; });
        });
    }
    ~StuckScans() {
        ProcessTree::setScanHook(nullptr);
        std::lock_guard lock(mutex);
        stuck = false;
        released.notify_all();
    }
};

int failingSync(int) {
    errno = EIO;
    return -1;
}

} // namespace

TEST(StuckWork, ScansStuckInTheKernelDoNotHoldTheJournalTheCampaignEndsRecorded) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("stuckscans");
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {"--interval", "0.01"}), &error);
    ASSERT_TRUE(profile) << error;
    StuckScans stuck;
    // More stuck scans than any pool has threads, as many run ends' sweeps would leave.
    int answered = 0;
    for (int i = 0; i < 12; ++i)
        ProcessTree("nobody").inBackground(0, 0, &loop.app, std::chrono::milliseconds(100),
                                           [&](ProcessTree::Scan s) { answered += !s.finished; });
    ASSERT_TRUE(waitFor([&] { return answered == 12; }, 5000)) << answered;
    const std::string out = dir + "/out";
    Runner runner(stuckCampaign(dir + "/fake-profile.json", out, 3), *profile);
    ASSERT_TRUE(runner.prepare(false, &error)) << error;
    std::optional<CampaignEnd> end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) { end = e; });
    runner.start();
    ASSERT_TRUE(waitFor([&] { return end.has_value(); }, 60000))
        << sv::test::readWhole(out + "/journal.jsonl");
    EXPECT_EQ(end->outcome, CampaignEnd::Outcome::Done) << end->reason;
    const auto ends = sv::test::journalEnds(out);
    ASSERT_EQ(ends.size(), 3u) << sv::test::readWhole(out + "/journal.jsonl");
    for (const auto& e : ends)
        EXPECT_EQ(e["state"], "ok") << e.dump();
    std::filesystem::remove_all(dir);
}

TEST(StuckWork, ALogThatCannotBeSyncedIsRecordedFailedNeverOk) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("syncfail");
    std::string error;
    auto profile = loadProfile(sv::test::writeFakeProfile(dir, {"--interval", "0.01"}), &error);
    ASSERT_TRUE(profile) << error;
    RunRecorder::setSyncFunction(&failingSync);
    const std::string out = dir + "/out";
    Runner runner(stuckCampaign(dir + "/fake-profile.json", out, 1), *profile);
    ASSERT_TRUE(runner.prepare(false, &error)) << error;
    std::optional<CampaignEnd> end;
    QObject::connect(&runner, &Runner::finished, [&](const CampaignEnd& e) { end = e; });
    runner.start();
    const bool ended = waitFor([&] { return end.has_value(); }, 60000);
    RunRecorder::setSyncFunction(nullptr);
    ASSERT_TRUE(ended);
    EXPECT_EQ(runner.state(0), RunState::Failed);
    const auto ends = sv::test::journalEnds(out);
    ASSERT_EQ(ends.size(), 1u) << sv::test::readWhole(out + "/journal.jsonl");
    EXPECT_EQ(ends[0]["state"], "failed");
    const std::string reason = ends[0]["reason"].get<std::string>();
    EXPECT_NE(reason.find("cannot write the log "), std::string::npos) << reason;
    EXPECT_NE(reason.find("to disk: Input/output error"), std::string::npos) << reason;
    std::filesystem::remove_all(dir);
}
