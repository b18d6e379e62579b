// PyTorch torchvision ResNet-50: every rank's ProgressMeter lines in one file, in 8 KiB blocks;
// DLPerf's extract_pytorch_logs_time.py figures from running it on these very logs, and its
// regex reading "Time 12.054" as 2.054; bad input.

#include "tests/support/formattest.h"
#include "core/formats/formatregistry.h"
#include "core/report/dlperfview.h"
#include "tests/support/formatlogs.h"
#include "core/formats/pytorchrn50.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <charconv>
#include <random>
#include <regex>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(PytorchRn50, LineGivesBatchTimeAndDlperfsMisreadTime) {
    SpeedSample s;
    parsePytorchRn50("Epoch: [0][ 6/53]\tTime 12.054 ( 2.123)\tData  0.106 ( 0.077)\tLoss "
                     "1.1494e+01 (1.8538e+01)\tAcc@1   1.56 (  2.23)\tAcc@5  10.94 ( 10.94)",
                     std::string_view::npos, s);
    EXPECT_EQ(s.batchFirst, 6);
    ASSERT_TRUE(s.hasSpeed);
    EXPECT_DOUBLE_EQ(s.speed, 12.054);
    ASSERT_TRUE(s.hasDlperfValue);
    EXPECT_DOUBLE_EQ(s.dlperfValue, 2.054);
    // Two ranks' blocks meeting inside a line: DLPerf reads something, ScaleView does not.
    SpeedSample cut;
    parsePytorchRn50(
        "Epoch: [0][ 9/53]\tTime  0.4Epoch: [0][ 0/53]\tTime 12.054 (12.054)\tData "
        " 0.1 ( 0.1)\tLoss 1e+01 (1e+01)\tAcc@1   1.56 (  2.23)\tAcc@5  10.94 ( 10.94)",
        std::string_view::npos, cut);
    EXPECT_FALSE(cut.hasSpeed);
    EXPECT_EQ(detectLogFormat(makePytorchRn50Log(2, 30, 0.35))->id, "pytorch-rn50");
}

// Expected: DLPerf's PyTorch/resnet50v1.5/extract_pytorch_logs_time.py run on this tree (20/120).
// ScaleView's per-file figures (281.02, 665.32, 1298.24 for repeat 1) come from an independent
// reading of the whole lines (Python, while writing this test).
TEST(PytorchRn50, MatchesDlperfScriptAndNotesItsMisreadTimes) {
    TempDir dir;
    writePytorchRn50Tree(dir / "pytorch");
    const Summary s = summarizeDirectory(dir / "pytorch", dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 9u);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.format, "pytorch-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    EXPECT_EQ(nlohmann::json::parse(formatDlperfJson(dlperfView(s, Method::Time).summary)),
              nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 358.09, "batch_size_per_device": 128, "median_speed": 358.08, "speedup": 1.0},
        "1n4g": {"average_speed": 1378.29, "batch_size_per_device": 128, "median_speed": 1378.27, "speedup": 3.85},
        "1n8g": {"average_speed": 2621.11, "batch_size_per_device": 128, "median_speed": 2621.07, "speedup": 7.32}}})"));
    const RunResult* one = runAt(s, "1n1g/r50_b128_fp32_1.log");
    const RunResult* four = runAt(s, "1n4g/r50_b128_fp32_1.log");
    const RunResult* eight = runAt(s, "1n8g/r50_b128_fp32_1.log");
    ASSERT_TRUE(one && four && eight);
    EXPECT_EQ(one->timeThroughput, 281.02);
    EXPECT_EQ(one->dlperfThroughput, 360.08);
    EXPECT_TRUE(hasNote(*one, "DLPerf's extract_pytorch_logs_time.py gives 360.08"));
    EXPECT_TRUE(hasNote(*one, "reads as 2.054"));
    EXPECT_EQ(four->timeThroughput, 665.32);
    EXPECT_EQ(four->dlperfThroughput, 1385.43);
    EXPECT_EQ(eight->timeThroughput, 1298.24);
    EXPECT_EQ(eight->dlperfThroughput, 2634.02);
    // 14 lines of the file are two ranks' blocks meeting (2 of them before the window's end).
    EXPECT_TRUE(hasNote(*eight, "14 \"Epoch: \" lines cut by other ranks' output"));
}

TEST(PytorchRn50, ShortCrlfAndGarbageLogs) {
    TempDir dir;
    writeFile(dir / "1n1g/r50_b128_fp32_1.log", makePytorchRn50Log(1, 130, 0.35));
    writeFile(dir / "1n1g/r50_b128_fp32_2.log", makePytorchRn50Log(1, 100, 0.35) + "Epoch: [0][");
    std::string crlf = makePytorchRn50Log(1, 130, 0.35);
    for (std::size_t at = 0; (at = crlf.find('\n', at)) != std::string::npos; at += 2)
        crlf.replace(at, 1, "\r\n");
    crlf.erase(0, crlf.find("\r\n") + 2); // no "=> creating model" header
    // A NUL, a stray byte and a colour code: sizeof counts every byte of the literal.
    constexpr char kGarbage[] = "\x00\xfc\x1b[0m garbage\r\n";
    crlf.insert(crlf.find("Epoch", 10), std::string(kGarbage, sizeof kGarbage - 1));
    writeFile(dir / "1n1g/r50_b128_fp32_3.log", crlf);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 3u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Complete) << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[1].reason.find("found 94 of 120 whole \"Epoch: \" lines"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_EQ(s.runs[1].dlperfThroughput, 0.0);
    EXPECT_EQ(s.runs[2].status, RunStatus::Complete) << s.runs[2].reason;
    EXPECT_EQ(s.runs[2].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[2].dlperfThroughput, s.runs[0].dlperfThroughput);
}

// The parser reads DLPerf's two regexes by hand, with shortcuts for whole lines; std::regex
// (ECMAScript's \d, \s and '.' agree with Python's on ASCII without newlines) says what the
// regexes give on lines made of pieces of real ones, cut and joined at random.
TEST(PytorchRn50, DlperfRegexesAsStdRegexSaysOnMangledLines) {
    const std::regex timeRe(R"((\d{1}.\d{1,3}\s))");
    const std::regex batchRe(R"(\[.*\]\[(.*)\])");
    const std::regex simpleInt(R"(^ *(\d{1,17}) *$)");
    const std::vector<std::string> epochs = {"0", "12", "1 2", "1 2 ", "0][1", "", "a5", "007"};
    const std::vector<std::string> heads = {"%s", "  6", "123", "12345", " 1_0", "-3", "6 "};
    const std::vector<std::string> times = {"12.054", " 0.403", "0.4",      "1e-03",  "123.4567",
                                            "9.9",    "7.25",   "1234.567", "0.1234", "-1.5"};
    std::mt19937 rng(11);
    auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    int whole = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string k = pick(heads);
        if (k == "%s") k = std::to_string(rng() % 100000);
        std::string line = "Epoch: [" + pick(epochs) + "][" + k + "/" +
                           std::to_string(rng() % 100000) + "]\tTime " + pick(times) + " ( " +
                           pick(times) +
                           ")\tData  0.106 ( 0.077)\tLoss 1.1494e+01 (1.8538e+01)"
                           "\tAcc@1   1.56 (  2.23)\tAcc@5  10.94 ( 10.94)";
        if (rng() % 4 == 0) line = line.substr(0, rng() % line.size()) + line.substr(rng() % 30);
        if (rng() % 8 == 0) line = "[1,0]<stderr>:" + line;
        SpeedSample s;
        parsePytorchRn50(line, std::string_view::npos, s);
        whole += s.hasSpeed;
        std::smatch m;
        if (std::regex_search(line, m, timeRe)) {
            const std::string text = m[1].str();
            double v = 0.0;
            const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, v);
            const bool parsed = ec == std::errc() && p == text.data() + text.size() - 1;
            ASSERT_EQ(s.hasDlperfValue, parsed) << line;
            if (parsed) {
                ASSERT_EQ(s.dlperfValue, v) << line;
            }
        } else {
            ASSERT_FALSE(s.hasDlperfValue) << line;
        }
        std::smatch b, n;
        if (!std::regex_search(line, b, batchRe)) {
            ASSERT_FALSE(s.hasIteration) << line;
            continue;
        }
        const std::string field = b[1].str();
        const std::string batch = field.substr(0, field.find('/'));
        if (std::regex_match(batch, n, simpleInt)) {
            ASSERT_TRUE(s.hasIteration) << line;
            ASSERT_EQ(s.batchFirst, std::stoll(n[1].str())) << line;
        }
    }
    EXPECT_GT(whole, 2000); // whole lines were among them, and were read
}
