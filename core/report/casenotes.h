#pragma once
// A case's notes in words a reader understands, one wording for the command line's table, the
// HTML report and the app: the outlying repeats it keeps, the runs it leaves out, by which method
// its delta was taken, how it compares with the reference's own repeats, and where its scaling
// goes. No kind tags, no "ratio 1.0123 [...], no-difference": the machine formats (CSV, JSON)
// keep their fields and codes.

#include "core/model/runresult.h"
#include "core/stats/casestats.h"
#include "core/stats/scalingloss.h"

#include <string>
#include <string_view>
#include <vector>

namespace sv {

// The case a note is about: "r50 fp16 b128 2n8g"; "? ? b? GPUs ?" for a case nobody states, its
// log's name after it where the case is that log's alone; "r50 fp32 b296 8 GPUs" where none of
// its runs' logs states the nodes (as the Runs page names it, never "1n8g").
std::string caseWhere(const CaseStats& c, const std::vector<RunResult>& runs);
// Whether none of the case's runs' logs states its nodes (RunKey::origins): its runs are filed
// under 1 node, which nobody wrote; the pages show its nodes as "?".
bool nodesUnstated(const CaseStats& c, const std::vector<RunResult>& runs);

// "repeat 2 is far from the other repeats (an outlier: modified z-score above 3.5) but still
// counts in the median and the other statistics"; empty without outliers.
std::string outlierNote(const CaseStats& c);

// "repeat 8 (4n8g/r50_b128_fp32_8.log) is left out of the statistics: found 576 of 3840 speed
// lines".
std::string excludedNote(const ExcludedRun& e);

// Where the reference's table was measured by another method than the one shown: "delta % is by
// the speed method, the one the reference table used; by it this case's median is 360.00
// images/s (the median above is by the time method)". Empty when the methods agree or there is
// no reference.
std::string referenceMethodNote(const CaseStats& c, std::string_view shownMethod);

// "against the reference's 7 repeats: this case's median is 1.0000 times the reference's (95 %
// interval 0.9891 to 1.0110): no measurable difference"; empty without a ratio.
std::string referenceContrastNote(const CaseStats& c);

// A verdict against the reference in words: "faster than the reference", "no measurable
// difference", ….
std::string referenceVerdictWords(Verdict v);

// A part of the scaling loss by name: "device slowdown", "waiting for the slowest node",
// "communication", "remainder" (the app's chart names them so).
std::string lossPartWords(const std::string& kind);

// "scaling loses 9.72 % of the ideal throughput (GPUs × the 1-GPU pace): device slowdown 3.10
// points (95 % interval 2.90 to 3.30), …; not measured: communication; node d is 20.0 % slower
// than the median node". devices: "GPU" or "rank".
std::string scalingLossNote(const ScalingLoss& loss, std::string_view devices);

} // namespace sv
