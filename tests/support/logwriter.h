#pragma once
// Builds NGC MXNet logs in the format of methodology section 3, with exact control over every
// speed and timestamp, so tests can compare against figures computed by hand.

#include "tests/support/files.h"
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace sv::test {

enum class TagStyle { OpenMpi, Gloo, TorchRank, None };

inline std::string tagPrefix(TagStyle style, int rank) {
    switch (style) {
    case TagStyle::OpenMpi:
        return "[1," + std::to_string(rank) + "]<stderr>:";
    case TagStyle::Gloo:
        return "Tue Sep  1 10:00:00 2020[" + std::to_string(rank) + "]<stderr>:";
    case TagStyle::TorchRank:
        return "[rank" + std::to_string(rank) + "]:";
    case TagStyle::None:
        return "";
    }
    return "";
}

// "2020-09-01 10:00:SS,mmm" for a time in milliseconds after 10:00:00.
inline std::string stampMs(std::int64_t ms) {
    char buf[64];
    const std::int64_t s = ms / 1000;
    std::snprintf(buf, sizeof buf, "2020-09-01 %02lld:%02lld:%02lld,%03lld",
                  static_cast<long long>(10 + s / 3600), static_cast<long long>((s / 60) % 60),
                  static_cast<long long>(s % 60), static_cast<long long>(ms % 1000));
    return buf;
}

inline std::string speedLine(TagStyle style, int rank, std::int64_t ms, int iteration,
                             const std::string& speed, const std::string& eol = "\n") {
    return tagPrefix(style, rank) + stampMs(ms) + ":INFO: Epoch[0] Batch [" +
           std::to_string(iteration) + "-" + std::to_string(iteration) + "]\tSpeed: " + speed +
           " samples/sec\tLR: 0.256000\t" + eol;
}

// A regular run: iteration k ends at k * stepMs for every rank; rank r reports speed(k, r).
struct RunSpec {
    int ranks = 1;
    int iterations = 120;
    std::int64_t stepMs = 1000;
    TagStyle style = TagStyle::OpenMpi;
    std::string eol = "\n";
    bool noise = true;
};

template <typename SpeedFn> std::string makeLog(const RunSpec& spec, SpeedFn speed) {
    std::string out = "begin time: 2020-09-01 10:00:00" + spec.eol;
    if (spec.noise)
        out += tagPrefix(spec.style, 0) + "Namespace(arch='resnetv15', batch_size=256)" + spec.eol +
               tagPrefix(spec.style, 0) + "node1:100:100 [0] NCCL INFO Ring 00 : 0 1" + spec.eol;
    for (int k = 0; k < spec.iterations; ++k) {
        for (int r = 0; r < spec.ranks; ++r)
            out += speedLine(spec.style, r, (k + 1) * spec.stepMs, k, speed(k, r), spec.eol);
        if (spec.noise && k % 10 == 3)
            out +=
                tagPrefix(spec.style, 0) + "DALI reader: shard 0 of 2, Epoch[1] pending" + spec.eol;
    }
    return out;
}

// Logs of `iterations` iterations at a steady 128 samples/s, batch 64, fp32, repeats 1..repeats,
// for each topology folder name and its rank count: runs whose length is the point of a test.
inline void writeSteadyRuns(const std::filesystem::path& root,
                            const std::vector<std::pair<std::string, int>>& topologies,
                            int iterations, int repeats = 2) {
    for (const auto& [topo, ranks] : topologies)
        for (int p = 1; p <= repeats; ++p) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.iterations = iterations;
            spec.stepMs = 500;
            writeFile(root / topo / ("r50_b64_fp32_" + std::to_string(p) + ".log"),
                      makeLog(spec, [](int, int) { return std::string("128.0"); }));
        }
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
  public:
    TempDir() {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "scaleview-test-XXXXXX").string();
        m_path = ::mkdtemp(tmpl.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& rel) const { return m_path / rel; }

  private:
    std::filesystem::path m_path;
};

} // namespace sv::test
