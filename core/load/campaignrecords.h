#pragma once
// What a launcher's campaign recorded beside its logs (the campaign file, the environment it
// captured), read back as files by their shown names: a report embeds them, compare and the
// history read the machines and settings from them.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace sv {

// A file a report embeds, by its shown name.
struct ReportFile {
    std::string name; // as shown: "environment/2026-11-30-node1.txt", "campaign.json"
    std::string text;
};

// The campaign file and the environment the launcher captured beside it (environment/), of the
// campaign logDir belongs to: a campaign.json in logDir or its parent, or the launcher's campaign
// whose logs/ hold logDir; else logDir's own environment/. Nothing from a folder further above.
// Each file cut at 256 KiB.
std::vector<ReportFile> capturedFiles(const std::filesystem::path& logDir);

// The first cap bytes of a file, followed by "[... cut at N KiB]" when it holds more; empty when
// it cannot be read. What a report embeds, and what `report` reads of scaleview-plot's output.
std::string readCapped(const std::filesystem::path& file, std::size_t cap);

} // namespace sv
