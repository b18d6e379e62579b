// SIGTERM to the desktop app in the middle of a campaign (reliability §16): the real `scaleview`
// process, a real CPU workload under mpirun. The app must cancel the run, flush the journal and
// quit, leaving no process of the campaign behind.

#include "launcher/campaign/campaign.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QTemporaryDir>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

// Live processes whose command line mentions needle.
int processesMentioning(const std::string& needle) {
    int found = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos ||
            std::stoi(name) == ::getpid())
            continue;
        std::string cmd = sv::test::readWhole(e.path() / "cmdline");
        std::replace(cmd.begin(), cmd.end(), '\0', ' ');
        const bool zombie =
            sv::test::readWhole(e.path() / "stat").find(") Z ") != std::string::npos;
        if (!zombie && cmd.find(needle) != std::string::npos) ++found;
    }
    return found;
}

// Kills what a failed test would otherwise leave running: the app and the campaign's processes.
struct Cleanup {
    pid_t pid = -1;
    std::string needle;
    ~Cleanup() {
        if (pid > 0 && ::waitpid(pid, nullptr, WNOHANG) == 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            const std::string name = e.path().filename();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;
            std::string cmd = sv::test::readWhole(e.path() / "cmdline");
            std::replace(cmd.begin(), cmd.end(), '\0', ' ');
            if (!needle.empty() && cmd.find(needle) != std::string::npos)
                ::kill(std::stoi(name), SIGKILL);
        }
    }
};

bool hasSpeedLine(const std::string& dir) {
    std::error_code ec;
    for (std::filesystem::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
         it.increment(ec))
        if (it->path().extension() == ".log" &&
            sv::test::readWhole(it->path()).find(" Epoch[0] Batch ") != std::string::npos)
            return true;
    return false;
}

template <typename F> bool waitFor(F done, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
}

} // namespace

TEST(GuiSignals, SigtermMidCampaignCancelsTheRunAndQuits) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    sv::launcher::Campaign c;
    c.topologies = {{1, 1}};
    c.batchSizes = {2};
    c.repeats = 2;
    c.iterations = 100000; // would run for hours: only a cancel ends it
    c.warmup = 2;
    c.cooldownSeconds = 0;
    c.variables["image_size"] = "16";
    c.outputDir = dir + "/out";
    std::string error;
    ASSERT_TRUE(sv::launcher::saveCampaign(c, dir + "/campaign.json", &error)) << error;

    Cleanup cleanup;
    cleanup.needle = c.outputDir;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
        const std::string settings = dir + "/settings.ini", shot = dir + "/shot.png",
                          campaign = dir + "/campaign.json";
        ::execl(SCALEVIEW_GUI, SCALEVIEW_GUI, "--settings", settings.c_str(), "--page", "run",
                "--campaign", campaign.c_str(), "--start", "--screenshot", shot.c_str(), "--after",
                "3600", nullptr);
        ::_exit(127);
    }
    cleanup.pid = pid;
    const std::string journal = c.outputDir + "/journal.jsonl";
    // The run is under way once its first speed line is in the log.
    ASSERT_TRUE(waitFor([&] { return hasSpeedLine(c.outputDir); }, 120))
        << "the campaign did not start";
    EXPECT_GT(processesMentioning(c.outputDir), 0);

    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    int status = 0;
    const bool exited = waitFor([&] { return ::waitpid(pid, &status, WNOHANG) == pid; }, 60);
    ASSERT_TRUE(exited) << "scaleview did not quit within 60 s of SIGTERM";
    cleanup.pid = -1;
    EXPECT_TRUE(WIFEXITED(status))
        << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    const std::string j = sv::test::readWhole(journal);
    EXPECT_NE(j.find("\"event\":\"end\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"state\":\"cancelled\""), std::string::npos) << j;
    // The second repeat never started.
    EXPECT_EQ(j.find("r50_b2_fp32_2"), std::string::npos) << j;
    EXPECT_TRUE(waitFor([&] { return processesMentioning(c.outputDir) == 0; }, 10))
        << "processes of the campaign outlived the app";
}
