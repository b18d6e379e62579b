#pragma once
// What the launcher saw disturb a campaign's runs (a busy host, a foreign process, throttling),
// read back from the campaign's journal so that a directory's statistics can warn about, or leave
// out, the runs it names. Plain reading of DIR/journal.jsonl: core does not link the launcher.

#include "core/model/runresult.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace sv {

struct RunDisturbances {
    std::string journal; // the journal.jsonl read; empty: none found
    // Per log (its last four path components: profile folder, bz folder, topology, file), the
    // evidence of its latest end record that says "disturbed": true.
    std::map<std::string, std::string> byLog;
    // Per log (same key), its monitor file and the tag of its latest end record.
    struct Monitor {
        std::filesystem::path file;
        std::string tag;
        // Why its end record says the GPUs' energy was not measured (each host's reason, naming
        // it); empty: the counters were read, or the record says nothing of energy.
        std::string energyNote;
        bool energyRead = false; // the end record carries the counters' readings
    };
    std::map<std::string, Monitor> monitors;

    // The key of run's log in byLog and monitors: disturbanceKey of its absolute path (root,
    // what the run's path is relative to, made absolute). The one lookup every apply*() makes.
    static std::string keyOf(const std::filesystem::path& root, const RunResult& run);
    // run's monitor record; nullptr when the journal names none.
    const Monitor* monitorOf(const std::filesystem::path& root, const RunResult& run) const;
};

// The key byLog uses for a log path (absolute, or relative to anything above the campaign).
std::string disturbanceKey(const std::filesystem::path& log);

// Reads the end records of the journal.jsonl of the campaign dir belongs to
// (campaignRecordsFolder, core/load/campaignrecords.h). Lines that are not end records, or not JSON
// (a torn last line), are passed over: the launcher reports those itself. Never throws.
RunDisturbances readRunDisturbances(const std::filesystem::path& dir);

// Marks the runs the journal says were disturbed (RunResult::disturbed, ::disturbance); root is
// the directory the runs' paths are relative to.
void applyRunDisturbances(std::vector<RunResult>& runs, const std::filesystem::path& root,
                          const RunDisturbances& found);

// Reads the monitor samples of the runs that have them (the latest attempt's: its tag), for the
// trace's load curve. Small files; a line that is not a sample is passed over.
void applyMonitorCurves(std::vector<RunResult>& runs, const std::filesystem::path& root,
                        const RunDisturbances& found);
std::vector<RunResult::MonitorPoint> readMonitorCurve(const std::filesystem::path& file,
                                                      const std::string& tag);

} // namespace sv
