// Users' format files (core/formats/userformat.h) and the teach dialog's model
// (core/formats/formatdraft.h): a file for a line shape no built-in format reads gives the right
// figure; bad files and patterns are refused naming the key and the reason; no pattern hangs;
// binary and huge logs are read in bounded memory.

#include "core/load/runloader.h"
#include "core/load/runmeter.h"
#include "core/measure/userformatanalyzer.h"
#include "core/formats/formatdraft.h"
#include "core/parse/logparser.h"
#include "core/formats/userformat.h"
#include "core/model/numerics.h"
#include "tests/support/freshtrainer.h"
#include "tests/support/logwriter.h"
#include "tests/support/tqdmlog.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fstream>

using namespace sv;
using namespace sv::test;

namespace {

std::shared_ptr<const UserFormat> parseOrFail(std::string_view json) {
    UserFormatError e;
    auto f = UserFormat::parse(json, "test.json", &e);
    EXPECT_TRUE(f) << e.text();
    return f;
}

UserFormatError refusal(std::string_view json) {
    UserFormatError e;
    EXPECT_FALSE(UserFormat::parse(json, "bad.json", &e)) << json;
    return e;
}

} // namespace

TEST(UserFormat, ReadsAFreshLineShape) {
    auto f = parseOrFail(kFreshFormat);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->id(), "fresh-trainer");
    EXPECT_EQ(f->marker(), "] trainer | it "); // the longest text every match holds
    SpeedSample s;
    ASSERT_TRUE(f->read("[2026-12-04 10:00:01.250] trainer | it 12/2000 | loss 2.31 | 12.34K "
                        "samples/s",
                        s));
    EXPECT_TRUE(s.hasSpeed);
    EXPECT_DOUBLE_EQ(s.speed, 12340.0);
    EXPECT_TRUE(s.hasIteration);
    EXPECT_EQ(s.batchFirst, 12);
    EXPECT_FALSE(f->read("eval: accuracy 0.71 after 7 steps", s));
    const auto facts = f->facts("x\nconfig: batch_size=64 world_size=8 precision=fp16\n");
    EXPECT_EQ(facts.batch, 64);
    EXPECT_EQ(facts.gpus, 8);
    EXPECT_EQ(facts.precision, "fp16");
}

TEST(UserFormat, PreviewGivesTheMedianAfterTheFirstTenth) {
    TempDir dir;
    const auto values = writeFreshLog(dir / "train.log", 300, 12.5);
    auto f = parseOrFail(kFreshFormat);
    ASSERT_TRUE(f);
    const UserFormatPreview p = previewUserFormat(*f, dir / "train.log");
    EXPECT_EQ(p.matches, 300);
    EXPECT_EQ(p.lines, 2 + 300 + 300 / 7);
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_DOUBLE_EQ(*p.figure, medianAfterFirstTenth(values));
    EXPECT_NE(p.rule.find("the first 10 % dropped"), std::string::npos) << p.rule;
    EXPECT_EQ(p.facts.batch, 64);
}

TEST(UserFormat, TheEngineReadsItThroughLoadRun) {
    TempDir dir;
    const auto values = writeFreshLog(dir / "1n8g" / "mynet_b64_fp16_1.log", 200, 9.9);
    auto f = parseOrFail(kFreshFormat);
    ASSERT_TRUE(f);
    LogFile log;
    log.path = dir / "1n8g" / "mynet_b64_fp16_1.log";
    log.display = "1n8g/mynet_b64_fp16_1.log";
    log.key.topology = {1, 8};
    log.key.batchPerDevice = 64;
    LoadOptions options;
    options.measure.formatDefaults = true;
    // Not registered: the format is handed to the meter as any LogFormat is.
    RunMeter meter(log, f->logFormat(), options.measure);
    ParseOptions parse;
    parse.format = f->logFormat().message;
    LogParser parser(parse, [&](const SpeedSample& s) { meter.add(s); });
    ASSERT_FALSE(readLogFile(log.path, parser).error);
    const RunResult r = meter.result(parser.counters(), false);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_DOUBLE_EQ(*r.speedThroughput, medianAfterFirstTenth(values));
    EXPECT_DOUBLE_EQ(*r.timeThroughput, *r.speedThroughput);
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes.front().find("user format 'fresh-trainer'"), std::string::npos);
}

TEST(UserFormat, AStepWindowCountsSteps) {
    auto json = std::string(kFreshFormat);
    json.replace(json.find("{\"drop_first\": 0.1}"), 19, "{\"warmup\": 20, \"iterations\": 120}");
    auto f = parseOrFail(json);
    ASSERT_TRUE(f);
    TempDir dir;
    const auto values = writeFreshLog(dir / "a.log", 150, 10);
    const UserFormatPreview p = previewUserFormat(*f, dir / "a.log");
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_DOUBLE_EQ(*p.figure,
                     numpyMedian(std::vector<double>(values.begin() + 20, values.begin() + 120)));
    writeFreshLog(dir / "short.log", 100, 10);
    const UserFormatPreview s = previewUserFormat(*f, dir / "short.log");
    EXPECT_FALSE(s.figure);
    EXPECT_NE(s.problem.find("reach step 100 of 120"), std::string::npos) << s.problem;
}

TEST(UserFormat, StepTimesBecomeRatesWithTheBatch) {
    auto f = parseOrFail(R"j({"id": "steptimer", "value": "step_time",
        "line": "step (?P<step>\\d+) took (?P<value>[0-9.]+) ?s",
        "metadata": {"batch": "--batch-size (\\d+)", "gpus": "--nproc (\\d+)"}})j");
    ASSERT_TRUE(f);
    TempDir dir;
    {
        std::ofstream out(dir / "t.log");
        out << "args: --batch-size 32 --nproc 4\n";
        for (int i = 1; i <= 50; ++i)
            out << "step " << i << " took " << (i <= 5 ? "0.5" : "0.25") << "s\n";
    }
    const UserFormatPreview p = previewUserFormat(*f, dir / "t.log");
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_DOUBLE_EQ(*p.figure, 32.0 * 4 / 0.25);
}

TEST(UserFormat, RefusesBadFilesNamingTheKeyAndReason) {
    // Unbalanced parenthesis: RE2's own words, and the key.
    auto e = refusal(R"j({"id": "x", "line": "speed (?P<value>[0-9.]+ samples"})j");
    EXPECT_EQ(e.key, "line");
    EXPECT_NE(e.reason.find("missing )"), std::string::npos) << e.text();
    EXPECT_NE(e.text().find("bad.json: \"line\": bad pattern:"), std::string::npos) << e.text();
    e = refusal(R"j({"id": "x", "line": "speed [0-9.]+) samples (?P<value>1)"})j");
    EXPECT_NE(e.reason.find("unexpected )"), std::string::npos) << e.text();
    // No value capture.
    e = refusal(R"j({"id": "x", "line": "speed ([0-9.]+) samples/s"})j");
    EXPECT_EQ(e.key, "line");
    EXPECT_NE(e.reason.find("no (?P<value>...) capture"), std::string::npos) << e.text();
    // Back references and lookarounds: RE2 has none.
    e = refusal(R"j({"id": "x", "line": "(a)\\1 speed (?P<value>\\d+)"})j");
    EXPECT_NE(e.reason.find("back references are not supported"), std::string::npos) << e.text();
    e = refusal(R"j({"id": "x", "line": "(?<=speed) (?P<value>\\d+)"})j");
    EXPECT_EQ(e.key, "line");
    // Not JSON, missing keys, wrong types, unknown keys, a built-in's id.
    EXPECT_NE(refusal("{\"id\": ").reason.find("not JSON"), std::string::npos);
    EXPECT_EQ(refusal(R"j({"line": "s (?P<value>\\d+)"})j").key, "id");
    EXPECT_EQ(refusal(R"j({"id": "x"})j").key, "line");
    EXPECT_EQ(refusal(R"j({"id": "x", "line": 3})j").key, "line");
    EXPECT_EQ(refusal(R"j({"id": "X Y", "line": "s (?P<value>\\d+)"})j").key, "id");
    EXPECT_EQ(refusal(R"j({"id": "x", "line": "s (?P<value>\\d+)", "colour": 1})j").key, "colour");
    EXPECT_EQ(refusal(R"j({"id": "ngc-mxnet", "line": "s (?P<value>\\d+)"})j").key, "id");
    EXPECT_EQ(
        refusal(R"j({"id": "x", "line": "s (?P<value>\\d+)", "metadata": {"batch": "b=\\d+"}})j")
            .key,
        "metadata.batch");
    EXPECT_EQ(refusal(R"j({"id": "x", "line": "s (?P<value>\\d+)", "window": {"warmup": 5}})j").key,
              "window");
    EXPECT_EQ(refusal(R"j({"id": "x", "line": "s (?P<value>\\d+) (?P<speed>\\d+)"})j").key, "line");
    EXPECT_EQ(refusal(R"j({"id": "x", "line": "s (?P<value>\\d+)", "value": "fast"})j").key,
              "value");
}

// (a+)+$ takes a backtracking engine exponential time on "aaaa...b"; RE2 is linear.
TEST(UserFormat, ACatastrophicLookingPatternDoesNotHang) {
    auto f = parseOrFail(R"j({"id": "slow", "line": "^x(a+)+(a|aa)*$ speed (?P<value>\\d+)"})j");
    ASSERT_TRUE(f);
    const std::string line = "x" + std::string(200000, 'a') + "b speed 12";
    const auto start = std::chrono::steady_clock::now();
    SpeedSample s;
    for (int i = 0; i < 20; ++i)
        EXPECT_FALSE(f->read(line, s));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(UserFormat, BinaryAndHugeFiles) {
    TempDir dir;
    {
        std::ofstream out(dir / "model.ckpt", std::ios::binary);
        for (int i = 0; i < 300000; ++i)
            out.put(static_cast<char>((i * 7919) & 0xff));
    }
    auto f = parseOrFail(kFreshFormat);
    ASSERT_TRUE(f);
    // A binary log: read, nothing matches, no figure, no crash.
    const UserFormatPreview p = previewUserFormat(*f, dir / "model.ckpt");
    EXPECT_EQ(p.matches, 0);
    EXPECT_FALSE(p.figure);
    // A format file that is binary or huge is refused without reading it all.
    UserFormatError e;
    EXPECT_FALSE(UserFormat::load(dir / "model.ckpt", &e));
    EXPECT_NE(e.reason.find("larger than 64 KiB"), std::string::npos) << e.text();
    {
        std::ofstream out(dir / "nul.json", std::ios::binary);
        out << "{\"id\": \"a\"}" << '\0';
    }
    EXPECT_FALSE(UserFormat::load(dir / "nul.json", &e));
    EXPECT_NE(e.reason.find("binary"), std::string::npos) << e.text();
    EXPECT_FALSE(UserFormat::load(dir / "missing.json", &e));
    EXPECT_EQ(e.file, (dir / "missing.json").string());
    // A huge log with one 3 MiB line and 64 MiB in all: streamed, the long line skipped.
    {
        std::ofstream out(dir / "huge.log", std::ios::binary);
        out << std::string(3 << 20, 'z') << " 1.00K samples/s\n";
        const std::string filler(1023, '.');
        for (int i = 0; i < 61 * 1024; ++i)
            out << filler << '\n';
        out << "[t] trainer | it 1/1 | loss 1.0 | 2.00K samples/s\n";
    }
    const UserFormatPreview h = previewUserFormat(*f, dir / "huge.log");
    EXPECT_EQ(h.matches, 1);
    ASSERT_TRUE(h.figure) << h.problem;
    EXPECT_DOUBLE_EQ(*h.figure, 2000.0);
    // The draft model shows a bounded head of it, and refuses a binary file.
    std::string why;
    auto d = FormatDraft::open(dir / "huge.log", &why);
    ASSERT_TRUE(d) << why;
    EXPECT_LE(d->lines().front().size(), 4096u);
    EXPECT_FALSE(FormatDraft::open(dir / "model.ckpt", &why));
    EXPECT_NE(why.find("binary"), std::string::npos) << why;
}

TEST(UserFormat, RequiredLiteral) {
    EXPECT_EQ(
        requiredLiteral("Epoch\\[\\d+\\] Batch \\[\\d+\\]\\tSpeed: (?P<value>[0-9.]+) samples/sec"),
        " samples/sec");
    EXPECT_EQ(requiredLiteral("a|b"), "");
    EXPECT_EQ(requiredLiteral("(?i)speed (?P<value>\\d+)"), "");
    EXPECT_EQ(requiredLiteral("xy?z (?P<value>\\d+)"), "z ");
    EXPECT_EQ(requiredLiteral("speed=+(?P<value>\\d+)"), "speed=");
    EXPECT_EQ(requiredLiteral("throughput: *(?P<value>\\d+)"), "throughput:");
}

TEST(UserFormat, DirectoryFromTheEnvironment) {
    EXPECT_EQ(userFormatDirectory("/cfg", "/home/u"), "/cfg/scaleview/formats");
    EXPECT_EQ(userFormatDirectory(nullptr, "/home/u"), "/home/u/.config/scaleview/formats");
    EXPECT_EQ(userFormatDirectory("relative", "/home/u"), "/home/u/.config/scaleview/formats");
    EXPECT_TRUE(userFormatDirectory(nullptr, nullptr).empty());
}

TEST(FormatDraft, NumbersOfALine) {
    const auto n = numbersInLine("INFO:root:Epoch[3] Batch [20-40]\tSpeed: 1234.5 samples/sec "
                                 "r50 fp16 3.2K tks/s loss=-0.5 1e-3");
    std::vector<std::string> texts;
    for (const auto& x : n)
        texts.push_back(x.text);
    EXPECT_EQ(texts, (std::vector<std::string>{"3", "20", "40", "1234.5", "3.2", "-0.5", "1e-3"}));
    EXPECT_EQ(n[4].suffix, 'K');
    EXPECT_TRUE(n[1].whole);
    EXPECT_FALSE(n[3].whole);
}

TEST(FormatDraft, DraftsPreviewsAndSavesAFreshShape) {
    TempDir dir;
    const auto values = writeFreshLog(dir / "run" / "train_log.txt", 250, 11.0);
    std::string why;
    auto d = FormatDraft::open(dir / "run" / "train_log.txt", &why);
    ASSERT_TRUE(d) << why;
    EXPECT_EQ(d->id, "train-log");
    const int suggested = suggestThroughputLine(d->lines());
    ASSERT_EQ(suggested, 2);
    d->chooseLine(suggested);
    // [2026-12-04 10:00:01.250] trainer | it 1/250 | loss 2.31 | 10.67K samples/s: the numbers
    // are the date's (3), the time's (3: "01.250" is one), the step's, the total's, the loss's
    // and the value's.
    ASSERT_EQ(d->numbers().size(), 10u);
    EXPECT_EQ(d->numbers()[5].text, "01.250");
    EXPECT_EQ(d->numbers()[static_cast<std::size_t>(d->value())].suffix, 'K');
    EXPECT_EQ(d->value(), 9);
    EXPECT_EQ(d->step(), 6); // after "it"
    EXPECT_NE(d->pattern.find("(?P<value>"), std::string::npos) << d->pattern;
    EXPECT_NE(d->pattern.find("(?P<scale>[KkMG]?) samples/s"), std::string::npos) << d->pattern;
    EXPECT_NE(d->pattern.find("\\] trainer \\| it *(?P<step>[0-9]+)/[0-9]+ \\| loss"),
              std::string::npos)
        << d->pattern;
    // The quick look: every step line of the first 400, no eval line.
    const auto shown = d->matchingLines();
    EXPECT_EQ(shown.size(), 250u);
    // The preview over the whole file: every step line, the median after the first tenth.
    UserFormatError e;
    const UserFormatPreview p = d->preview(&e);
    EXPECT_EQ(p.matches, 250);
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_DOUBLE_EQ(*p.figure, medianAfterFirstTenth(values));
    // An edit that breaks the pattern says why; one that picks another number changes the draft.
    d->pattern += "(";
    EXPECT_FALSE(d->format(&e));
    EXPECT_EQ(e.key, "line");
    d->chooseValue(8); // the loss
    EXPECT_EQ(d->preview(&e).values.front(), 2.31);
    d->chooseValue(9);
    // Saved: a format file the CLI loads as it is.
    const auto saved = d->save(dir / "config" / "scaleview" / "formats", &why);
    ASSERT_TRUE(saved) << why;
    // "train_log": a name that says nothing of the format; the id is the line's words.
    EXPECT_EQ(saved->filename(), "trainer-loss-samples.json");
    auto loaded = UserFormat::load(*saved, &e);
    ASSERT_TRUE(loaded) << e.text();
    EXPECT_EQ(loaded->pattern(), d->pattern);
    EXPECT_DOUBLE_EQ(*previewUserFormat(*loaded, dir / "run" / "train_log.txt").figure,
                     medianAfterFirstTenth(values));
}

TEST(FormatDraft, LeavesALaunchersTagOut) {
    const std::string line = "[1,0]<stdout>:step 10 speed 512.5 img/s";
    const auto n = numbersInLine(line);
    const std::string p = draftLinePattern(line, n, static_cast<int>(n.size()) - 1, 2);
    EXPECT_EQ(p.rfind("step ", 0), 0u) << p;
}

// Issue 37 item 5: on a tqdm log the draft copied the bar's glyphs and matched 1 line of 118;
// the value is iterations per second, preset "samples/s"; the id was the file's name.
TEST(FormatDraft, ATqdmLineIsGeneralisedPastItsBarAndSaidInStepsPerSecond) {
    TempDir dir;
    std::string log = "***** Running training *****\n  Num examples = 6400\n"
                      "  0%|          | 0/200 [00:00<?, ?it/s]\n";
    const std::string blocks[] = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b"};
    std::vector<double> rates;
    for (int step = 1; step <= 200; ++step) {
        const int pct = step / 2;
        std::string bar;
        for (int k = 0; k < pct / 10; ++k)
            bar += "\u2588";
        bar += blocks[(pct % 10) / 2];
        const int glyphs = pct / 10 + ((pct % 10) / 2 > 0 ? 1 : 0);
        bar += std::string(static_cast<std::size_t>(10 - glyphs), ' ');
        const double rate = 1.5 + 0.01 * (step % 7);
        rates.push_back(rate);
        char line[160];
        std::snprintf(line, sizeof line, "%3d%%|%s| %d/200 [%02d:%02d<%02d:%02d, %5.2fit/s]\n", pct,
                      bar.c_str(), step, step / 90, (step * 2 / 3) % 60, (200 - step) / 90,
                      (200 - step) % 60, rate);
        log += line;
        if (step % 50 == 0) log += "{'loss': 2.31, 'learning_rate': 4.5e-05, 'epoch': 0.5}\n";
    }
    writeFile(dir / "train.log", log);
    std::string why;
    auto d = FormatDraft::open(dir / "train.log", &why);
    ASSERT_TRUE(d) << why;
    const int first = suggestThroughputLine(d->lines());
    ASSERT_EQ(first, 3) << d->lines()[3]; // the 0 % line has no rate
    d->chooseLine(first);
    EXPECT_EQ(d->unit, "steps/s");
    EXPECT_EQ(d->id, "tqdm-progress");
    EXPECT_EQ(d->step(), 1) << d->pattern; // 1/200: the step before the total
    EXPECT_NE(d->pattern.find("%\\|[^|]*\\|"), std::string::npos) << d->pattern;
    EXPECT_EQ(d->matchingLines().size(), 200u) << d->pattern;
    EXPECT_EQ(d->coverage(), "");
    UserFormatError e;
    const UserFormatPreview p = d->preview(&e);
    EXPECT_EQ(p.matches, 200) << p.problem;
    ASSERT_TRUE(p.figure) << p.problem;
    // A pattern that copies one line's bar matches only the lines with that bar, and says so.
    const std::string copied = d->lines()[3];
    std::string literal;
    for (char c : copied)
        literal += std::string(std::strchr("\\.^$|?*+()[]{}", c) && c ? "\\" : "") + c;
    d->pattern = literal;
    EXPECT_LT(d->matchingLines().size(), 5u);
    EXPECT_NE(d->coverage().find("of the 201 lines shown that hold \"it/s\""), std::string::npos)
        << d->coverage();
}

// A tqdm log as written to a file: the bars between two logged lines are one physical line, joined
// by '\r'. Teach shows each line as a terminal does (its last bar), drafts from it, and the format
// reads the same last bar of every such line: before, the whole line (4 KiB of bars) became a
// pattern longer than a format may hold, matching nothing.
TEST(FormatDraft, BarsJoinedByCarriageReturnsAreTaughtAtTheirLastBar) {
    TempDir dir;
    std::string log = "***** Running training *****\n";
    std::string bars;
    std::vector<double> last;
    for (int step = 0; step <= 200; ++step) {
        char bar[96];
        const double rate = 1.5 + 0.01 * (step % 7);
        std::snprintf(bar, sizeof bar, "%3d%%|%-10s| %d/200 [00:%02d<00:%02d, %.2fit/s]", step / 2,
                      std::string(static_cast<std::size_t>(step / 20), '#').c_str(), step,
                      step % 60, (200 - step) % 60, rate);
        bars += (bars.empty() ? "" : "\r") + std::string(bar);
        if (step % 50 == 49) {
            last.push_back(rate);
            log += bars + "\n{'loss': 2.31}\n";
            bars.clear();
        }
    }
    writeFile(dir / "train.log", log);
    std::string why;
    auto d = FormatDraft::open(dir / "train.log", &why);
    ASSERT_TRUE(d) << why;
    ASSERT_EQ(d->lines().size(), 9u);
    EXPECT_EQ(d->lines()[1].find('\r'), std::string::npos);
    EXPECT_EQ(d->lines()[1].rfind(" 24%|#", 0), 0u) << d->lines()[1];
    const int first = suggestThroughputLine(d->lines());
    ASSERT_EQ(first, 1);
    d->chooseLine(first);
    EXPECT_EQ(d->unit, "steps/s");
    EXPECT_EQ(d->matchingLines(), (std::vector<int>{1, 3, 5, 7}));
    EXPECT_EQ(d->coverage(), "");
    UserFormatError e;
    const UserFormatPreview p = d->preview(&e);
    EXPECT_EQ(p.matches, 4) << p.problem;
    // Four values: no tenth to drop, said so (not "the last 4 of 4 (the first 10 % dropped)").
    EXPECT_NE(p.rule.find("all 4 values (too few for a first 10 % to drop as warmup)"),
              std::string::npos)
        << p.rule;
    auto f = d->format(&e);
    ASSERT_TRUE(f) << e.text();
    SpeedSample s;
    ASSERT_TRUE(f->read(log.substr(log.find('\n') + 1, log.find("\n{") - log.find('\n') - 1), s));
    EXPECT_DOUBLE_EQ(s.speed, last[0]);
}

TEST(FormatDraft, AnIdFromTheLineWhereTheNameSaysNothing) {
    EXPECT_TRUE(isGenericLogName("train"));
    EXPECT_TRUE(isGenericLogName("slurm-123456"));
    EXPECT_TRUE(isGenericLogName("09-03-2020-03-38-54"));
    EXPECT_FALSE(isGenericLogName("train-log-bert"));
    EXPECT_EQ(idFromLine("[1,0]<stdout>:Iter #3: 245.3 img/sec per GPU"), "iter-img-gpu");
    TempDir dir;
    writeFile(dir / "output.log", "setup\nIter #3: 245.3 img/sec per GPU\n");
    auto d = FormatDraft::open(dir / "output.log", nullptr);
    ASSERT_TRUE(d);
    d->chooseLine(1);
    EXPECT_EQ(d->id, "iter-img-gpu");
    d->id = "mine"; // typed by the user: kept
    d->chooseLine(1);
    EXPECT_EQ(d->id, "mine");
    writeFile(dir / "horovod-bench.log", "Iter #3: 245.3 img/sec per GPU\n");
    auto named = FormatDraft::open(dir / "horovod-bench.log", nullptr);
    named->chooseLine(0);
    EXPECT_EQ(named->id, "horovod-bench"); // a name that says something stays
}

TEST(FormatDraft, IdFromName) {
    EXPECT_EQ(formatIdFromName("09-03-2020_03-38-54.txt"), "09-03-2020-03-38-54");
    EXPECT_EQ(formatIdFromName("My Log!.log"), "my-log");
    EXPECT_EQ(formatIdFromName("___"), "user-format");
}

namespace {

// A log of lines, each "<prefix><value>", after a line the pattern must not take.
std::filesystem::path writeLines(const TempDir& dir, const std::string& name,
                                 const std::vector<std::string>& lines) {
    const auto path = dir / name;
    std::ofstream out(path, std::ios::binary);
    out << "starting the trainer\n";
    for (const auto& l : lines)
        out << l << '\n';
    return path;
}

// The run a format gives on a log through the engine's meter, with the parser's options.
RunResult meterRun(const UserFormat& f, const std::filesystem::path& path,
                   ParseOptions parse = {}) {
    LogFile log;
    log.path = path;
    log.display = path.filename().string();
    log.key.topology = {1, 1};
    LoadOptions options;
    options.measure.formatDefaults = true;
    RunMeter meter(log, f.logFormat(), options.measure);
    parse.format = f.logFormat().message;
    LogParser parser(parse, [&](const SpeedSample& s) { meter.add(s); });
    EXPECT_FALSE(readLogFile(log.path, parser).error);
    return meter.result(parser.counters(), false);
}

} // namespace

// Valid RE2 the match hint once misread: "(?si)" folds case, "\x53" is 'S', "[[:space:]]" a
// class. The hint was a text no line holds, so every line was skipped without a word.
TEST(UserFormat, ValidRe2SyntaxIsMatchedNotSkippedByAWrongHint) {
    struct Case {
        const char* pattern;
        std::vector<std::string> lines;
    };
    const Case cases[] = {
        {R"(speed: (?P<value>[0-9.]+))", {"SPEED: 10", "Speed: 20", "speed: 30"}},
        {R"(\x53peed: (?P<value>[0-9.]+))", {"Speed: 10", "Speed: 20", "Speed: 30"}},
        {R"(speed:[[:space:]]+(?P<value>[0-9.]+))", {"speed:\t10", "speed:  20", "speed: 30"}},
        {R"(\123peed=(?P<value>[0-9.]+))", {"Speed=10", "Speed=20", "Speed=30"}},
        {R"(\QS.p\E=(?P<value>[0-9.]+))", {"S.p=10", "S.p=20", "S.p=30"}},
        {R"((?P<value>[0-9.]+) img/s|rate (?P<step>\d+))", {"10 img/s", "20 img/s", "30 img/s"}},
    };
    TempDir dir;
    int n = 0;
    for (const Case& c : cases) {
        std::string pattern = c.pattern;
        if (n == 0) pattern = "(?si)" + pattern;
        nlohmann::json j = {
            {"id", "re2-" + std::to_string(n)}, {"line", pattern}, {"window", {{"drop_first", 0}}}};
        auto f = parseOrFail(j.dump());
        ASSERT_TRUE(f) << pattern;
        const auto log = writeLines(dir, std::to_string(n++) + ".log", c.lines);
        const UserFormatPreview p = previewUserFormat(*f, log);
        EXPECT_EQ(p.matches, 3) << pattern << " (marker \"" << f->marker() << "\")";
        ASSERT_TRUE(p.figure) << pattern << ": " << p.problem;
        EXPECT_DOUBLE_EQ(*p.figure, 20.0) << pattern;
    }
    // Where the pattern proves a text, it is still the hint (and a correct one).
    EXPECT_EQ(requiredLiteral(R"((?s)speed:[[:space:]]+(?P<value>\d+) img/sec)"), " img/sec");
    EXPECT_EQ(requiredLiteral(R"(a{2}b{,3} (?P<value>\d+))"), "b{,3} ");
    EXPECT_EQ(requiredLiteral(R"(\x53peed (?P<value>\d+))"), "");
    EXPECT_EQ(requiredLiteral(R"((?i:x)speed (?P<value>\d+))"), "");
}

// A repeat inside a repeat compiles to thousands of instructions and costs milliseconds a line
// (a 2,000-line log once took 87 s): refused when the file is read, with the size and why.
TEST(UserFormat, APatternSlowOnEveryLineIsRefused) {
    auto e = refusal(R"j({"id": "slow", "line": "(.{1,30}){1,30}(?P<value>[0-9.]+) img/s"})j");
    EXPECT_EQ(e.key, "line");
    EXPECT_NE(e.reason.find("instructions, more than 2000"), std::string::npos) << e.text();
    EXPECT_NE(e.reason.find("slow on every line"), std::string::npos) << e.text();
    e = refusal(R"j({"id": "slow", "line": "s (?P<value>\\d+)",
                     "metadata": {"model": "((\\w{1,30}\\s*){1,30})"}})j");
    EXPECT_EQ(e.key, "metadata.model");
    EXPECT_NE(e.reason.find("instructions"), std::string::npos) << e.text();
}

// What a pattern may cost over one file is bounded: past the bound the read stops, the run is
// not counted, and the reason says where and why.
TEST(UserFormat, TheTimeAPatternTakesOverAFileIsBounded) {
    EXPECT_GT(ParseOptions{}.lineReaderSeconds, 0); // bounded by default
    auto f = parseOrFail(R"j({"id": "costly",
        "line": "(\\d{1,9}[a-z ]{0,9}){0,40}V(?P<value>[0-9.]+) zzz"})j");
    ASSERT_TRUE(f);
    TempDir dir;
    std::vector<std::string> lines;
    for (int i = 0; i < 20000; ++i)
        lines.push_back("12 ab 34 cd 56 ef 78 gh 90 ij 12 kl 34 mn 56 op 78 qr 90 st V100.5 zzz " +
                        std::string(200, 'x'));
    const auto log = writeLines(dir, "long.log", lines);
    ParseOptions parse;
    parse.lineReaderSeconds = 0.05;
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = meterRun(*f, log, parse);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.status, RunStatus::Unusable);
    EXPECT_FALSE(r.speedThroughput);
    EXPECT_NE(r.reason.find("took more than 0.05 s over this log: reading stopped at line "),
              std::string::npos)
        << r.reason;
    EXPECT_GT(r.counters.budgetLine, 1);
    EXPECT_LT(r.counters.budgetLine, 20001);
    EXPECT_EQ(r.counters.lines, 20001); // every line still counted, the rest not matched
    EXPECT_LT(seconds, 5.0);
    // Unbounded, the same log reads to its end and gives its figure.
    parse.lineReaderSeconds = 0;
    const RunResult whole = meterRun(*f, log, parse);
    ASSERT_EQ(whole.status, RunStatus::Complete) << whole.reason;
    EXPECT_DOUBLE_EQ(*whole.speedThroughput, 100.5);
}

// A figure that cannot be a throughput (negative, zero, 1e308, the inf of two 1e308, 1e-320
// that prints as 0.00) is no figure: the preview says why, the run is excluded with its reason.
TEST(UserFormat, ImplausibleFiguresAreExcludedWithTheirReason) {
    auto f = parseOrFail(R"j({"id": "wild", "unit": "img/s", "line": "rate=(?P<value>\\S+)",
                             "window": {"drop_first": 0}})j");
    ASSERT_TRUE(f);
    TempDir dir;
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"rate=-5", "rate=-5"}, "-5 img/s is not above 0"},
        {{"rate=0", "rate=0"}, "0 img/s is not above 0"},
        {{"rate=1e308", "rate=1e308"}, "inf img/s is not a finite number"},
        {{"rate=1e308"}, "1e+308 img/s is above 10^12 a second"},
        {{"rate=1e-320"}, "9.99989e-321 img/s is below 0.001 a second"}, // as held
        {{"rate=1.8e17"}, "1.8e+17 img/s is above 10^12"},
    };
    int n = 0;
    for (const auto& [values, why] : cases) {
        const auto log = writeLines(dir, std::to_string(n++) + ".log", values);
        const UserFormatPreview p = previewUserFormat(*f, log);
        EXPECT_FALSE(p.figure) << why;
        EXPECT_NE(p.problem.find("cannot be a throughput: " + why), std::string::npos) << p.problem;
        const RunResult r = meterRun(*f, log);
        EXPECT_EQ(r.status, RunStatus::Unusable) << why;
        EXPECT_FALSE(r.speedThroughput) << why;
        EXPECT_FALSE(r.timeThroughput) << why;
        EXPECT_NE(r.reason.find("cannot be one: " + why), std::string::npos) << r.reason;
    }
}

// Lines the pattern matched whose value is left out are said as such, never as "no match".
TEST(UserFormat, LeftOutValuesAreNotCalledNoMatch) {
    auto f = parseOrFail(R"j({"id": "scaled", "line": "rate=(?P<value>[0-9.]+)(?P<scale>[A-Z]?)",
                             "window": {"drop_first": 0}})j");
    ASSERT_TRUE(f);
    TempDir dir;
    const auto log = writeLines(dir, "q.log", {"rate=5Q", "rate=6Q"});
    const UserFormatPreview p = previewUserFormat(*f, log);
    EXPECT_FALSE(p.figure);
    EXPECT_EQ(p.problem.find("no line matches"), std::string::npos) << p.problem;
    EXPECT_NE(p.problem.find("2 lines match, none with a usable value (the first at line 2"),
              std::string::npos)
        << p.problem;
    const auto ranks = writeLines(dir, "r.log", {"[1,1]<stderr>:rate=5", "[1,2]<stderr>:rate=6"});
    const RunResult r = meterRun(*f, ranks);
    EXPECT_NE(r.reason.find("2 lines match, all of ranks other than 0"), std::string::npos)
        << r.reason;
}

// tqdm's it/s counts steps: taught as "steps/s × batch", the figure is it times the step's global
// batch (batch per GPU × GPUs) exactly; with no batch known it stays steps/s and says why, never
// multiplied by a guess. The same rule through the engine's meter.
TEST(FormatDraft, AStepRateTimesTheStepsBatchGivesSamplesPerSecond) {
    TempDir dir;
    const TqdmLog tqdm = tqdmLog(200);
    writeFile(dir / "train.log", tqdm.text);
    std::string why;
    auto d = FormatDraft::open(dir / "train.log", &why);
    ASSERT_TRUE(d) << why;
    d->chooseLine(suggestThroughputLine(d->lines()));
    ASSERT_EQ(d->unit, "steps/s");
    d->stepRate = true;
    d->batch = 8;
    d->gpusPattern = "4"; // a number: every log's GPU count
    const auto json = nlohmann::json::parse(d->json());
    EXPECT_EQ(json["value"], "step_rate");
    EXPECT_EQ(json["unit"], "samples/s"); // steps/s × a batch is no longer steps
    EXPECT_EQ(json["batch"], 8);
    EXPECT_EQ(json["metadata"]["gpus"], 4);
    UserFormatError e;
    const UserFormatPreview p = d->preview(&e);
    ASSERT_TRUE(p.figure) << p.problem;
    EXPECT_EQ(p.stepBatch, 32);
    EXPECT_EQ(p.stepsOnly, "");
    EXPECT_DOUBLE_EQ(*p.figure, medianAfterFirstTenth(tqdm.rates) * 32);

    // No batch: the figure is the steps/s themselves, and the preview says which is missing.
    d->batch = 0;
    const UserFormatPreview steps = d->preview(&e);
    ASSERT_TRUE(steps.figure) << steps.problem;
    EXPECT_EQ(steps.stepBatch, 0);
    EXPECT_DOUBLE_EQ(*steps.figure, medianAfterFirstTenth(tqdm.rates));
    EXPECT_NE(steps.stepsOnly.find("the batch size is not stated, so the figure stays in steps/s"),
              std::string::npos)
        << steps.stepsOnly;
    // A batch but no GPU count: no guess of one GPU either.
    d->batch = 8;
    d->gpusPattern.clear();
    const UserFormatPreview noGpus = d->preview(&e);
    EXPECT_EQ(noGpus.stepBatch, 0);
    EXPECT_DOUBLE_EQ(*noGpus.figure, medianAfterFirstTenth(tqdm.rates));
    EXPECT_NE(noGpus.stepsOnly.find("the GPU count is not stated"), std::string::npos)
        << noGpus.stepsOnly;
}

TEST(UserFormat, AStepRateRunIsTimesItsBatchOrGivesNoFigure) {
    auto f = parseOrFail(R"j({"id": "tqdm-steprate", "unit": "samples/s", "value": "step_rate",
        "line": "\\| (?P<step>[0-9]+)/[0-9]+ \\[[^\\]]*, *(?P<value>[0-9.]+)it/s\\]"})j");
    ASSERT_TRUE(f);
    TempDir dir;
    const TqdmLog tqdm = tqdmLog(200);
    writeFile(dir / "train.log", tqdm.text);
    const auto run = [&](int batch, Topology topology) {
        LogFile log;
        log.path = dir / "train.log";
        log.display = "train.log";
        log.key.topology = topology;
        log.key.batchPerDevice = batch;
        MeasureOptions measure;
        measure.formatDefaults = true;
        RunMeter meter(log, f->logFormat(), measure);
        ParseOptions parse;
        parse.format = f->logFormat().message;
        LogParser parser(parse, [&](const SpeedSample& s) { meter.add(s); });
        EXPECT_FALSE(readLogFile(log.path, parser).error);
        return meter.result(parser.counters(), false);
    };
    const RunResult r = run(16, {1, 2});
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    EXPECT_DOUBLE_EQ(*r.speedThroughput, medianAfterFirstTenth(tqdm.rates) * 32);
    bool said = false;
    for (const auto& n : r.notes)
        said |=
            n.find("steps/s times the step's batch 32 (16 per GPU × 2 GPUs)") != std::string::npos;
    EXPECT_TRUE(said) << r.notes.back();
    // No batch: no figure in samples/s from a guess, and why.
    const RunResult none = run(0, {1, 2});
    EXPECT_EQ(none.status, RunStatus::Unusable);
    EXPECT_FALSE(none.speedThroughput);
    EXPECT_NE(none.reason.find("the format's values are steps/s (line 4)"), std::string::npos)
        << none.reason;
    EXPECT_NE(none.reason.find("the batch size is not known"), std::string::npos) << none.reason;
    const RunResult noGpus = run(16, {0, 0});
    EXPECT_EQ(noGpus.status, RunStatus::Unusable);
    EXPECT_NE(noGpus.reason.find("the GPU count is not known"), std::string::npos) << noGpus.reason;
    // A step rate is the whole step's: "per_gpu" beside it is refused.
    EXPECT_EQ(refusal(R"({"id": "x", "value": "step_rate", "per_gpu": true,
        "line": "(?P<value>[0-9.]+)it/s"})")
                  .key,
              "per_gpu");
}
