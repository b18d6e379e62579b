#include "core/formats/tf2.h"
#include "core/model/textscan.h"

#include "core/model/numerics.h"
#include "core/measure/stepwindowanalyzer.h"

#include <charconv>
#include <cmath>

namespace sv {
namespace {

constexpr std::int64_t kDayUs = std::int64_t{86400} * 1000000;

// 1 or 2 digits at pos (greedy, backing off to 1 as a regex does when the next token fails).
int digitsAt(std::string_view s, std::size_t pos, int most) {
    int n = 0;
    while (n < most && pos + n < s.size() && isDigit(s[pos + n]))
        ++n;
    return n;
}

std::int64_t number(std::string_view s, std::size_t pos, int n) {
    std::int64_t v = 0;
    for (int i = 0; i < n; ++i)
        v = v * 10 + (s[pos + i] - '0');
    return v;
}

// DLPerf's r"(\d{1,2}:\d{1,2}:\d{1,2}.\d{1,6})", first match, read by strptime("%H:%M:%S.%f"):
// microseconds since midnight, or nullopt where there is no match or strptime would refuse it.
std::optional<std::int64_t> timeOfDay(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!isDigit(s[i])) continue;
        for (int h = digitsAt(s, i, 2); h >= 1; --h) {
            std::size_t p = i + h;
            if (p >= s.size() || s[p] != ':') continue;
            const int m = digitsAt(s, ++p, 2);
            if (m == 0 || p + m >= s.size() || s[p + m] != ':') continue;
            const std::size_t sp = p + m + 1;
            const int sec = digitsAt(s, sp, 2);
            if (sec == 0 || sp + sec + 1 >= s.size()) continue;
            const std::size_t fp = sp + sec + 1;
            const int f = digitsAt(s, fp, 6);
            if (f == 0) continue;
            // A match: strptime needs the '.' and hours, minutes and seconds in range.
            const std::int64_t H = number(s, i, h), M = number(s, p, m), S = number(s, sp, sec);
            if (s[sp + sec] != '.' || H > 23 || M > 59 || S > 61) return std::nullopt;
            std::int64_t frac = number(s, fp, f);
            for (int k = f; k < 6; ++k)
                frac *= 10;
            return ((H * 60 + M) * 60 + S) * 1000000 + frac;
        }
    }
    return std::nullopt;
}

// absl's "I0915 " prefix gives the day (month and day, no year): the time of day plus that day,
// so that a run across midnight keeps going forward.
void readAbslTime(std::string_view s, SpeedSample& sample) {
    const auto tod = timeOfDay(s);
    if (!tod) return;
    sample.hasTime = true;
    sample.timeUs = *tod;
    if (s.size() > 5 && (s[0] == 'I' || s[0] == 'W' || s[0] == 'E' || s[0] == 'F') &&
        digitsAt(s, 1, 4) == 4 && s[5] == ' ') {
        const std::int64_t month = number(s, 1, 2), day = number(s, 3, 2);
        if (month >= 1 && month <= 12 && day >= 1 && day <= 31)
            sample.timeUs += ((month - 1) * 31 + (day - 1)) * kDayUs;
    }
}

std::int64_t dayTime(std::int64_t us) {
    return ((us % kDayUs) + kDayUs) % kDayUs;
}

// The time scripts: the global batch over the time of day between the marker lines number
// `from` and `to` (1-based), per (I - W) steps; no date, so a run across midnight goes negative.
class TimeOfDayScript : public TwoLineTimeScript {
  public:
    TimeOfDayScript(std::int64_t globalBatch, MeasureOptions o, int from, int to, std::string quirk)
        : TwoLineTimeScript(globalBatch, o, "time of day"), m_from(from), m_to(to),
          m_quirk(std::move(quirk)) {}
    void add(const SpeedSample& s) override {
        if (over()) return;
        ++m_lines;
        if (m_lines == m_from) return start(s, dayTime(s.timeUs));
        if (m_lines == m_to) end(s, dayTime(s.timeUs));
    }
    std::string quirk() const override { return m_quirk; }

  private:
    int m_from, m_to;
    std::string m_quirk;
    int m_lines = 0;
};

// TF2 ResNet-50's extract_tensorflow_logs.py: every TimeHistory line's rate (its regex must
// match, or it stops), the mean of list[from:to] rounded to 2.
class WindowRatesScript : public DlperfReplica {
  public:
    WindowRatesScript(int from, int to) : m_from(from), m_to(to) {}
    void add(const SpeedSample& s) override {
        if (failed()) return;
        if (!s.hasDlperfValue)
            fail(s.line, "its regex finds no rate");
        else
            m_rates.push_back(s.dlperfValue);
    }
    std::string quirk() const override {
        return "it averages the TimeHistory lines " + std::to_string(m_from + 1) + " to " +
               std::to_string(m_to) + " by their place in the log";
    }

  private:
    double figureRead() const override { return dlperfSliceMean(m_rates, m_from, m_to); }

    int m_from, m_to;
    std::vector<double> m_rates;
};

// An S1 script whose assert fails prints nothing.
class RefusedScript : public DlperfReplica {
  public:
    explicit RefusedScript(std::string why) : m_why(why) { refuse(std::move(why)); }
    void add(const SpeedSample&) override {}
    std::string quirk() const override { return m_why; }

  private:
    double figureRead() const override { return 0.0; } // never: it refused

    std::string m_why;
};

std::unique_ptr<FormatAnalyzer> makeRn50(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions o) {
    const std::int64_t global = static_cast<std::int64_t>(batch) * topology.ranks();
    StepWindowRules rules;
    rules.datelessClock = true;
    const int from = o.warmup <= 100 ? 1 : o.warmup / 100, to = o.iterations / 100;
    std::unique_ptr<DlperfReplica> time, speed;
    if (o.warmup % 100 != 0) {
        const std::string why = "(its assert: warmup must be a multiple of 100)";
        time = std::make_unique<RefusedScript>(why);
        speed = std::make_unique<RefusedScript>(why);
    } else {
        time = std::make_unique<TimeOfDayScript>(
            global, o, from, to,
            "it reads the time of day (no date) of TimeHistory lines " + std::to_string(from) +
                " and " + std::to_string(to) + " by their place in the log");
        speed = std::make_unique<WindowRatesScript>(from, to);
    }
    return std::make_unique<StepWindowAnalyzer>(format, topology, batch, o, rules, std::move(time),
                                                std::move(speed));
}

std::unique_ptr<FormatAnalyzer> makeBert(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions o) {
    const std::int64_t global = static_cast<std::int64_t>(batch) * topology.ranks();
    StepWindowRules rules;
    rules.datelessClock = true;
    rules.speedMethod = false;
    const int from = o.warmup <= 20 ? 20 : o.warmup;
    auto time = std::make_unique<TimeOfDayScript>(
        global, o, from, o.iterations,
        "it reads the time of day (no date) of \"Train Step:\" lines " + std::to_string(from) +
            " and " + std::to_string(o.iterations) + " by their place in the log, starting at " +
            "line 20 at the earliest while dividing by " + std::to_string(o.iterations - o.warmup) +
            " steps");
    return std::make_unique<StepWindowAnalyzer>(format, topology, batch, o, rules, std::move(time),
                                                nullptr);
}

// The number after `key` (ScaleView's reading): from_chars, any float form.
bool numberAfter(std::string_view text, std::size_t at, double& v) {
    auto [p, ec] = std::from_chars(text.data() + at, text.data() + text.size(), v);
    return ec == std::errc();
}

} // namespace

void parseTf2Rn50(std::string_view text, std::size_t, SpeedSample& s) {
    readAbslTime(text, s);
    // "... seconds, Y examples/second between steps A and B"
    constexpr std::string_view rateKey = " examples/second";
    const auto at = text.find(rateKey);
    if (at != std::string_view::npos) {
        const auto comma = text.rfind(", ", at);
        double v = 0.0;
        if (comma != std::string_view::npos && numberAfter(text, comma + 2, v)) {
            s.hasSpeed = true;
            s.speed = v;
        }
        // DLPerf's r'\, (\d+.\d+) examples/second ': digits, one character, digits, then float().
        if (comma != std::string_view::npos) {
            const std::string_view num = text.substr(comma + 2, at - comma - 2);
            std::size_t i = 0;
            while (i < num.size() && isDigit(num[i]))
                ++i;
            const std::size_t sep = i;
            std::size_t j = sep + 1;
            while (j < num.size() && isDigit(num[j]))
                ++j;
            double dl = 0.0;
            if (sep > 0 && sep < num.size() && j == num.size() && j > sep + 1 && num[sep] == '.' &&
                at + rateKey.size() < text.size() && text[at + rateKey.size()] == ' ' &&
                numberAfter(num, 0, dl)) {
                s.hasDlperfValue = true;
                s.dlperfValue = dl;
            }
        }
    }
    constexpr std::string_view stepsKey = "between steps ";
    if (const auto b = text.find(stepsKey); b != std::string_view::npos) {
        std::size_t p = b + stepsKey.size();
        const int n1 = digitsAt(text, p, 15);
        const std::size_t and_ = p + n1;
        if (n1 > 0 && text.substr(and_, 5) == " and ") {
            const int n2 = digitsAt(text, and_ + 5, 15);
            if (n2 > 0) {
                s.hasIteration = true;
                s.batchFirst = number(text, p, n1);
                s.batchLast = number(text, and_ + 5, n2);
            }
        }
    }
}

void parseTf2Bert(std::string_view text, std::size_t, SpeedSample& s) {
    readAbslTime(text, s);
    constexpr std::string_view key = "Train Step: ";
    if (const auto at = text.find(key); at != std::string_view::npos) {
        const int n = digitsAt(text, at + key.size(), 15);
        if (n > 0 && at + key.size() + n < text.size() && text[at + key.size() + n] == '/') {
            s.hasIteration = true;
            s.batchFirst = s.batchLast = number(text, at + key.size(), n);
        }
    }
}

bool isTf2Rn50Line(std::string_view line) {
    return line.find("TimeHistory: ") != std::string_view::npos &&
           line.find(" examples/second between steps ") != std::string_view::npos;
}

bool isTf2BertLine(std::string_view line) {
    return line.find("] Train Step: ") != std::string_view::npos &&
           line.find("/ loss = ") != std::string_view::npos;
}

LogFormat tf2Rn50Format() {
    LogFormat f{
        "tf2-rn50",
        "TensorFlow 2",
        "TensorFlow/resnet50v1.5/extract_tensorflow_logs.py",
        "TensorFlow/resnet50v1.5/extract_tensorflow_logs_time.py",
        "images/s",
        100,
        600,
        FormatFamily::Own,
        MessageFormat{"absl-timehistory", "TimeHistory", &parseTf2Rn50},
        -1,
        &isTf2Rn50Line,
        0,
        &makeRn50,
    };
    f.traceStepSpans = true; // TimeHistory: "between steps 0 and 100"
    return f;
}

LogFormat tf2BertFormat() {
    return LogFormat{
        "tf2-bert",
        "TensorFlow 2",
        "",
        "TensorFlow/bert/extract_tensorflow_logs_time.py",
        "sequences/s",
        20,
        120,
        FormatFamily::Own,
        MessageFormat{"absl-train-step", "Train Step:", &parseTf2Bert},
        -1,
        &isTf2BertLine,
        0,
        &makeBert,
    };
}

} // namespace sv
