#pragma once
// Finds the runs in a DLPerf log tree: every "<model>_b<B>_<precision>_<repeat>.log" below a
// folder named "<N>n<G>g". Anything else is skipped with a warning; symlink loops are entered once.

#include "core/load/runkey.h"
#include "core/parse/warning.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct LogFile {
    std::filesystem::path path;
    std::string display; // relative to the scanned root, e.g. "bz128/1n8g/r50_b128_fp32_3.log"
    RunKey key;
};

struct ScanResult {
    std::vector<LogFile> logs; // sorted by display path
    std::vector<Warning> warnings;
    std::optional<std::string> error; // the root itself could not be read
};

ScanResult scanLogDirectory(const std::filesystem::path& root);

} // namespace sv
