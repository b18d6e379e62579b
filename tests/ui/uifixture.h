#pragma once
// Log directories for the UI tests, with throughputs known in advance: repeat p of a topology
// with R ranks runs at rate(R, p) images/s (iteration k ends at (k + 1) * step).

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "tests/support/logwriter.h"
#include "ui/window/mainwindow.h"
#include "tests/support/process.h"

#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace sv::test {

struct CampaignSpec {
    std::vector<std::pair<int, int>> topologies = {{1, 1}, {1, 2}, {1, 4}};
    int repeats = 3;
    int batch = 64;
    std::string precision = "fp32";
    int iterations = 120;
    // Per-GPU step time in ms; scaling loses 2 % per doubling, repeats differ by 1 %.
    std::int64_t stepMs(int ranks, int repeat) const {
        double eff = 1.0;
        for (int r = ranks; r > 1; r /= 2)
            eff *= 0.98;
        return static_cast<std::int64_t>(std::llround(500.0 / eff * (1.0 + 0.01 * repeat)));
    }
};

inline std::filesystem::path logPath(const std::filesystem::path& root, const CampaignSpec& c,
                                     int nodes, int gpus, int repeat) {
    return root / ("bz" + std::to_string(c.batch)) /
           (std::to_string(nodes) + "n" + std::to_string(gpus) + "g") /
           ("r50_b" + std::to_string(c.batch) + "_" + c.precision + "_" + std::to_string(repeat) +
            ".log");
}

inline std::string runText(const CampaignSpec& c, int ranks, int repeat, int iterations = -1) {
    RunSpec spec;
    spec.ranks = ranks;
    spec.iterations = iterations < 0 ? c.iterations : iterations;
    spec.stepMs = c.stepMs(ranks, repeat);
    const double rate = 1000.0 * c.batch * ranks / static_cast<double>(spec.stepMs);
    return makeLog(spec, [rate](int k, int r) {
        return std::to_string(rate * (k == 0 ? 0.3 : 1.0) + r * 0.01);
    });
}

inline void writeCampaign(const std::filesystem::path& root, const CampaignSpec& c = {}) {
    for (auto [nodes, gpus] : c.topologies)
        for (int p = 1; p <= c.repeats; ++p)
            writeFile(logPath(root, c, nodes, gpus, p), runText(c, nodes * gpus, p));
}

// Distinct colours in an image: a blank or one-colour render has 1 or 2.
inline int distinctColours(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y));
    return colours.size();
}

template <typename Pred> bool waitUntil(Pred pred, int ms = 10000) {
    return QTest::qWaitFor(pred, ms);
}

// The whole window, its settings in an INI file of its own that goes away with it.
struct AppWindow {
    QTemporaryDir config;
    ui::AppSettings settings{config.filePath(QStringLiteral("scaleview.ini"))};
    ui::MainWindow window{&settings};

    // Waits until the window's analysis is complete, idle and satisfies pred.
    bool waitFor(std::function<bool(const ui::Analysis&)> pred, int ms = 20000) {
        return waitUntil(
            [&] {
                auto a = window.analysis()->current();
                return a && a->complete && !window.analysis()->isBusy() && pred(*a);
            },
            ms);
    }
};

} // namespace sv::test
