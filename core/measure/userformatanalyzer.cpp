#include "core/measure/userformatanalyzer.h"

#include "core/load/runloader.h"
#include "core/parse/logformat.h"
#include "core/parse/logparser.h"
#include "core/parse/userformat.h"
#include "core/stats/numerics.h"

#include <cmath>

namespace sv {

std::optional<double> userStepRate(double seconds, int batchPerDevice, int ranks) {
    if (batchPerDevice <= 0 || ranks <= 0) return std::nullopt;
    if (!(seconds > 0) || !std::isfinite(seconds)) return std::nan("");
    return static_cast<double>(batchPerDevice) * ranks / seconds;
}

UserWindowFigure userWindowFigure(const UserFormat& format,
                                  const std::vector<UserWindowValue>& values,
                                  std::optional<std::pair<int, int>> steps) {
    UserWindowFigure out;
    if (values.empty()) {
        out.problem = "no line matches the format's pattern";
        return out;
    }
    if (!steps && format.warmup()) steps = std::pair(*format.warmup(), *format.iterations());
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
            std::floor(static_cast<double>(values.size()) * format.dropFirst()));
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
                          formatFixed(format.dropFirst() * 100, 0) + " %";
            return out;
        }
        first = values[drop].line;
        last = values.back().line;
        which = "the last " + std::to_string(window.size()) + " of " +
                std::to_string(values.size()) + " values (the first " +
                formatFixed(format.dropFirst() * 100, 0) + " % dropped as warmup)";
    }
    if (window.empty()) {
        out.status = RunStatus::Incomplete;
        out.problem = "no value line in the window (" + which + ")";
        return out;
    }
    out.count = static_cast<std::int64_t>(window.size());
    const bool median = format.statistic() == UserFormat::Statistic::Median;
    out.figure = median ? numpyMedianInPlace(window) : numpyMean(window);
    out.status = RunStatus::Complete;
    out.rule = std::string(median ? "median" : "mean") + " of " + which + ", lines " +
               std::to_string(first) + "-" + std::to_string(last) + " (user format '" +
               format.id() + "', " + format.file() + ")";
    return out;
}

namespace {

class UserFormatAnalyzer : public FormatAnalyzer {
  public:
    UserFormatAnalyzer(const UserFormat& format, Topology topology, int batch,
                       MeasureOptions options)
        : m_format(format), m_topology(topology), m_batch(batch), m_options(options) {
        if (m_batch <= 0 && format.batch()) m_batch = *format.batch();
    }

    void add(const SpeedSample& s) override {
        if (!s.hasSpeed) return;
        if (s.rank > 0) {
            ++m_otherRanks;
            return;
        }
        double v = s.speed;
        if (m_format.value() == UserFormat::Value::StepTime) {
            auto rate = userStepRate(v, m_batch, m_topology.ranks());
            if (!rate) {
                if (!m_noBatchLine) m_noBatchLine = s.line;
                return;
            }
            v = *rate;
        }
        m_values.push_back({s.line, s.hasIteration ? s.batchFirst : -1, v});
    }

    void finish(RunResult& out, const ParseCounters& counters,
                bool unterminatedTail) const override {
        out.counters = counters;
        out.unterminatedTail = unterminatedTail;
        if (m_noBatchLine && m_values.empty()) {
            out.status = RunStatus::Unusable;
            out.reason = "the format's values are step times (line " +
                         std::to_string(m_noBatchLine) + "): a rate needs the batch size and the "
                         "GPU count, and " +
                         (m_batch <= 0 ? std::string("the batch size") : std::string("the GPU count")) +
                         " is not known (give it in the format's metadata or \"batch\", or the "
                         "path)";
            return;
        }
        std::optional<std::pair<int, int>> steps;
        if (m_options.warmup >= 0 && m_options.iterations > 0)
            steps = std::pair(m_options.warmup, m_options.iterations);
        const UserWindowFigure f = userWindowFigure(m_format, m_values, steps);
        out.expectedLines = steps ? steps->second : static_cast<std::int64_t>(m_values.size());
        if (!f.figure) {
            out.status = f.status;
            out.reason = f.problem;
            if (out.status == RunStatus::Empty)
                out.reason += " (user format '" + m_format.id() + "', marker \"" +
                              m_format.marker() + "\": " + std::to_string(counters.markerLines) +
                              " of " + std::to_string(counters.lines) + " lines hold it)";
            if (out.status == RunStatus::Incomplete && unterminatedTail)
                out.reason += ", and an unterminated last line (still being written?)";
            return;
        }
        out.status = RunStatus::Complete;
        // The window as lines of values: those left out at the start, and all of them.
        if (!steps) {
            out.window.warmup = static_cast<int>(m_values.size()) - static_cast<int>(f.count);
            out.window.iterations = static_cast<int>(m_values.size());
        }
        out.timeThroughput = f.figure;
        out.speedThroughput = f.figure;
        out.methodDifferencePct = 0.0;
        out.notes.push_back("the log's own " + m_format.unit() + ": " + f.rule +
                            "; both methods give this one figure");
        if (m_otherRanks)
            out.notes.push_back(std::to_string(m_otherRanks) +
                                " lines of ranks other than 0 left out");
    }

  private:
    const UserFormat& m_format;
    Topology m_topology;
    int m_batch;
    MeasureOptions m_options;
    std::vector<UserWindowValue> m_values;
    std::int64_t m_otherRanks = 0;
    std::int64_t m_noBatchLine = 0;
};

} // namespace

std::unique_ptr<FormatAnalyzer> makeUserFormatAnalyzer(const LogFormat& format, Topology topology,
                                                       int batchPerDevice, MeasureOptions options) {
    const UserFormat* user = userFormatOf(format);
    if (!user) return nullptr;
    return std::make_unique<UserFormatAnalyzer>(*user, topology, batchPerDevice, options);
}

UserFormatPreview previewUserFormat(const UserFormat& format, const std::filesystem::path& log,
                                    std::int64_t batchPerDevice, int ranks) {
    UserFormatPreview out;
    std::vector<UserWindowValue> values;
    // The head for the metadata patterns: the first MiB, as detection reads.
    std::string head;
    ParseOptions options;
    options.format = format.logFormat().message;
    LogParser parser(options, [&](const SpeedSample& s) {
        if (!s.hasSpeed || s.rank > 0 || !std::isfinite(s.speed)) return;
        ++out.matches;
        if (out.matchLines.size() < 200) out.matchLines.push_back(s.line);
        values.push_back({s.line, s.hasIteration ? s.batchFirst : -1, s.speed});
    });
    const LogRead read = readLogFile(log, parser);
    if (read.error) {
        out.readError = *read.error;
        out.problem = "cannot read " + log.string() + ": " + *read.error;
        return out;
    }
    out.lines = parser.counters().lines + (parser.pendingBytes() > 0 ? 1 : 0);
    // The metadata: from the first MiB again (a second, bounded read).
    {
        std::FILE* f = std::fopen(log.c_str(), "rb");
        if (f) {
            head.resize(kDetectBytes);
            head.resize(std::fread(head.data(), 1, head.size(), f));
            std::fclose(f);
        }
        out.facts = format.facts(head);
    }
    if (format.value() == UserFormat::Value::StepTime) {
        const int batch = batchPerDevice > 0 ? static_cast<int>(batchPerDevice)
                                             : out.facts.batch.value_or(format.batch().value_or(0));
        const int gpus = ranks > 0 ? ranks : out.facts.gpus.value_or(1);
        if (batch <= 0) {
            out.problem = "the values are step times: a rate needs the batch size (give "
                          "\"batch\" or a \"metadata\" batch pattern)";
            return out;
        }
        for (auto& v : values)
            v.value = userStepRate(v.value, batch, gpus).value_or(std::nan(""));
    }
    for (const auto& v : values)
        out.values.push_back(v.value);
    const UserWindowFigure f = userWindowFigure(format, values, std::nullopt);
    out.figure = f.figure;
    out.rule = f.rule;
    out.problem = f.problem;
    return out;
}

} // namespace sv
