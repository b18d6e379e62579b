// What a folder of logs may hold that is not a log, and how each is said: a huge scaleview.json
// is refused from its size (never read whole), a key it does not know is named, a symlinked
// sub-folder outside the folder opened is neither read nor written, FIFOs and devices are named
// and never read, over-long lines and over-long parameter keys are bounded and said, and a huge
// device or reference catalogue is refused as a huge sidecar is.

#include "core/formats/userformat.h"
#include "core/load/logscan.h"
#include "core/load/runloader.h"
#include "core/load/runmeter.h"
#include "core/load/sidecarwriter.h"
#include "core/parse/logparser.h"
#include "core/parse/logread.h"
#include "core/parse/runfacts.h"
#include "core/reference/cataloguefile.h"
#include "core/reference/devicecatalog.h"
#include "core/reference/referencecatalog.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace sv;
using namespace sv::test;

namespace {

// A log outside DLPerf's layout, so that its key comes from a scaleview.json.
void writeLooseLog(const std::filesystem::path& path) {
    RunSpec spec;
    spec.iterations = 130;
    writeFile(path, makeLog(spec, [](int, int) { return std::string("128.00"); }));
}

bool said(const std::vector<Warning>& warnings, const std::string& text) {
    for (const Warning& w : warnings)
        if (w.text().find(text) != std::string::npos) return true;
    return false;
}

std::string allOf(const std::vector<Warning>& warnings) {
    std::string s;
    for (const Warning& w : warnings)
        s += w.text() + "\n";
    return s;
}

// This process's peak resident memory since the last reset, in KiB (Linux: VmHWM, reset by
// writing 5 to clear_refs).
long peakKiB() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}
void resetPeak() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

} // namespace

// A 3 GB scaleview.json once took 6.3 GB of memory: now it is refused from its size, unread.
TEST(InputBounds, AHugeSidecarIsRefusedWithoutReadingIt) {
    TempDir dir;
    writeLooseLog(dir / "runs" / "train.log");
    {
        const int fd =
            ::open((dir / "runs" / "scaleview.json").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::ftruncate(fd, off_t{3} << 30), 0); // sparse: 3 GiB of NULs, no disk
        ::close(fd);
    }
    resetPeak();
    const long before = peakKiB();
    const ScanResult scan = scanLogDirectory(dir.path());
    const long grown = peakKiB() - before;
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_TRUE(said(scan.warnings, "scaleview.json: larger than 1 MiB (3221225472 bytes): not a "
                                    "sidecar, not read; ignored"))
        << allOf(scan.warnings);
    EXPECT_LT(grown, 64 * 1024) << "KiB"; // far from the file's size
    // The writer refuses it too, leaving it as it is.
    SidecarEntry keys;
    keys.batch = 64;
    const SidecarWriteResult w = setSidecarEntry(dir / "runs" / "train.log", dir.path(), keys);
    ASSERT_TRUE(w.error);
    EXPECT_NE(w.error->find("larger than 1 MiB"), std::string::npos) << *w.error;
    EXPECT_EQ(std::filesystem::file_size(dir / "runs" / "scaleview.json"), std::uintmax_t{3} << 30);
}

// A key the reader does not know was ignored without a word: a typo left the field unknown.
TEST(InputBounds, IgnoredSidecarKeysAreSaid) {
    TempDir dir;
    writeLooseLog(dir / "runs" / "train.log");
    writeFile(dir / "runs" / "scaleview.json",
              R"({"precison": "fp16", "model": "resnet50", "label": ")" + std::string(300, 'L') +
                  R"(", "files": {"train.log": {"bach": 64, "batch": 32}, "x.log": 3}})");
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    EXPECT_TRUE(said(scan.warnings, "\"precison\" is not a key of scaleview.json (known: model, "
                                    "batch, precision"))
        << allOf(scan.warnings);
    EXPECT_TRUE(said(scan.warnings, "files[\"train.log\"]: \"bach\" is not a key"))
        << allOf(scan.warnings);
    EXPECT_TRUE(said(scan.warnings, "\"label\" is longer than 200 bytes; ignored"))
        << allOf(scan.warnings);
}

// A sub-folder that is a symlink to elsewhere was read, and the app wrote its sidecar there.
TEST(InputBounds, ASymlinkedSubfolderOutsideTheFolderIsNotFollowed) {
    TempDir outside, dir;
    writeLooseLog(outside / "elsewhere.log");
    writeLooseLog(dir / "mine" / "train.log");
    std::filesystem::create_directory_symlink(outside.path(), dir / "linked");
    std::filesystem::create_directory_symlink(dir / "mine", dir / "inside");
    const ScanResult scan = scanLogDirectory(dir.path());
    for (const LogFile& log : scan.logs)
        EXPECT_EQ(log.display.find("elsewhere"), std::string::npos) << log.display;
    EXPECT_TRUE(said(scan.warnings, "linked: a symlink to " +
                                        std::filesystem::canonical(outside.path()).string() +
                                        ", outside the folder opened; not followed"))
        << allOf(scan.warnings);
    // A link within the folder is still followed (once: the same folder twice is said).
    EXPECT_GE(scan.logs.size(), 1u);
    // Nothing is written through the link.
    SidecarEntry keys;
    keys.batch = 64;
    const SidecarWriteResult w =
        setSidecarEntry(dir / "linked" / "elsewhere.log", dir.path(), keys);
    ASSERT_TRUE(w.error);
    EXPECT_NE(w.error->find("outside " + dir.path().string() + " (a symlink?); nothing written"),
              std::string::npos)
        << *w.error;
    EXPECT_FALSE(std::filesystem::exists(outside / "scaleview.json"));
}

// FIFOs and devices are named and never read (a FIFO once read as "the file is empty").
TEST(InputBounds, FifosAndDevicesAreNamedAndSkipped) {
    TempDir dir;
    writeLooseLog(dir / "train.log");
    ASSERT_EQ(::mkfifo((dir / "pipe.log").c_str(), 0600), 0);
    std::filesystem::create_symlink("/dev/null", dir / "null.log");
    const ScanResult scan = scanLogDirectory(dir.path());
    EXPECT_EQ(scan.logs.size(), 1u);
    EXPECT_TRUE(said(scan.warnings, "pipe.log: a FIFO (named pipe), not a file; skipped"))
        << allOf(scan.warnings);
    EXPECT_TRUE(said(scan.warnings, "null.log: a character device, not a file; skipped"))
        << allOf(scan.warnings);
    const ScanResult one = scanLogFiles({dir / "pipe.log"});
    ASSERT_TRUE(one.error);
    EXPECT_NE(one.error->find("a FIFO (named pipe), not a file"), std::string::npos) << *one.error;
    EXPECT_EQ(one.error->find("empty"), std::string::npos) << *one.error;
}

// Over-long lines were skipped without a word by the analyzers other than NGC MXNet's.
TEST(InputBounds, OverlongLinesAreSaidByEveryFormat) {
    UserFormatError e;
    auto f = UserFormat::parse(R"j({"id": "ol", "line": "rate=(?P<value>[0-9.]+)",
                                    "window": {"drop_first": 0}})j",
                               "ol.json", &e);
    ASSERT_TRUE(f) << e.text();
    TempDir dir;
    {
        std::ofstream out(dir / "ol.log", std::ios::binary);
        out << "rate=10\n"
            << std::string(3 << 20, 'x') << " rate=99999\n"
            << "rate=10\n";
    }
    LogFile log;
    log.path = dir / "ol.log";
    log.display = "ol.log";
    log.key.topology = {1, 1};
    MeasureOptions measure;
    measure.formatDefaults = true; // the format's own window
    RunMeter meter(log, f->logFormat(), measure);
    ParseOptions parse;
    parse.format = f->logFormat().message;
    LogParser parser(parse, [&](const SpeedSample& s) { meter.add(s); });
    ASSERT_FALSE(readLogFile(log.path, parser).error);
    const RunResult r = meter.result(parser.counters(), false);
    ASSERT_EQ(r.status, RunStatus::Complete) << r.reason;
    bool noted = false;
    for (const auto& n : r.notes)
        noted = noted || n.find("1 over-long lines skipped (first at line 2: longer than 1 MiB") !=
                             std::string::npos;
    EXPECT_TRUE(noted);
}

// A parameter dump's "key" of thousands of bytes is text, not a parameter: not kept.
TEST(InputBounds, ParameterKeysAreBounded) {
    const std::string longKey(5000, 'k');
    const RunFacts f = readRunFacts("Namespace(" + longKey + "=1, batch_size=64, lr=0.1)\n");
    for (const auto& [key, value] : f.parameters)
        EXPECT_LE(key.size(), RunFacts::kMaxParameterKeyBytes) << key.substr(0, 40);
    bool lr = false;
    for (const auto& [key, value] : f.parameters)
        lr = lr || (key == "lr" && value == "0.1");
    EXPECT_TRUE(lr);
}

// A host list with an empty entry ("-H a:8,,b:8", ":8") counted an empty host, or dropped it
// without a word: named hosts only are counted, and the evidence says what was left out.
TEST(InputBounds, AnEmptyHostEntryIsNotCountedAndSaid) {
    const RunFacts f = readRunFacts("+ mpirun -np 16 -H node1:8,,:8,node2:8 python train.py\n");
    ASSERT_TRUE(f.nodes);
    EXPECT_EQ(f.nodes->value, "2");
    EXPECT_NE(f.nodes->evidence.find("(2 empty host entries not counted)"), std::string::npos)
        << f.nodes->evidence;
}

// A log in DLPerf's layout that is bytes without one line break (a file of NULs) showed as an
// empty run: it is a file that is not a text log, with its size.
TEST(InputBounds, AFileOfNulBytesIsNotCalledEmpty) {
    TempDir dir;
    std::filesystem::create_directories(dir / "1n1g");
    {
        const int fd = ::open((dir / "1n1g" / "r50_b64_fp32_1.log").c_str(),
                              O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::ftruncate(fd, off_t{64} << 20), 0); // 64 MiB of NULs, sparse
        ::close(fd);
    }
    const ScanResult scan = scanLogDirectory(dir.path());
    ASSERT_EQ(scan.logs.size(), 1u);
    const RunResult r = loadRun(scan.logs[0], LoadOptions{});
    EXPECT_NE(r.status, RunStatus::Empty);
    EXPECT_NE(r.reason.find("67108864 bytes without a line break: not a text log"),
              std::string::npos)
        << r.reason;
}

// A file whose first line runs past the detector's 1 MiB was one more "other file", and named
// alone its reason was "none of its first 2000 lines is a throughput line": the reason is the
// line's length (and a progress bar's carriage returns, where those are what it holds), said for
// the file in a folder too. A log whose first line is that long but whose throughput lines follow
// is still read.
TEST(InputBounds, AFirstLineOverAMebibyteIsSaidNotPassedOver) {
    TempDir dir;
    writeLooseLog(dir / "train.log");
    writeFile(dir / "one-line.log", std::string(1100 << 10, 'y') + "\n");
    std::string bar;
    while (bar.size() < (std::size_t{1} << 21))
        bar += "  3%|##       | 310/10000 [00:41<21:33,  7.49it/s]\r";
    writeFile(dir / "progress.log", bar);
    RunSpec spec;
    spec.iterations = 130;
    writeFile(dir / "long-then-log.log",
              std::string(std::size_t{2} << 20, 'z') + "\n" +
                  makeLog(spec, [](int, int) { return std::string("128.00"); }));
    const ScanResult scan = scanLogDirectory(dir.path());
    EXPECT_EQ(scan.logs.size(), 2u) << allOf(scan.warnings);
    EXPECT_TRUE(said(scan.warnings,
                     "one-line.log:1: not read as a log: its first line runs past "
                     "1 MiB without a line break; lines that long are not log lines"))
        << allOf(scan.warnings);
    EXPECT_TRUE(said(scan.warnings,
                     "progress.log:1: not read as a log: its first line runs past "
                     "1 MiB without a line break (its lines end in carriage returns"))
        << allOf(scan.warnings);
    EXPECT_FALSE(said(scan.warnings, "long-then-log.log:1:")) << allOf(scan.warnings);
    const ScanResult one = scanLogFiles({dir / "one-line.log"});
    ASSERT_TRUE(one.error);
    EXPECT_NE(one.error->find("its first line runs past 1 MiB"), std::string::npos) << *one.error;
}

// A user's device or reference catalogue is read with the same bound as a sidecar: one over it is
// refused from its size, with its reason, and the catalogue is left as it was.
TEST(InputBounds, AnOversizedCatalogueIsRefusedWithItsReason) {
    TempDir dir;
    const auto huge = dir / "huge.json";
    std::ofstream(huge) << "{\"devices\": []}";
    std::filesystem::resize_file(huge, kMaxCatalogueBytes + 1); // sparse: nothing written
    DeviceCatalog devices = DeviceCatalog::builtin();
    const std::size_t before = devices.devices().size();
    std::string error;
    EXPECT_FALSE(devices.addFile(huge, &error));
    EXPECT_EQ(error, huge.string() + ": larger than 8 MiB (8388609 bytes): not a catalogue, not "
                                     "read");
    EXPECT_EQ(devices.devices().size(), before);
    ReferenceCatalog tables = ReferenceCatalog::builtin();
    const std::size_t tablesBefore = tables.tables().size();
    error.clear();
    EXPECT_FALSE(tables.addFile(huge, &error));
    EXPECT_EQ(error, huge.string() + ": larger than 8 MiB (8388609 bytes): not a catalogue, not "
                                     "read");
    EXPECT_EQ(tables.tables().size(), tablesBefore);
    // Under the bound, the same file is read (and refused for what it says, not its size).
    std::filesystem::resize_file(huge, 64);
    error.clear();
    EXPECT_FALSE(tables.addFile(huge, &error));
    EXPECT_EQ(error.find("larger than"), std::string::npos) << error;
    // A FIFO is never read: the read would wait for a writer that never comes.
    const auto fifo = dir / "fifo.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    error.clear();
    EXPECT_FALSE(devices.addFile(fifo, &error));
    EXPECT_EQ(error, fifo.string() + ": not a regular file; not read");
}
