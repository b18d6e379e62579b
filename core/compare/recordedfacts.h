#pragma once
// What a compared side recorded about how it ran, for the "what changed" beside each verdict:
// for a launcher's campaign, the environment it captured (core/compare/environmentsummary.h)
// and the campaign's own settings (campaign.json); for logs from elsewhere, what their runs
// carry: the format they were read as and the window they were measured over.

#include "core/compare/environmentsummary.h"
#include "core/model/runresult.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

struct Summary; // core/stats/summary.h
struct CaseStats;
struct ComparisonSeries;

// The settings of a campaign.json that shape its runs: "profile", "launcher", "campaign_image"
// (the image the campaign names; the environment's "container_image" is the id it ran),
// "slurm_partition", "slurm_constraint", "repeats", and each of its "variables" as
// "variables.NAME". Nothing when the text is not a JSON object.
RecordedFacts campaignSettingsFacts(const std::string& campaignJson);

// environmentFacts(summarizeEnvironment(files)), then the settings of the campaign.json among
// files (capturedFiles' "campaign.json").
RecordedFacts capturedFacts(const std::vector<ReportFile>& files);

// capturedFacts(capturedFiles(summary.root)). Blocking (reads the files): off the GUI thread.
RecordedFacts recordedFacts(const Summary& summary);

// A case's own: "format" (the log format's id, when known) and the "warmup" and "iterations"
// its runs were measured over (window resolved for the format where it asks for its defaults).
RecordedFacts caseFacts(std::string_view format, const std::optional<MeasureOptions>& window);

// What the logs of each case state in their parameter dumps (RunFacts::parameters: Namespace,
// DLLogger's PARAMETER, flags, ...) as "log.KEY" facts: for logs from elsewhere, their recorded
// parameters are their environment. Only what every run of the case agrees on (a seed that
// differs per repeat is no change between two sides). out[i] for cases[i]; paths relative to
// root. Blocking (reads each log's first 64 KiB): off the GUI thread.
std::vector<RecordedFacts> caseParameterFacts(const std::string& root,
                                              const std::vector<CaseStats>& cases);
RecordedFacts caseParameterFacts(const std::string& root, const CaseStats& c);

// A series' records for what changed beside each verdict, read from the directory it was
// summarized from: recordedFacts(from), its window, and caseParameterFacts of its cases.
// Blocking: off the GUI thread.
void recordSeries(ComparisonSeries& series, const Summary& from);

} // namespace sv
