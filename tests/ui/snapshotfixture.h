#pragma once
// A LogSnapshot read synchronously, for tests of what is built from one.

#include "ui/analysis/analysis.h"

namespace sv::test {

inline ui::LogSnapshot readSnapshot(const std::filesystem::path& root) {
    ui::LogSnapshot s;
    s.root = QString::fromStdString(root.string());
    ScanResult scan = scanLogDirectory(root);
    s.scanWarnings = scan.warnings;
    for (const auto& f : scan.logs)
        s.logs.push_back(std::make_shared<const RunLog>(readRunLog(f)));
    s.expected = s.logs.size();
    s.complete = true;
    return s;
}

} // namespace sv::test
