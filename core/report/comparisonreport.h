#pragma once
// A comparison written out: a readable table, CSV, Markdown and JSON ("cases": [{"topology",
// "model", "precision", "batch_size_per_device", "series", "ratio", "ratio_ci95", "verdict",
// "changed": [{"what", "a", "b"}]}]), each verdict with what changed between its two sides.

#include "core/compare/comparison.h"

#include <string>
#include <string_view>
#include <vector>

namespace sv {

// The comparison table's header, as the text table and the HTML report both show it: "case",
// each series' label, then "B / A [95 % CI]" and "verdict" for each series after the first.
std::vector<std::string> comparisonTableHead(const Comparison& comparison);

// What changed beside the verdicts, one line per series after the first and set of its cases
// with the same changes: "what changed, B against A: driver 535.104.05 -> 550.54.14" (every
// case), "what changed, B against A (r50 fp32 bs128 1n1g): format ..." (where the cases
// differ), "... : nothing recorded changed".
std::vector<std::string> comparisonChangeLines(const Comparison& comparison);

std::string formatComparisonTable(const Comparison& comparison);
std::string formatComparisonCsv(const Comparison& comparison);
std::string formatComparisonMarkdown(const Comparison& comparison);
std::string formatComparisonJson(const Comparison& comparison, std::string_view toolVersion);

} // namespace sv
