// The campaign session both front ends call: what refuses a campaign at once, the order of its
// steps on a real campaign (the fake workload under mpirun), the history's rule (a campaign
// goes to the recording step once when it had every run's turn and an ok run, never after a
// cancel or a failure), a cancel before the first run, and a slow-node search with nothing to
// search. The command line's run and the Run tab are tested through their own front ends.

#include "tests/launcher/launchertest.h"
#include "tests/launcher/qtloop.h"

#include "launcher/campaign/campaign.h"
#include "launcher/session/campaignsession.h"
#include "launcher/session/slownodesession.h"

#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

using namespace sv::launcher;
using sv::test::fakeCampaign;
using sv::test::waitFor;

namespace {

// Everything a session said, in order, as words a test can compare.
struct Recorded {
    std::vector<std::string> steps;
    std::vector<std::string> recorded; // directories handed to the recording step
    std::optional<SessionEnd> end;

    void follow(CampaignSession& s) {
        QObject::connect(&s, &CampaignSession::prepared, [this] { steps.push_back("prepared"); });
        QObject::connect(&s, &CampaignSession::capturingEnvironment,
                         [this](auto) { steps.push_back("capturing"); });
        QObject::connect(&s, &CampaignSession::environmentCaptured,
                         [this](int, const auto&) { steps.push_back("captured"); });
        QObject::connect(&s, &CampaignSession::runStarted,
                         [this](int i, const QString&, const QString&) {
                             steps.push_back("run " + std::to_string(i));
                         });
        QObject::connect(
            &s, &CampaignSession::runsEnded, [this](const CampaignEnd&, int ok, int n) {
                steps.push_back("ended " + std::to_string(ok) + "/" + std::to_string(n));
            });
        QObject::connect(&s, &CampaignSession::finished, [this](const SessionEnd& e) { end = e; });
    }
    // A session of c, followed from its start; null (and a test failure) when it is refused.
    std::unique_ptr<CampaignSession> start(const Campaign& c) {
        std::vector<std::string> refusal;
        auto session = CampaignSession::create(c, options(), &refusal);
        EXPECT_NE(session, nullptr) << (refusal.empty() ? "" : refusal.front());
        if (!session) return nullptr;
        follow(*session);
        session->start();
        return session;
    }
    SessionOptions options() {
        SessionOptions o;
        o.version = "test";
        o.record = [this](const std::string& dir) {
            recorded.push_back(dir);
            steps.push_back("recorded");
        };
        return o;
    }
};

} // namespace

TEST(CampaignSession, RefusesAtOnceWithEveryReasonAndStartsNothing) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("session-refused");
    Campaign c = fakeCampaign(sv::test::writeFakeProfile(dir, {}), dir + "/out", 1);
    c.batchSizes = {};
    c.iterations = 0;
    std::vector<std::string> refusal;
    EXPECT_EQ(CampaignSession::create(c, {}, &refusal), nullptr);
    ASSERT_GE(refusal.size(), 2u);
    EXPECT_NE(refusal[0].find("batchSizes"), std::string::npos) << refusal[0];
    EXPECT_FALSE(std::filesystem::exists(dir + "/out"));

    // A valid campaign whose directory holds a journal needs resume.
    c = fakeCampaign(dir + "/fake-profile.json", dir + "/out", 1);
    std::filesystem::create_directories(dir + "/out");
    std::ofstream(dir + "/out/journal.jsonl") << "";
    EXPECT_EQ(CampaignSession::create(c, {}, &refusal), nullptr);
    ASSERT_EQ(refusal.size(), 1u);
    EXPECT_NE(refusal[0].find("already holds a campaign"), std::string::npos) << refusal[0];
    SessionOptions resume;
    resume.resume = true;
    EXPECT_NE(CampaignSession::create(c, resume, &refusal), nullptr);
    EXPECT_TRUE(refusal.empty());
    std::filesystem::remove_all(dir);
}

TEST(CampaignSession, TheHistoryTakesACampaignThatHadEveryRunsTurnAndAnOkRun) {
    using O = CampaignEnd::Outcome;
    EXPECT_TRUE(CampaignSession::recordable({O::Done, {}}, 1));
    EXPECT_FALSE(CampaignSession::recordable({O::Done, {}}, 0));
    EXPECT_FALSE(CampaignSession::recordable({O::Cancelled, {}}, 3));
    EXPECT_FALSE(CampaignSession::recordable({O::Failed, "disk full"}, 3));
}

TEST(CampaignSession, RunsEachStepInOrderAndRecordsTheCampaignOnce) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("session-run");
    const Campaign c =
        fakeCampaign(sv::test::writeFakeProfile(dir, {"--interval", "0.01"}), dir + "/out", 2);
    Recorded r;
    auto session = r.start(c);
    ASSERT_NE(session, nullptr);
    ASSERT_TRUE(waitFor([&] { return r.end.has_value(); }, 90000));
    EXPECT_EQ(r.steps, (std::vector<std::string>{"prepared", "capturing", "captured", "run 0",
                                                 "run 1", "ended 2/2", "recorded"}));
    EXPECT_EQ(r.recorded, std::vector<std::string>{c.outputDir});
    EXPECT_TRUE(r.end->prepared);
    EXPECT_TRUE(r.end->recorded);
    EXPECT_EQ(r.end->campaign.outcome, CampaignEnd::Outcome::Done);
    EXPECT_EQ(r.end->ok, 2);
    EXPECT_EQ(r.end->total, 2);
    EXPECT_FALSE(r.end->slowNode);
    EXPECT_EQ(session->stage(), CampaignSession::Stage::Done);
    // The environment was captured beside the logs, as part of the session.
    EXPECT_FALSE(std::filesystem::is_empty(dir + "/out/environment"));
    std::filesystem::remove_all(dir);
}

TEST(CampaignSession, ACancelBeforeTheFirstRunEndsItAtOnceAndRecordsNothing) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("session-cancel");
    const Campaign c = fakeCampaign(sv::test::writeFakeProfile(dir, {}), dir + "/out", 1);
    Recorded r;
    auto session = r.start(c);
    ASSERT_NE(session, nullptr);
    session->cancel();
    EXPECT_FALSE(r.end) << "finished() comes from the event loop, not inside cancel()";
    ASSERT_TRUE(waitFor([&] { return r.end.has_value(); }, 10000));
    EXPECT_EQ(r.end->campaign.outcome, CampaignEnd::Outcome::Cancelled);
    EXPECT_FALSE(r.end->recorded);
    EXPECT_TRUE(r.recorded.empty());
    EXPECT_EQ(r.end->ok, 0);
    EXPECT_EQ(r.end->total, 1); // the plan, though none of it ran
    for (const auto& step : r.steps)
        EXPECT_EQ(step.rfind("run ", 0), std::string::npos) << "a run started: " << step;
    // What the preparation or the capture answers later is dropped: nothing more is said.
    const auto said = r.steps.size();
    waitFor([] { return false; }, 1500);
    EXPECT_EQ(r.steps.size(), said);
    std::filesystem::remove_all(dir);
}

TEST(CampaignSession, ACampaignWithoutAnOkRunIsNotRecorded) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("session-failed-run");
    // Its one rank exits 3 before a speed line: no ok run, nothing for the history.
    const Campaign c = fakeCampaign(
        sv::test::writeFakeProfile(dir, {"--fail-rank", "0", "--fail-at", "0"}), dir + "/out", 1);
    Recorded r;
    auto session = r.start(c);
    ASSERT_NE(session, nullptr);
    ASSERT_TRUE(waitFor([&] { return r.end.has_value(); }, 60000));
    EXPECT_EQ(r.end->campaign.outcome, CampaignEnd::Outcome::Done);
    EXPECT_EQ(r.end->ok, 0);
    EXPECT_FALSE(r.end->recorded);
    EXPECT_TRUE(r.recorded.empty());
    std::filesystem::remove_all(dir);
}

TEST(SlowNodeSession, ACampaignWithNoMultiNodeCaseSaysSoAndProbesNothing) {
    sv::test::EventLoop loop;
    const std::string dir = sv::test::tempDir("session-slow");
    const Campaign c = fakeCampaign(sv::test::writeFakeProfile(dir, {}), dir + "/out", 1);
    std::string error;
    const auto profile = loadProfile(c.profile, &error);
    ASSERT_TRUE(profile) << error;
    SlowNodeSession search;
    bool planned = false;
    std::optional<SlowNodeReport> report;
    QObject::connect(&search, &SlowNodeSession::planned, [&](const auto&) { planned = true; });
    QObject::connect(&search, &SlowNodeSession::finished,
                     [&](const SlowNodeReport& r) { report = r; });
    search.start(c, *profile, {});
    ASSERT_TRUE(waitFor([&] { return report.has_value(); }, 10000));
    EXPECT_FALSE(planned);
    EXPECT_TRUE(report->failed());
    EXPECT_NE(report->plan.error.find("no multi-node topology"), std::string::npos)
        << report->plan.error;
    EXPECT_FALSE(std::filesystem::exists(dir + "/out/journal.jsonl"));
    std::filesystem::remove_all(dir);
}
