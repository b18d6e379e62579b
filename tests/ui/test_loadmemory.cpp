// Issue 13 (Speed): the desktop app kept every speed line of every run in memory (1.9 GB for
// 3 GB of logs, where summarize streams them in 12 MB). It keeps per run what the views need,
// O(iterations x nodes), and reads the logs again, in the background, for another window.

#include "tests/support/process.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "core/report/report.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <malloc.h>

using namespace sv;
using namespace sv::test;
using nlohmann::json;

namespace {

// Bytes the process has allocated and not freed, in every malloc arena and mmap'ed block.
std::size_t heapInUse() {
    const struct mallinfo2 m = ::mallinfo2();
    return m.uordblks + m.hblkhd;
}

// What `scaleview-cli summarize --format json` says of the directory for that window.
json summarizeJson(const std::filesystem::path& dir, const MeasureOptions& m, Method method) {
    const ProcessResult r =
        runProcess({SCALEVIEW_CLI, "summarize", dir.string(), "--format", "json", "--quiet",
                    "--warmup", std::to_string(m.warmup), "--iterations",
                    std::to_string(m.iterations), "--method", std::string(methodName(method))});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return json::parse(r.out, nullptr, false);
}

// The figures of the runs and cases, without what says where the window came from (the CLI's
// is the command line, the GUI's the user) and without the references (the GUI picks its own).
json figures(const json& summary) {
    json out = {{"runs", summary.at("runs")}, {"cases", json::array()}};
    for (json c : summary.at("cases")) {
        for (const char* k :
             {"reference", "reference_contrast", "efficiency_vs_reference", "reference_ratio"})
            c.erase(k);
        out["cases"].push_back(std::move(c));
    }
    return out;
}

// The GUI's current analysis, written by the same writer as summarize's.
json shownFigures(const ui::Analysis& a) {
    return figures(json::parse(formatJson(a.summary, "test")));
}

} // namespace

TEST(LoadMemory, TheModelKeepsIterationsTimesNodesAndShowsSummarizesFiguresForAnyWindow) {
    constexpr int kIterations = 1500;
    TempDir dir;
    // A small version of the 3 GB tree of the issue: 8, 16 and 32 ranks, interleaved, with
    // noise and node clock offsets, as tools/genlogs.py writes them.
    const ProcessResult gen = runProcess(
        {"/usr/bin/python3", SCALEVIEW_GENLOGS, (dir / "logs").string(), "--topologies", "1n8g,2n8g,4n8g",
         "--iterations", std::to_string(kIterations), "--repeats", "2", "--seed", "13"});
    ASSERT_EQ(gen.exitCode, 0) << gen.err;
    const auto root = dir / "logs";

    const std::size_t before = heapInUse();
    ui::LoadController loader;
    ui::AnalysisController analysis;
    QObject::connect(&loader, &ui::LoadController::snapshotReady, &analysis,
                     &ui::AnalysisController::setSnapshot);
    loader.open(QString::fromStdString(root.string()));
    auto settled = [&](const MeasureOptions& m) {
        return waitUntil(
            [&] {
                auto a = analysis.current();
                return a && a->complete && !analysis.isBusy() && !loader.isLoading() &&
                       sameMeasure(a->summary.load.measure, m);
            },
            60000);
    };
    ASSERT_TRUE(settled(MeasureOptions{20, 120}));
    const ui::LogSnapshot snapshot = loader.snapshot();
    ASSERT_EQ(snapshot.logs.size(), 6u);

    // Per run: the median, min and max of each iteration, whatever the number of ranks.
    std::size_t lines = 0, nodeIterations = 0;
    for (const auto& log : snapshot.logs) {
        EXPECT_EQ(log->retainedValues(), 3u * kIterations) << log->file.display;
        lines += static_cast<std::size_t>(log->counters.markerLines);
        nodeIterations += static_cast<std::size_t>(kIterations * log->file.key.topology.nodes);
    }
    EXPECT_EQ(lines, 2u * kIterations * (8 + 16 + 32));
    // And in bytes: the whole model (logs, analysis, summary) within 64 bytes per iteration and
    // node plus 1 MiB, where every line kept (80 bytes a sample) is 7 times more.
    const std::size_t bound = 64 * nodeIterations + (std::size_t{1} << 20);
    const std::size_t held = heapInUse() - before;
    EXPECT_LT(held, bound) << held << " bytes held for " << lines << " speed lines";

    // The views show summarize's figures to the bit.
    ui::AnalysisOptions o = analysis.options();
    EXPECT_EQ(shownFigures(*analysis.current()), figures(summarizeJson(root, {20, 120}, o.method)));

    // Another warmup and window: the logs are read again in the background, and the figures
    // are summarize's for that window.
    const MeasureOptions wider{100, 1400};
    o.measure = wider;
    analysis.setOptions(o);
    ASSERT_TRUE(settled(wider));
    EXPECT_EQ(shownFigures(*analysis.current()), figures(summarizeJson(root, wider, o.method)));
    for (const auto& log : analysis.current()->logs)
        EXPECT_EQ(log->retainedValues(), 3u * kIterations) << log->file.display;
    // Both windows' figures are held now, the traces once.
    EXPECT_LT(heapInUse() - before, bound);

    // Read once for the new window: a change of method recomputes from what is kept (the files
    // are gone, and nothing says so).
    std::filesystem::remove_all(root);
    o.method = o.method == Method::Time ? Method::Speed : Method::Time;
    analysis.setOptions(o);
    ASSERT_TRUE(waitUntil([&] {
        auto a = analysis.current();
        return a && a->options.method == o.method && !analysis.isBusy();
    }));
    for (const auto& r : analysis.current()->summary.runs)
        EXPECT_EQ(r.status, RunStatus::Complete) << r.path << ": " << r.reason;
}
