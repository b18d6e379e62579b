#pragma once
// Logs of a trainer no built-in format reads, and a user's format file for them: the tests of
// users' formats (core, CLI, the teach dialog) share them.

#include "core/model/numerics.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

namespace sv::test {

// A trainer of no known framework: "[time] trainer | it 12/2000 | loss 2.1 | 12.34K samples/s".
inline constexpr const char* kFreshFormat = R"j({
  "scaleview_format": 1,
  "id": "fresh-trainer",
  "name": "Fresh trainer",
  "unit": "samples/s",
  "line": "\\] trainer \\| it (?P<step>\\d+)/\\d+ \\| loss [0-9.]+ \\| (?P<value>[0-9.]+)(?P<scale>[KM]?) samples/s",
  "metadata": {"batch": "batch_size=(\\d+)", "gpus": "world_size=(\\d+)", "precision": "precision=(\\w+)"},
  "window": {"drop_first": 0.1}
})j";

// Writes a fresh-shaped log of n steps; returns the values it printed, in samples/s.
inline std::vector<double> writeFreshLog(const std::filesystem::path& path, int n, double base,
                                  int seed = 1) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << "config: batch_size=64 world_size=8 precision=fp16 model=mynet\n";
    out << "loading data...\n";
    std::vector<double> values;
    unsigned state = static_cast<unsigned>(seed) * 2654435761u;
    for (int i = 1; i <= n; ++i) {
        state = state * 1103515245u + 12345u;
        const int jitter = static_cast<int>((state >> 16) % 200) - 100; // +-1 % in 0.01K steps
        // The first tenth is slow: warming up.
        const int hundredths = static_cast<int>(base * 100) + jitter - (i <= n / 10 ? 400 : 0);
        char value[32];
        std::snprintf(value, sizeof value, "%d.%02d", hundredths / 100, hundredths % 100);
        out << "[2026-12-04 10:00:" << (i % 60 < 10 ? "0" : "") << i % 60 << ".250] trainer | it "
            << i << "/" << n << " | loss 2.3" << i % 10 << " | " << value << "K samples/s\n";
        if (i % 7 == 0) out << "eval: accuracy 0.71 after " << i << " steps\n";
        values.push_back(std::strtod(value, nullptr) * 1000);
    }
    return values;
}

// The figure a user format with window drop_first 0.1 and the median gives.
inline double medianAfterFirstTenth(std::vector<double> v) {
    v.erase(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 10));
    return numpyMedian(v);
}

} // namespace sv::test
