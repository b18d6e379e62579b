#include "core/formats/insightfaceoneflow.h"

#include "core/measure/insightfaceanalyzer.h"
#include "core/model/numerics.h"
#include "core/model/textscan.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

namespace sv {
namespace {

// Python's str.strip() on ASCII.
std::string_view strip(std::string_view t) {
    constexpr std::string_view space = " \t\n\r\f\v";
    const auto first = t.find_first_not_of(space);
    if (first == std::string_view::npos) return {};
    return t.substr(first, t.find_last_not_of(space) - first + 1);
}

// Digits with single underscores between them (Python's numeric literals), underscores dropped;
// false where an underscore is not between two digits.
bool dropUnderscores(std::string_view t, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '_') {
            out += t[i];
            continue;
        }
        if (i == 0 || i + 1 == t.size() || !isDigit(t[i - 1]) || !isDigit(t[i + 1])) return false;
    }
    return true;
}

// Python's int(text): blanks around, a sign, digits (underscores between them).
bool pythonInt(std::string_view text, std::int64_t& out) {
    // Plain digits, as every line has them: no copy.
    if (!text.empty() && text.size() <= 18 && isDigit(text.front())) {
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec == std::errc() && p == text.data() + text.size()) return true;
    }
    std::string digits;
    text = strip(text);
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || !dropUnderscores(text, digits)) return false;
    for (char c : digits)
        if (!isDigit(c)) return false;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    if (ec == std::errc::result_out_of_range) // Python's ints have no bound; past int64's, huge
        out = std::numeric_limits<std::int64_t>::max();
    if (negative) out = -out;
    return true;
}

// Python's float(text): blanks around, a sign, a decimal or inf/infinity/nan in any case.
bool pythonFloat(std::string_view text, double& out) {
    // A plain decimal, as every line has it: no copy.
    if (!text.empty() && isDigit(text.front())) {
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        if (ec == std::errc() && p == text.data() + text.size()) return true;
    }
    std::string body;
    text = strip(text);
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || text.find('(') != std::string_view::npos || text[0] == '+' ||
        text[0] == '-' || !dropUnderscores(text, body))
        return false;
    auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), out);
    if (p != body.data() + body.size()) return false;
    if (ec == std::errc::result_out_of_range) {
        // Past the double's range: inf, or 0 for a tiny value (a negative exponent, or no
        // nonzero digit before the point).
        const auto e = body.find_first_of("eE");
        const std::string_view mantissa = std::string_view(body).substr(0, e);
        const bool tiny =
            (e != std::string::npos && body.size() > e + 1 && body[e + 1] == '-') ||
            mantissa.substr(0, mantissa.find('.')).find_first_not_of('0') == std::string_view::npos;
        out = tiny ? 0.0 : HUGE_VAL;
    } else if (ec != std::errc()) {
        return false;
    }
    if (negative) out = -out;
    return true;
}

bool isOneflowFaceLine(std::string_view line) {
    const auto at = line.find("train: iter ");
    return at != std::string_view::npos && line.find(", loss ", at) != std::string_view::npos &&
           line.find(", throughput: ", at) != std::string_view::npos;
}

// extract_oneflow_logs_time.py: the lines of iterations above 5, counted from 1; the throughputs
// of its lines W to I, both included (101 values with 20/120), averaged and rounded to 2; a log
// that never reaches its line I records 0.
class SkipFiveScript : public DlperfReplica {
  public:
    explicit SkipFiveScript(MeasureOptions o) : m_opt(o) {}
    void add(const SpeedSample& s) override {
        if (m_done || failed()) return;
        if (!s.hasIteration) return fail(s.line, "int() of its iteration fails");
        if (s.batchLast <= 5) return;
        ++m_lines;
        if (m_lines < m_opt.warmup) return;
        if (!s.hasDlperfValue) return fail(s.line, "float() of its throughput fails");
        if (m_values.empty()) m_firstIteration = s.batchLast;
        m_values.push_back(s.dlperfValue);
        if (m_lines == m_opt.iterations) {
            m_done = true;
            m_lastIteration = s.batchLast;
            m_figure = roundNumpy2(numpyMean(m_values));
        }
    }
    std::string quirk() const override {
        if (!m_done)
            return "after skipping iterations 0 to 5 it finds " + std::to_string(m_lines) +
                   " of its " + std::to_string(m_opt.iterations) + " lines";
        return "it skips iterations 0 to 5 and averages its lines " + std::to_string(m_opt.warmup) +
               " to " + std::to_string(m_opt.iterations) +
               " both included: " + std::to_string(m_values.size()) + " values (iterations " +
               std::to_string(m_firstIteration) + " to " + std::to_string(m_lastIteration) +
               "), not the " + std::to_string(m_opt.iterations - m_opt.warmup) +
               " iterations after " + std::to_string(m_opt.warmup);
    }

  private:
    // 0 where its line I never comes.
    double figureRead() const override { return m_done ? m_figure : 0.0; }

    MeasureOptions m_opt;
    std::int64_t m_lines = 0;
    std::vector<double> m_values;
    std::int64_t m_firstIteration = 0, m_lastIteration = 0;
    bool m_done = false;
    double m_figure = 0.0;
};

std::unique_ptr<FormatAnalyzer> makeOneflowFace(const LogFormat& format, Topology topology,
                                                int batch, MeasureOptions o) {
    return std::make_unique<InsightfaceAnalyzer>(format, topology, batch, o, false,
                                                 std::make_unique<SkipFiveScript>(o), nullptr);
}

// TrainMetric's usual line, "train: iter N, loss L, throughput: T" (N up to 18 digits, L digits
// and points, T digits, a point and digits to the line's end), in one pass: what
// parseOneflowFaceLine's general reading gives it (no other ", loss" or "throughput: " can be
// there). False, with s untouched, for any other line.
bool oneflowFaceUsualLine(std::string_view text, SpeedSample& s) {
    LineCursor c(text);
    std::int64_t iteration = 0;
    if (!c.literal("train: iter ") || !c.count(iteration, 18) || !c.literal(", loss "))
        return false;
    c.skipDigitsAndPoints();
    if (!c.literal(", throughput: ")) return false;
    // pythonFloat's plain case, "\d+\.\d+" to the end: its value as the cursor read it where
    // readDouble's fast path gives that, readDouble's otherwise.
    const char *first = nullptr, *point = nullptr;
    double v = 0.0;
    bool fast = false;
    if (!c.pointDecimal(first, point, v, fast) || !c.atEnd()) return false;
    if (!fast) {
        const auto [end, ec] = readDouble(first, c.end, v);
        if (ec != std::errc() || end != c.end) return false;
    }
    s.hasIteration = true;
    s.batchFirst = s.batchLast = iteration;
    s.hasSpeed = s.hasDlperfValue = true;
    s.speed = s.dlperfValue = v;
    return true;
}

} // namespace

void parseOneflowFaceLine(std::string_view text, std::size_t, SpeedSample& s) {
    if (oneflowFaceUsualLine(text, s)) return;
    // DLPerf's r"train: iter (.*), loss": from the first "train: iter " to the last ", loss".
    constexpr std::string_view iterKey = "train: iter ";
    if (const auto at = text.find(iterKey); at != std::string_view::npos) {
        const std::size_t from = at + iterKey.size();
        // The last ", loss", found forwards (rfind compares byte by byte, backwards).
        auto loss = text.find(", loss", from);
        for (auto next = loss; next != std::string_view::npos; next = text.find(", loss", next + 1))
            loss = next;
        std::int64_t iteration = 0;
        if (loss != std::string_view::npos && loss >= from &&
            pythonInt(text.substr(from, loss - from), iteration)) {
            s.hasIteration = true;
            s.batchFirst = s.batchLast = iteration;
        }
    }
    // r"throughput: (.*)" with re.S: the rest of the line after the first "throughput: ".
    constexpr std::string_view rateKey = "throughput: ";
    if (const auto at = text.find(rateKey); at != std::string_view::npos) {
        double v = 0.0;
        if (pythonFloat(text.substr(at + rateKey.size()), v)) {
            s.hasSpeed = s.hasDlperfValue = true;
            s.speed = s.dlperfValue = v;
        }
    }
}

LogFormat oneflowInsightfaceFormat() {
    return {.id = "oneflow-insightface",
            .framework = "OneFlow InsightFace",
            .speedScript = "",
            .timeScript = "OneFlow/Recognition/insightface/extract_oneflow_logs_time.py",
            .unit = "samples/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message =
                MessageFormat{"oneflow-face-throughput", "train: iter", &parseOneflowFaceLine},
            .detect = &isOneflowFaceLine,
            .makeAnalyzer = &makeOneflowFace,
            .timeScriptNumpyFigures = true};
}

} // namespace sv
