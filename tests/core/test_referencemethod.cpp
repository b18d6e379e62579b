// References by their own method: the published tables' method and repeats, a measurement
// compared with a table by the table's method (also when the view uses the other one), a real
// A/B where the table has repeats, and malformed tables refused whole, naming field and reason.

#include "core/stats/casestats.h"
#include "core/reference/referencecatalog.h"
#include "core/report/report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;

namespace {

RunResult run(const std::string& topology, int repeat, double time, double speed) {
    RunResult r;
    r.path = topology + "/r50_b128_fp32_" + std::to_string(repeat) + ".log";
    r.key = {"r50", "fp32", 128, *parseTopology(topology), repeat};
    r.status = RunStatus::Complete;
    r.timeThroughput = time;
    r.speedThroughput = speed;
    return r;
}

// One table of the speed method, with three repeats at 1n1g (median 400) and none at 1n2g.
const char* kSpeedTable = R"({"tables": [{
  "id": "mine", "title": "my table", "precision": "fp32", "batch_size_per_device": 128,
  "method": "speed", "throughput": {"1n1g": 400.0, "1n2g": 800.0},
  "repeats": {"1n1g": [399.0, 400.0, 401.0]}}]})";

std::string refusal(const std::string& json) {
    std::string error;
    EXPECT_FALSE(ReferenceCatalog::fromJson(json, &error)) << json;
    return error;
}

} // namespace

TEST(ReferenceMethod, PublishedFp32TableIsTheSpeedMethodWithSevenRepeats) {
    const auto* fp32 = ReferenceCatalog::builtin().find("dlperf-ngc-mxnet-fp32-bs128");
    ASSERT_TRUE(fp32);
    EXPECT_EQ(fp32->method, "speed");
    const auto& repeats = fp32->primary()->repeats;
    ASSERT_EQ(repeats.size(), 6u);
    for (const auto& [topo, values] : repeats)
        EXPECT_EQ(values.size(), 7u) << topo;
    EXPECT_DOUBLE_EQ(repeats.at("4n8g")[0], 11434.12);
    EXPECT_EQ(ReferenceCatalog::builtin().find("dlperf-ngc-mxnet-fp16-amp-bs256")->method, "time");
    // none dropped by the checks (DLPerf's own TensorFlow 2 tables included)
    EXPECT_EQ(ReferenceCatalog::builtin().tables().size(), 112u);
}

TEST(ReferenceMethod, DeltaUsesTheTablesMethodWhateverTheViewsMethod) {
    // Time method 380, speed method 396: the table is the speed method, so the delta is -1 %,
    // not -5 %, although the view shows the time method.
    std::string error;
    const auto catalog = ReferenceCatalog::fromJson(kSpeedTable, &error);
    ASSERT_TRUE(catalog) << error;
    std::vector<RunResult> runs = {run("1n1g", 1, 380.0, 396.0), run("1n1g", 2, 381.0, 395.0),
                                   run("1n1g", 3, 379.0, 397.0)};
    SummaryOptions options;
    options.method = Method::Time;
    const auto cases = computeCases(runs, options, *catalog);
    ASSERT_EQ(cases.size(), 1u);
    const auto& c = cases[0];
    EXPECT_DOUBLE_EQ(*c.median, 380.0);
    EXPECT_EQ(c.referenceMethod, "speed");
    EXPECT_DOUBLE_EQ(*c.referenceMedian, 396.0);
    EXPECT_NEAR(*c.deltaPct, -1.0, 1e-9);
    // The table has repeats here: a real A/B. 396 against 399..401 is 1 % slower and the
    // interval excludes 1, but 1 % is within the 2 % threshold: no difference.
    ASSERT_TRUE(c.referenceContrast);
    EXPECT_NEAR(*c.referenceContrast->ratio, 0.99, 1e-9);
    ASSERT_TRUE(c.referenceContrast->ratioCi95);
    EXPECT_LT(c.referenceContrast->ratioCi95->hi, 1.0);
    EXPECT_EQ(c.referenceContrast->verdict, Verdict::NoDifference);

    // 10 % slower by the speed method: slower.
    runs = {run("1n1g", 1, 380.0, 360.0), run("1n1g", 2, 381.0, 361.0),
            run("1n1g", 3, 379.0, 359.0)};
    const auto slow = computeCases(runs, options, *catalog);
    EXPECT_EQ(slow[0].referenceContrast->verdict, Verdict::Slower);

    // The exports say which method and give the A/B.
    Summary s;
    s.options = options;
    s.runs = runs;
    s.cases = slow;
    const auto j = nlohmann::json::parse(formatJson(s, "test"));
    const auto& jc = j["cases"][0];
    EXPECT_EQ(jc["reference_method"], "speed");
    EXPECT_DOUBLE_EQ(jc["reference_median"].get<double>(), 360.0);
    EXPECT_EQ(jc["reference"]["method"], "speed");
    EXPECT_EQ(jc["reference_comparison"]["verdict"], "slower");
    EXPECT_EQ(jc["reference_comparison"]["reference_repeats"].size(), 3u);
    const std::string csv = formatCsv(s);
    EXPECT_NE(csv.find(",reference_method,reference_median,"), std::string::npos);
    EXPECT_NE(csv.find(",speed,360.00,0.9000,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",slower,"), std::string::npos) << csv;
    const std::string table = formatTable(s);
    EXPECT_NE(table.find("compared by the speed method"), std::string::npos) << table;
    EXPECT_NE(table.find("against the reference's 3 repeats: this case's median is 0.9000 times "
                         "the reference's"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("slower than the reference"), std::string::npos) << table;
}

TEST(ReferenceMethod, NoRepeatsMeansADeltaButNoAB) {
    std::string error;
    const auto catalog = ReferenceCatalog::fromJson(kSpeedTable, &error);
    ASSERT_TRUE(catalog) << error;
    const auto cases = computeCases({run("1n2g", 1, 760.0, 790.0), run("1n2g", 2, 761.0, 792.0)},
                                    SummaryOptions{}, *catalog);
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0].referenceMethod, "speed");
    EXPECT_NEAR(*cases[0].deltaPct, (791.0 - 800.0) / 8.0, 1e-9);
    EXPECT_FALSE(cases[0].referenceContrast);
}

TEST(ReferenceMethod, MalformedTablesAreRefusedWholeWithFieldAndReason) {
    EXPECT_EQ(refusal("{\"tables\": 3"), "not valid JSON");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "throughput": {"1n1g": "fast"}}]})"),
              "tables[0] (a): throughput.1n1g: not a positive number");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "throughput": {"one node": 3}}]})"),
              "tables[0] (a): throughput.one node: not a topology like 4n8g");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "method": "fast", "throughput": {"1n1g": 3}}]})"),
              "tables[0] (a): method: must be \"time\" or \"speed\", not \"fast\"");
    EXPECT_EQ(refusal(R"({"tables": [{"title": "no id", "throughput": {"1n1g": 3}}]})"),
              "tables[0].id: missing or not a non-empty string");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a"}]})"),
              "tables[0] (a): throughput: no figure (give \"throughput\" or \"series\")");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "throughput": {"1n1g": 400},
                         "repeats": {"1n1g": [300, 310, 320]}}]})")
                  .rfind("tables[0] (a): repeats.1n1g: their median 310.", 0),
              0u);
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "throughput": {"1n1g": 400},
                         "repeats": {"1n2g": [400]}}]})"),
              "tables[0] (a): repeats.1n2g: no throughput figure for this topology");
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "batch_size_per_device": 0,
                         "throughput": {"1n1g": 400}}]})"),
              "tables[0] (a): batch_size_per_device: not a whole number from 1");
    // A good table then a bad one: nothing is loaded, not the good half.
    EXPECT_EQ(refusal(R"({"tables": [{"id": "a", "throughput": {"1n1g": 400}},
                                     {"id": "a", "throughput": {"1n1g": 400}}]})"),
              "tables[1] (a): id: another table has this id");
}
