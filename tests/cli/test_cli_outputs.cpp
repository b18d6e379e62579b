// What scaleview-cli writes, when the logs are hostile (issue 36): the HTML report opened in
// headless Chromium runs no script and gains no element; plot's SVG and the report stay
// well-formed XML; every JSON output parses over invalid UTF-8 and over every cut of a
// multi-byte character; no CSV cell is a formula; Markdown holds no raw HTML or link from a log;
// the table shows, never sends, a log's escape sequences; --output never writes through a
// symlink planted at its temporary name; the report's "What changed" is compare's.

#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <regex>
#include <sys/wait.h>
#include <unistd.h>

using namespace sv::test;

namespace fs = std::filesystem;

namespace {

// Script that, wherever a browser runs it, changes the page's title: the proof that it ran.
const std::string kModel = "<img src=x onerror=document.title=7331>";
const std::string kPrecision = "</title><script>document.title=1337</script>";
const std::string kLabel = "<svg onload=document.title=4242>";
const std::string kHost = "n1<img src=y onerror=document.title=99>";
const std::string kParameter = "<script>document.title=1234</script>";

// Three repeats at 1n1g and 1n2g whose parameter dump states arch (the model) and the extra
// ", k=v" text given; a sidecar gives every log the precision (their names state none, so the
// log's arch and the sidecar's precision are the case's).
void writeTree(const fs::path& root, const std::string& arch, const std::string& extra,
               double speedup = 1.0, const std::string& precision = "") {
    const int steps[] = {800, 820, 790};
    for (int p = 0; p < 3; ++p)
        for (auto [topo, ranks] : {std::pair{"1n1g", 1}, std::pair{"1n2g", 2}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.stepMs = std::lround(steps[p] / speedup);
            std::string log = makeLog(spec, [](int, int) { return std::string("100.0"); });
            const std::string dump = "Namespace(arch='resnetv15', batch_size=256)";
            log.replace(log.find(dump), dump.size(),
                        "Namespace(arch=\"" + arch + "\", batch_size=64" + extra + ")");
            writeFile(root / "logs" / topo / ("r50_b64_" + std::to_string(p + 1) + ".log"), log);
        }
    if (!precision.empty())
        writeFile(root / "scaleview.json",
                  nlohmann::json{{"precision", precision}}.dump(
                      -1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Runs scaleview-cli with a symlink to victim planted at every name its temporary has had
// (OUTPUT.tmp-PID, PID being the process's own: the child plants them, then becomes the CLI).
int cliWithPlantedTemporaries(const std::vector<std::string>& args, const fs::path& output,
                              const fs::path& victim) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        const std::string self = std::to_string(::getpid());
        for (const std::string& name : {output.string() + ".tmp-" + self, output.string() + ".tmp"})
            (void)::symlink(victim.c_str(), name.c_str());
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        std::vector<char*> argv = {const_cast<char*>(SCALEVIEW_CLI)};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(SCALEVIEW_CLI, argv.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Python's strict XML parser over a file: "" when well-formed, else its message.
std::string xmlError(const fs::path& file) {
    const auto r = runProcess({"/usr/bin/python3", "-c",
                               "import sys, xml.etree.ElementTree as ET\nET.parse(sys.argv[1])\n",
                               file.string()});
    return r.exitCode == 0 ? std::string() : r.err;
}

// The text of the XHTML report's body (every element's text, as a reader reads it).
std::string bodyText(const fs::path& file) {
    const auto r = runProcess({"/usr/bin/python3", "-c",
                               "import sys, xml.etree.ElementTree as ET\n"
                               "ns = {'h': 'http://www.w3.org/1999/xhtml'}\n"
                               "b = ET.parse(sys.argv[1]).getroot().find('h:body', ns)\n"
                               "sys.stdout.write(''.join(b.itertext()))\n",
                               file.string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.out;
}

// Whether s is one JSON document, as nlohmann's strict parser reads it.
bool parses(const std::string& s) {
    try {
        return !nlohmann::json::parse(s).is_discarded();
    } catch (const nlohmann::json::exception&) {
        return false;
    }
}

std::size_t count(const std::string& text, const std::regex& re) {
    return static_cast<std::size_t>(
        std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

} // namespace

// Hostile model, precision, label, parameter and host strings in every field that reaches the
// report: Chromium builds the page, and none of it ran or became an element.
TEST(CliOutputs, AHostileReportRunsNoScriptInChromium) {
    const std::string browser = "/usr/bin/chromium-headless-shell";
    ASSERT_EQ(::access(browser.c_str(), X_OK), 0) << browser << " is missing";
    TempDir dir;
    writeTree(dir / "a", kModel, ", data_dir='" + kParameter + "'", 1.0, kPrecision);
    writeTree(dir / "b", kModel, ", data_dir='x" + kParameter + "'", 1.1, kPrecision);
    for (const char* side : {"a", "b"}) {
        writeFile(dir / side / "environment" / (kHost + ".txt"), "host " + kHost + "\n");
        writeFile(dir / side / "campaign.json",
                  "{\"hosts\": [\"" + kHost + "\"], \"note\": \"" + kParameter + "\"}");
    }
    const auto out = dir / "report.html";
    const auto r = cli({"report", (dir / "a").string(), (dir / "b").string(), "--label", kLabel,
                        "--label", kModel, "--output", out.string(), "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string html = readWhole(out);
    ASSERT_EQ(xmlError(out), "");
    // The payloads reached the page (as text), or the test would prove nothing.
    const std::string body = bodyText(out);
    for (const auto& payload : {kModel, kPrecision, kLabel, kHost, kParameter})
        EXPECT_NE(body.find(payload), std::string::npos) << payload;
#ifdef SCALEVIEW_HAS_PLOT
    EXPECT_EQ(count(html, std::regex("<svg[^>]*xmlns")), 4u);
#endif
    const auto b =
        runProcess({browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--user-data-dir=" + (dir / "browser").string(), "--proxy-server=127.0.0.1:9",
                    "--dump-dom", "file://" + out.string()});
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const std::string& dom = b.out;
    ASSERT_NE(dom.find("</html>"), std::string::npos) << dom.substr(0, 500);
    // The title is the page's own: no payload set it.
    std::smatch title;
    ASSERT_TRUE(std::regex_search(dom, title, std::regex("<title>([^<]*)</title>")));
    EXPECT_EQ(title[1].str().rfind("ScaleView report: ", 0), 0u) << title[1];
    for (const char* mark : {"7331", "1337", "4242", "99", "1234"})
        EXPECT_NE(title[1].str(), mark);
    // No element came from a value: the page has no script, image or handler of its own.
    EXPECT_EQ(count(dom, std::regex("<script", std::regex::icase)), 0u);
    EXPECT_EQ(count(dom, std::regex("<img", std::regex::icase)), 0u);
    EXPECT_EQ(count(dom, std::regex("<[^>]*\\son(error|load)=", std::regex::icase)), 0u);
#ifdef SCALEVIEW_HAS_PLOT
    EXPECT_EQ(count(dom, std::regex("<svg[^>]*>")), 4u); // the charts only
#endif
}

#ifdef SCALEVIEW_HAS_PLOT
TEST(CliOutputs, PlotsSvgIsWellFormedForAModelAAndB) {
    TempDir dir;
    writeTree(dir / "a", "A&B", "", 1.0, "fp32 <&> \x01");
    const auto svg = dir / "x.svg";
    const auto r = cli({"plot", (dir / "a").string(), "--output", svg.string(), "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(xmlError(svg), "");
    EXPECT_NE(readWhole(svg).find("A&amp;B"), std::string::npos);
}
#endif

// A model whose bytes are not UTF-8: every JSON output is written, and parses.
TEST(CliOutputs, JsonOutputsParseOverInvalidUtf8) {
    TempDir dir;
    writeTree(dir / "a", "res\xff\xfenet\xe3\x83", ", data_dir='/d\xc0\xaf'");
    writeTree(dir / "b", "res\xff\xfenet\xe3\x83", ", data_dir='/e\xed\xa0\x80'", 1.1);
    for (const char* format : {"json", "dlperf"}) {
        const auto r = cli({"summarize", (dir / "a").string(), "--format", format, "--quiet"});
        ASSERT_EQ(r.exitCode, 0) << format << ": " << r.err;
        EXPECT_TRUE(parses(r.out)) << format;
        EXPECT_NE(r.out.find("res\xEF\xBF\xBD\xEF\xBF\xBDnet"), std::string::npos) << r.out;
    }
    const auto c =
        cli({"compare", (dir / "a").string(), (dir / "b").string(), "--format", "json", "--quiet"});
    ASSERT_EQ(c.exitCode, 0) << c.err;
    EXPECT_TRUE(parses(c.out));
    // references save, into a data folder of the test's own.
    const auto data = dir / "data";
    const auto s =
        runProcess({"/usr/bin/env", "XDG_DATA_HOME=" + data.string(), SCALEVIEW_CLI, "references",
                    "save", (dir / "a").string(), "--id", "mine", "--quiet"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    EXPECT_TRUE(parses(readWhole(data / "scaleview" / "references" / "mine.json")));
}

// A parameter value longer than the 160 bytes kept, its multi-byte characters placed so that the
// cut falls on every byte of them in turn (3- and 4-byte characters): compare's JSON parses.
TEST(CliOutputs, CompareJsonParsesOverEveryCutOfAMultiByteCharacter) {
    const std::string unit = "データ🚀"; // 3 + 3 + 3 + 4 bytes
    for (std::size_t pad = 0; pad < unit.size(); ++pad) {
        TempDir dir;
        std::string value(pad, 'a');
        while (value.size() < 200)
            value += unit;
        writeTree(dir / "a", "r50", ", data_dir='" + value + "'");
        writeTree(dir / "b", "r50", ", data_dir='b" + value + "'", 1.1);
        const auto c = cli(
            {"compare", (dir / "a").string(), (dir / "b").string(), "--format", "json", "--quiet"});
        ASSERT_EQ(c.exitCode, 0) << "pad " << pad << ": " << c.err;
        nlohmann::json j;
        ASSERT_NO_THROW(j = nlohmann::json::parse(c.out)) << "pad " << pad;
        bool found = false;
        for (const auto& ch : j["cases"][0]["changed"])
            found |= ch["what"] == "log.data_dir";
        EXPECT_TRUE(found) << c.out; // the cut value is there, whole characters only
    }
}

TEST(CliOutputs, NoCsvCellIsAFormula) {
    TempDir dir;
    writeTree(dir / "a", "=cmd|'calc'!A0", "", 1.0, "+1+2");
    writeTree(dir / "b", "=cmd|'calc'!A0", "", 1.1, "+1+2");
    const auto s = cli({"summarize", (dir / "a").string(), "--format", "csv", "--quiet"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto row = s.out.substr(s.out.find('\n') + 1);
    EXPECT_EQ(row.rfind("'=cmd|'calc'!A0,'+1+2,", 0), 0u) << s.out;
    const auto c =
        cli({"compare", (dir / "a").string(), (dir / "b").string(), "--format", "csv", "--quiet"});
    ASSERT_EQ(c.exitCode, 0) << c.err;
    EXPECT_EQ(c.out.substr(c.out.find('\n') + 1).rfind("'=cmd|'calc'!A0,'+1+2,", 0), 0u) << c.out;
}

TEST(CliOutputs, MarkdownHoldsNoRawHtmlOrLinkFromALog) {
    TempDir dir;
    writeTree(dir / "a", "<img src=x onerror=alert(1)>", "", 1.0, "[x](javascript:alert(1))");
    writeTree(dir / "b", "<img src=x onerror=alert(1)>", "", 1.1, "[x](javascript:alert(1))");
    const auto out = dir / "report.md";
    const auto r = cli({"report", (dir / "a").string(), (dir / "b").string(), "--label", "<b>a</b>",
                        "--output", out.string(), "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string md = readWhole(out);
    EXPECT_EQ(count(md, std::regex("(^|[^\\\\])<(img|b)")), 0u) << md;
    EXPECT_EQ(count(md, std::regex("(^|[^\\\\])\\[x(\\\\)?\\]\\(")), 0u) << md;
    EXPECT_NE(md.find("\\<img src=x onerror=alert(1)>"), std::string::npos) << md;
    EXPECT_NE(md.find("\\<b>a\\</b>"), std::string::npos) << md;
}

TEST(CliOutputs, TheTableShowsALogsEscapeSequencesAndSendsNone) {
    TempDir dir;
    writeTree(dir / "a", "r50\x1b[2J\x1b]0;owned\x07", "", 1.0, "fp32\x1b[31m\xc2\x9b");
    const auto s = cli({"summarize", (dir / "a").string()});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    EXPECT_EQ(s.out.find('\x1b'), std::string::npos) << s.out;
    EXPECT_EQ(s.out.find('\x07'), std::string::npos) << s.out;
    EXPECT_EQ(s.out.find("\xc2\x9b"), std::string::npos) << s.out;
    EXPECT_NE(s.out.find("\\x1b[31m"), std::string::npos) << s.out;
    EXPECT_EQ(s.err.find('\x1b'), std::string::npos) << s.err;
}

TEST(CliOutputs, OutputNeverWritesThroughASymlinkPlantedAtItsTemporary) {
    TempDir dir;
    writeTree(dir / "a", "r50", "");
    writeTree(dir / "b", "r50", "", 1.1);
    const auto victim = dir / "victim.txt";
    writeFile(victim, "precious\n");
    const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
        {"summary.json", {"summarize", (dir / "a").string(), "--format", "json", "--quiet"}},
        {"report.html", {"report", (dir / "a").string(), (dir / "b").string(), "--quiet"}},
        {"report.md", {"report", (dir / "a").string(), "--quiet"}},
    };
    for (auto [name, args] : commands) {
        const auto out = dir / "shared" / name;
        fs::create_directories(out.parent_path());
        args.insert(args.end(), {"--output", out.string()});
        EXPECT_EQ(cliWithPlantedTemporaries(args, out, victim), 0) << name;
        EXPECT_EQ(readWhole(victim), "precious\n") << name;
        EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out))) << name;
        EXPECT_FALSE(readWhole(out).empty()) << name;
    }
}

// One comparison, one answer: the report's "What changed" holds the logs' parameters as
// compare's table does.
TEST(CliOutputs, TheReportsWhatChangedHoldsTheLogsParameters) {
    TempDir dir;
    writeTree(dir / "a", "r50", ", lr=0.4");
    writeTree(dir / "b", "r50", ", lr=0.8", 1.1);
    const auto table = cli({"compare", (dir / "a").string(), (dir / "b").string(), "--quiet"});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    ASSERT_NE(table.out.find("log.lr 0.4 -> 0.8"), std::string::npos) << table.out;
    const auto html = dir / "r.html", md = dir / "r.md";
    for (const auto& out : {html, md})
        ASSERT_EQ(cli({"report", (dir / "a").string(), (dir / "b").string(), "--output",
                       out.string(), "--quiet"})
                      .exitCode,
                  0);
    EXPECT_NE(bodyText(html).find("log.lr 0.4 -> 0.8"), std::string::npos) << readWhole(html);
    EXPECT_NE(readWhole(md).find("log.lr 0.4 -> 0.8"), std::string::npos) << readWhole(md);
}
