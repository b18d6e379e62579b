// Adaptive repeats: the stopping rule on generated throughputs, the schedule over a campaign
// (order, reruns of disturbed and failed runs, resume), the ETA range, the campaign's JSON and
// options; then real campaigns of the fake workload through scaleview-cli, and a kill -9.

#include "tests/launcher/launchertest.h"

#include "core/stats/confidence.h"
#include "launcher/campaign/adaptiverepeats.h"
#include "launcher/campaign/adaptiveschedule.h"
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/campaign/workloadprofile.h"
#include "launcher/monitor/monitorsummary.h"

#include <csignal>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <thread>

using namespace sv::launcher;
using sv::test::journalEnds;
using sv::test::kCli;
using sv::test::runProcess;

namespace {

const std::uint64_t kSeed = sv::seedFor("r50/fp32/16/1n1g");

RepeatsPolicy policy(int min, int max, double target, int rerunLimit = 3) {
    return RepeatsPolicy{min, max, target, rerunLimit};
}

// Runs the stopping rule the way the launcher does, one repeat at a time over `values`; the
// verdict at the stop and how many repeats it took.
std::pair<CaseVerdict, int> runCase(const std::vector<double>& values, const RepeatsPolicy& p) {
    CaseTally t;
    for (double v : values) {
        t.counted.push_back(v);
        if (static_cast<int>(t.counted.size()) < p.min) continue;
        const CaseVerdict verdict = judgeCase(t, p, kSeed);
        if (verdict.next == CaseVerdict::Next::Stop)
            return {verdict, static_cast<int>(t.counted.size())};
        EXPECT_EQ(verdict.next, CaseVerdict::Next::Run);
    }
    return {CaseVerdict{}, -1};
}

} // namespace

TEST(AdaptiveRule, AQuietCaseStopsAtTheMinimum) {
    const auto [v, n] = runCase({400.0, 401.0, 399.5, 400.2, 400.1}, policy(3, 15, 2.0));
    EXPECT_EQ(n, 3);
    ASSERT_TRUE(v.ciPct);
    EXPECT_LT(*v.ciPct, 2.0);
    EXPECT_EQ(v.reason, "interval ±" + formatPct(*v.ciPct) + " % within 2 % after 3 repeats");
}

TEST(AdaptiveRule, ANoisyCaseGrowsUntilTheMaximumAndSaysSo) {
    std::vector<double> noisy;
    for (int i = 0; i < 20; ++i)
        noisy.push_back(i % 2 ? 300.0 + 7 * i : 420.0 - 5 * i); // ±20 %, never settling
    const auto [v, n] = runCase(noisy, policy(3, 15, 2.0));
    EXPECT_EQ(n, 15);
    ASSERT_TRUE(v.ciPct);
    EXPECT_GT(*v.ciPct, 2.0);
    EXPECT_EQ(v.reason, "maximum of 15 repeats reached, interval ±" + formatPct(*v.ciPct) + " %");
}

// A percentile bootstrap of the median spans the smallest to the largest value up to five
// repeats (a value drawn three times of five has a 5.8 % chance), so one early outlier keeps
// the interval wide until the seventh repeat, where it falls outside (1.6 %): the case stops
// there, not at the minimum and not at the maximum.
TEST(AdaptiveRule, ACaseThatTightensStopsAsSoonAsItsIntervalIsWithinTheTarget) {
    const std::vector<double> values{360.0, 400.0, 401.0, 399.0, 400.5, 399.5, 400.2, 400.0};
    const auto [v, n] = runCase(values, policy(3, 15, 1.0));
    EXPECT_EQ(n, 7);
    // The independent check: below 7 the interval reaches down to the outlier.
    const std::vector<double> six(values.begin(), values.begin() + 6);
    const auto ci6 = sv::bootstrapMedianCi(six, kSeed);
    ASSERT_TRUE(ci6);
    EXPECT_LT(ci6->lo, 399.0);
    EXPECT_NE(v.reason.find("after 7 repeats"), std::string::npos) << v.reason;
}

TEST(AdaptiveRule, RunsThatDoNotCountAreRerunUpToTheLimit) {
    CaseTally t;
    t.counted = {400.0, 401.0};
    t.notCounted = 3;
    EXPECT_EQ(judgeCase(t, policy(3, 15, 2.0, 3), kSeed).next, CaseVerdict::Next::Run);
    t.notCounted = 4;
    const CaseVerdict v = judgeCase(t, policy(3, 15, 2.0, 3), kSeed);
    EXPECT_EQ(v.next, CaseVerdict::Next::Stop);
    EXPECT_NE(v.reason.find("4 runs did not count"), std::string::npos) << v.reason;
    EXPECT_NE(v.reason.find("2 repeats counted"), std::string::npos) << v.reason;
    // While one of its runs is still going, a case is not judged.
    t.unfinished = 1;
    EXPECT_EQ(judgeCase(t, policy(3, 15, 2.0, 3), kSeed).next, CaseVerdict::Next::Wait);
}

TEST(AdaptiveRule, RemainingRunsRangeFromTheMinimumToTheMaximumWithReruns) {
    // Nothing run yet: 3 planned, one of them running now.
    CaseTally t;
    t.unfinished = 3;
    RunRange r = remainingRuns(t, policy(3, 15, 2.0, 3), false, true);
    EXPECT_EQ(r.least, 2);
    EXPECT_EQ(r.most, 15 + 3 - 1); // every run to 15 counted, 3 reruns, less the current one
    // Past the minimum, waiting for a top-up: at least one more.
    t = CaseTally{{400, 401, 402}, 0, 0};
    r = remainingRuns(t, policy(3, 15, 2.0, 3), false, false);
    EXPECT_EQ(r.least, 1);
    EXPECT_EQ(r.most, 12 + 3);
    // Stopped: none.
    r = remainingRuns(t, policy(3, 15, 2.0, 3), true, false);
    EXPECT_EQ(r.least, 0);
    EXPECT_EQ(r.most, 0);
}

TEST(AdaptiveEta, TheCampaignEtaIsARangeInMinutes) {
    RunProgress p;
    p.iteration = 10;
    p.iterations = 40;
    // 10 iterations in 20 s: 60 s left in this run; runs of 120 s plus 30 s cooldown.
    estimateEtas(p, 20.0, 30.0, 4, 16, 120.0, 30);
    EXPECT_DOUBLE_EQ(p.runEtaSeconds, 60.0);
    EXPECT_DOUBLE_EQ(p.campaignEtaSeconds, 60.0 + 4 * 150.0);
    EXPECT_DOUBLE_EQ(p.campaignEtaMaxSeconds, 60.0 + 16 * 150.0);
    EXPECT_EQ(etaRangeText(p.campaignEtaSeconds, p.campaignEtaMaxSeconds), "11–41 min");
    EXPECT_EQ(etaRangeText(600, 600), "10 min");
    EXPECT_EQ(etaRangeText(45 * 60, 90 * 60), "45 min–1 h 30 min");
    EXPECT_EQ(etaRangeText(-1, -1), "?");
    // Fixed repeats: no range.
    estimateEtas(p, 20.0, 30.0, 4, 120.0, 30);
    EXPECT_DOUBLE_EQ(p.campaignEtaMaxSeconds, p.campaignEtaSeconds);
}

TEST(AdaptiveCampaign, RepeatsRangeAndTargetReadAndWriteAsJson) {
    std::string error;
    auto c = campaignFromJson(R"({"topologies": ["1n1g"], "batchSizes": [16], "outputDir": "/tmp/x",
                                  "repeats": {"min": 3, "max": 15}, "targetCiPct": 2.0})",
                              &error);
    ASSERT_TRUE(c) << error;
    EXPECT_EQ(c->repeats, 3);
    EXPECT_EQ(c->maxRepeats(), 15);
    EXPECT_TRUE(c->adaptive());
    EXPECT_TRUE(c->validate().empty());
    auto back = campaignFromJson(campaignToJson(*c), &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->repeats, 3);
    EXPECT_EQ(back->repeatsMax, 15);
    EXPECT_EQ(back->targetCiPct, 2.0);
    // A fixed count stays a number.
    c->repeatsMax = 0;
    c->targetCiPct = 0;
    EXPECT_NE(campaignToJson(*c).find("\"repeats\": 3"), std::string::npos);
    // A range without a target has nothing to stop at; a typo in the object is refused.
    c->repeatsMax = 9;
    ASSERT_EQ(c->validate().size(), 1u);
    EXPECT_NE(c->validate()[0].find("needs a target interval"), std::string::npos);
    EXPECT_FALSE(campaignFromJson(R"({"repeats": {"min": 3, "maks": 5}})", &error));
    EXPECT_NE(error.find("unknown key 'maks'"), std::string::npos) << error;
}

namespace {

struct ScheduleFixture {
    Campaign campaign;
    WorkloadProfile profile;
    std::vector<PlannedRun> runs;
    std::vector<RunState> states;
    std::unique_ptr<AdaptiveSchedule> schedule;

    explicit ScheduleFixture(const std::string& out) {
        campaign.topologies = {*sv::parseTopology("1n1g"), *sv::parseTopology("1n2g")};
        campaign.batchSizes = {16};
        campaign.repeats = 2;
        campaign.repeatsMax = 4;
        campaign.targetCiPct = 1.0;
        campaign.rerunLimit = 1;
        campaign.outputDir = out;
        std::string error;
        profile = *loadProfile("local-cpu-rn50", &error);
        runs = planRuns(campaign, profile);
        states.assign(runs.size(), RunState::Pending);
        schedule = std::make_unique<AdaptiveSchedule>(campaign, profile);
    }
    void end(std::size_t i, RunState state, std::optional<double> value, bool disturbed = false) {
        states[i] = state;
        RunEnd e;
        e.state = state;
        e.timeThroughput = value;
        e.disturbed = disturbed;
        schedule->ended(runs[i].id, e);
    }
    // Adds the schedule's next run to the plan; its id.
    std::string topUp() {
        auto step = schedule->next(runs, states);
        if (!step.run) return {};
        runs.push_back(*step.run);
        states.push_back(RunState::Pending);
        return step.run->id;
    }
};

} // namespace

TEST(AdaptiveSchedule, TopUpsGoRoundTheCasesAndDisturbedOrFailedRunsAreRerun) {
    ScheduleFixture f("/tmp/sv-adaptive-unused");
    ASSERT_EQ(f.runs.size(), 4u); // the minimum of both cases, planned first
    f.end(0, RunState::Ok, 100.0);
    f.end(1, RunState::Ok, 110.0); // 1n1g: ±5 %, needs more
    f.end(2, RunState::Ok, 200.0);
    f.end(3, RunState::Failed, std::nullopt); // 1n2g: one counts, one to rerun
    // 1n2g has had as many runs as 1n1g; the plan's order breaks the tie.
    EXPECT_EQ(f.topUp(), "bz16/1n1g/r50_b16_fp32_3");
    f.end(4, RunState::Ok, 104.0);
    // Now 1n2g has fewer runs: its turn, with the next repeat number (never a used one).
    EXPECT_EQ(f.topUp(), "bz16/1n2g/r50_b16_fp32_3");
    f.end(5, RunState::Ok, 201.0, /*disturbed=*/true);
    EXPECT_EQ(f.schedule->tally("bz16/1n2g/r50_b16_fp32", f.runs, f.states).notCounted, 2);
    // 1n2g: two runs did not count, more than the limit of 1: it stops with that reason.
    auto step = f.schedule->next(f.runs, f.states);
    ASSERT_EQ(step.stops.size(), 1u);
    EXPECT_EQ(step.stops[0].caseId, "bz16/1n2g/r50_b16_fp32");
    EXPECT_NE(step.stops[0].reason.find("2 runs did not count"), std::string::npos);
    EXPECT_NE(step.stops[0].reason.find("1 repeat counted"), std::string::npos);
    ASSERT_TRUE(step.run);
    EXPECT_EQ(step.run->id, "bz16/1n1g/r50_b16_fp32_4");
    f.runs.push_back(*step.run);
    f.states.push_back(RunState::Pending);
    f.end(6, RunState::Ok, 107.0);
    step = f.schedule->next(f.runs, f.states);
    ASSERT_EQ(step.stops.size(), 1u);
    EXPECT_EQ(step.stops[0].reason.substr(0, 30), "maximum of 4 repeats reached, ");
    EXPECT_FALSE(step.run);
    // Stops are reported once.
    EXPECT_TRUE(f.schedule->next(f.runs, f.states).stops.empty());
}

// Engineer H's monitor writes "disturbed": true with its evidence into the end record; the
// journal as written on disk is what resume reads.
TEST(AdaptiveSchedule, ResumeAdoptsEarlierTopUpsAndADisturbedRecordIsRerun) {
    const std::string dir = sv::test::tempDir("adaptive-journal");
    ScheduleFixture f(dir);
    Journal journal(dir + "/journal.jsonl");
    std::string error;
    const auto record = [&](const std::string& id, double value, bool disturbed) {
        ASSERT_TRUE(journal.appendStart(id, "t", {{"x"}}, {"this machine"}, "/l", &error));
        RunEnd e;
        e.state = RunState::Ok;
        e.timeThroughput = value;
        e.disturbed = disturbed;
        e.evidence = disturbed ? "load 5.2 above 1 rank; pid 77 (sh) used 98 % of a core" : "";
        ASSERT_TRUE(journal.appendEnd(id, "t", "/l", e, &error)) << error;
    };
    record("bz16/1n1g/r50_b16_fp32_1", 100.0, false);
    record("bz16/1n1g/r50_b16_fp32_2", 100.1, false);
    record("bz16/1n1g/r50_b16_fp32_3", 60.0, true); // a top-up of the earlier session
    ASSERT_TRUE(journal.appendStart("bz16/1n1g/r50_b16_fp32_4", "t", {{"x"}}, {}, "/l", &error));
    record("bz16/1n2g/r50_b16_fp32_1", 200.0, false);
    record("bz16/1n2g/r50_b16_fp32_2", 200.1, false);
    ASSERT_TRUE(journal.appendCaseStop(
        CaseStop{"bz16/1n2g/r50_b16_fp32", 2, 0.03, "interval ±0.03 % within 1 % after 2 repeats"},
        &error));

    std::vector<std::string> warnings;
    const auto previous = journal.read(&warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front(); // the case record is no stranger
    ASSERT_TRUE(previous.at("bz16/1n1g/r50_b16_fp32_3").end);
    EXPECT_TRUE(previous.at("bz16/1n1g/r50_b16_fp32_3").end->disturbed);
    EXPECT_NE(previous.at("bz16/1n1g/r50_b16_fp32_3").end->evidence.find("pid 77"),
              std::string::npos);
    const auto stops = journal.readCaseStops();
    ASSERT_EQ(stops.size(), 1u);
    EXPECT_EQ(stops.begin()->second.counted, 2);

    for (std::size_t i = 0; i < f.runs.size(); ++i)
        if (auto it = previous.find(f.runs[i].id); it != previous.end())
            f.states[i] = it->second.state();
    f.schedule->adopt(f.runs, f.states, previous, stops);
    // _3 (finished, disturbed) and _4 (interrupted) join the plan; _4 reruns under its number.
    ASSERT_EQ(f.runs.size(), 6u);
    EXPECT_EQ(f.runs[4].id, "bz16/1n1g/r50_b16_fp32_3");
    EXPECT_EQ(f.states[4], RunState::Ok);
    EXPECT_EQ(f.runs[5].id, "bz16/1n1g/r50_b16_fp32_4");
    EXPECT_EQ(f.states[5], RunState::Interrupted);
    const CaseTally t = f.schedule->tally("bz16/1n1g/r50_b16_fp32", f.runs, f.states);
    EXPECT_EQ(t.counted.size(), 2u); // the disturbed run does not count
    EXPECT_EQ(t.notCounted, 1);
    EXPECT_EQ(t.unfinished, 1);
    // Once _4 has run (undisturbed), 1n1g has 3 counted: 100, 100.1, 100.05 is within 1 %.
    f.end(5, RunState::Ok, 100.05);
    auto step = f.schedule->next(f.runs, f.states);
    ASSERT_EQ(step.stops.size(), 1u); // 1n2g's stop was in the journal already
    EXPECT_EQ(step.stops[0].caseId, "bz16/1n1g/r50_b16_fp32");
    EXPECT_NE(step.stops[0].reason.find("after 3 repeats"), std::string::npos);
    EXPECT_FALSE(step.run);
    std::filesystem::remove_all(dir);
}

namespace {

std::map<std::string, std::vector<std::string>> statesById(const std::string& out) {
    std::map<std::string, std::vector<std::string>> states;
    for (const auto& e : journalEnds(out))
        states[e["id"]].push_back(e["state"]);
    return states;
}

std::vector<nlohmann::json> caseRecords(const std::string& out) {
    std::vector<nlohmann::json> records;
    std::istringstream in(sv::test::readWhole(out + "/journal.jsonl"));
    std::string line;
    while (std::getline(in, line)) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j["event"] == "case") records.push_back(j);
    }
    return records;
}

} // namespace

TEST(AdaptiveCli, AnUnreachableTargetRunsExactlyTheMaximumAndSaysSo) {
    const std::string dir = sv::test::tempDir("adaptive-max");
    // Each run slower than the one before: random ones can tie at the log clock's millisecond,
    // and two equal repeats meet any target.
    const auto profile =
        sv::test::writeFakeProfile(dir, {"--interval", "0.02", "--slower-each-run", dir + "/runs"});
    const std::string out = dir + "/out";
    const auto r = runProcess({kCli,
                               "run",
                               "--profile",
                               profile,
                               "--topologies",
                               "1n1g",
                               "--batch-size",
                               "2",
                               "--repeats",
                               "2..4",
                               "--target-ci",
                               "0.001%",
                               "--count-disturbed",
                               "--iterations",
                               "10",
                               "--warmup",
                               "2",
                               "--cooldown",
                               "0",
                               "--out",
                               out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("4 of 4 runs ok"), std::string::npos) << r.out;
    const auto states = statesById(out);
    ASSERT_EQ(states.size(), 4u);
    for (int i = 1; i <= 4; ++i)
        EXPECT_EQ(states.at("bz2/1n1g/r50_b2_fp32_" + std::to_string(i)),
                  std::vector<std::string>{"ok"});
    const auto cases = caseRecords(out);
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0]["id"], "bz2/1n1g/r50_b2_fp32");
    EXPECT_EQ(cases[0]["repeats"], 4);
    EXPECT_EQ(cases[0]["reason"].get<std::string>().substr(0, 30),
              "maximum of 4 repeats reached, ");
    EXPECT_NE(r.err.find("bz2/1n1g/r50_b2_fp32: no more repeats: maximum of 4"), std::string::npos)
        << r.err;
    // The campaign ETA on the progress lines is a range while top-ups may follow.
    EXPECT_NE(r.out.find("campaign ETA 0m"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("-0m"), std::string::npos) << r.out;
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
    std::filesystem::remove_all(dir);
}

TEST(AdaptiveCli, KillNineDuringATopUpThenResumeFinishesWithoutRerunningAnything) {
    const std::string dir = sv::test::tempDir("adaptive-resume");
    const auto profile =
        sv::test::writeFakeProfile(dir, {"--interval", "0.08", "--slower-each-run", dir + "/runs"});
    const std::string out = dir + "/out";
    const pid_t cli = sv::test::spawn({kCli,
                                       "run",
                                       "--profile",
                                       profile,
                                       "--topologies",
                                       "1n1g",
                                       "--batch-size",
                                       "2",
                                       "--repeats",
                                       "2..4",
                                       "--target-ci",
                                       "0.001",
                                       "--count-disturbed",
                                       "--iterations",
                                       "12",
                                       "--warmup",
                                       "2",
                                       "--cooldown",
                                       "0",
                                       "--out",
                                       out},
                                      dir + "/cli.log");
    // Kill -9 once the second top-up (_4) is writing: the first top-up (_3) finished in the
    // session that dies, so a resume that did not know it would run it again.
    const std::string fourthLog = out + "/logs/fake/bz2/1n1g/r50_b2_fp32_4.log";
    const auto fourthWriting = [&] {
        return sv::test::readWhole(fourthLog).find("Speed: ") != std::string::npos;
    };
    const auto t0 = std::chrono::steady_clock::now();
    while (!fourthWriting() && sv::test::since(t0) < 60.0)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(fourthWriting()) << sv::test::readWhole(out + "/journal.jsonl")
                                 << sv::test::readWhole(dir + "/cli.log");
    ::kill(cli, SIGKILL);
    ::waitpid(cli, nullptr, 0);
    ASSERT_EQ(journalEnds(out).size(), 3u) << sv::test::readWhole(out + "/journal.jsonl");

    const auto r = runProcess({kCli, "resume", out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
    auto states = statesById(out);
    EXPECT_EQ(states.size(), 4u) << sv::test::readWhole(out + "/journal.jsonl");
    for (int i = 1; i <= 3; ++i) // finished before the kill: not run again
        EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_" + std::to_string(i)],
                  std::vector<std::string>{"ok"});
    EXPECT_EQ(states["bz2/1n1g/r50_b2_fp32_4"], (std::vector<std::string>{"interrupted", "ok"}));
    // Repeat numbers continue: no fifth log, the interrupted one kept beside.
    const std::string logDir = out + "/logs/fake/bz2/1n1g/";
    EXPECT_FALSE(std::filesystem::exists(logDir + "r50_b2_fp32_5.log"));
    EXPECT_TRUE(std::filesystem::exists(logDir + "r50_b2_fp32_4.log.interrupted-1"));
    const auto cases = caseRecords(out);
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0]["repeats"], 4);
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
    std::filesystem::remove_all(dir);
}

// Killed between two runs, after the minimum: nothing is unfinished, but a case still needs a
// top-up, so the opened campaign has a run left (the Run panel offers Resume).
TEST(AdaptiveSchedule, AnOpenedCampaignWhoseCasesNeedATopUpHasARunLeft) {
    const std::string dir = sv::test::tempDir("adaptive-open");
    ScheduleFixture f(dir);
    f.campaign.topologies = {*sv::parseTopology("1n1g")};
    std::string error;
    ASSERT_TRUE(saveCampaign(f.campaign, dir + "/campaign.json", &error)) << error;
    Journal journal(dir + "/journal.jsonl");
    for (auto [repeat, value] : {std::pair{1, 100.0}, std::pair{2, 120.0}}) {
        const std::string id = "bz16/1n1g/r50_b16_fp32_" + std::to_string(repeat);
        ASSERT_TRUE(journal.appendStart(id, "t", {{"x"}}, {}, "/l", &error));
        RunEnd e;
        e.state = RunState::Ok;
        e.timeThroughput = value;
        ASSERT_TRUE(journal.appendEnd(id, "t", "/l", e, &error));
    }
    auto opened = CampaignDirectory::open(dir);
    ASSERT_TRUE(opened.ok()) << opened.error();
    ASSERT_EQ(opened.runsLeft().size(), 1u);
    EXPECT_EQ(opened.runsLeft()[0].id, "bz16/1n1g/r50_b16_fp32_3");
    // Once the case has stopped, nothing is left.
    ASSERT_TRUE(journal.appendCaseStop(
        CaseStop{"bz16/1n1g/r50_b16_fp32", 2, 9.1, "rerun limit (test)"}, &error));
    EXPECT_TRUE(CampaignDirectory::open(dir).runsLeft().empty());
    std::filesystem::remove_all(dir);
}

// In the session that runs it, a run's end carries the monitor's summary, not the flag read
// back from the journal: a busy host there is not counted either, and the end record it writes
// reads back as disturbed with the evidence.
TEST(AdaptiveSchedule, ARunTheMonitorFoundDisturbedInThisSessionIsNotCounted) {
    const std::string dir = sv::test::tempDir("adaptive-monitor");
    ScheduleFixture f(dir);
    MonitorSummary busy;
    busy.samples = 5;
    busy.seconds = 10.0;
    busy.foreign.push_back(MonitorSummary::Foreign{77, "sh -c while :; do :; done", 9.8, 99.0});
    ASSERT_FALSE(busy.evidence().empty());
    RunEnd e;
    e.state = RunState::Ok;
    e.timeThroughput = 60.0;
    e.monitor = busy.record();
    EXPECT_TRUE(e.isDisturbed());
    f.states[0] = RunState::Ok;
    f.schedule->ended(f.runs[0].id, e);
    const CaseTally t = f.schedule->tally(f.runs[0].caseId, f.runs, f.states);
    EXPECT_TRUE(t.counted.empty());
    EXPECT_EQ(t.notCounted, 1);

    Journal journal(dir + "/journal.jsonl");
    std::string error;
    ASSERT_TRUE(journal.appendStart(f.runs[0].id, "t", {{"x"}}, {}, "/l", &error));
    ASSERT_TRUE(journal.appendEnd(f.runs[0].id, "t", "/l", e, &error)) << error;
    const auto read = journal.read();
    const RunEnd& back = *read.at(f.runs[0].id).end;
    EXPECT_TRUE(back.disturbed);
    EXPECT_NE(back.evidence.find("77"), std::string::npos) << back.evidence;
    std::filesystem::remove_all(dir);
}
