#pragma once
// A comparison written out: a readable table, CSV, Markdown and JSON ("cases": [{"topology",
// "model", "precision", "batch_size_per_device", "series", "ratio", "ratio_ci95", "verdict"}]).

#include "core/compare/comparison.h"

#include <string>
#include <string_view>
#include <vector>

namespace sv {

// The comparison table's header, as the text table and the HTML report both show it: "case",
// each series' label, then "B / A [95 % CI]" and "verdict" for each series after the first.
std::vector<std::string> comparisonTableHead(const Comparison& comparison);

std::string formatComparisonTable(const Comparison& comparison);
std::string formatComparisonCsv(const Comparison& comparison);
std::string formatComparisonMarkdown(const Comparison& comparison);
std::string formatComparisonJson(const Comparison& comparison, std::string_view toolVersion);

} // namespace sv
