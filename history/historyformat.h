#pragma once
// The history's trends as text: a table for people, CSV (a row per case per campaign) and JSON,
// each verdict with what changed in the recorded environment, and the change points.

#include "history/historytrend.h"

#include <string>
#include <vector>

namespace sv::history {

std::string formatTrendTable(const std::vector<CaseTrend>& trends, double thresholdPct,
                             double fdr = 0.05);
std::string formatTrendCsv(const std::vector<CaseTrend>& trends);
std::string formatTrendJson(const std::vector<CaseTrend>& trends, double thresholdPct,
                            const std::string& database, double fdr = 0.05);

} // namespace sv::history
