// What a throughput can be (core/model/plausibility.h), applied to every run whatever its
// format: a figure from a corrupted line is an excluded run with its reason, never a figure nor
// part of a median; a topology whose GPU count overflows is refused with the reason.

#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/model/plausibility.h"
#include "core/model/runkey.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace sv;
using namespace sv::test;

TEST(Plausibility, TheRuleSaysWhyAFigureCannotBeAThroughput) {
    EXPECT_FALSE(implausibleThroughput(1234.5, "samples/s"));
    EXPECT_FALSE(implausibleThroughput(0.002, "samples/s"));
    EXPECT_FALSE(implausibleThroughput(3.2e6, "tokens/s"));
    EXPECT_EQ(implausibleThroughput(1.8e17, "images/s"),
              "1.8e+17 images/s is above 10^12 a second");
    EXPECT_EQ(implausibleThroughput(std::numeric_limits<double>::infinity(), "x/s"),
              "inf x/s is not a finite number");
    EXPECT_EQ(implausibleThroughput(std::nan(""), "x/s"), "its figure is not a number");
    // A denormal, quoted as it is held (it once printed as 0.00).
    EXPECT_EQ(implausibleThroughput(1e-320, "x/s"),
              "9.99989e-321 x/s is below 0.001 a second (one in 17 minutes)");
    EXPECT_EQ(implausibleThroughput(-5, "x/s"), "-5 x/s is not above 0");
    EXPECT_EQ(implausibleThroughput(0, "x/s"), "0 x/s is not above 0");
}

// A corrupted Speed: line in an NGC MXNet log (the mutated logs gave 1.8e17 images/s): the run
// is excluded with its reason, and the healthy repeat of the same case is the only one counted.
TEST(Plausibility, ACorruptedSpeedLineExcludesItsRunNamingTheFigure) {
    TempDir dir;
    RunSpec spec;
    spec.iterations = 130;
    writeFile(dir / "1n1g/r50_b64_fp32_1.log",
              makeLog(spec, [](int, int) { return std::string("128.00"); }));
    writeFile(dir / "1n1g/r50_b64_fp32_2.log",
              makeLog(spec, [](int, int) { return std::string("180000000000000000.00"); }));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 2u);
    const RunResult good = loadRun(scan.logs[0], LoadOptions{});
    ASSERT_EQ(good.status, RunStatus::Complete) << good.reason;
    EXPECT_NEAR(*good.speedThroughput, 128.0, 1e-9);
    const RunResult bad = loadRun(scan.logs[1], LoadOptions{});
    EXPECT_EQ(bad.status, RunStatus::Unusable);
    EXPECT_FALSE(bad.speedThroughput);
    EXPECT_FALSE(bad.timeThroughput);
    EXPECT_NE(bad.reason.find("cannot be one: 1.8e+17 images/s is above 10^12 a second"),
              std::string::npos)
        << bad.reason;
}

// "65536n65536g" once gave 0 GPUs (the product overflowed an int): not a topology, and said.
TEST(Plausibility, ATopologyWhoseGpuCountOverflowsIsRefusedWithTheReason) {
    EXPECT_EQ(parseTopology("16n8g")->ranks(), 128);
    std::string why;
    EXPECT_FALSE(parseTopology("65536n65536g", &why));
    EXPECT_NE(why.find("65536n65536g is 4294967296 GPUs, more than 1048576"), std::string::npos)
        << why;
    why.clear();
    EXPECT_FALSE(parseTopology("2147483648n1g", &why));
    EXPECT_FALSE(parseTopology("logs", &why));
    TempDir dir;
    RunSpec spec;
    writeFile(dir / "65536n65536g/r50_b64_fp32_1.log",
              makeLog(spec, [](int, int) { return std::string("128.00"); }));
    const ScanResult scan = scanLogDirectory(dir.path());
    bool said = false;
    for (const Warning& w : scan.warnings)
        said = said || w.message.find("4294967296 GPUs") != std::string::npos;
    EXPECT_TRUE(said);
    for (const LogFile& log : scan.logs)
        EXPECT_NE(log.key.topology.nodes, 65536) << log.display; // never the overflowing key
}

// A GPU count a log states beyond any cluster (a corrupted world_size) is not used, and said.
TEST(Plausibility, AGpuCountBeyondAnyClusterIsNotUsed) {
    TempDir dir;
    RunSpec spec;
    spec.iterations = 130;
    writeFile(dir / "runs" / "train.log",
              "Namespace(world_size=5000000, batch_size=64)\n" +
                  makeLog(spec, [](int, int) { return std::string("128.00"); }));
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunKey& key = scan.logs[0].key;
    EXPECT_EQ(key.topology.ranks(), 0);
    bool said = false;
    for (const auto& d : key.origins.details)
        said = said || d.find("says 5000000, more than 1048576: not a GPU count, not used") !=
                           std::string::npos;
    EXPECT_TRUE(said);
}
