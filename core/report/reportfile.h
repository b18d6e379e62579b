#pragma once
// A file a report embeds (the campaign file, the captured environment), by its shown name.

#include <string>

namespace sv {

struct ReportFile {
    std::string name; // as shown: "environment/2026-11-30-node1.txt", "campaign.json"
    std::string text;
};

} // namespace sv
