// Logs and journal that cannot be written, for real: a file size limit (prlimit), a tiny tmpfs
// that fills, a journal line a future version wrote. The run ends failed with the reason and an
// end record, the campaign says why it stopped, and nothing is left running.

#include "tests/launcher/launchertest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

using sv::test::journalEnds;
using sv::test::kCli;
using sv::test::runProcess;

namespace {

// Not root: this process becomes root of its own user and mount namespaces (as unshare -rm
// does), where it may mount a tmpfs. Needs a single-threaded process: these tests start none.
bool ownMountNamespace() {
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return false;
    std::ofstream("/proc/self/setgroups") << "deny";
    std::ofstream("/proc/self/uid_map") << "0 " << uid << " 1";
    std::ofstream("/proc/self/gid_map") << "0 " << gid << " 1";
    return ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0;
}

// A tmpfs of `kib` KiB at dir/fs (as root, or in a namespace of this process's own); empty
// when it cannot be mounted here.
std::string tinyFs(const std::string& dir, int kib, bool readOnly = false) {
    const std::string at = dir + "/fs";
    std::filesystem::create_directories(at);
    const std::string options = "size=" + std::to_string(kib) + "k";
    const auto mountIt = [&] {
        return ::mount("tmpfs", at.c_str(), "tmpfs", readOnly ? MS_RDONLY : 0, options.c_str()) ==
               0;
    };
    if (mountIt()) return at;
    if (::geteuid() != 0 && ownMountNamespace() && mountIt()) return at;
    return {};
}

// Unmounts, then removes the test's directory, whatever the test's outcome.
struct Unmount {
    std::string at, dir;
    ~Unmount() {
        ::umount2(at.c_str(), MNT_DETACH);
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

// Fills the file system holding dir until a write fails.
void fill(const std::string& dir) {
    std::FILE* f = std::fopen((dir + "/filler").c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::setvbuf(f, nullptr, _IONBF, 0);
    const std::string block(1024, 'x');
    while (std::fwrite(block.data(), 1, block.size(), f) == block.size()) {
    }
    const std::string byte(1, 'x');
    while (std::fwrite(byte.data(), 1, 1, f) == 1) {
    }
    std::fclose(f);
}

std::vector<std::string> fakeRun(const std::string& profile, const std::string& out,
                                 const std::string& iterations) {
    return {kCli,           "run", "--profile",  profile, "--topologies", "1n1g",
            "--batch-size", "2",   "--repeats",  "2",     "--iterations", iterations,
            "--warmup",     "2",   "--cooldown", "0",     "--out",        out};
}

} // namespace

TEST(Durability, AFileSizeLimitFailsTheRunWithItsReasonInsteadOfKillingTheCli) {
    const std::string dir = sv::test::tempDir("fsize");
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.002"});
    // 400 speed lines of about 100 bytes: the log passes 8 KiB a third of the way in.
    auto argv = fakeRun(profile, dir + "/out", "400");
    argv.insert(argv.begin(), {"/usr/bin/prlimit", "--fsize=8192"});
    const auto r = runProcess(argv);
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err; // 153 when SIGXFSZ killed it
    const auto ends = journalEnds(dir + "/out");
    ASSERT_EQ(ends.size(), 1u) << r.out << r.err; // the campaign stops after that run
    EXPECT_EQ(ends[0]["state"], "failed");
    EXPECT_NE(ends[0]["reason"].get<std::string>().find("cannot write the log"), std::string::npos)
        << ends[0].dump();
    EXPECT_NE(ends[0]["reason"].get<std::string>().find("File too large"), std::string::npos)
        << ends[0].dump();
    EXPECT_NE(r.err.find("scaleview-cli run: the campaign failed: cannot write the log"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(std::filesystem::file_size(ends[0]["log"].get<std::string>()), 8192u);
    EXPECT_TRUE(sv::test::leftoverOf(dir + "/out").empty());
    std::filesystem::remove_all(dir);
}

TEST(Durability, AFullDiskFailsTheRunAndStopsTheCampaignSayingSo) {
    const std::string dir = sv::test::tempDir("fulldisk");
    const std::string fs = tinyFs(dir, 64);
    if (fs.empty())
        GTEST_SKIP() << "cannot mount a tmpfs here (neither root nor user namespaces): not tested";
    Unmount unmount{fs, dir};
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.002"});
    const auto r = runProcess(fakeRun(profile, fs + "/out", "2000"));
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("the campaign failed: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    // The first run ended failed (its end record made it, or the journal's failure is the
    // reason given); the second never started.
    const std::string journal = sv::test::readWhole(fs + "/out/journal.jsonl");
    EXPECT_EQ(journal.find("r50_b2_fp32_2"), std::string::npos) << journal;
    const auto ends = journalEnds(fs + "/out");
    if (ends.empty()) {
        EXPECT_NE(r.err.find("cannot write journal"), std::string::npos) << r.err << journal;
    } else {
        ASSERT_EQ(ends.size(), 1u) << journal;
        EXPECT_EQ(ends[0]["state"], "failed") << journal;
    }
    EXPECT_TRUE(sv::test::leftoverOf(fs + "/out").empty());
}

TEST(Durability, AJournalThatCannotBeWrittenFailsTheCampaignNotCancelsIt) {
    const std::string dir = sv::test::tempDir("journalfull");
    const std::string fs = tinyFs(dir, 256);
    if (fs.empty())
        GTEST_SKIP() << "cannot mount a tmpfs here (neither root nor user namespaces): not tested";
    Unmount unmount{fs, dir};
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.002"});
    const std::string out = fs + "/out";
    std::filesystem::create_directories(out);
    std::ofstream(out + "/campaign.json")
        << nlohmann::json{{"profile", profile},   {"topologies", {"1n1g"}}, {"batchSizes", {2}},
                          {"repeats", 1},         {"iterations", 5},        {"warmup", 1},
                          {"cooldownSeconds", 0}, {"outputDir", out}}
               .dump();
    std::ofstream(out + "/journal.jsonl").flush();
    fill(fs);
    const auto r = runProcess({kCli, "resume", out});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err; // 130 (cancelled) before
    EXPECT_NE(r.err.find("scaleview-cli resume: the campaign failed: cannot write journal " + out +
                         "/journal.jsonl: No space left on device"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(sv::test::leftoverOf(out).empty());
}

TEST(Durability, AJournalLineOfAFutureVersionIsSkippedByResumeWithAWarning) {
    const std::string dir = sv::test::tempDir("futureline");
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.002"});
    const std::string out = dir + "/out";
    auto argv = fakeRun(profile, out, "5");
    argv[9] = "1"; // one repeat
    ASSERT_EQ(runProcess(argv).exitCode, 0);
    std::ofstream(out + "/journal.jsonl", std::ios::app) << R"({"event":"end","id":5,"state":7})"
                                                         << "\n";
    const auto r = runProcess({kCli, "resume", out});
    EXPECT_EQ(r.exitCode, 0) << r.out << r.err; // 134 (an uncaught exception) before
    EXPECT_NE(r.err.find("journal.jsonl line 3: \"id\" is number, not a string; record skipped"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("1 of 1 runs ok"), std::string::npos) << r.out;
    std::filesystem::remove_all(dir);
}

TEST(Durability, PreflightSaysWhenTheOutputDirectoryHasNoRoomOrCannotBeWritten) {
    const std::string dir = sv::test::tempDir("room");
    const std::string fs = tinyFs(dir, 512);
    if (fs.empty())
        GTEST_SKIP() << "cannot mount a tmpfs here (neither root nor user namespaces): not tested";
    Unmount unmount{fs, dir};
    const auto profile = sv::test::writeFakeProfile(dir, {});
    auto campaign = [&](const std::string& out, int iterations) {
        const std::string path = dir + "/c" + std::to_string(iterations) + ".json";
        std::ofstream(path) << nlohmann::json{
            {"profile", profile}, {"topologies", {"1n1g"}},   {"batchSizes", {2}},
            {"repeats", 1},       {"iterations", iterations}, {"warmup", 1},
            {"outputDir", out}}.dump();
        return path;
    };
    auto outputLine = [](const std::string& text) {
        const auto at = text.find("this machine: output: ");
        return at == std::string::npos
                   ? std::string()
                   : text.substr(text.rfind('\n', at) + 1,
                                 text.find('\n', at) - text.rfind('\n', at) - 1);
    };
    // 9999 iterations x 160 bytes x 2 + 64 KiB: about 3.1 MiB, on 512 KiB.
    auto r = runProcess({kCli, "preflight", campaign(fs + "/out", 9999)});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_EQ(outputLine(r.out), "FAIL this machine: output: the logs need about 3.1 MiB (with "
                                 "margin), 512 KiB free in " +
                                     fs + ": free space there or choose another output directory")
        << r.out;
    r = runProcess({kCli, "preflight", campaign(fs + "/out", 3)});
    EXPECT_EQ(outputLine(r.out).rfind("ok   this machine: output: the logs need about 65 KiB", 0),
              0u)
        << r.out;
    // Read-only: no file can be made there, even as root.
    ASSERT_EQ(::mount(nullptr, fs.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr), 0);
    r = runProcess({kCli, "preflight", campaign(fs + "/out", 3)});
    EXPECT_EQ(outputLine(r.out), "FAIL this machine: output: cannot create a file in " + fs +
                                     " (Read-only file system): choose an output directory "
                                     "this user can write")
        << r.out;
}

// Every campaign the CLI runs to its end goes into the history (ctest turns the history off for
// the launcher's tests: this one names its own database), once: a resume of the same finished
// campaign reads the same logs, and records nothing new.
TEST(HistoryHook, ACampaignTheCliRunsIsRecordedOnceInTheHistory) {
    const std::string dir = sv::test::tempDir("historyhook");
    const std::string db = dir + "/history.sqlite";
    const auto profile = sv::test::writeFakeProfile(dir, {"--interval", "0.002"});
    const char* before = std::getenv("SCALEVIEW_HISTORY_DB");
    const std::string saved = before ? before : "";
    ::setenv("SCALEVIEW_HISTORY_DB", db.c_str(), 1);
    const auto r = runProcess(fakeRun(profile, dir + "/out", "20"));
    const auto again = runProcess({kCli, "resume", dir + "/out"});
    if (before)
        ::setenv("SCALEVIEW_HISTORY_DB", saved.c_str(), 1);
    else
        ::unsetenv("SCALEVIEW_HISTORY_DB");
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("history: recorded " + dir + "/out (1 case)"), std::string::npos)
        << r.out << r.err;
    EXPECT_EQ(again.exitCode, 0) << again.out << again.err;
    const auto h = runProcess({kCli, "history", "--history-db", db, "--format", "json"});
    ASSERT_EQ(h.exitCode, 0) << h.err;
    const auto j = nlohmann::json::parse(h.out);
    ASSERT_EQ(j["cases"].size(), 1u) << h.out;
    EXPECT_EQ(j["cases"][0]["topology"], "1n1g");
    ASSERT_EQ(j["cases"][0]["campaigns"].size(), 1u) << h.out;
    EXPECT_EQ(j["cases"][0]["campaigns"][0]["runs"], 2);
    EXPECT_EQ(j["cases"][0]["campaigns"][0]["path"], dir + "/out");
    std::filesystem::remove_all(dir);
}
