#pragma once
// What a launcher's campaign recorded beside its logs (the campaign file, the environment it
// captured), read back as files by their shown names: a report embeds them, compare and the
// history read the machines and settings from them.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace sv {

// The folder holding the records of the campaign a folder (or a file's folder) belongs to — its
// campaign.json, journal.jsonl, probes.json, environment/ and monitor/: the folder itself or its
// parent where a campaign.json is, or the launcher's campaign (its campaign.json names a profile)
// whose logs/ hold it, however deep; failing those, a journal.jsonl in the same places (a
// campaign copied without its campaign.json); else the folder itself. Never another tree's
// folder further up. The app, the CLI, the report and the history find every record through it, so a campaign
// shows the same probes, journal and environment whichever of its folders is opened.
std::filesystem::path campaignRecordsFolder(const std::filesystem::path& opened);

// A file a report embeds, by its shown name.
struct ReportFile {
    std::string name; // as shown: "environment/2026-11-30-node1.txt", "campaign.json"
    std::string text;
};

// The campaign file and the environment the launcher captured beside it (environment/) in
// campaignRecordsFolder(logDir). Each file cut at 256 KiB.
std::vector<ReportFile> capturedFiles(const std::filesystem::path& logDir);

// The first cap bytes of a file, followed by "[... cut at N KiB]" when it holds more; empty when
// it cannot be read. What a report embeds, and what `report` reads of scaleview-plot's output.
std::string readCapped(const std::filesystem::path& file, std::size_t cap);

} // namespace sv
