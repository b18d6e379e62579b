#pragma once
// Each case's median over the campaigns of the history, with each campaign's min-max, and a
// regression flag when the latest campaign falls below every earlier campaign's spread by more
// than the practical threshold (the comparison's noise threshold, 2 % by default).

#include "history/historydatabase.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::history {

struct TrendPoint {
    std::string time, label, path, identity;
    double median = 0.0, min = 0.0, max = 0.0;
    int runs = 0;
    EnvironmentSummary environment;
};

struct CaseTrend {
    CaseKey key;
    std::string method;             // the campaigns' DLPerf method: only like is compared
    std::vector<TrendPoint> points; // oldest first
    // The earlier campaigns' envelope: the lowest min and highest max of their repeats.
    std::optional<double> previousLow, previousHigh;
    // The latest median against that envelope, in percent (negative: below the lowest).
    std::optional<double> changePct;
    bool regression = false;  // latest median below previousLow by more than the threshold
    bool improvement = false; // above previousHigh by more than the threshold
    std::string note;         // the verdict in words
};

struct TrendOptions {
    double thresholdPct = 2.0; // as ContrastOptions' default: the comparisons' noise threshold
    std::string topology;      // "2n8g": only that case topology; empty: every case
};

// Cases ordered like computeCases' (model, precision, batch, format, then topology).
std::vector<CaseTrend> computeTrends(const std::vector<StoredCampaign>& campaigns,
                                     const TrendOptions& options = {});

// "r50 fp32 bs128 2n8g" (with the format when it is not NGC MXNet), for lists and tables.
std::string caseName(const CaseKey& key);

} // namespace sv::history
