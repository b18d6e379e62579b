// PaddlePaddle 1.8: ResNet-50's "train batch k ... elapse X sec" lines and BERT's "step: N, ...
// speed: X steps/s" lines; DLPerf's scripts' figures from running them on these very logs; BERT's
// 120/N lines of an N-node run; bad input.

#include "tests/support/formattest.h"
#include "core/formats/formatregistry.h"
#include "core/report/dlperfview.h"
#include "tests/support/formatlogs.h"
#include "core/formats/paddle.h"
#include "core/model/numerics.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

TEST(Paddle, LinesGiveStepTimeAndValue) {
    SpeedSample s;
    parsePaddleRn50("2020-08-21 10:00:07,123-INFO: [Pass 0, train batch 19] \tloss 6.95312, acc1 "
                    "0.00000, acc5 0.00781, lr 0.00010, elapse 0.3625 sec",
                    std::string_view::npos, s);
    EXPECT_EQ(s.batchLast, 20); // batch ids count from 0
    EXPECT_TRUE(s.hasTime);
    EXPECT_EQ(s.timeUs % 1000000, 123000);
    EXPECT_DOUBLE_EQ(s.speed, 0.3625);
    SpeedSample b;
    parsePaddleBert("epoch: 0, progress: 1/1, step: 20, loss: 10.512345, ppl: 36789.123456, "
                    "next_sent_acc: 0.500000, speed: 1.491234 steps/s, file: data/part-00000",
                    std::string_view::npos, b);
    EXPECT_EQ(b.batchLast, 20);
    EXPECT_DOUBLE_EQ(b.speed, 1.491234);
    EXPECT_EQ(detectLogFormat(makePaddleRn50Log(300000))->id, "paddle-rn50");
    EXPECT_EQ(detectLogFormat(makePaddleBertLog(1, 200000))->id, "paddle-bert");
}

// Expected: DLPerf's PaddlePaddle/resnet50v1.5 extract_paddle_logs.py and _time.py, and
// PaddlePaddle/bert/extract_paddle_logs.py, run on these trees with their defaults (20/120).
TEST(Paddle, MatchesDlperfScripts) {
    TempDir dir;
    writePaddleRn50Tree(dir / "resnet50/bz128");
    writePaddleBertTree(dir / "bert/bz32");
    const Summary rn50 = summarizeDirectory(dir / "resnet50/bz128", dlperfDefaults(), {});
    ASSERT_EQ(rn50.runs.size(), 9u);
    for (const auto& r : rn50.runs) {
        EXPECT_EQ(r.key.format, "paddle-rn50") << r.path;
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
    }
    EXPECT_EQ(dlperfJson(rn50, Method::Speed), nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 409.03, "batch_size_per_device": 128, "median_speed": 409.04, "speedup": 1.0},
        "1n8g": {"average_speed": 3145.28, "batch_size_per_device": 128, "median_speed": 3145.17, "speedup": 7.69},
        "2n8g": {"average_speed": 5875.84, "batch_size_per_device": 128, "median_speed": 5875.36, "speedup": 14.36}}})"));
    EXPECT_EQ(dlperfJson(rn50, Method::Time), nlohmann::json::parse(R"({"r50": {
        "1n1g": {"average_speed": 402.99, "batch_size_per_device": 128, "median_speed": 402.98, "speedup": 1.0},
        "1n8g": {"average_speed": 3098.79, "batch_size_per_device": 128, "median_speed": 3098.71, "speedup": 7.69},
        "2n8g": {"average_speed": 5789.09, "batch_size_per_device": 128, "median_speed": 5788.74, "speedup": 14.36}}})"));
    const Summary bert = summarizeDirectory(dir / "bert/bz32", dlperfDefaults(), {});
    ASSERT_EQ(bert.runs.size(), 12u);
    EXPECT_EQ(dlperfJson(bert, Method::Speed), nlohmann::json::parse(R"({"bert": {
        "1n1g": {"average_speed": 153.45, "batch_size_per_device": 32, "median_speed": 153.45, "speedup": 1.0},
        "1n8g": {"average_speed": 1168.34, "batch_size_per_device": 32, "median_speed": 1168.32, "speedup": 7.61},
        "2n8g": {"average_speed": 2209.89, "batch_size_per_device": 32, "median_speed": 2209.86, "speedup": 14.4},
        "4n8g": {"average_speed": 3968.1, "batch_size_per_device": 32, "median_speed": 3968.04, "speedup": 25.86}}})"))
        << dlperfJson(bert, Method::Speed).dump();
}

// A 2-node BERT run prints steps 2, 4, ..., 120: DLPerf's list[20:120] is steps 42-120 (2219.84
// for this file, from running the script); ScaleView averages the printed steps 22-120. A 6-node
// run prints 20 lines: DLPerf's slice is empty (NaN); ScaleView averages steps 25-120 (the
// first printed step whose steps all follow the warmup on).
TEST(Paddle, BertMultiNodeLinesAreNotedWithBothFigures) {
    TempDir dir;
    writeFile(dir / "2n8g/bert_b32_fp32_1.log", makePaddleBertLog(2, 220999));
    writeFile(dir / "6n8g/bert_b32_fp32_1.log", makePaddleBertLog(6, 230000));
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 2u);
    const RunResult& two = s.runs[0];
    ASSERT_EQ(two.status, RunStatus::Complete) << two.reason;
    EXPECT_EQ(two.dlperfThroughput, 2219.84);
    std::vector<double> rates;
    for (int k = 22; k <= 120; k += 2)
        rates.push_back(2 / (dllStepUs(220999, k) / 1e6) * 8 * 32);
    EXPECT_DOUBLE_EQ(*two.speedThroughput, roundNumpy2(numpyMean(rates)));
    EXPECT_TRUE(hasNote(two, "DLPerf's extract_paddle_logs.py gives 2219.84")) << two.notes.at(0);
    EXPECT_TRUE(hasNote(two, "one line per 2 steps"));
    const RunResult& six = s.runs[1];
    ASSERT_EQ(six.status, RunStatus::Complete) << six.reason;
    ASSERT_TRUE(six.dlperfThroughput);
    EXPECT_TRUE(std::isnan(*six.dlperfThroughput));
    EXPECT_TRUE(hasNote(six, "records NaN"));
    EXPECT_TRUE(hasNote(six, "averages steps 25 to 120"));
}

TEST(Paddle, ShortInterleavedCrlfAndGarbageLogs) {
    TempDir dir;
    const std::string good = makePaddleRn50Log(301234);
    writeFile(dir / "1n1g/r50_b128_fp32_1.log", good);
    writeFile(dir / "1n1g/r50_b128_fp32_2.log", makePaddleRn50Log(301234, 100) + "2020-09-01 1");
    std::string twice; // a second trainer's lines, tagged: ignored by ScaleView
    for (std::size_t at = 0, nl; (nl = good.find('\n', at)) != std::string::npos; at = nl + 1) {
        const std::string line = good.substr(at, nl - at + 1);
        twice += "[1,0]<stdout>:" + line;
        if (line.find("elapse") != std::string::npos) twice += "[1,1]<stdout>:" + line;
    }
    writeFile(dir / "1n1g/r50_b128_fp32_3.log", twice);
    std::string crlf = makePaddleRn50Log(301234, 120, "\r\n");
    crlf.erase(0, crlf.find("\r\n") + 2);
    // A NUL, a stray byte and a colour code: sizeof counts every byte of the literal.
    constexpr char kGarbage[] = "\x00\xfd\x1b[0m garbage\r\n";
    crlf.insert(crlf.find("2020", 10), std::string(kGarbage, sizeof kGarbage - 1));
    writeFile(dir / "1n1g/r50_b128_fp32_4.log", crlf);
    const Summary s = summarizeDirectory(dir.path(), dlperfDefaults(), {});
    ASSERT_EQ(s.runs.size(), 4u);
    EXPECT_EQ(s.runs[0].status, RunStatus::Complete) << s.runs[0].reason;
    EXPECT_EQ(s.runs[1].status, RunStatus::Incomplete);
    EXPECT_NE(s.runs[1].reason.find("reaches step 100 of 120"), std::string::npos)
        << s.runs[1].reason;
    EXPECT_EQ(s.runs[2].status, RunStatus::Complete) << s.runs[2].reason;
    EXPECT_EQ(s.runs[2].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[2].speedThroughput, s.runs[0].speedThroughput);
    EXPECT_TRUE(hasNote(s.runs[2], "120 step lines from ranks other than 0 not counted"));
    EXPECT_EQ(s.runs[3].status, RunStatus::Complete) << s.runs[3].reason;
    EXPECT_EQ(s.runs[3].timeThroughput, s.runs[0].timeThroughput);
    EXPECT_EQ(s.runs[3].speedThroughput, s.runs[0].speedThroughput);
}
