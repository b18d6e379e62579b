#pragma once
// Measures one log as its samples stream by, with the analyzer its format's family needs: the
// one place that turns a log's samples into its RunResult, for the CLI's loads, the GUI's and
// a live view's incremental reads alike. So it is where every run's figures meet the one rule of
// what a throughput can be (core/model/plausibility.h), whichever analyzer made them.

#include "core/measure/formatanalyzer.h"
#include "core/parse/logformat.h"
#include "core/load/logscan.h"
#include "core/measure/ratelineanalyzer.h"
#include "core/measure/runanalyzer.h"
#include "core/measure/steptimeanalyzer.h"

#include <memory>
#include <string>
#include <variant>

namespace sv {

// Whether two windows are the same (the figures of one stand for the other).
inline bool sameMeasure(const MeasureOptions& a, const MeasureOptions& b) {
    return a.warmup == b.warmup && a.iterations == b.iterations &&
           a.formatDefaults == b.formatDefaults;
}

class RunMeter {
  public:
    // measure may ask for the format's DLPerf defaults: the meter measures over windowFor().
    RunMeter(const LogFile& log, const LogFormat& format, const MeasureOptions& measure);

    void add(const SpeedSample& sample) {
        if (m_own)
            m_own->add(sample);
        else
            std::visit([&](auto& a) { a.add(sample); }, m_analyzer);
    }
    // The run as measured from what was added so far.
    RunResult result(const ParseCounters& counters, bool unterminatedTail) const;
    // The run when its file could not be read (error says why).
    RunResult unreadable(const std::string& error, const ParseCounters& counters) const;
    const MeasureOptions& measure() const { return m_measure; } // as resolved

  private:
    RunResult base() const;

    std::string m_path;
    std::string m_unit; // the format's, for the words of an implausible figure
    RunKey m_key;
    std::string m_detection; // how a log outside DLPerf's layout got its format (a note)
    MeasureOptions m_measure;
    std::variant<RunAnalyzer, RateLineAnalyzer, StepTimeAnalyzer> m_analyzer;
    // A format's own analyzer (family Own), where its table entry brings one.
    std::unique_ptr<FormatAnalyzer> m_own;
};

} // namespace sv
