#pragma once
// The campaign's append-only record (JSON lines, flushed and fsync'ed per record): a start
// record before each run says what will run, an end record after it says how it ended. After a
// crash, a start without an end is a run that was interrupted.

#include "launcher/campaign/runstate.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct RunEnd {
    RunState state = RunState::Failed;
    std::optional<int> exitCode;
    std::string host;   // where it failed, when known
    std::string reason; // why it is not ok, in words
    std::string advice; // what a person has to do about it, when that is known
    std::optional<double> timeThroughput, speedThroughput;
    std::vector<int> leftover; // tagged processes still alive after the sweep (should be none)
    // What the monitor saw during the run, when it watched it (MonitorSummary::record()): the
    // end record carries its summary and "disturbed" with the evidence.
    struct Monitored {
        std::vector<std::string> evidence; // that a host was busy, in words; empty: not disturbed
        std::string summary;               // the monitor's summary, a JSON object's text
    };
    std::optional<Monitored> monitor;
    // Read back from the journal's end record ("disturbed": true, "evidence"), where the
    // monitor's summary is not: resume's adaptive repeats rerun such a run instead of counting
    // it. isDisturbed() reads either.
    bool disturbed = false;
    std::string evidence; // why, in words
    bool isDisturbed() const;
    // Why it is disturbed, in words: the journal's evidence, else the monitor's joined by "; ";
    // empty when there is none in words (or it is not disturbed).
    std::string disturbanceWhy() const;
};

// Why adaptive repeats stopped adding runs to a case ("event": "case").
struct CaseStop {
    std::string caseId; // "bz16/1n2g/r50_b16_fp32"
    int counted = 0;    // repeats that count
    std::optional<double> ciPct;
    std::string reason; // "interval ±1.4 % within 2 % after 5 repeats"
};

struct JournalEntry {
    std::string id;
    std::string tag; // of the latest start
    int starts = 0;
    std::string jobId;         // the Slurm job of the latest start, when it was submitted
    std::optional<RunEnd> end; // of the latest start
    RunState state() const { return end ? end->state : RunState::Interrupted; }
};

// The runs whose latest end is ok while something else used their machines (RunEnd::isDisturbed):
// finished, but figures not to trust. The live view, a reopened campaign and the CLI say it alike.
int disturbedOkRuns(const std::map<std::string, JournalEntry>& journal);

class Journal {
  public:
    explicit Journal(std::string path) : m_path(std::move(path)) {}
    const std::string& path() const { return m_path; }

    // commands: what this machine starts for the run, one argv per process (one per node for a
    // per-node launcher); the first is also recorded as "command".
    bool appendStart(const std::string& id, const std::string& tag,
                     const std::vector<std::vector<std::string>>& commands,
                     const std::vector<std::string>& hosts, const std::string& logPath,
                     std::string* error);
    // The Slurm job that runs the latest start of run `id`.
    bool appendJob(const std::string& id, const std::string& tag, const std::string& jobId,
                   std::string* error);
    bool appendEnd(const std::string& id, const std::string& tag, const std::string& logPath,
                   const RunEnd& end, std::string* error);
    bool appendCaseStop(const CaseStop& stop, std::string* error);
    // The case records, by case id (the last one per case). Never throws.
    std::map<std::string, CaseStop> readCaseStops() const;
    // A container the campaign started or removed (action "started", "removed"), for people
    // and for cleanup: reading skips these records.
    bool appendContainer(const std::string& action, const std::string& host,
                         const std::string& name, const std::vector<std::string>& command,
                         std::string* error);
    // A case's scaling-loss probes (issue 28): state "ok", "failed", "cancelled" or
    // "recorded" (probes.json had them: not rerun), what they measured or why they failed.
    bool appendProbes(const std::string& caseId, const std::string& state,
                      const std::string& summary, const std::vector<std::string>& errors,
                      std::string* error);
    // A node left out of every topology (--exclude-node), and why.
    bool appendExclusion(const std::string& node, const std::string& reason, std::string* error);
    // --find-slow-node's verdict: "named" (node), "needs-interconnect", "not-slow" or "failed".
    bool appendSlowNodeSearch(const std::string& verdict, const std::string& node,
                              const std::string& why, int probeRuns, std::string* error);
    // Per run id, its latest state. A torn last line (crash mid-write) is ignored; a line that
    // is not a record this version understands (wrong types, a mistyped id) is skipped, and said
    // so in *warnings ("journal.jsonl line N: why"). Never throws.
    std::map<std::string, JournalEntry> read(std::vector<std::string>* warnings = nullptr) const;

  private:
    bool append(const std::string& line, std::string* error);
    std::string m_path;
};

} // namespace sv::launcher
