// scaleview-cli report: the HTML parsed as XML with every figure of `summarize --format json`
// present, the charts inline as SVG, excluded runs with reasons, the campaign file and the
// environment; the Markdown's tables checked number by number against the same JSON.

#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>
#include <unistd.h>

using namespace sv::test;

namespace {

// A campaign: campaign.json (warmup 10, iterations 60), an environment file, 1n1g and 1n2g
// with three repeats each, and one truncated log that is excluded.
void writeCampaignDir(const std::filesystem::path& root, double speedup) {
    writeFile(root / "campaign.json", R"({"warmup": 10, "iterations": 60, "note": "a & b"})");
    writeFile(root / "environment" / "node1.txt", "driver 535.104 <CUDA 12.2>\n");
    const int steps[] = {800, 820, 790};
    for (int p = 0; p < 3; ++p)
        for (auto [topo, ranks] : {std::pair{"1n1g", 1}, std::pair{"1n2g", 2}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.iterations = 60;
            spec.stepMs = std::lround(steps[p] / speedup);
            writeFile(root / "logs" / topo / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                      makeLog(spec, [](int, int) { return std::string("100.0"); }));
        }
    RunSpec cut;
    cut.iterations = 30;
    writeFile(root / "logs" / "1n1g" / "r50_b64_fp32_4.log",
              makeLog(cut, [](int, int) { return std::string("100.0"); }));
}

// The report's XHTML read by Python's XML parser (a real, strict one): every cell, the number
// of inline SVG charts, the <pre> texts. A parse error fails the test with Python's message.
nlohmann::json parseXhtml(const std::filesystem::path& file) {
    const auto r = runProcess(
        {"/usr/bin/python3", "-c",
         "import json, sys, xml.etree.ElementTree as ET\n"
         "ns = {'h': 'http://www.w3.org/1999/xhtml', 's': 'http://www.w3.org/2000/svg'}\n"
         "root = ET.parse(sys.argv[1]).getroot()\n"
         "text = lambda e: ''.join(e.itertext())\n"
         "print(json.dumps({'cells': [text(e) for e in root.iterfind('.//h:td', ns)],\n"
         "  'svgs': len(root.findall('.//s:svg', ns)),\n"
         "  'h2': [text(e) for e in root.iterfind('.//h:h2', ns)],\n"
         "  'pre': [text(e) for e in root.iterfind('.//h:pre', ns)],\n"
         "  'body': text(root.find('h:body', ns))}))\n",
         file.string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return r.exitCode == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

bool has(const nlohmann::json& cells, const std::string& s) {
    for (const auto& c : cells)
        if (c.get<std::string>() == s) return true;
    return false;
}

std::string fixed2(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

} // namespace

TEST(CliReport, HtmlIsWellFormedAndHoldsEveryFigure) {
    TempDir dir;
    writeCampaignDir(dir / "october", 1.0);
    writeCampaignDir(dir / "november", 1.1);
    const auto out = dir / "report.html";
    const auto r = cli({"report", (dir / "october").string(), (dir / "november").string(),
                        "--output", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto html = parseXhtml(out);
    ASSERT_TRUE(html.is_object());
    for (const char* name : {"october", "november"}) {
        const auto s = cli({"summarize", (dir / name).string(), "--format", "json", "--quiet"});
        ASSERT_EQ(s.exitCode, 0) << s.err;
        const auto j = nlohmann::json::parse(s.out);
        ASSERT_EQ(j["cases"].size(), 2u);
        for (const auto& c : j["cases"]) {
            EXPECT_TRUE(has(html["cells"], fixed2(c["median_speed"].get<double>())))
                << name << " median " << c["median_speed"];
            EXPECT_TRUE(has(html["cells"], fixed2(c["average_speed"].get<double>())))
                << name << " mean " << c["average_speed"];
            EXPECT_TRUE(has(html["cells"], fixed2(c["speedup"].get<double>())))
                << name << " speedup " << c["speedup"];
        }
        // The excluded run, with its reason.
        EXPECT_TRUE(has(html["cells"], "1n1g/r50_b64_fp32_4.log") ||
                    has(html["cells"], "logs/1n1g/r50_b64_fp32_4.log"))
            << html["cells"].dump();
    }
    const std::string body = html["body"];
    EXPECT_NE(body.find("Comparison"), std::string::npos);
    EXPECT_TRUE(has(html["cells"], "faster")) << html["cells"].dump(); // november vs october
    EXPECT_NE(body.find("warmup 10, iterations 60 (window from campaign)"), std::string::npos);
    EXPECT_NE(body.find("ScaleView "), std::string::npos);
    // The campaign file and the environment, escaped and whole.
    bool campaign = false, environment = false;
    for (const auto& p : html["pre"]) {
        campaign |= p.get<std::string>().find("\"note\": \"a & b\"") != std::string::npos;
        environment |= p.get<std::string>() == "driver 535.104 <CUDA 12.2>\n";
    }
    EXPECT_TRUE(campaign);
    EXPECT_TRUE(environment);
#ifdef SCALEVIEW_HAS_PLOT
    // Throughput and speedup for each directory, inline: no file or network needed.
    EXPECT_EQ(html["svgs"], 4);
    EXPECT_EQ(readWhole(out).find("src=\"http"), std::string::npos);
#endif
}

// The report opened by a real browser, offline: Debian's chromium-headless-shell (make test
// installs it) loads the file with every proxy pointing nowhere and hands back the DOM it built.
// Every case's median and speedup is a cell of it, and each chart is an inline SVG with its bars.
TEST(CliReport, HeadlessChromiumBuildsThePageWithEveryFigure) {
    const std::string browser = "/usr/bin/chromium-headless-shell";
    ASSERT_EQ(::access(browser.c_str(), X_OK), 0)
        << browser << " is missing (make deps installs it)";
    TempDir dir;
    writeCampaignDir(dir / "october", 1.0);
    writeCampaignDir(dir / "november", 1.1);
    const auto out = dir / "report.html";
    ASSERT_EQ(cli({"report", (dir / "october").string(), (dir / "november").string(), "--output",
                   out.string()})
                  .exitCode,
              0);
    const auto r =
        runProcess({browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--user-data-dir=" + (dir / "browser").string(), "--proxy-server=127.0.0.1:9",
                    "--dump-dom", "file://" + out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string& dom = r.out;
    ASSERT_NE(dom.find("</html>"), std::string::npos) << dom.substr(0, 500);
    for (const char* name : {"october", "november"}) {
        const auto s = cli({"summarize", (dir / name).string(), "--format", "json", "--quiet"});
        ASSERT_EQ(s.exitCode, 0) << s.err;
        const auto summary = nlohmann::json::parse(s.out); // the loop must not outlive it
        for (const auto& c : summary["cases"]) {
            for (const char* key : {"median_speed", "speedup"})
                EXPECT_TRUE(std::regex_search(
                    dom, std::regex("<td[^>]*>" + fixed2(c[key].get<double>()) + "</td>")))
                    << name << " " << key << " " << c[key];
        }
    }
    EXPECT_NE(dom.find("faster"), std::string::npos);
#ifdef SCALEVIEW_HAS_PLOT
    const std::regex svg("<svg[^>]*>");
    EXPECT_EQ(
        std::distance(std::sregex_iterator(dom.begin(), dom.end(), svg), std::sregex_iterator()),
        4);
    EXPECT_NE(dom.find("<rect"), std::string::npos); // the bars, drawn as the browser parsed them
#endif
}

TEST(CliReport, MarkdownTablesMatchSummarizeJson) {
    TempDir dir;
    writeCampaignDir(dir / "october", 1.0);
    const auto out = dir / "share" / "report.md";
    std::filesystem::create_directories(out.parent_path());
    const auto r = cli({"report", (dir / "october").string(), "--output", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string md = readWhole(out);
    const auto s = cli({"summarize", (dir / "october").string(), "--format", "json", "--quiet"});
    const auto j = nlohmann::json::parse(s.out);
    // DLPerf's README layout: | node_num | gpu_num | samples/s | speedup |
    EXPECT_NE(md.find("| node_num | gpu_num | samples/s | speedup |"), std::string::npos) << md;
    const std::regex line(R"(\| (\d+) \| (\d+) \| ([0-9.]+) \| ([0-9.]+) \|)");
    int rows = 0;
    for (std::sregex_iterator it(md.begin(), md.end(), line), end; it != end; ++it) {
        const auto& m = *it;
        bool matched = false;
        for (const auto& c : j["cases"])
            if (std::to_string(c["nodes"].get<int>()) == m[1].str() &&
                std::to_string(c["gpus"].get<int>()) == m[2].str()) {
                EXPECT_EQ(m[3].str(), fixed2(c["median_speed"].get<double>()));
                EXPECT_EQ(m[4].str(), fixed2(c["speedup"].get<double>()));
                matched = true;
            }
        EXPECT_TRUE(matched) << m.str();
        ++rows;
    }
    EXPECT_EQ(rows, 2) << md;
    EXPECT_NE(md.find("r50_b64_fp32_4.log"), std::string::npos); // excluded, with its reason
#ifdef SCALEVIEW_HAS_PLOT
    // The charts as PNG beside it, linked by relative name.
    for (const char* chart : {"throughput", "speedup"}) {
        const std::string name = std::string("report-october-") + chart + ".png";
        EXPECT_NE(md.find("](" + name + ")"), std::string::npos) << md;
        EXPECT_EQ(readWhole(out.parent_path() / name).substr(1, 3), "PNG") << name;
    }
#endif
}

TEST(CliReport, UsageErrors) {
    TempDir dir;
    writeCampaignDir(dir / "a", 1.0);
    auto r = cli({"report", (dir / "a").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
    r = cli({"report", (dir / "a").string(), "--output", (dir / "r.pdf").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find(".html or .md"), std::string::npos) << r.err;
}

// Logs from elsewhere (issue 26, item 5): a folder of a gluon-cv log (samples/s) and a gluon-nlp
// one (tokens/s) read from their own reports. The report says each case's unit and how its
// figure was read, never "images/s" for all or a "time method" over their reports.
TEST(CliReport, LogsFromElsewhereKeepTheirUnitAndHowTheyWereRead) {
    TempDir dir;
    writeFile(dir / "cv" / "resnet50_v1b.log",
              gluoncvLog(8, 128, 40, [](int) { return 5100.0; }));
    writeFile(dir / "nlp" / "bert_base_pretrain.log",
              gluonnlpLog("0,1,2,3,4,5,6,7", 40, [](int) { return 133000.0; }));
    const auto html = dir / "report.html";
    const auto r = runProcess({SCALEVIEW_CLI, "report", dir.path().string(), "--output",
                               html.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto page = parseXhtml(html);
    const std::string body = page["body"].get<std::string>();
    EXPECT_NE(body.find("Throughput in each case's own unit (samples/s, tokens/s)"),
              std::string::npos)
        << body;
    EXPECT_EQ(body.find("Throughput in images/s"), std::string::npos) << body;
    EXPECT_EQ(body.find("time method"), std::string::npos) << body;
    EXPECT_NE(body.find("the log's own reports"), std::string::npos) << body;
    const auto md = dir / "report.md";
    ASSERT_EQ(runProcess({SCALEVIEW_CLI, "report", (dir / "nlp").string(), "--output", md.string()})
                  .exitCode,
              0);
    const std::string text = readWhole(md);
    EXPECT_NE(text.find("Throughput in tokens/s"), std::string::npos) << text;
    EXPECT_EQ(text.find("time method"), std::string::npos) << text;
}

// Issue 28 in the report: each multi-device case's loss and the parts the probes measured, the
// slow node named; without probes, every part "not measured" and the loss still there.
TEST(CliReport, WhereTheScalingGoesIsInTheHtmlAndMarkdown) {
    TempDir dir;
    writeFile(dir / "campaign.json", R"({"warmup": 10, "iterations": 60})");
    for (int p = 0; p < 3; ++p)
        for (auto [topo, ranks, step] : {std::tuple{"1n1g", 1, 800}, std::tuple{"2n1g", 2, 900}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.iterations = 60;
            spec.stepMs = step + 4 * p;
            writeFile(dir / "logs" / topo / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                      makeLog(spec, [](int, int) { return std::string("100.0"); }));
        }
    const auto report = [&](const std::string& name) {
        const auto html = dir / (name + ".html"), md = dir / (name + ".md");
        EXPECT_EQ(runProcess({SCALEVIEW_CLI, "report", dir.path().string(), "--output",
                              html.string()})
                      .exitCode,
                  0);
        EXPECT_EQ(
            runProcess({SCALEVIEW_CLI, "report", dir.path().string(), "--output", md.string()})
                .exitCode,
            0);
        return std::make_pair(parseXhtml(html)["cells"], readWhole(md));
    };
    const auto [bare, bareMd] = report("bare");
    EXPECT_TRUE(has(bare, "r50 fp32 b64 2n1g")) << bare.dump();
    EXPECT_TRUE(has(bare, "not measured")) << bare.dump();
    EXPECT_NE(bareMd.find("| r50 fp32 b64 2n1g |"), std::string::npos) << bareMd;

    writeFile(dir / "probes.json", R"({"probes": [
  {"kind": "solo", "topology": "2n1g", "model": "r50", "precision": "fp32",
   "batch_size_per_device": 64, "node": "n1", "devices": 1, "pace_per_device": 80.0,
   "pace_samples": [79.9, 80.0, 80.1]},
  {"kind": "solo", "topology": "2n1g", "model": "r50", "precision": "fp32",
   "batch_size_per_device": 64, "node": "n2", "devices": 1, "pace_per_device": 64.0,
   "pace_samples": [63.9, 64.0, 64.1]}]})");
    const auto [probed, probedMd] = report("probed");
    EXPECT_TRUE(has(probed, "n2 (20.0 % slower)")) << probed.dump();
    EXPECT_NE(probedMd.find("n2 (20.0 % slower)"), std::string::npos) << probedMd;
}
