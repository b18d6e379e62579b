#pragma once
// A comparison written out: a readable table, CSV, Markdown and JSON ("cases": [{"topology",
// "model", "precision", "batch_size_per_device", "series", "ratio", "ratio_ci95", "verdict"}]).

#include "core/compare/comparison.h"

#include <string>
#include <string_view>

namespace sv {

std::string formatComparisonTable(const Comparison& comparison);
std::string formatComparisonCsv(const Comparison& comparison);
std::string formatComparisonMarkdown(const Comparison& comparison);
std::string formatComparisonJson(const Comparison& comparison, std::string_view toolVersion);

} // namespace sv
