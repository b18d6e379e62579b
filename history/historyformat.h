#pragma once
// The history's trends as text: a table for people, CSV (a row per case per campaign) and JSON.

#include "history/historytrend.h"

#include <string>
#include <vector>

namespace sv::history {

std::string formatTrendTable(const std::vector<CaseTrend>& trends, double thresholdPct);
std::string formatTrendCsv(const std::vector<CaseTrend>& trends);
std::string formatTrendJson(const std::vector<CaseTrend>& trends, double thresholdPct,
                            const std::string& database);

} // namespace sv::history
