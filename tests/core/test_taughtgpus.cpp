// A taught log's GPU count (issue 37, item 1): a Horovod synthetic benchmark of an 8-GPU job,
// rank 0's lines tagged "[1,0]<stdout>:", read with a format taught from its "img/sec per GPU"
// lines. The tags of one rank are no count; a total the log, the format or a scaleview.json
// states wins over a count of tags; a per-GPU value is multiplied by the GPUs; logs whose GPUs
// differ or are unknown are never repeats of one case.

#include "core/formats/formatdraft.h"
#include "core/formats/userformat.h"
#include "core/load/logscan.h"
#include "core/load/runlog.h"
#include "core/parse/runfacts.h"
#include "core/report/report.h"
#include "core/stats/summary.h"
#include "tests/support/files.h"
#include "tests/support/formattest.h"
#include "tests/support/freshtrainer.h"
#include "tests/support/horovodlog.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace sv;
using namespace sv::test;

namespace {

// Registers the taught format (once per id: the registry is the process's).
void teach(const std::string& json) {
    UserFormatError e;
    auto f = UserFormat::parse(json, "taught.json", &e);
    ASSERT_TRUE(f) << e.text();
    std::string why;
    ASSERT_TRUE(registerUserFormat(f, &why)) << why;
}

Summary read(const std::filesystem::path& dir) {
    return summarizeDirectory(dir, dlperfDefaults(), {});
}

std::string details(const RunKey& key) {
    std::string out;
    for (const auto& d : key.origins.details)
        out += d + "\n";
    return out;
}

} // namespace

TEST(TaughtGpus, AnEightGpuHorovodJobIsEightGpusAtItsTotal) {
    // Its own word ("images/sec"): a format registered here stays registered for every later
    // test of this process, and would read their "img/sec" logs.
    teach(horovodFormat("hvd-eight", true, {}, "images"));
    TempDir dir;
    const auto values = writeHorovodLog(dir / "hvd8" / "horovod.log", {.word = "images"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs.front();
    EXPECT_EQ(r.key.format, "hvd-eight");
    // "Number of GPUs: 8" wins over rank 0's tags, which count one rank.
    EXPECT_EQ(r.key.topology.ranks(), 8) << details(r.key);
    EXPECT_EQ(r.key.origins.topology, KeySource::Log);
    EXPECT_FALSE(r.key.origins.gpusCounted);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    // Each value is one GPU's: the run's figure is the job's, 8 times it.
    EXPECT_NEAR(*r.timeThroughput, medianAfterFirstTenth(values) * 8, 1e-9);
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_EQ(s.cases.front().gpus(), 8);
    EXPECT_GT(*s.cases.front().median, 1900.0);
}

// Issue 37's walk: the Runs page drew an 8-GPU job's per-GPU values (about 245) on the axis of
// its title's "1960.80 images/s". The trace is the run's throughput: each value times its GPUs,
// so that the trace's median over the window is the run's figure.
TEST(TaughtGpus, APerGpuLogsTraceIsAtTheRunsFigure) {
    teach(horovodFormat("hvd-trace", true, {}, "plates"));
    TempDir dir;
    const auto values = writeHorovodLog(dir / "hvd8" / "horovod.log", {.word = "plates"});
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunLog log = readRunLog(scan.logs.front(), dlperfDefaults().measure);
    ASSERT_EQ(log.result.key.topology.ranks(), 8);
    ASSERT_EQ(log.result.status, RunStatus::Complete) << log.result.reason;
    ASSERT_TRUE(log.trace);
    ASSERT_EQ(log.trace->median.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_NEAR(log.trace->median[i], values[i] * 8, 1e-9) << "report " << i;
    EXPECT_NEAR(medianAfterFirstTenth(log.trace->median), *log.result.timeThroughput, 1e-9);
}

TEST(TaughtGpus, TheTotalLineStatesTheGpus) {
    // "Total img/sec on 8 GPU(s): 1960.8" alone (no "Number of GPUs") is a stated total.
    const RunFacts f = readRunFacts("[1,0]<stdout>:Iter #0: 245.3 img/sec per GPU\n"
                                    "[1,0]<stdout>:Total img/sec on 8 GPU(s): 1960.8 +-9.6\n");
    ASSERT_TRUE(f.gpus);
    EXPECT_EQ(f.gpus->value, "8");
    EXPECT_FALSE(f.gpus->counted);
    EXPECT_NE(f.gpus->evidence.find("on 8 GPU(s)"), std::string::npos) << f.gpus->evidence;
}

TEST(TaughtGpus, OneRanksTagsAreNoGpuCount) {
    // Rank 0's tags alone: unknown, never 1.
    const RunFacts one = readRunFacts("[1,0]<stdout>:Model: ResNet50\n"
                                      "[1,0]<stdout>:Iter #0: 245.3 img/sec per GPU\n");
    EXPECT_FALSE(one.gpus) << one.gpus->where();
    // Tags of ranks 0..3: a count of four, said to be a count (a scaleview.json wins over it).
    const RunFacts four = readRunFacts("[1,0]<stdout>:x\n[1,1]<stdout>:x\n[1,3]<stdout>:x\n");
    ASSERT_TRUE(four.gpus);
    EXPECT_EQ(four.gpus->value, "4");
    EXPECT_TRUE(four.gpus->counted);

    teach(horovodFormat("hvd-onerank", false, {}, "pics"));
    TempDir dir;
    writeHorovodLog(dir / "horovod.log", {.stated = false, .word = "pics"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs.front();
    EXPECT_EQ(r.key.topology.ranks(), 0) << details(r.key);
    EXPECT_EQ(r.key.origins.topology, KeySource::Unknown);
    EXPECT_EQ(topologyText(r.key), "?");
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    // The table says "?" for what nobody states, never nodes 0, GPUs 0.
    const std::string table = formatTable(s);
    EXPECT_EQ(table.find("    0     0 "), std::string::npos) << table;
    EXPECT_NE(table.find("    ?     ?       1"), std::string::npos) << table;
    EXPECT_EQ(table.find("0n0g"), std::string::npos) << table;
}

TEST(TaughtGpus, APerGpuFigureIsMultipliedByTheFormatsOrTheSidecarsCount) {
    teach(horovodFormat("hvd-metadata", true, R"({"gpus": 8})", "frames"));
    TempDir dir;
    const auto values =
        writeHorovodLog(dir / "a" / "horovod.log", {.stated = false, .word = "frames"});
    {
        const Summary s = read(dir / "a");
        ASSERT_EQ(s.runs.size(), 1u);
        const RunResult& r = s.runs.front();
        EXPECT_EQ(r.key.topology.ranks(), 8) << details(r.key);
        EXPECT_EQ(r.key.origins.topology, KeySource::Format);
        ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
        EXPECT_NEAR(*r.timeThroughput, medianAfterFirstTenth(values) * 8, 1e-9);
    }
    // A scaleview.json beside it wins over the format's count, and nobody says "the log's is
    // used", since the log stated nothing.
    writeFile(dir / "a" / "scaleview.json", R"({"topology": "2n8g"})");
    {
        const Summary s = read(dir / "a");
        ASSERT_EQ(s.runs.size(), 1u);
        const RunResult& r = s.runs.front();
        EXPECT_EQ(r.key.topology.ranks(), 16) << details(r.key);
        EXPECT_EQ(r.key.origins.topology, KeySource::Sidecar);
        EXPECT_EQ(details(r.key).find("the log's is used"), std::string::npos) << details(r.key);
        EXPECT_NEAR(*r.timeThroughput, medianAfterFirstTenth(values) * 16, 1e-9);
    }
}

TEST(TaughtGpus, APerGpuValueWithoutAGpuCountIsNoFigure) {
    teach(horovodFormat("hvd-nocount", true, {}, "shots"));
    TempDir dir;
    writeHorovodLog(dir / "horovod.log", {.stated = false, .word = "shots"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 1u);
    const RunResult& r = s.runs.front();
    EXPECT_FALSE(r.usable());
    EXPECT_NE(r.reason.find("one GPU's rate"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("Set batch, GPUs"), std::string::npos) << r.reason;
}

TEST(TaughtGpus, OneGpuAndEightGpuLogsAreTwoCases) {
    // The 8-GPU log states its count in its closing "Total views/sec on 8 GPU(s)" line only:
    // rank 0's tags once counted it 1 GPU, a repeat of the 1-GPU log beside it.
    teach(horovodFormat("hvd-two", false, {}, "views"));
    TempDir dir;
    writeHorovodLog(dir / "hvd8" / "horovod.log",
                    {.gpus = 8, .perGpu = 245, .seed = 1, .word = "views", .totalOnly = true});
    writeHorovodLog(dir / "hvd1" / "horovod.log",
                    {.gpus = 1, .perGpu = 257, .seed = 2, .word = "views"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 2u);
    ASSERT_EQ(s.cases.size(), 2u) << formatTable(s);
    EXPECT_EQ(s.cases[0].gpus(), 1);
    EXPECT_EQ(s.cases[1].gpus(), 8);
    for (const auto& c : s.cases)
        EXPECT_EQ(c.values.size(), 1u);
}

TEST(TaughtGpus, TheFormatsGpusPatternBeatsRankZerosTags) {
    // The count in words only the taught pattern reads: rank 0's tags (one rank) once won over
    // it, and the 8-GPU log was a repeat of the 1-GPU one.
    teach(
        horovodFormat("hvd-pattern", false, R"j({"gpus": "hvd\\.size\\(\\): (\\d+)"})j", "clips"));
    TempDir dir;
    writeHorovodLog(
        dir / "hvd8" / "horovod.log",
        {.gpus = 8, .stated = false, .seed = 1, .word = "clips", .sizeLine = "hvd.size(): 8"});
    writeHorovodLog(dir / "hvd1" / "horovod.log", {.gpus = 1,
                                                   .stated = false,
                                                   .perGpu = 257,
                                                   .seed = 2,
                                                   .word = "clips",
                                                   .sizeLine = "hvd.size(): 1"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 2u);
    ASSERT_EQ(s.cases.size(), 2u) << formatTable(s);
    EXPECT_EQ(s.cases[0].gpus(), 1);
    EXPECT_EQ(s.cases[1].gpus(), 8);
    for (const auto& r : s.runs) {
        EXPECT_EQ(r.key.origins.topology, KeySource::Log);
        EXPECT_NE(details(r.key).find("hvd.size()"), std::string::npos) << details(r.key);
    }
}

TEST(TaughtGpus, LogsOfUnknownGpusAreNotRepeatsOfOneCase) {
    teach(horovodFormat("hvd-unknown", false, {}, "crops"));
    TempDir dir;
    writeHorovodLog(dir / "x" / "horovod.log",
                    {.stated = false, .perGpu = 245, .seed = 1, .word = "crops"});
    writeHorovodLog(dir / "y" / "horovod.log",
                    {.stated = false, .perGpu = 257, .seed = 2, .word = "crops"});
    // A log's own repeats (result_1, result_2 of one folder) stay one case.
    writeHorovodLog(dir / "z" / "result_1.txt", {.stated = false, .seed = 3, .word = "crops"});
    writeHorovodLog(dir / "z" / "result_2.txt", {.stated = false, .seed = 4, .word = "crops"});
    const Summary s = read(dir.path());
    ASSERT_EQ(s.runs.size(), 4u);
    ASSERT_EQ(s.cases.size(), 3u) << formatTable(s);
    std::vector<std::size_t> sizes;
    for (const auto& c : s.cases) {
        EXPECT_EQ(c.gpus(), 0);
        EXPECT_FALSE(c.key.ownCase.empty());
        sizes.push_back(c.values.size());
    }
    std::sort(sizes.begin(), sizes.end());
    EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 1, 2}));
    // No case of two different logs, so no spread between them called a repeat's.
    for (const auto& c : s.cases)
        for (const auto& w : c.warnings)
            EXPECT_NE(w.kind, "high-cv") << w.message;
}

TEST(TaughtGpus, AFormatFileSaysWhetherItsValueIsPerGpu) {
    UserFormatError e;
    auto f = UserFormat::parse(horovodFormat("hvd-parse"), "x.json", &e);
    ASSERT_TRUE(f) << e.text();
    EXPECT_TRUE(f->perGpu());
    f = UserFormat::parse(horovodFormat("hvd-parse", true, R"({"gpus": 8})"), "x.json", &e);
    ASSERT_TRUE(f) << e.text();
    EXPECT_EQ(f->gpus(), 8);
    const std::string perGpuWord = R"j({"id": "x", "line": "(?P<value>\\d+)", "per_gpu": "yes"})j";
    EXPECT_FALSE(UserFormat::parse(perGpuWord, "bad.json", &e));
    EXPECT_EQ(e.key, "per_gpu");
    const std::string noGpus =
        R"j({"id": "x", "line": "(?P<value>\\d+)", "metadata": {"gpus": 0}})j";
    EXPECT_FALSE(UserFormat::parse(noGpus, "bad.json", &e));
    EXPECT_EQ(e.key, "metadata.gpus");
}

TEST(TaughtGpus, TheTeachDraftSaysPerGpuAndCapturesTheCount) {
    TempDir dir;
    const auto values = writeHorovodLog(dir / "horovod.log", {.word = "draws"});
    std::string error;
    auto draft = FormatDraft::open(dir / "horovod.log", &error);
    ASSERT_TRUE(draft) << error;
    const auto& lines = draft->lines();
    const auto iter = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("Iter #3:") != std::string::npos;
    });
    ASSERT_NE(iter, lines.end());
    draft->chooseLine(static_cast<int>(iter - lines.begin()));
    EXPECT_TRUE(draft->perGpu); // the line says "per GPU"
    draft->id = "hvd-draft";
    draft->gpusPattern = "Number of GPUs: (\\d+)";
    const auto j = nlohmann::json::parse(draft->json());
    EXPECT_EQ(j["per_gpu"], true);
    EXPECT_EQ(j["metadata"]["gpus"], "Number of GPUs: (\\d+)");
    UserFormatError e;
    const UserFormatPreview p = draft->preview(&e);
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_EQ(p.gpus, 8);
    EXPECT_NEAR(*p.figure, medianAfterFirstTenth(values) * 8, 1e-9);
    // The Total line is the run's already: not per GPU.
    const auto total = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find("Total") != std::string::npos;
    });
    ASSERT_NE(total, lines.end());
    draft->chooseLine(static_cast<int>(total - lines.begin()));
    EXPECT_FALSE(draft->perGpu);
}
