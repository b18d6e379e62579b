#pragma once
// Each case's median over the campaigns of the history, with each campaign's min-max, and the
// latest campaign's verdict against the baseline (the campaigns before it, from the last
// accepted change or step on) by Compare's rule of evidence (contrastCase: the ratio of the
// medians, its 95 % bootstrap interval, a change only when the interval excludes 1 and the change
// is beyond the threshold, 2 % by default): the same two campaigns get the same verdict on the
// History page and in Compare. A regression fails the check when, besides, a one-sided Welch
// test of the latest campaign's repeats against the baseline's is a discovery under
// Benjamini-Hochberg at the false discovery rate across all the cases tested. A verdict marked
// expected (who, why) does not fail the check, and later campaigns are judged from the expected
// one on. Each case also carries what its environment changed at the latest campaign, the
// campaigns at which its throughput stepped, and how many of its runs were disturbed.

#include "history/historydatabase.h"
#include "history/historystats.h"
#include "core/compare/comparison.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::history {

struct TrendPoint {
    std::string time, label, path, identity;
    double median = 0.0, min = 0.0, max = 0.0;
    int runs = 0;
    EnvironmentSummary environment;
    int warmup = 0, iterations = 0;
    std::vector<double> values;           // the repeats
    RecordedFacts parameters;             // what its logs' parameter dumps state ("log.KEY")
    std::optional<CampaignOrigin> origin; // another site's campaign, from its bundle
    int disturbed = 0;                    // of its runs, those a busy host disturbed
};

// A campaign at which the case's throughput stepped, with what changed there.
struct CaseStep {
    ChangePoint point;                      // point.index into CaseTrend::points
    std::vector<EnvironmentChange> changed; // the campaign before it -> it
};

struct CaseTrend {
    CaseKey key;
    std::string method;             // the campaigns' DLPerf method: only like is compared
    std::vector<TrendPoint> points; // oldest first
    // The earlier campaigns' envelope: the lowest min and highest max of their repeats.
    std::optional<double> previousLow, previousHigh;
    // The latest median against that envelope, in percent (negative: below the lowest).
    std::optional<double> changePct;
    // The latest campaign against the baseline by Compare's rule (contrastCase), the
    // baseline's repeats as A and the latest's as B; none with fewer than two campaigns.
    std::optional<CaseContrast> contrast;
    std::optional<double>
        baselineMedian;         // A's median: one campaign's own, else the pooled repeats'
    std::size_t judgedFrom = 0; // the baseline's first campaign (index into points)
    // The contrast says slower (Verdict::Slower).
    bool regression = false;
    // The contrast says faster (Verdict::Faster): the same rule of evidence both ways.
    bool improvement = false;
    std::string note; // the verdict in words
    // The one-sided Welch test in the direction the latest moved (slower, or faster when its
    // median is above the earlier range); none without two repeats a side.
    std::optional<double> pValue;
    bool discovery = false; // Benjamini-Hochberg rejected it among the cases tested
    // The latest campaign's verdict marked expected: no longer fails the check.
    bool expected = false;
    std::string expectedWho, expectedWhy;
    std::string baselineFrom; // the label the baseline starts at, when an expectation moved it
    // The latest campaign's environment against the one before it (empty: nothing changed).
    std::vector<EnvironmentChange> changed;
    std::vector<CaseStep> steps; // change points, oldest first
    // A regression fails the check when it is also a discovery at the false discovery rate.
    bool failsCheck() const { return regression && discovery && !expected; }
};

struct TrendOptions {
    double thresholdPct = 2.0; // as ContrastOptions' default: the comparisons' noise threshold
    std::string topology;      // "2n8g": only that case topology; empty: every case
    double fdr = 0.05;         // the false discovery rate across the cases tested
    std::vector<HistoryDatabase::Expectation> expectations;
    ChangePointOptions steps;
};

// How a check over the cases went: how many were judged (two campaigns or more), how many of
// those had repeats to test, at what rate, and what was found.
struct CheckSummary {
    int cases = 0, judged = 0, tested = 0, regressions = 0, expected = 0;
    double fdr = 0.05;
};
CheckSummary summarizeCheck(const std::vector<CaseTrend>& trends, double fdr);
std::string describeCheck(const CheckSummary& s);

// The text that names a case in expectations: model|precision|batch|topology|format|method.
std::string caseKeyText(const CaseKey& key, const std::string& method);

// Cases ordered like computeCases' (model, precision, batch, format, then topology).
std::vector<CaseTrend> computeTrends(const std::vector<StoredCampaign>& campaigns,
                                     const TrendOptions& options = {});

// "r50 fp32 bs128 2n8g" (with the format when it is not NGC MXNet), for lists and tables.
std::string caseName(const CaseKey& key);

} // namespace sv::history
