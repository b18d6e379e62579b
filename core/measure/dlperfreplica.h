#pragma once
// What one DLPerf extraction script computes for one log, quirks included, fed the same samples
// as ScaleView's own analyzer: `summarize --format dlperf` prints these figures, and a run's
// note gives both where they differ. Each format replays its own scripts (their regexes are the
// format's); what the scripts share is here: where one stops, its time method over two of the
// log's lines, its mean of a slice of a list.

#include "core/model/runresult.h"
#include "core/model/sample.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sv {

class DlperfReplica {
  public:
    virtual ~DlperfReplica() = default;
    virtual void add(const SpeedSample& sample) = 0;
    // The script's figure for the file (0 or NaN where the script records that), or nullopt
    // with *failure saying where the script stops with an error.
    std::optional<double> figure(std::string* failure) const;
    // The quirk behind a difference from ScaleView's figure, in words ("it reads ...").
    virtual std::string quirk() const = 0;

  protected:
    // The script stops with an error at this line: the first stop is where it dies, later
    // ones are never reached.
    void fail(std::int64_t line, std::string_view why);
    // Its assert refuses the options before it reads a line ("(its assert: ...)").
    void refuse(std::string why);
    bool failed() const { return !m_failure.empty(); }
    // The figure of a script that did not stop.
    virtual double figureRead() const = 0;

  private:
    std::string m_failure;
};

// The *_time.py scripts: the global batch over the clock between a start line and an end line,
// per (I - W) steps, rounded as Python rounds; the format says which lines those are and which
// clock it reads. 0 where the end line never comes.
class TwoLineTimeScript : public DlperfReplica {
  protected:
    // clock: what the script reads on the lines, as a failure names it ("timestamp", "asctime").
    TwoLineTimeScript(std::int64_t globalBatch, MeasureOptions options, std::string clock);

    // s is a start line, timeUs its clock as the script reads it (a later one replaces it).
    void start(const SpeedSample& s, std::int64_t timeUs);
    // s is the end line: the figure, or where the script stops.
    void end(const SpeedSample& s, std::int64_t timeUs);
    // The figure is made or the script stopped: later lines change nothing.
    bool over() const { return m_ended || failed(); }
    bool started() const { return m_startLine != 0; }
    std::int64_t startLine() const { return m_startLine; }
    std::int64_t endLine() const { return m_endLine; }
    const MeasureOptions& options() const { return m_opt; }
    double figureRead() const override { return m_figure; }

  private:
    std::int64_t m_batch;
    MeasureOptions m_opt;
    std::string m_clock;
    bool m_ended = false;
    std::int64_t m_startLine = 0, m_endLine = 0, m_startTime = 0;
    double m_figure = 0.0;
};

// Python's list[from:to] of a script's figures (bounds clipped to the list), np.mean'd and
// rounded to 2 as numpy rounds; NaN for an empty slice, as np.mean gives.
double dlperfSliceMean(std::span<const double> list, std::int64_t from, std::int64_t to);

} // namespace sv
