#include "core/parse/ratephrase.h"

#include "core/model/textscan.h"

#include <array>
#include <charconv>

namespace sv {
namespace {

using Kind = RatePhrase::Kind;

char lowerChar(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isWordChar(char c) {
    return isAlpha(c) || isDigit(c) || c == '_';
}

// Whether text starts with word, ignoring case.
bool startsWithNoCase(std::string_view text, std::string_view word) {
    if (text.size() < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (lowerChar(text[i]) != word[i]) return false;
    return true;
}
bool endsWithNoCase(std::string_view text, std::string_view word) {
    return text.size() >= word.size() &&
           startsWithNoCase(text.substr(text.size() - word.size()), word);
}

struct UnitWord {
    std::string_view text; // lower case, as a log writes it
    std::string_view unit;
    Kind kind = Kind::Rate;
    double scale = 1.0; // 1e-3 for a step time in milliseconds
};

// Units written after the number ("3203.4 samples/sec", "[imgs/sec]", "41.23K wps", "56.3it/s").
// Longer spellings first: the first that fits is taken.
constexpr std::array kUnitsAfter{
    UnitWord{"samples per second", "samples/s"},
    UnitWord{"samples/second", "samples/s"},
    UnitWord{"samples / sec", "samples/s"},
    UnitWord{"samples/sec", "samples/s"},
    UnitWord{"samples/s", "samples/s"},
    UnitWord{"sample/s", "samples/s"},
    UnitWord{"images per second", "images/s"},
    UnitWord{"images/sec", "images/s"},
    UnitWord{"images/s", "images/s"},
    UnitWord{"imgs/sec", "images/s"},
    UnitWord{"imgs/s", "images/s"},
    UnitWord{"img/sec", "images/s"},
    UnitWord{"img/s", "images/s"},
    UnitWord{"examples/second", "examples/s"},
    UnitWord{"examples/sec", "examples/s"},
    UnitWord{"examples/s", "examples/s"},
    UnitWord{"sequences/sec", "sequences/s"},
    UnitWord{"sequences/s", "sequences/s"},
    UnitWord{"seqs/s", "sequences/s"},
    UnitWord{"seq/s", "sequences/s"},
    UnitWord{"sentences/sec", "sentences/s"},
    UnitWord{"sentences/s", "sentences/s"},
    UnitWord{"tokens per second", "tokens/s"},
    UnitWord{"tokens/sec", "tokens/s"},
    UnitWord{"tokens/s", "tokens/s"},
    UnitWord{"toks/s", "tokens/s"},
    UnitWord{"tok/s", "tokens/s"},
    UnitWord{"tks/s", "tokens/s"},
    UnitWord{"words/sec", "words/s"},
    UnitWord{"words/s", "words/s"},
    UnitWord{"wps", "words/s"},
    UnitWord{"records/second", "records/s"},
    UnitWord{"record / second", "records/s"},
    UnitWord{"records/sec", "records/s"},
    UnitWord{"records/s", "records/s"},
    UnitWord{"items/sec", "items/s"},
    UnitWord{"items/s", "items/s"},
    UnitWord{"it/s", "", Kind::StepRate},
    UnitWord{"s/it", "", Kind::StepSeconds},
    // Keras: "1563/1563 [======] - 10s 6ms/step - loss: 1.52" (whole units).
    UnitWord{"ms/step", "", Kind::StepSeconds, 1e-3},
    UnitWord{"us/step", "", Kind::StepSeconds, 1e-6},
    UnitWord{"s/step", "", Kind::StepSeconds},
};

// Names written before the number ("wps=26613", "tok/s   80050", "'seq/s': 24193.0",
// "\"throughput\": 351.8", "elapsed time per iteration (ms): 613.8"). A name is matched at the
// end of the word before the number, so "train_samples_per_second" ends in "samples_per_second".
struct KeyWord {
    std::string_view text;
    std::string_view unit;
    Kind kind = Kind::Rate;
    double scale = 1.0; // 1e-3 for names that say milliseconds
    bool unitPrinted = true;
};
constexpr std::array kKeysBefore{
    KeyWord{"samples_per_second", "samples/s"},
    KeyWord{"samples_per_sec", "samples/s"},
    KeyWord{"samplespersec", "samples/s"},
    KeyWord{"samples per second", "samples/s"},
    KeyWord{"samples/sec", "samples/s"},
    KeyWord{"samples/s", "samples/s"},
    KeyWord{"sequences_per_second", "sequences/s"},
    KeyWord{"sequences per second", "sequences/s"},
    KeyWord{"seq/s", "sequences/s"},
    KeyWord{"sentences/sec)", "sentences/s"},
    KeyWord{"images_per_second", "images/s"},
    KeyWord{"images/sec", "images/s"},
    KeyWord{"img/sec", "images/s"},
    KeyWord{"img/s", "images/s"},
    KeyWord{"ips", "images/s"},
    KeyWord{"examples_per_second", "examples/s"},
    KeyWord{"examples/sec", "examples/s"},
    KeyWord{"tokens_per_second", "tokens/s"},
    KeyWord{"tokens_per_sec", "tokens/s"},
    KeyWord{"tokens per second", "tokens/s"},
    KeyWord{"tok/s", "tokens/s"},
    KeyWord{"wps", "words/s"},
    KeyWord{"throughput", "samples/s", Kind::Rate, 1.0, false},
    KeyWord{"elapsed time per iteration (ms)", "", Kind::StepSeconds, 1e-3},
    KeyWord{"ms/batch", "", Kind::StepSeconds, 1e-3},
    KeyWord{"ms/step", "", Kind::StepSeconds, 1e-3},
    KeyWord{"ms/iter", "", Kind::StepSeconds, 1e-3},
    KeyWord{"step_avg", "", Kind::StepSeconds, 1e-3},
    KeyWord{"train_step_timing", "", Kind::StepSeconds},
    KeyWord{"step_time", "", Kind::StepSeconds},
    KeyWord{"time/step", "", Kind::StepSeconds},
    KeyWord{"sec/step", "", Kind::StepSeconds},
    KeyWord{"global_step/sec", "", Kind::StepRate},
};

// The number at line[at] (digits, '.', an exponent), its end in *end.
bool readNumber(std::string_view line, std::size_t at, double& value, std::size_t& end) {
    auto [p, ec] = std::from_chars(line.data() + at, line.data() + line.size(), value,
                                   std::chars_format::general);
    if (ec != std::errc()) return false;
    end = static_cast<std::size_t>(p - line.data());
    return true;
}

// The unit written after a number that ends at `at`: blanks and one '[' skipped.
const UnitWord* unitAfter(std::string_view line, std::size_t at) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '['))
        ++at;
    const std::string_view rest = line.substr(at);
    for (const auto& u : kUnitsAfter)
        if (startsWithNoCase(rest, u.text) &&
            (rest.size() == u.text.size() || !isAlpha(rest[u.text.size()])))
            return &u;
    return nullptr;
}

// A name of the rate's own words ("train_iter_items/sec", "avg_img/sec", "eval_samples_per_second",
// "TrainSeqPerSec"): the thing counted, then per second.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kCounted{{
    {"samples", "samples/s"},
    {"sample", "samples/s"},
    {"images", "images/s"},
    {"imgs", "images/s"},
    {"img", "images/s"},
    {"examples", "examples/s"},
    {"sequences", "sequences/s"},
    {"seq", "sequences/s"},
    {"tokens", "tokens/s"},
    {"tok", "tokens/s"},
    {"items", "items/s"},
    {"records", "records/s"},
}};
const KeyWord* genericKey(std::string_view line, std::size_t end, std::size_t& tokenPos) {
    // Every such name ends in "/s", "sec", "second": most numbers of most lines stop here.
    if (end < 2 || (lowerChar(line[end - 1]) != 's' && lowerChar(line[end - 1]) != 'c' &&
                    lowerChar(line[end - 1]) != 'd'))
        return nullptr;
    std::size_t start = end;
    while (start > 0 &&
           (isWordChar(line[start - 1]) || line[start - 1] == '/' || line[start - 1] == '.'))
        --start;
    std::string name(line.substr(start, end - start));
    for (char& c : name)
        c = lowerChar(c);
    std::string_view stem;
    for (std::string_view tail : {"/sec", "/s", "_per_second", "_per_sec", "persec", "persecond"})
        if (name.size() > tail.size() && name.ends_with(tail)) {
            stem = std::string_view(name).substr(0, name.size() - tail.size());
            break;
        }
    if (stem.empty()) return nullptr;
    static const std::array kGeneric = [] {
        std::array<KeyWord, kCounted.size()> a{};
        for (std::size_t i = 0; i < kCounted.size(); ++i)
            a[i] = KeyWord{kCounted[i].first, kCounted[i].second};
        return a;
    }();
    for (std::size_t i = 0; i < kCounted.size(); ++i) {
        const std::string_view word = kCounted[i].first;
        if (!stem.ends_with(word)) continue;
        // "avg_img", "TrainSeq", "img": the counted word starts a word of the name.
        const std::size_t at = stem.size() - word.size();
        if (at > 0 && stem[at - 1] != '_' && stem[at - 1] != '/' &&
            !(line[start + at] >= 'A' && line[start + at] <= 'Z'))
            continue;
        tokenPos = start;
        return &kGeneric[i];
    }
    return nullptr;
}

// The name written before a number that starts at `at`: blanks, one ':' or '=', blanks and a
// closing quote skipped; *tokenPos is where the name starts.
const KeyWord* keyBefore(std::string_view line, std::size_t at, std::size_t& tokenPos) {
    std::size_t end = at;
    while (end > 0 && line[end - 1] == ' ')
        --end;
    bool separated = false; // "throughput: 3.06", "throughput=", "\"throughput\": "
    if (end > 0 && (line[end - 1] == ':' || line[end - 1] == '=')) {
        --end;
        separated = true;
    }
    while (end > 0 && line[end - 1] == ' ')
        --end;
    if (end > 0 && (line[end - 1] == '\'' || line[end - 1] == '"')) --end;
    const std::string_view before = line.substr(0, end);
    for (const auto& k : kKeysBefore) {
        if (!endsWithNoCase(before, k.text)) continue;
        // A bare word before a number in prose ("throughput 1234") is no report: a name that
        // says no unit must be a field's, followed by ':' or '='.
        if (!k.unitPrinted && !separated) continue;
        std::size_t start = end - k.text.size();
        // "interval_samples_per_second": the whole name is the token.
        while (start > 0 && (isWordChar(line[start - 1]) || line[start - 1] == '.'))
            --start;
        // "throughput" of "min_throughput" is a name of its own; "ips" only as a word.
        if ((k.text == "ips" || k.text == "wps") && start != end - k.text.size()) continue;
        tokenPos = start;
        return &k;
    }
    return genericKey(line, end, tokenPos);
}

} // namespace

bool isEvaluationLine(std::string_view line) {
    static constexpr std::array kWords{"eval", "valid", "translated", "inference", "test"};
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = lowerChar(line[i]);
        if (c != 'e' && c != 'v' && c != 't' && c != 'i') continue;
        for (std::string_view w : kWords)
            if (startsWithNoCase(line.substr(i), w) && (i == 0 || !isAlpha(line[i - 1])))
                return true;
    }
    return false;
}

namespace {

// A key's token up to its last word character (or ')' or '/'): "samples/sec:" -> "samples/sec".
std::string_view trimmedToken(std::string_view token) {
    while (!token.empty() && !isWordChar(token.back()) && token.back() != ')' &&
           token.back() != '/')
        token.remove_suffix(1);
    return token;
}

// The unit word after the number ending at `end`, past spaces and a '['; its position in at.
std::string_view unitToken(std::string_view line, std::size_t end, const UnitWord& unit,
                           std::size_t& at) {
    at = end;
    while (line[at] == ' ' || line[at] == '[')
        ++at;
    return line.substr(at, unit.text.size());
}

// MetricLogger's lines (maskrcnn-benchmark, DINO, torchvision's references): "eta: 0:10:47
// iter: 40 ... time: 1.6673 (1.9399) data: ...": time is the seconds of one step.
std::optional<RatePhrase> metricLoggerStep(std::string_view line) {
    const auto eta = line.find("eta: ");
    const auto time = line.find(" time: ");
    if (eta == std::string_view::npos || time == std::string_view::npos || time < eta)
        return std::nullopt;
    double value = 0.0;
    std::size_t end = 0;
    if (time + 7 >= line.size() || !isDigit(line[time + 7]) ||
        !readNumber(line, time + 7, value, end))
        return std::nullopt;
    RatePhrase p;
    p.kind = Kind::StepSeconds;
    p.value = value;
    p.token = line.substr(time + 1, 4);
    p.tokenPos = time + 1;
    return p;
}

// A step phrase (a step time or a step rate) at the number line[i..end) with its key or unit;
// none when neither names one.
std::optional<RatePhrase> stepPhrase(std::string_view line, std::size_t i, std::size_t end,
                                     RatePhrase p, const KeyWord* key, std::size_t keyPos,
                                     const UnitWord* unit) {
    if (key) {
        p.kind = key->kind;
        p.token = trimmedToken(line.substr(keyPos, i - keyPos));
        p.tokenPos = keyPos;
        // "step_avg:216.63ms": the unit glued after the number says milliseconds.
        const bool ms = end + 1 < line.size() && line[end] == 'm' && line[end + 1] == 's';
        const bool seconds = end < line.size() && line[end] == 's' &&
                             (end + 1 == line.size() || !isAlpha(line[end + 1]));
        const double factor = ms ? 1e-3 : seconds ? 1.0 : key->scale;
        p.value = key->kind == Kind::StepSeconds ? p.value * factor : p.value;
        return p;
    }
    if (unit) {
        p.kind = unit->kind;
        p.value *= unit->scale;
        p.token = unitToken(line, end, *unit, p.tokenPos);
        return p;
    }
    return std::nullopt;
}

// timm's train.py: "Time: 0.389s, 2631.57/s  (0.409s, 2503.67/s)": a number and a bare "/s"
// right after a step's seconds ("0.389s, "), the samples of the whole job per second.
bool timmRate(std::string_view line, std::size_t i, std::size_t end) {
    if (end + 2 > line.size() || line.compare(end, 2, "/s") != 0 ||
        (end + 2 < line.size() && isAlpha(line[end + 2])))
        return false;
    std::size_t j = i;
    while (j > 0 && line[j - 1] == ' ')
        --j;
    return j >= 3 && line[j - 1] == ',' && line[j - 2] == 's' && isDigit(line[j - 3]);
}

} // namespace

std::optional<RatePhrase> findRatePhrase(std::string_view line) {
    std::optional<RatePhrase> step;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (!isDigit(line[i])) continue;
        if (i > 0 && (isWordChar(line[i - 1]) || line[i - 1] == '.')) {
            while (i + 1 < line.size() && (isDigit(line[i + 1]) || line[i + 1] == '.'))
                ++i;
            continue;
        }
        double value = 0.0;
        std::size_t end = i;
        if (!readNumber(line, i, value, end)) continue;
        double scale = 1.0;
        if (end < line.size() && (line[end] == 'K' || line[end] == 'k' || line[end] == 'M') &&
            (end + 1 == line.size() || !isAlpha(line[end + 1]) ||
             startsWithNoCase(line.substr(end + 1), "it/s"))) {
            scale = line[end] == 'M' ? 1e6 : 1e3;
            ++end;
        }
        RatePhrase p;
        p.value = value * scale;
        std::size_t keyPos = 0;
        const KeyWord* key = keyBefore(line, i, keyPos);
        const UnitWord* unit = unitAfter(line, end);
        if (unit && unit->kind == Kind::Rate) {
            p.token = unitToken(line, end, *unit, p.tokenPos);
            p.unit = unit->unit;
            return p;
        }
        if (key && key->kind == Kind::Rate) {
            p.token = trimmedToken(line.substr(keyPos, i - keyPos));
            p.tokenPos = keyPos;
            p.unit = key->unit;
            p.unitPrinted = key->unitPrinted;
            return p;
        }
        if (!unit && !key && timmRate(line, i, end)) {
            p.token = line.substr(end, 2);
            p.tokenPos = end;
            p.unit = "samples/s";
            p.unitPrinted = false;
            return p;
        }
        if (!step) step = stepPhrase(line, i, end, p, key, keyPos, unit);
    }
    if (step) return step;
    return metricLoggerStep(line);
}

std::string maskNumbers(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == 0x1b) { // ESC [ ... letter
            ++i;
            if (i < line.size() && line[i] == '[')
                while (i + 1 < line.size() && !isAlpha(line[i + 1]))
                    ++i;
            ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            if (!out.empty() && out.back() != ' ') out.push_back(' ');
            continue;
        }
        if (isDigit(c)) {
            // One mark per number: digits, '.', an exponent, a K/M suffix glued to it.
            while (i + 1 < line.size() &&
                   (isDigit(line[i + 1]) || line[i + 1] == '.' ||
                    ((line[i + 1] == 'e' || line[i + 1] == 'E') && i + 2 < line.size() &&
                     (isDigit(line[i + 2]) || line[i + 2] == '-' || line[i + 2] == '+')) ||
                    ((line[i + 1] == '-' || line[i + 1] == '+') &&
                     (line[i] == 'e' || line[i] == 'E'))))
                ++i;
            if (out.empty() || out.back() != '#') out.push_back('#');
            continue;
        }
        out.push_back(c);
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

} // namespace sv
