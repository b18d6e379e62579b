#include "core/measure/userformatanalyzer.h"

#include "core/measure/closing.h"
#include "core/model/numerics.h"

#include <cmath>

namespace sv {

std::optional<double> userStepRate(double seconds, int batchPerDevice, int ranks) {
    if (batchPerDevice <= 0 || ranks <= 0) return std::nullopt;
    if (!(seconds > 0) || !std::isfinite(seconds)) return std::nan("");
    return static_cast<double>(batchPerDevice) * ranks / seconds;
}

namespace {

// Which values a warmup fraction leaves. Under ten values a tenth is none: said so, not "the last
// 4 of 4 (the first 10 % dropped)".
std::string keptValues(std::size_t kept, std::size_t total, double dropFirst) {
    const std::string pct = formatFixed(dropFirst * 100, 0) + " %";
    if (kept == total)
        return "all " + std::to_string(total) + " values (too few for a first " + pct +
               " to drop as warmup)";
    return "the last " + std::to_string(kept) + " of " + std::to_string(total) +
           " values (the first " + pct + " dropped as warmup)";
}

} // namespace

UserWindowFigure userWindowFigure(const UserWindowRule& rule,
                                  const std::vector<UserWindowValue>& values,
                                  std::optional<std::pair<int, int>> steps) {
    UserWindowFigure out;
    if (values.empty()) {
        out.problem = "no line matches the format's pattern";
        return out;
    }
    if (!steps && rule.warmup) steps = std::pair(*rule.warmup, *rule.iterations);
    std::vector<double> window;
    std::int64_t first = 0, last = 0;
    std::string which;
    if (steps) {
        const auto [w, i] = *steps;
        const bool named = values.front().step >= 0;
        std::int64_t ordinal = 0, reached = 0;
        for (const auto& v : values) {
            const std::int64_t step = named && v.step >= 0 ? v.step : ++ordinal;
            reached = std::max(reached, step);
            if (step <= w || step > i) continue;
            if (!std::isfinite(v.value)) {
                out.status = RunStatus::Unusable;
                out.problem = "no usable value at line " + std::to_string(v.line);
                return out;
            }
            if (window.empty()) first = v.line;
            last = v.line;
            window.push_back(v.value);
        }
        if (reached < i) {
            out.status = RunStatus::Incomplete;
            out.problem = std::string(named ? "the lines reach step " : "there are ") +
                          std::to_string(reached) + (named ? " of " : " value lines of the ") +
                          std::to_string(i) + (named ? "" : " the window needs") +
                          " (window: steps after " + std::to_string(w) + " up to " +
                          std::to_string(i) + ")";
            return out;
        }
        which = std::string(named ? "steps " : "value lines ") + std::to_string(w + 1) + "-" +
                std::to_string(i);
    } else {
        const auto drop = static_cast<std::size_t>(
            std::floor(static_cast<double>(values.size()) * rule.dropFirst));
        for (std::size_t k = drop; k < values.size(); ++k) {
            if (!std::isfinite(values[k].value)) {
                out.status = RunStatus::Unusable;
                out.problem = "no usable value at line " + std::to_string(values[k].line);
                return out;
            }
            window.push_back(values[k].value);
        }
        if (window.empty()) {
            out.status = RunStatus::Incomplete;
            out.problem = "only " + std::to_string(values.size()) +
                          " value lines: none left after dropping the first " +
                          formatFixed(rule.dropFirst * 100, 0) + " %";
            return out;
        }
        first = values[drop].line;
        last = values.back().line;
        which = keptValues(window.size(), values.size(), rule.dropFirst);
    }
    if (window.empty()) {
        out.status = RunStatus::Incomplete;
        out.problem = "no value line in the window (" + which + ")";
        return out;
    }
    out.count = static_cast<std::int64_t>(window.size());
    const bool median = rule.statistic == UserWindowRule::Statistic::Median;
    out.figure = median ? numpyMedianInPlace(window) : numpyMean(window);
    out.status = RunStatus::Complete;
    out.rule = std::string(median ? "median" : "mean") + " of " + which + ", lines " +
               std::to_string(first) + "-" + std::to_string(last) + " (user format '" + rule.id +
               "', " + rule.file + ")";
    return out;
}

namespace {

class UserFormatAnalyzer : public FormatAnalyzer {
  public:
    UserFormatAnalyzer(const UserWindowRule& rule, Topology topology, int batch,
                       MeasureOptions options)
        : m_rule(rule), m_topology(topology), m_batch(batch), m_options(options) {
        if (m_batch <= 0 && rule.batch) m_batch = *rule.batch;
    }

    void add(const SpeedSample& s) override {
        if (!s.hasSpeed) return;
        if (s.rank > 0) {
            ++m_otherRanks;
            return;
        }
        double v = s.speed;
        if (m_rule.value == UserWindowRule::Value::StepRate) {
            // Steps/s times the step's global batch: never a guessed batch or GPU count.
            if (m_batch <= 0 || m_topology.ranks() <= 0) {
                if (!m_noBatchLine) m_noBatchLine = s.line;
                return;
            }
            v *= static_cast<double>(m_batch) * m_topology.ranks();
        } else if (m_rule.value == UserWindowRule::Value::StepTime) {
            auto rate = userStepRate(v, m_batch, m_topology.ranks());
            if (!rate) {
                if (!m_noBatchLine) m_noBatchLine = s.line;
                return;
            }
            v = *rate;
        } else if (m_rule.perGpu) {
            // One GPU's rate: the run's is it times the GPUs, which must be known.
            if (m_topology.ranks() <= 0) {
                if (!m_noGpusLine) m_noGpusLine = s.line;
                return;
            }
            v *= m_topology.ranks();
        }
        m_values.push_back({s.line, s.hasIteration ? s.batchFirst : -1, v});
    }

    void finish(RunResult& out, const ParseCounters& counters,
                bool unterminatedTail) const override {
        out.counters = counters;
        out.unterminatedTail = unterminatedTail;
        if (m_noBatchLine && m_values.empty() && m_rule.value == UserWindowRule::Value::StepRate) {
            out.status = RunStatus::Unusable;
            out.reason = stepRateWithoutBatch();
            return;
        }
        if (m_noBatchLine && m_values.empty()) {
            out.status = RunStatus::Unusable;
            out.reason =
                "the format's values are step times (line " + std::to_string(m_noBatchLine) +
                "): a rate needs the batch size and the "
                "GPU count, and " +
                (m_batch <= 0 ? std::string("the batch size") : std::string("the GPU count")) +
                " is not known (give it in the format's metadata or \"batch\", or the "
                "path)";
            return;
        }
        if (m_noGpusLine && m_values.empty()) {
            out.status = RunStatus::Unusable;
            out.reason = "the format's values are one GPU's rate (\"per_gpu\", line " +
                         std::to_string(m_noGpusLine) +
                         "): the run's is that times its GPUs, and neither the log, its path, a "
                         "scaleview.json nor the format states how many (Set batch, GPUs, "
                         "precision… sets them)";
            return;
        }
        std::optional<std::pair<int, int>> steps;
        if (m_options.warmup >= 0 && m_options.iterations > 0)
            steps = std::pair(m_options.warmup, m_options.iterations);
        const UserWindowFigure f = userWindowFigure(m_rule, m_values, steps);
        out.expectedLines = steps ? steps->second : static_cast<std::int64_t>(m_values.size());
        if (!f.figure) {
            std::string why = f.problem;
            if (f.status == RunStatus::Empty && m_otherRanks > 0)
                why = std::to_string(m_otherRanks) +
                      " lines match, all of ranks other than 0 (only rank 0's are counted)";
            if (f.status == RunStatus::Empty && m_rule.marker.empty())
                why += " (user format '" + m_rule.id + "': no marker, every one of " +
                       std::to_string(counters.lines) + " lines tried)";
            else if (f.status == RunStatus::Empty)
                why += " (user format '" + m_rule.id + "', marker \"" + m_rule.marker +
                       "\": " + std::to_string(counters.markerLines) + " of " +
                       std::to_string(counters.lines) + " lines hold it)";
            return settleRun(out, f.status, std::move(why), unterminatedTail);
        }
        // The window as lines of values: those left out at the start, and all of them.
        if (!steps) {
            out.window.warmup = static_cast<int>(m_values.size()) - static_cast<int>(f.count);
            out.window.iterations = static_cast<int>(m_values.size());
        }
        completeWithOneFigure(out, *f.figure);
        out.notes.push_back("the log's own " + m_rule.unit + ": " + f.rule +
                            (m_rule.perGpu ? ", each value one GPU's times " +
                                                 std::to_string(m_topology.ranks()) + " GPUs"
                                           : std::string()) +
                            (m_rule.value == UserWindowRule::Value::StepRate
                                 ? ", each value steps/s times the step's batch " +
                                       std::to_string(m_batch * m_topology.ranks()) + " (" +
                                       std::to_string(m_batch) + " per GPU × " +
                                       std::to_string(m_topology.ranks()) + " GPUs)"
                                 : std::string()) +
                            "; both methods give this one figure");
        if (m_otherRanks)
            out.notes.push_back(std::to_string(m_otherRanks) +
                                " lines of ranks other than 0 left out");
    }

  private:
    // Why a step rate gives no figure in the format's unit: what of the batch is not known.
    std::string stepRateWithoutBatch() const {
        const bool noBatch = m_batch <= 0, noGpus = m_topology.ranks() <= 0;
        return "the format's values are steps/s (line " + std::to_string(m_noBatchLine) +
               "): " + m_rule.unit +
               " are steps/s × the step's batch (batch per GPU × GPUs), and " +
               (noBatch && noGpus ? std::string("neither the batch size nor the GPU count is")
                : noBatch         ? std::string("the batch size is not")
                                  : std::string("the GPU count is not")) +
               " known: no figure from a guessed batch (Set batch, GPUs, precision… sets them, "
               "or the format's \"batch\" and metadata)";
    }

    const UserWindowRule& m_rule;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_options;
    std::vector<UserWindowValue> m_values;
    std::int64_t m_otherRanks = 0;
    std::int64_t m_noBatchLine = 0;
    std::int64_t m_noGpusLine = 0;
};

} // namespace

std::unique_ptr<FormatAnalyzer> makeUserWindowAnalyzer(const UserWindowRule& rule,
                                                       Topology topology, int batchPerDevice,
                                                       MeasureOptions options) {
    return std::make_unique<UserFormatAnalyzer>(rule, topology, batchPerDevice, options);
}

} // namespace sv
