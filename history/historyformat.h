#pragma once
// The history's trends as text: a table for people, CSV (a row per case per campaign) and JSON,
// each verdict with what changed in the recorded environment, and the change points.

#include "history/historytrend.h"

#include <string>
#include <vector>

namespace sv::history {

// How a case's figures were read and their unit: "time method, images/s", or, for a format whose
// figure is the log's own reports, "the log's own reports, tokens/s".
std::string trendMeasure(const CaseTrend& trend);
std::string trendUnit(const CaseTrend& trend);

std::string formatTrendTable(const std::vector<CaseTrend>& trends, double thresholdPct,
                             double fdr = 0.05);
std::string formatTrendCsv(const std::vector<CaseTrend>& trends);
std::string formatTrendJson(const std::vector<CaseTrend>& trends, double thresholdPct,
                            const std::string& database, double fdr = 0.05);

} // namespace sv::history
