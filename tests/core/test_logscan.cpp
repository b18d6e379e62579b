#include "core/load/logscan.h"
#include "tests/support/logwriter.h"
#include "core/load/runloader.h"
#include "core/load/runlog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

bool hasWarning(const ScanResult& r, const std::string& file, const std::string& text) {
    return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const Warning& w) {
        return w.file == file && w.message.find(text) != std::string::npos;
    });
}

} // namespace

TEST(Topology, AnyNumberOfDigits) {
    EXPECT_EQ(parseTopology("1n1g"), (Topology{1, 1}));
    EXPECT_EQ(parseTopology("10n8g"), (Topology{10, 8}));
    EXPECT_EQ(parseTopology("16n8g"), (Topology{16, 8}));
    EXPECT_EQ(parseTopology("2n16g"), (Topology{2, 16}));
    EXPECT_EQ(parseTopology("16n8g")->ranks(), 128);
    for (const char* bad : {"n8g", "1ng", "1n8", "0n8g", "1n0g", "1n8gx", "bz128", "1n-8g", ""})
        EXPECT_FALSE(parseTopology(bad)) << bad;
}

TEST(LogName, DlperfNames) {
    auto n = parseLogName("r50_b128_fp32_3.log");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->model, "r50");
    EXPECT_EQ(n->batchPerDevice, 128);
    EXPECT_EQ(n->precision, "fp32");
    EXPECT_EQ(n->repeat, 3);
    auto noamp = parseLogName("r50_b256_fp16-noamp_7.log");
    ASSERT_TRUE(noamp);
    EXPECT_EQ(noamp->precision, "fp16-noamp");
    std::string why;
    EXPECT_FALSE(parseLogName("r50_128_fp32_3.log", &why));
    EXPECT_EQ(why, "batch size is not b<number>");
    EXPECT_FALSE(parseLogName("r50_b128_fp32.log", &why));
    EXPECT_FALSE(parseLogName("r50_b128_fp32_x.log", &why));
    EXPECT_FALSE(parseLogName("_b128_fp32_1.log", &why));
    EXPECT_EQ(why, "empty model name");
}

// OneFlow's and NGC PyTorch BERT's names: '_' and '-' in the model, run index 0.
TEST(LogName, ModelNamesWithUnderscoresAndRunIndexZero) {
    auto n = parseLogName("bert_base_b96_fp32_0.log");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->model, "bert_base");
    EXPECT_EQ(n->batchPerDevice, 96);
    EXPECT_EQ(n->precision, "fp32");
    EXPECT_EQ(n->repeat, 0);
    auto adam = parseLogName("bert-base-adam-training_b32_amp_12.log");
    ASSERT_TRUE(adam);
    EXPECT_EQ(adam->model, "bert-base-adam-training");
    EXPECT_EQ(adam->repeat, 12);
    auto ab = parseLogName("a_b_b128_fp32_1.log");
    ASSERT_TRUE(ab);
    EXPECT_EQ(ab->model, "a_b");
}

// Files outside DLPerf's layout are read only when their content is a throughput log (issue
// 26); these hold none, so they are counted in one line, not warned about one by one.
TEST(LogScan, TopologyFromTheNearestFolderAndStrayFilesCounted) {
    TempDir dir;
    writeFile(dir / "bz128/16n8g/r50_b128_fp32_1.log", "x\n");
    writeFile(dir / "bz128/10n8g/sub/r50_b128_fp32_2.log", "x\n");
    writeFile(dir / "bz128/1n1g/2n8g/r50_b128_fp32_3.log", "x\n");
    writeFile(dir / "bz128/r50_b128_fp32_1.log", "x\n"); // no topology folder
    writeFile(dir / "bz128/1n1g/notes.log", "x\n");      // not a DLPerf name
    writeFile(dir / "bz128/1n1g/readme.txt", "x\n");     // not a log: ignored silently
    const auto scan = scanLogDirectory(dir.path());
    ASSERT_FALSE(scan.error);
    ASSERT_EQ(scan.logs.size(), 3u);
    EXPECT_EQ(scan.logs[0].display, "bz128/10n8g/sub/r50_b128_fp32_2.log");
    EXPECT_EQ(scan.logs[0].key.topology, (Topology{10, 8}));
    EXPECT_EQ(scan.logs[1].key.topology, (Topology{16, 8}));
    EXPECT_EQ(scan.logs[2].key.topology, (Topology{2, 8})); // nearest folder wins
    EXPECT_TRUE(scan.warnings.empty());
    EXPECT_EQ(scan.otherFiles, 3u);
    EXPECT_EQ(scan.summaryLine(), "read 6 files: 3 throughput logs, 3 other files skipped");
}

// A campaign directory as the launcher leaves it: its logs, and its own records beside them
// (campaign.json, the journal, environment captures, monitor samples, the workload script),
// which are said as the campaign's records, not "other files skipped" (issue 26: "read 7 files:
// 1 throughput log, 6 other files skipped" on the app's own campaign). A stray file in it is
// still another file; without a journal, campaign.json is just another file.
TEST(LogScan, ACampaignDirectorysOwnRecordsAreNotOtherFiles) {
    TempDir dir;
    writeFile(dir / "logs/local/pytorch-cpu/resnet50/bz2/1n1g/r50_b2_fp32_1.log", "x\n");
    writeFile(dir / "campaign.json", R"({"profile": "local-cpu-rn50"})");
    writeFile(dir / "journal.jsonl", "{}\n");
    writeFile(dir / "environment/20261204-235116-this-machine.txt", "== uname\n");
    writeFile(dir / "environment/20261204-235116-campaign.json", "{}");
    writeFile(dir / "monitor/bz2/1n1g/r50_b2_fp32_1.jsonl", "{}\n");
    writeFile(dir / "workload/rn50_cpu.py", "print()\n");
    writeFile(dir / "notes.txt", "mine\n");
    auto scan = scanLogDirectory(dir.path());
    ASSERT_FALSE(scan.error);
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.campaignFiles, 6u);
    EXPECT_EQ(scan.otherFiles, 1u);
    EXPECT_EQ(scan.summaryLine(),
              "read 8 files: 1 throughput log, 6 of the campaign's own records (journal, "
              "environment, monitor samples, workload), 1 other file skipped");

    fs::remove(dir / "journal.jsonl");
    scan = scanLogDirectory(dir.path());
    EXPECT_EQ(scan.campaignFiles, 0u);
    EXPECT_EQ(scan.otherFiles, 6u);
}

TEST(LogScan, SymlinkLoopIsNotFollowedTwice) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b128_fp32_1.log", "x\n");
    fs::create_directory_symlink(dir.path(), dir / "1n1g/loop");
    fs::create_directory_symlink(dir / "1n1g", dir / "again");
    const auto scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].display, "1n1g/r50_b128_fp32_1.log");
    EXPECT_TRUE(hasWarning(scan, "1n1g/loop", "not followed again") ||
                hasWarning(scan, "again", "not followed again"));
}

TEST(LogScan, RootNamedAsTopologyAndTrailingSlash) {
    TempDir dir;
    writeFile(dir / "4n8g/r50_b128_fp32_1.log", "x\n");
    const auto scan = scanLogDirectory((dir / "4n8g").string() + "/");
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_EQ(scan.logs[0].key.topology, (Topology{4, 8}));
    EXPECT_EQ(scan.logs[0].display, "r50_b128_fp32_1.log");
}

TEST(LogScan, MissingRootIsAnError) {
    const auto scan = scanLogDirectory("/nonexistent/scaleview/logs");
    ASSERT_TRUE(scan.error);
    EXPECT_NE(scan.error->find("no such directory"), std::string::npos);
    TempDir dir;
    writeFile(dir / "file", "x");
    EXPECT_TRUE(scanLogDirectory(dir / "file").error);
}

TEST(LogScan, DanglingSymlinkWarned) {
    TempDir dir;
    fs::create_directories(dir / "1n1g");
    fs::create_symlink(dir / "gone.log", dir / "1n1g/r50_b128_fp32_1.log");
    const auto scan = scanLogDirectory(dir.path());
    EXPECT_TRUE(scan.logs.empty());
    EXPECT_TRUE(hasWarning(scan, "1n1g/r50_b128_fp32_1.log", "dangling symlink"));
}

TEST(RunLoader, FileVanishingAfterTheScanIsUnreadableNotZero) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b128_fp32_1.log", "x\n");
    const auto scan = scanLogDirectory(dir.path());
    fs::remove(dir / "1n1g/r50_b128_fp32_1.log");
    const auto runs = loadRuns(scan.logs, {});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].status, RunStatus::Unreadable);
    EXPECT_NE(runs[0].reason.find("No such file"), std::string::npos);
    EXPECT_FALSE(runs[0].timeThroughput);
}

TEST(RunLoader, ParallelResultsDoNotDependOnThreadCount) {
    TempDir dir;
    RunSpec spec;
    spec.ranks = 2;
    spec.stepMs = 700;
    for (int rep = 1; rep <= 9; ++rep)
        writeFile(dir / ("1n2g/r50_b64_fp32_" + std::to_string(rep) + ".log"),
                  makeLog(spec, [rep](int k, int r) {
                      return std::to_string(180 + rep + k % 3 + r) + ".5";
                  }));
    const auto scan = scanLogDirectory(dir.path());
    LoadOptions one, four;
    one.threads = 1;
    four.threads = 4;
    const auto a = loadRuns(scan.logs, one);
    const auto b = loadRuns(scan.logs, four);
    ASSERT_EQ(a.size(), 9u);
    ASSERT_EQ(b.size(), 9u);
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].path, b[i].path);
        EXPECT_EQ(a[i].timeThroughput, b[i].timeThroughput);
        EXPECT_EQ(a[i].speedThroughput, b[i].speedThroughput);
        EXPECT_EQ(a[i].status, RunStatus::Complete);
    }
}

TEST(RunLoader, ProgressCanCancel) {
    TempDir dir;
    for (int rep = 1; rep <= 6; ++rep)
        writeFile(dir / ("1n1g/r50_b64_fp32_" + std::to_string(rep) + ".log"), "x\n");
    const auto scan = scanLogDirectory(dir.path());
    LoadOptions opt;
    opt.threads = 1;
    const auto runs =
        loadRuns(scan.logs, opt, [](std::size_t done, std::size_t) { return done < 2; });
    EXPECT_EQ(runs.size(), 2u);
}

// The GUI keeps a run's figures for one window and reads the file again for another: either
// way, the figures are the streamed ones.
TEST(RunLog, KeptOrReadAgainTheFiguresAreTheStreamedOnesForAnyWindow) {
    TempDir dir;
    RunSpec spec;
    spec.ranks = 2;
    spec.stepMs = 640;
    writeFile(dir / "1n2g/r50_b64_fp32_1.log",
              makeLog(spec, [](int k, int r) { return std::to_string(190 + k % 7 + r) + ".125"; }));
    const auto scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunLog log = readRunLog(scan.logs[0]);
    for (MeasureOptions m :
         {MeasureOptions{20, 120}, MeasureOptions{10, 100}, MeasureOptions{5, 50}}) {
        LoadOptions opt;
        opt.measure = m;
        const auto streamed = loadRun(scan.logs[0], opt);
        const auto kept = analyzeRunLog(log, m);
        EXPECT_EQ(streamed.timeThroughput, kept.timeThroughput);
        EXPECT_EQ(streamed.speedThroughput, kept.speedThroughput);
        EXPECT_EQ(streamed.rankSpreadPct, kept.rankSpreadPct);
        EXPECT_EQ(kept.status, RunStatus::Complete);
    }
    EXPECT_TRUE(sameMeasure(log.measure, MeasureOptions{20, 120}));
    EXPECT_EQ(log.retainedValues(), 3u * 120u); // per iteration, not per line
    const auto trace = traceRunLog(log);
    ASSERT_EQ(trace.median.size(), 120u);
    EXPECT_EQ(trace.min[3], 193.125);
    EXPECT_EQ(trace.max[3], 194.125);
    EXPECT_EQ(trace.median[3], 193.625);
}

TEST(RunLog, IncrementalReadFollowsAGrowingLog) {
    TempDir dir;
    RunSpec spec;
    spec.ranks = 1;
    spec.iterations = 30;
    spec.noise = false;
    const std::string text = makeLog(spec, [](int, int) { return std::string("100.0"); });
    const auto path = dir / "1n1g/r50_b64_fp32_1.log";
    writeFile(path, text.substr(0, text.size() / 2));
    LogFile file{path, "1n1g/r50_b64_fp32_1.log", RunKey{"r50", "fp32", 64, {1, 1}, 1}};
    IncrementalRunLog live(file, MeasureOptions{5, 30});
    EXPECT_TRUE(live.update());
    const auto firstHalf = live.log().counters.markerLines;
    EXPECT_GT(firstHalf, 10);
    EXPECT_EQ(live.log().trace->median.size(), static_cast<std::size_t>(firstHalf));
    EXPECT_EQ(live.log().result.status, RunStatus::Incomplete);
    EXPECT_FALSE(live.update()); // nothing new
    std::ofstream(path, std::ios::app) << text.substr(text.size() / 2);
    EXPECT_TRUE(live.update());
    EXPECT_EQ(live.log().counters.markerLines, 30);
    EXPECT_EQ(live.log().result.status, RunStatus::Complete);
    EXPECT_EQ(live.log().result.timeThroughput, readRunLog(file, {5, 30}).result.timeThroughput);
    // Replaced by a shorter file: read again from the start.
    writeFile(path, text.substr(0, text.size() / 4));
    EXPECT_TRUE(live.update());
    EXPECT_LT(live.log().counters.markerLines, firstHalf);
}

namespace {

// Runs fn as the unprivileged user 'nobody' when the tests run as root (root reads any folder,
// so a permission test must not run as root), and returns what fn returned.
std::string asUnprivileged(const std::function<std::string()>& fn) {
    if (::geteuid() != 0) return fn();
    int fds[2];
    if (::pipe(fds) != 0) return "pipe failed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::string out = "could not become nobody";
        if (::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0)
            out = fn();
        const ssize_t n = ::write(fds[1], out.data(), out.size());
        ::_exit(n == static_cast<ssize_t>(out.size()) ? 0 : 1);
    }
    ::close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
        out.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return out;
}

} // namespace

TEST(LogScan, UnreadableFolderIsWarnedNeverSilentlyMissing) {
    TempDir dir;
    fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read |
                                    fs::perms::group_exec | fs::perms::others_read |
                                    fs::perms::others_exec);
    RunSpec spec;
    spec.ranks = 1;
    writeFile(dir / "bz128/1n1g/r50_b128_fp32_1.log",
              makeLog(spec, [](int, int) { return std::string("100.0"); }));
    writeFile(dir / "bz128/4n8g/r50_b128_fp32_1.log",
              makeLog(spec, [](int, int) { return std::string("100.0"); }));
    for (const auto& e : fs::recursive_directory_iterator(dir.path()))
        fs::permissions(e.path(), fs::perms::others_read | fs::perms::others_exec,
                        fs::perm_options::add);
    const fs::path hidden = dir / "bz128/4n8g";
    fs::permissions(hidden, fs::perms::none);
    const std::string seen = asUnprivileged([&] {
        const ScanResult r = scanLogDirectory(dir.path());
        std::string out = "logs=" + std::to_string(r.logs.size());
        for (const auto& w : r.warnings)
            out += "\n" + w.file + ": " + w.message;
        return out;
    });
    EXPECT_EQ(seen.substr(0, 6), "logs=1") << seen;
    EXPECT_NE(
        seen.find("bz128/4n8g: cannot be read (Permission denied); the logs in it are not counted"),
        std::string::npos)
        << seen;
}

// The whole-file read and the incremental one are one loop: same bytes, same result, and the
// same errors (the incremental reader used to stop silently on a failed read).
TEST(RunLog, WholeAndIncrementalReadsShareOneLoopAndItsErrors) {
    TempDir dir;
    RunSpec spec;
    spec.ranks = 2;
    const std::string text = makeLog(spec, [](int, int) { return std::string("100.0"); });
    const auto path = dir / "1n2g/r50_b64_fp32_1.log";
    writeFile(path, text.substr(0, text.size() - 7)); // a last line still being written
    LogFile file{path, "1n2g/r50_b64_fp32_1.log", RunKey{"r50", "fp32", 64, {1, 2}, 1}};
    const RunLog whole = readRunLog(file);
    IncrementalRunLog live(file);
    EXPECT_TRUE(live.update());
    EXPECT_EQ(live.log().counters.markerLines, whole.counters.markerLines);
    EXPECT_EQ(live.log().result.reason, whole.result.reason);
    EXPECT_EQ(live.log().position, whole.position);
    EXPECT_EQ(whole.position.offset, text.size() - 7); // what a live view compares with
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(whole.position.inode, static_cast<std::uint64_t>(st.st_ino));
    EXPECT_TRUE(whole.unterminatedTail);
    EXPECT_TRUE(live.log().unterminatedTail);

    // A directory where the log was: both say so, the same way.
    fs::remove(path);
    fs::create_directories(path);
    const RunLog gone = readRunLog(file);
    ASSERT_TRUE(gone.readError);
    EXPECT_EQ(*gone.readError, "not a regular file");
    EXPECT_TRUE(live.update());
    ASSERT_TRUE(live.log().readError);
    EXPECT_EQ(*live.log().readError, "not a regular file");
    EXPECT_FALSE(live.update()); // still the same error: nothing new

    // The log comes back: read again from the start.
    fs::remove(path);
    writeFile(path, text);
    EXPECT_TRUE(live.update());
    EXPECT_FALSE(live.log().readError);
    EXPECT_EQ(live.log().counters.markerLines, 240);
}
