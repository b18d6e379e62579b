#include "core/formats/paddle.h"
#include "core/model/textscan.h"

#include "core/model/numerics.h"
#include "core/measure/stepwindowanalyzer.h"

#include <charconv>
#include <cmath>

namespace sv {
namespace {

// Python's float(text.strip()): the whole text a number; inf and nan as Python spells them.
bool pythonFloat(std::string_view t, double& v) {
    while (!t.empty() && isSpace(t.front()))
        t.remove_prefix(1);
    while (!t.empty() && isSpace(t.back()))
        t.remove_suffix(1);
    if (!t.empty() && t.front() == '+') t.remove_prefix(1);
    if (t.empty()) return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && p == t.data() + t.size();
}

// "<label>N<end>" -> N (up to 15 digits).
bool readStep(std::string_view text, std::string_view label, char end, std::int64_t& out) {
    const auto at = text.find(label);
    if (at == std::string_view::npos) return false;
    std::size_t i = at + label.size();
    const std::size_t first = i;
    std::int64_t n = 0;
    while (i < text.size() && isDigit(text[i]) && i - first < 15)
        n = n * 10 + (text[i++] - '0');
    if (i == first || i >= text.size() || text[i] != end) return false;
    out = n;
    return true;
}

// extract_paddle_logs.py (both models): a rate per marker line, rounded to 4 (its regex must
// match and float() accept the number, or it stops), then the mean of list[W:I] rounded to 2.
class ListSliceScript : public DlperfReplica {
  public:
    ListSliceScript(MeasureOptions o, double (*rate)(double value, double batch), double batch,
                    std::string quirk)
        : m_opt(o), m_rate(rate), m_batch(batch), m_quirk(std::move(quirk)) {}
    void add(const SpeedSample& s) override {
        if (failed()) return;
        if (!s.hasDlperfValue || (m_rate == &perElapse && s.dlperfValue == 0.0))
            fail(s.line, "its regex or float() fails");
        else
            m_rates.push_back(roundPython(m_rate(s.dlperfValue, m_batch), 4));
    }
    std::string quirk() const override { return m_quirk; }

    static double perElapse(double seconds, double globalBatch) { return globalBatch / seconds; }
    static double perStep(double stepsPerSecond, double batch) { return stepsPerSecond * batch; }

  private:
    double figureRead() const override {
        return dlperfSliceMean(m_rates, m_opt.warmup, m_opt.iterations);
    }

    MeasureOptions m_opt;
    double (*m_rate)(double, double);
    double m_batch;
    std::string m_quirk;
    std::vector<double> m_rates;
};

// extract_paddle_logs_time.py: the last line holding "train batch W-1]" before the first holding
// "train batch I-1]", the global batch over their asctimes' difference per (I - W) steps.
class BatchTimeScript : public TwoLineTimeScript {
  public:
    BatchTimeScript(std::int64_t globalBatch, MeasureOptions o)
        : TwoLineTimeScript(globalBatch, o, "asctime") {}
    void add(const SpeedSample& s) override {
        if (over() || !s.hasIteration) return;
        if (s.batchLast == options().warmup) return start(s, s.timeUs);
        if (s.batchLast != options().iterations) return;
        if (!started()) return fail(s.line, "no start line before it");
        end(s, s.timeUs);
    }
    std::string quirk() const override {
        return "it measures from the last \"train batch " + std::to_string(options().warmup - 1) +
               "]\" line to the first \"train batch " + std::to_string(options().iterations - 1) +
               "]\" line";
    }
};

std::unique_ptr<FormatAnalyzer> makeRn50(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions o) {
    const std::int64_t global = static_cast<std::int64_t>(batch) * topology.ranks();
    StepWindowRules rules;
    rules.rate = StepWindowRules::Rate::BatchOverValue;
    return std::make_unique<StepWindowAnalyzer>(
        format, topology, batch, o, rules, std::make_unique<BatchTimeScript>(global, o),
        std::make_unique<ListSliceScript>(
            o, &ListSliceScript::perElapse, static_cast<double>(global),
            "it averages the lines " + std::to_string(o.warmup + 1) + " to " +
                std::to_string(o.iterations) + " by their place in the log"));
}

std::unique_ptr<FormatAnalyzer> makeBert(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions o) {
    StepWindowRules rules;
    rules.rate = StepWindowRules::Rate::PerStepTimesBatch;
    rules.timeMethod = false;
    // DLPerf's total_batch_size here is GPUs per node x batch: the printed steps/s already
    // counts every node's step (the trainer adds the node count to its step), so this is the
    // whole job's rate; but an N-node run prints only 120/N lines.
    const double perNode = static_cast<double>(topology.gpusPerNode) * batch;
    const int n = std::max(1, topology.nodes);
    return std::make_unique<StepWindowAnalyzer>(
        format, topology, batch, o, rules, nullptr,
        std::make_unique<ListSliceScript>(
            o, &ListSliceScript::perStep, perNode,
            "it averages the lines " + std::to_string(o.warmup + 1) + " to " +
                std::to_string(o.iterations) + " by their place in the log, but a " +
                std::to_string(n) + "-node run prints one line per " + std::to_string(n) +
                " steps (steps " + std::to_string(n * (o.warmup + 1)) + " to " +
                std::to_string(n * o.iterations) + ")"));
}

} // namespace

void parsePaddleRn50(std::string_view text, std::size_t, SpeedSample& s) {
    // Python logging's asctime, the first "YYYY-MM-DD HH:MM:SS,fff" in the line.
    for (std::size_t i = 0; i + 19 <= text.size(); ++i) {
        if (!isDigit(text[i]) || (i > 0 && isDigit(text[i - 1]))) continue;
        if (auto t = parseLogTimestamp(text.substr(i))) {
            s.hasTime = true;
            s.timeUs = *t;
            break;
        }
    }
    std::int64_t id = 0;
    if (readStep(text, "train batch ", ']', id)) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = id + 1; // batch ids count from 0: batch 19 ends step 20
    }
    // DLPerf's r".*elapse (.*?) sec": the last "elapse ", then up to the first " sec" after it.
    const auto at = text.rfind("elapse ");
    if (at == std::string_view::npos) return;
    const auto end = text.find(" sec", at + 7);
    if (end == std::string_view::npos) return;
    double v = 0.0;
    if (pythonFloat(text.substr(at + 7, end - at - 7), v)) {
        s.hasDlperfValue = true;
        s.dlperfValue = v;
        s.hasSpeed = true;
        s.speed = v;
    }
}

void parsePaddleBert(std::string_view text, std::size_t, SpeedSample& s) {
    std::int64_t step = 0;
    if (readStep(text, "step: ", ',', step)) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = step;
    }
    // DLPerf's r" speed: ([0-9]+\.[0-9]+) steps/s".
    constexpr std::string_view key = " speed: ";
    for (auto at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
        std::size_t i = at + key.size();
        const std::size_t first = i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == first || i >= text.size() || text[i] != '.') continue;
        const std::size_t dot = i++;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == dot + 1 || text.substr(i, 8) != " steps/s") continue;
        double v = 0.0;
        std::from_chars(text.data() + first, text.data() + i, v);
        s.hasDlperfValue = s.hasSpeed = true;
        s.dlperfValue = s.speed = v;
        return;
    }
}

bool isPaddleRn50Line(std::string_view line) {
    return line.find("train batch ") != std::string_view::npos &&
           line.find(" elapse ") != std::string_view::npos;
}

bool isPaddleBertLine(std::string_view line) {
    return line.find("progress: ") != std::string_view::npos &&
           line.find(" step: ") != std::string_view::npos &&
           line.find(" speed: ") != std::string_view::npos &&
           line.find(" steps/s") != std::string_view::npos;
}

LogFormat paddleRn50Format() {
    LogFormat f{
        "paddle-rn50",
        "PaddlePaddle",
        "PaddlePaddle/resnet50v1.5/extract_paddle_logs.py",
        "PaddlePaddle/resnet50v1.5/extract_paddle_logs_time.py",
        "images/s",
        20,
        120,
        FormatFamily::Own,
        MessageFormat{"paddle-elapse", "elapse", &parsePaddleRn50},
        -1,
        &isPaddleRn50Line,
        0,
        &makeRn50,
    };
    f.speedIsThroughput = false; // the line's number is a step time or steps/s
    return f;
}

LogFormat paddleBertFormat() {
    LogFormat f{
        "paddle-bert",
        "PaddlePaddle",
        "PaddlePaddle/bert/extract_paddle_logs.py",
        "",
        "sequences/s",
        20,
        120,
        FormatFamily::Own,
        MessageFormat{"paddle-speed", "speed:", &parsePaddleBert},
        -1,
        &isPaddleBertLine,
        0,
        &makeBert,
    };
    f.speedIsThroughput = false; // the line's number is a step time or steps/s
    return f;
}

} // namespace sv
