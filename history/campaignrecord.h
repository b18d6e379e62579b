#pragma once
// One campaign (or recorded directory) as the history keeps it: when it ran, on what, and per
// case its median and spread, with an identity taken from the logs' contents so that the same
// campaign recorded twice, or from a copy, is one entry.

#include "core/compare/environmentsummary.h"
#include "core/compare/recordedfacts.h"
#include "core/stats/summary.h"
#include "history/campaignorigin.h"
#include "history/nodehistory.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv::history {

struct CaseRecord {
    CaseKey key;
    int runs = 0; // repeats that count
    double median = 0.0;
    double min = 0.0, max = 0.0;
    std::optional<double> mean, stdev;
    std::vector<double> values; // each repeat's throughput
    // What its logs' parameter dumps state, as "log.KEY" facts every run agrees on
    // (core/compare/recordedfacts.h): for logs from elsewhere, their environment.
    RecordedFacts parameters;
    // Of the repeats that count, how many the launcher's monitor marked disturbed (a busy host):
    // every verdict over them says so.
    int disturbed = 0;
};

// The stored case facts keep a case's disturbed runs as one more row, under this name (no new
// table: an older ScaleView reads it as a fact); addStoredCaseFact puts a stored row where it
// belongs, the count into CaseRecord::disturbed and any other fact into its parameters.
inline constexpr const char* kDisturbedRunsFact = "scaleview.disturbed_runs";
void addStoredCaseFact(CaseRecord& k, RecordedFact fact);

struct CampaignRecord {
    std::string identity; // SHA-256 over each log's path (relative to the root) and bytes
    std::string path;     // the directory recorded, absolute
    std::string label;    // its name
    std::string time;     // when it ran: ISO 8601 UTC, the newest log's modification time
    std::string method;   // "time" or "speed"
    int warmup = 0, iterations = 0;
    EnvironmentSummary environment;
    std::vector<CaseRecord> cases;           // cases with a median only
    std::vector<NodeProbeRecord> nodeProbes; // each node's solo probes, from its probes.json
    std::optional<CampaignOrigin> origin;    // another site's, imported from its bundle
};

struct CampaignReading {
    std::optional<CampaignRecord> record;
    std::string error;                 // why there is no record
    std::vector<std::string> warnings; // the summary's, as text
};

// Reads dir as summarize does (its campaign's window, else each format's DLPerf defaults; the
// time method unless told), hashes its logs and reads its captured environment. Blocking: call
// it off the GUI thread.
CampaignReading readCampaign(const std::filesystem::path& dir, Method method = Method::Time);

// The same from a summary already computed (the GUI's); the logs are hashed here.
CampaignReading recordFromSummary(const Summary& summary);

} // namespace sv::history
