// Issue 26: the last line of a log without its '\n'. A whole final line (a run that ended
// without a newline) is read; a line cut mid-way (a log cut mid-run) is left out with a note,
// never read half. Where each ends is judged against the format's last whole line.

#include "core/formats/formatregistry.h"
#include "core/formats/realworld.h"
#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/parse/logparser.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace sv;
using namespace sv::test;

namespace {

// NGC PyTorch DLLogger text: lines end in " img/s".
std::string dllPytorch(int reports) {
    std::string s = "DLL 2020-03-09 03:39:11.320178 - PARAMETER arch : resnet50  batch_size : 256"
                    "  amp : False  world_size : 8 \n";
    for (int i = 1; i <= reports; ++i)
        s += "DLL 2020-03-09 03:39:31.419192 - Epoch: 0 Iteration: " + std::to_string(i) +
             "  train.loss : 7.08172  train.total_ips : " + std::to_string(2900 + i) +
             ".25 img/s\n";
    return s;
}

// NGC TensorFlow DLLogger text: lines end in the value, "%.9f"-like.
std::string dllTf(int reports) {
    std::string s = "Num GPUs 8\nPer-GPU Batch Size 256\n";
    for (int k = 0; k < reports; ++k)
        s += "DLL 2020-06-20 01:16:39.766736 - (0, " + std::to_string(50 + k) +
             ") total_ips : " + std::to_string(6700 + k) + ".123456789\n";
    return s;
}

struct Read {
    RunResult result;
    std::vector<double> values; // every report's value, in order
};

Read readAsFile(const std::string& text) {
    TempDir dir;
    writeFile(dir / "run.log", text);
    const ScanResult scan = scanLogDirectory(dir.path());
    EXPECT_EQ(scan.logs.size(), 1u);
    Read r;
    if (scan.logs.empty()) return r;
    LoadOptions o;
    o.measure.formatDefaults = true;
    r.result = loadRun(scan.logs[0], o, [&](const SpeedSample& s) {
        if (s.hasSpeed && s.hasIteration) r.values.push_back(s.speed);
    });
    return r;
}

bool hasNote(const RunResult& r, const std::string& part) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

// The text without its final '\n'.
std::string unterminated(std::string s) {
    s.pop_back();
    return s;
}

} // namespace

TEST(UnterminatedTail, AWholeLastLineIsRead) {
    const std::string text = dllPytorch(30);
    const Read full = readAsFile(text);
    const Read bare = readAsFile(unterminated(text));
    ASSERT_EQ(full.values.size(), 30u);
    ASSERT_EQ(bare.values.size(), 30u); // the 30th, without its newline, too
    EXPECT_DOUBLE_EQ(bare.values.back(), 2930.25);
    EXPECT_EQ(bare.result.status, RunStatus::Complete);
    EXPECT_EQ(*bare.result.timeThroughput, *full.result.timeThroughput);
    EXPECT_TRUE(hasNote(bare.result, "its last line (31) has no newline: read"))
        << bare.result.reason;
    EXPECT_FALSE(hasNote(full.result, "no newline"));
}

TEST(UnterminatedTail, ALineCutMidwayIsLeftOutWithANote) {
    std::string text = unterminated(dllPytorch(30));
    text.resize(text.size() - std::string(".25 img/s").size() - 2); // "... : 29" of 2930.25
    const Read cut = readAsFile(text);
    ASSERT_EQ(cut.values.size(), 29u);
    EXPECT_DOUBLE_EQ(cut.values.back(), 2929.25); // never 29
    EXPECT_EQ(cut.result.status, RunStatus::Complete);
    EXPECT_TRUE(hasNote(cut.result, "cut off mid-line")) << cut.result.notes.size();
}

// Lines that end in their value: a whole one ends with as many decimals as the lines before it.
TEST(UnterminatedTail, ALineEndingInItsValueIsJudgedByItsDigits) {
    const std::string whole = unterminated(dllTf(40));
    const Read a = readAsFile(whole);
    ASSERT_EQ(a.values.size(), 40u);
    EXPECT_DOUBLE_EQ(a.values.back(), 6739.123456789);
    const Read b = readAsFile(whole.substr(0, whole.size() - 4)); // "6739.12345"
    ASSERT_EQ(b.values.size(), 39u);
    EXPECT_TRUE(hasNote(b.result, "cut off mid-line"));
    // A last line that holds no report (gluon-nlp's "Saving checkpoints"): nothing to say.
    const Read c = readAsFile(dllTf(40) + "2020-06-20 01:22:56 saving the model");
    EXPECT_EQ(c.values.size(), 40u);
    EXPECT_FALSE(hasNote(c.result, "no newline"));
}

TEST(UnterminatedTail, TheParserHoldsTheTailUntilTold) {
    std::vector<SpeedSample> got;
    ParseOptions o;
    o.format = findLogFormat("dllogger-pytorch")->message;
    LogParser p(o, [&](const SpeedSample& s) { got.push_back(s); });
    const std::string text = unterminated(dllPytorch(3));
    p.feed(text.substr(0, 100));
    p.feed(text.substr(100));
    EXPECT_EQ(got.size(), 2u); // a live log's last line may still be being written
    EXPECT_GT(p.pendingBytes(), 0u);
    EXPECT_EQ(p.finishTail(), TailRead::Read);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got.back().line, 4);
    EXPECT_EQ(p.pendingBytes(), 0u);
    EXPECT_EQ(p.finishTail(), TailRead::None);
}
