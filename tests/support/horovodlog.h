#pragma once
// Horovod's synthetic benchmark as its rank 0 prints it under mpirun --tag-output, and the format
// a user teaches for its "Iter #3: 245.3 img/sec per GPU" lines: the tests of taught GPU counts
// (core, CLI, the app's key dialog) share them.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sv::test {

// The Teach dialog's draft from an Iter line, "per GPU" ticked; id is the format's. The formats
// one test process registers stay registered, and the first that matches a log reads it: each
// test's logs and format say their rate in a word of their own ("img/sec", "pics/sec").
inline std::string horovodFormat(const std::string& id, bool perGpu = true,
                                 const std::string& metadata = {},
                                 const std::string& word = "img") {
    return R"({"scaleview_format": 1, "id": ")" + id +
           R"(", "name": "Horovod synthetic", "unit": "images/s",
  "line": "Iter #(?P<step>[0-9]+): (?P<value>[0-9.]+) )" +
           word + R"(/sec per GPU")" + (perGpu ? R"(, "per_gpu": true)" : "") +
           (metadata.empty() ? "" : R"(, "metadata": )" + metadata) + "}";
}

struct HorovodLog {
    int gpus = 8;          // the job's GPUs
    bool stated = true;    // "Number of GPUs: 8" and the closing "Total img/sec on 8 GPU(s)"
    bool tags = true;      // rank 0's "[1,0]<stdout>:" tags (as mpirun --tag-output prints)
    bool batchLine = true; // "Batch size: 32" (one GPU's batch, as the benchmark prints it)
    double perGpu = 245.0; // one GPU's img/sec, about
    int iterations = 30;
    int seed = 1;
    std::string word = "img"; // "img/sec"
    // A line of the user's own script that states the GPUs in words only a taught pattern reads
    // ("hvd.size(): 8"); empty: none.
    std::string sizeLine = {};
    // The count only in the closing "Total img/sec on 8 GPU(s)" line (no "Number of GPUs").
    bool totalOnly = false;
};

// Writes the log; returns the per-GPU values its Iter lines print.
inline std::vector<double> writeHorovodLog(const std::filesystem::path& path,
                                           const HorovodLog& spec) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    const std::string tag = spec.tags ? "[1,0]<stdout>:" : "";
    out << tag << "Model: ResNet50\n";
    if (spec.batchLine) out << tag << "Batch size: 32\n";
    if (spec.stated && !spec.totalOnly) out << tag << "Number of GPUs: " << spec.gpus << "\n";
    if (!spec.sizeLine.empty()) out << tag << spec.sizeLine << "\n";
    out << tag << "Running warmup...\n" << tag << "Running benchmark...\n";
    std::vector<double> values;
    unsigned state = static_cast<unsigned>(spec.seed) * 2654435761u;
    double sum = 0;
    for (int i = 0; i < spec.iterations; ++i) {
        state = state * 1103515245u + 12345u;
        const int jitter = static_cast<int>((state >> 16) % 40) - 20; // +-2.0 img/sec
        const int tenths = static_cast<int>(spec.perGpu * 10) + jitter;
        char value[32];
        std::snprintf(value, sizeof value, "%d.%d", tenths / 10, tenths % 10);
        out << tag << "Iter #" << i << ": " << value << " " << spec.word << "/sec per GPU\n";
        values.push_back(std::strtod(value, nullptr));
        sum += values.back();
    }
    const double mean = sum / spec.iterations;
    char line[128];
    std::snprintf(line, sizeof line, "%s/sec per GPU: %.1f +-1.2\n", spec.word.c_str(), mean);
    out << tag << line;
    if (spec.stated) {
        std::snprintf(line, sizeof line, "Total %s/sec on %d GPU(s): %.1f +-9.6\n",
                      spec.word.c_str(), spec.gpus, mean * spec.gpus);
        out << tag << line;
    }
    return values;
}

} // namespace sv::test
