#include "core/formats/ngctfbert.h"
#include "core/model/textscan.h"

#include "core/parse/dlloggerline.h"
#include "core/model/numerics.h"
#include "core/measure/stepwindowanalyzer.h"

#include <charconv>
#include <cmath>

namespace sv {
namespace {

constexpr const char* kMultiplesOf10 =
    "(its assert: warmup and iterations must be multiples of 10)";

bool multiplesOf10(const MeasureOptions& o) {
    return o.warmup % 10 == 0 && o.iterations % 10 == 0;
}

// extract_tensorflow_logs_time.py: the last line holding "Iteration: W" before the first holding
// "Iteration: I" (substrings: "Iteration: 10" is also in "Iteration: 100"), the global batch over
// their timestamps' difference per (I - W) steps, rounded to 2; 0 where line I never comes.
class TimeScript : public TwoLineTimeScript {
  public:
    TimeScript(std::int64_t globalBatch, MeasureOptions o)
        : TwoLineTimeScript(globalBatch, o, "timestamp"), m_w(std::to_string(o.warmup)),
          m_i(std::to_string(o.iterations)) {
        if (!multiplesOf10(o)) refuse(kMultiplesOf10);
    }

    void add(const SpeedSample& s) override {
        if (over()) return;
        const std::string digits = s.hasIteration ? std::to_string(s.batchFirst) : std::string();
        if (!digits.empty() && digits.rfind(m_w, 0) == 0) return start(s, s.timeUs);
        if (digits.empty() || digits.rfind(m_i, 0) != 0) return;
        if (!started()) return fail(s.line, "no \"Iteration: " + m_w + "\" line before it");
        end(s, s.timeUs);
    }
    std::string quirk() const override {
        return "it finds its lines by the substrings \"Iteration: " + m_w +
               "\" and \"Iteration: " + m_i + "\", so its start is line " +
               std::to_string(startLine()) + " (the last " + "holding \"Iteration: " + m_w +
               "\", such as Iteration: " + m_w + "0) and its end line " + std::to_string(endLine());
    }

  private:
    std::string m_w, m_i;
};

// extract_tensorflow_logs.py: the rates of the lines whose iteration ends in 0 (its
// r'Iteration\: (\d+)0 ', so not step 1), the mean of list[max(20, W)/10 : I/10], rounded to 2.
class SpeedScript : public DlperfReplica {
  public:
    explicit SpeedScript(MeasureOptions o) : m_opt(o) {
        if (!multiplesOf10(o)) refuse(kMultiplesOf10);
    }
    void add(const SpeedSample& s) override {
        if (s.hasDlperfValue) m_rates.push_back(s.dlperfValue);
    }
    std::string quirk() const override {
        return "it averages its list of rates from index max(20, warmup)/10 = " +
               std::to_string(std::max(20, m_opt.warmup) / 10) + " to " +
               std::to_string(m_opt.iterations / 10) +
               ", counting only lines whose iteration ends in 0";
    }

  private:
    double figureRead() const override {
        return dlperfSliceMean(m_rates, std::max(20, m_opt.warmup) / 10, m_opt.iterations / 10);
    }

    MeasureOptions m_opt;
    std::vector<double> m_rates;
};

std::unique_ptr<FormatAnalyzer> makeAnalyzer(const LogFormat& format, Topology topology, int batch,
                                             MeasureOptions options) {
    const std::int64_t global = static_cast<std::int64_t>(batch) * topology.ranks();
    return std::make_unique<StepWindowAnalyzer>(format, topology, batch, options, StepWindowRules{},
                                                std::make_unique<TimeScript>(global, options),
                                                std::make_unique<SpeedScript>(options));
}

} // namespace

void parseNgcTfBert(std::string_view text, std::size_t, SpeedSample& s) {
    readDllTime(text, s);
    bool tensLine = false; // DLPerf's r'Iteration\: (\d+)0 '
    if (const auto at = text.find("Iteration: "); at != std::string_view::npos) {
        std::size_t i = at + 11;
        const std::size_t first = i;
        std::int64_t n = 0;
        while (i < text.size() && isDigit(text[i]) && i - first < 15)
            n = n * 10 + (text[i++] - '0');
        if (i > first && !(i < text.size() && isDigit(text[i]))) {
            s.hasIteration = true;
            s.batchFirst = s.batchLast = n;
            tensLine = i - first >= 2 && text[i - 1] == '0' && i < text.size() && text[i] == ' ';
        }
    }
    constexpr std::string_view key = "throughput_train : ";
    const auto at = text.find(key);
    if (at == std::string_view::npos) return;
    const std::size_t start = at + key.size();
    double v = 0.0;
    auto [p, ec] = std::from_chars(text.data() + start, text.data() + text.size(), v);
    if (ec == std::errc()) {
        s.hasSpeed = true;
        s.speed = v;
    }
    // DLPerf's r'throughput_train \: (\d+\.\d+) seq/s'.
    std::size_t i = start;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    const std::size_t dot = i;
    if (dot == start || dot >= text.size() || text[dot] != '.') return;
    ++i;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    if (i == dot + 1 || text.substr(i, 6) != " seq/s") return;
    double dl = 0.0;
    std::from_chars(text.data() + start, text.data() + i, dl);
    s.hasDlperfValue = tensLine;
    s.dlperfValue = dl;
}

bool isNgcTfBertLine(std::string_view line) {
    return line.find("DLL ") != std::string_view::npos &&
           line.find("Iteration: ") != std::string_view::npos &&
           line.find(" throughput_train : ") != std::string_view::npos;
}

LogFormat ngcTfBertFormat() {
    return LogFormat{
        "ngc-tf-bert",
        "NGC TensorFlow 1",
        "NVIDIADeepLearningExamples/TensorFlow/LanguageModeling/BERT/extract_tensorflow_logs.py",
        "NVIDIADeepLearningExamples/TensorFlow/LanguageModeling/BERT/"
        "extract_tensorflow_logs_time.py",
        "sequences/s",
        20,
        120,
        FormatFamily::Own,
        MessageFormat{"dll-tf-bert", " throughput_train ", &parseNgcTfBert},
        -1,
        &isNgcTfBertLine,
        0,
        &makeAnalyzer,
        4,
    };
}

} // namespace sv
