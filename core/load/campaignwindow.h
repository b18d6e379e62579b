#pragma once
// The analysis window a directory's own logs call for: the warmup and iterations of the
// campaign.json that holds the directory (DIR or a few parents up), and the iteration count a
// plain tree's logs all stop at, to offer when it is short of the window.

#include "core/model/runresult.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct CampaignWindow {
    MeasureOptions measure;
    std::string file; // the campaign.json read
};

// What the lookup found: a window, or nothing, or an error naming the file and the reason (a
// campaign.json that cannot be read or holds no valid window). Never throws.
struct CampaignWindowLookup {
    std::optional<CampaignWindow> window;
    std::optional<std::string> error;
};

// How far up a launcher campaign's campaign.json is looked for above its logs.
inline constexpr int kCampaignLogDepth = 8;

// Looks for campaign.json in dir, then in up to maxParents directories above it; further up
// (to kCampaignLogDepth) only a campaign the launcher wrote (it names a "profile") whose logs/
// holds dir: a profile's logs sit in OUT/logs/local/pytorch-cpu/resnet50, its campaign.json in
// OUT. Reads only "warmup" and "iterations"; one missing takes DLPerf's value, as the launcher
// does.
CampaignWindowLookup findCampaignWindow(const std::filesystem::path& dir, int maxParents = 3);

// The folder of the campaign.json findCampaignWindow(dir, maxParents) reads (whether or not it
// holds a valid window); empty when there is none.
std::filesystem::path findCampaignFolder(const std::filesystem::path& dir, int maxParents);

// The window a directory of a comparison or a report is measured with: each value given wins,
// then its campaign's (found), then DLPerf's for each log's format. `scaleview-cli compare` and
// `report` measure each directory by it, and so does the desktop app for the directories added to a
// comparison, so that the GUI and the CLI agree on the same directories.
struct SeriesWindow {
    MeasureOptions measure;
    std::string source;       // "command line", "campaign" or "dlperf"
    std::string campaignFile; // the campaign.json whose window it is (source "campaign")
};
SeriesWindow seriesWindow(const CampaignWindowLookup& found, std::optional<int> warmup = {},
                          std::optional<int> iterations = {});

// When every finished run falls short of the same window at the same N iterations (N above
// the warmup), N: the window these logs were written for. Otherwise nothing.
std::optional<int> commonShortIterations(const std::vector<RunResult>& runs);

} // namespace sv
