#pragma once
// ScaleView's own figures for logs whose rank 0 prints a line per step, or per N steps, naming
// the step (NGC TF BERT, TensorFlow 2, PaddlePaddle): the time method from the timestamps of the
// lines of steps W and I, the speed method as the mean of the rates printed for the steps after W
// up to I. Beside them, the figures of the format's DLPerf scripts (DlperfReplica), with a note
// naming the script's quirk where the two differ by more than 0.5 %.

#include "core/measure/closing.h"
#include "core/measure/dlperfreplica.h"
#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"

#include <memory>
#include <optional>
#include <vector>

namespace sv {

struct StepWindowRules {
    enum class Rate {
        Printed,           // the line's value is the whole job's rate
        BatchOverValue,    // the value is seconds per step: global batch / value
        PerStepTimesBatch, // the value is steps/s: value x GPUs per node x batch per GPU
    };
    Rate rate = Rate::Printed;
    bool timeMethod = true;     // lines carry a wall clock
    bool speedMethod = true;    // lines carry a rate
    bool datelessClock = false; // time of day only (absl): the clock can only have gone forward
};

class StepWindowAnalyzer : public FormatAnalyzer {
  public:
    // timeScript / speedScript: the format's DLPerf scripts (either may be null).
    StepWindowAnalyzer(const LogFormat& format, Topology topology, int batchPerDevice,
                       MeasureOptions options, StepWindowRules rules,
                       std::unique_ptr<DlperfReplica> timeScript,
                       std::unique_ptr<DlperfReplica> speedScript);

    void add(const SpeedSample& sample) override;
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override;

  private:
    struct Cut {
        bool seen = false;
        std::int64_t line = 0;
        bool hasTime = false;
        std::int64_t timeUs = 0;
    };
    double rateOf(double value) const;
    // Why the run's lines do not reach the window, or its figures cannot be made from them;
    // each figure's step fills it where it can.
    std::optional<Shortfall> linesShortfall(std::int64_t lines) const;
    std::optional<Shortfall> timeFigure(std::optional<double>& time) const;
    std::optional<Shortfall> speedFigure(std::optional<double>& speed) const;
    void compareWithScripts(RunResult& out) const;
    void addNotes(RunResult& out, bool speedMethod) const;

    const LogFormat& m_format;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_opt;
    StepWindowRules m_rules;
    std::unique_ptr<DlperfReplica> m_timeScript, m_speedScript;

    std::int64_t m_lines = 0;    // rank 0's lines with the marker
    std::int64_t m_steps = 0;    // of which with a step number
    std::int64_t m_lastStep = 0; // the previous line's step (0 before the first)
    std::int64_t m_maxStep = 0;
    std::int64_t m_noStepLine = 0;     // first marker line without a step number
    std::int64_t m_backwardsLine = 0;  // first line whose step is not above the previous one
    std::int64_t m_otherRankLines = 0; // tagged lines of ranks other than 0
    Cut m_start, m_end;                // the lines of steps W and I
    std::vector<double> m_rates;       // rates printed for steps W+1 .. I
    std::int64_t m_covered = 0;        // steps those rates cover
    std::int64_t m_firstFrom = -1;     // where the first of them starts (W, or the first
    std::int64_t m_firstStride = 0;    // printed step after W) and how many steps it covers
    std::int64_t m_lastRated = 0;      // the step of the last
    std::int64_t m_badRateLine = 0;    // first window line without a usable rate
};

} // namespace sv
