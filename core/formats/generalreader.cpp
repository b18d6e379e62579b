#include "core/formats/generalreader.h"

#include "core/measure/steadystateanalyzer.h"
#include "core/model/numerics.h"
#include "core/model/textscan.h"
#include "core/parse/lineformat.h"
#include "core/parse/ratephrase.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>

namespace sv {
namespace {

using Kind = RatePhrase::Kind;

// One series the general reader reads: its template, its words, and how a value becomes a rate.
struct GeneralSpec {
    std::string id, unit, marker, templ;
    Kind kind = Kind::Rate;
    double globalBatch = 0.0; // for step times and step rates, when the log states it
    LogFormat format;
};

std::mutex& specMutex() {
    static std::mutex m;
    return m;
}
// Never shrinks: the formats' string views and contexts point into it for the program's life.
std::deque<GeneralSpec>& specs() {
    static std::deque<GeneralSpec> s;
    return s;
}

// The line as the parser hands it to a format: the last '\r' segment, no launcher tag.
std::string_view untagged(std::string_view text, int* rank = nullptr) {
    text = terminalLine(text);
    while (!text.empty() && text.front() == 0x1b) { // leading colour codes
        const auto m = text.find('m');
        if (m == std::string_view::npos) break;
        text.remove_prefix(m + 1);
    }
    if (mayHaveTag(text))
        for (const TagFormat& tag : tagFormats()) {
            int r = -1;
            std::size_t len = 0;
            if (tag.match(text, r, len)) {
                if (rank) *rank = r;
                text.remove_prefix(len);
                break;
            }
        }
    return text;
}

// The template of a report line: MLPerf's records by their key (the text before "value"), other
// lines with their numbers masked.
std::string templateOf(std::string_view text) {
    if (contains(text, ":::MLLOG")) {
        const auto v = text.find("\"value\"");
        if (v != std::string_view::npos) text = text.substr(0, v);
    }
    std::string t = maskNumbers(text);
    // A tqdm bar's glyphs ("45%|████▌     |") grow with every report: one template for them all.
    if (const auto open = t.find("%|"); open != std::string::npos)
        if (const auto close = t.find('|', open + 2); close != std::string::npos)
            t.replace(open + 2, close - open - 2, "#");
    return t;
}

// MLPerf's "key": "throughput" record: the value after "value".
std::optional<RatePhrase> mllogThroughput(std::string_view text) {
    const auto k = text.find("\"key\": \"throughput\"");
    if (k == std::string_view::npos) return std::nullopt;
    const auto v = text.find("\"value\": ", k);
    if (v == std::string_view::npos) return std::nullopt;
    double value = 0.0;
    const char* first = text.data() + v + 9;
    auto [p, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec != std::errc()) return std::nullopt;
    RatePhrase r;
    r.value = value;
    r.token = text.substr(k, 19);
    r.tokenPos = k;
    r.unit = "samples/s";
    r.unitPrinted = false;
    return r;
}

std::optional<RatePhrase> phraseOf(std::string_view text) {
    if (auto r = mllogThroughput(text)) return r;
    return findRatePhrase(text);
}

void parseGeneral(const void* context, std::string_view text, std::size_t, SpeedSample& s) {
    const auto& spec = *static_cast<const GeneralSpec*>(context);
    // tqdm's bars joined by '\r': the parser keeps the line from the first bar with the marker
    // on; the template was taken of the last bar, what a terminal shows.
    text = terminalLine(text);
    if (templateOf(text) != spec.templ) return;
    const auto phrase = phraseOf(text);
    if (!phrase || phrase->token != spec.marker || !std::isfinite(phrase->value) ||
        phrase->value <= 0.0)
        return;
    double v = phrase->value;
    if (spec.kind == Kind::StepRate)
        v = spec.globalBatch > 0 ? v * spec.globalBatch : 1.0 / v;
    else if (spec.kind == Kind::StepSeconds && spec.globalBatch > 0)
        v = spec.globalBatch / v;
    s.hasSpeed = true;
    s.speed = v;
    s.hasIteration = true;
    s.batchFirst = s.batchLast = s.line;
}

void parseNothing(std::string_view, std::size_t, SpeedSample&) {}

// A batch size that says in its own words it spans all devices, as a product of integers or
// one: modded-nanogpt prints its script, "batch_size : int = 8*64 # batch size, in sequences,
// across all devices". The first such line in head; 0 where none.
double batchAcrossAllDevices(std::string_view head, std::string* evidence) {
    for (auto at = head.find("across all devices"); at != std::string_view::npos;
         at = head.find("across all devices", at + 1)) {
        const auto start =
            head.rfind('\n', at) == std::string_view::npos ? 0 : head.rfind('\n', at) + 1;
        const std::string_view line = head.substr(start, at - start);
        const auto name = line.find("batch_size");
        const auto eq = line.find('=', name == std::string_view::npos ? 0 : name);
        if (name == std::string_view::npos || eq == std::string_view::npos ||
            (name > 0 && line[name - 1] != ' ' && line[name - 1] != '\t'))
            continue;
        double product = 1.0;
        std::size_t i = eq + 1, factors = 0;
        for (;;) {
            while (i < line.size() && line[i] == ' ')
                ++i;
            int v = 0;
            auto [p, ec] = std::from_chars(line.data() + i, line.data() + line.size(), v);
            if (ec != std::errc() || v < 1) break;
            product *= v;
            ++factors;
            i = static_cast<std::size_t>(p - line.data());
            while (i < line.size() && line[i] == ' ')
                ++i;
            if (i >= line.size() || line[i] != '*') break;
            ++i;
        }
        while (i < line.size() && line[i] == ' ')
            ++i;
        // Nothing but a comment after the figure: "= 8*64 # ...".
        if (factors == 0 || i >= line.size() || line[i] != '#' || product > 1e9) continue;
        if (evidence)
            *evidence = "batch_size " + std::string(trimBlanks(line.substr(eq + 1, i - eq - 1))) +
                        " (across all devices)";
        return product;
    }
    return 0.0;
}

// "global batch size: 256", "global_batch_size ...... 256", "train_batch_size": 64 (DeepSpeed's
// is global), MLPerf's global_batch_size: the first in head; else a batch across all devices.
double statedGlobalBatch(std::string_view head, std::string* evidence) {
    // maskrcnn-benchmark's SOLVER.IMS_PER_BATCH is the images of a step over all GPUs; the log
    // prints it in its Namespace's opts ('SOLVER.IMS_PER_BATCH', '160').
    // MLPerf v0.5's ":::MLPv0.5.0 ncf ... (ncf.py:312) input_batch_size: 1048576" is the batch
    // of a step over all GPUs, as MLPerf's rules state batch sizes.
    // HuggingFace's Trainer: "Total train batch size (w. parallel, distributed & accumulation)
    // = 32", the samples of one optimisation step, what its tqdm bar counts.
    static constexpr std::array<std::string_view, 7> kNames{
        "global batch size",
        "global_batch_size",
        "\"train_batch_size\"",
        "total batch size",
        "SOLVER.IMS_PER_BATCH",
        ") input_batch_size",
        "Total train batch size (w. parallel, distributed & accumulation)"};
    std::size_t best = std::string_view::npos;
    double value = 0.0;
    for (std::string_view name : kNames) {
        for (auto at = head.find(name); at != std::string_view::npos && at < best;
             at = head.find(name, at + 1)) {
            std::size_t i = at + name.size();
            while (i < head.size() &&
                   (head[i] == ' ' || head[i] == '.' || head[i] == ':' || head[i] == '=' ||
                    head[i] == '"' || head[i] == ',' || head[i] == '\''))
                ++i;
            // MLPerf: "key": "global_batch_size", "value": 256
            if (head.substr(i, 8) == "value\": ") i += 8;
            double v = 0.0;
            auto [p, ec] = std::from_chars(head.data() + i, head.data() + head.size(), v);
            if (ec != std::errc() || v < 1.0) continue;
            best = at;
            value = v;
            if (evidence)
                // "global_batch_size 256", not the dump's dots or the opts' quotes.
                *evidence =
                    std::string(name[0] == '"'   ? name.substr(1, name.size() - 2)
                                : name[0] == ')' ? name.substr(2)
                                                 : name) +
                    " " +
                    std::string(head.substr(i, static_cast<std::size_t>(p - (head.data() + i))));
            break;
        }
    }
    return value > 0.0 ? value : batchAcrossAllDevices(head, evidence);
}

// Whether a report line says its rate is one device's ("245.3 img/sec per GPU").
bool saysPerDevice(std::string_view text) {
    std::string l(text);
    for (char& c : l)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return contains(l, "per gpu") || contains(l, "per device") || contains(l, "/gpu") ||
           contains(l, "per_gpu") || contains(l, "per_device");
}

// What the words of a report line say of its scope.
std::string scopeOf(std::string_view text, bool mlperf, bool globalBatch) {
    std::string l(text);
    for (char& c : l)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (saysPerDevice(text))
        return "per device (the line says so): the job's figure is it times the GPUs";
    if (mlperf) return "the whole job (MLPerf's figures are the system's)";
    if (globalBatch) return "the whole job (the global batch over the step time)";
    if (contains(l, "total") || contains(l, "global") || contains(l, " gpu(s)") ||
        contains(l, "all ranks"))
        return "the whole job (the line says so)";
    return "not said: per device or the whole job cannot be told from the line";
}

bool summaryWords(std::string_view text) {
    std::string l(text);
    for (char& c : l)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view w : {"total", "average", "avg", "overall", "summary", "final",
                               "training throughput", "training_sequences_per_second"})
        if (contains(l, w)) return true;
    return false;
}

// Lines that are code, not output: a format string or a call that prints a rate.
bool looksLikeCode(std::string_view text) {
    if (contains(text, ":::MLL")) return false;
    for (std::string_view w : {"print(", ".format(", "{:", "(f\"", "(f'", " f\"", " f'",
                               "logger.info(", "log_dict(", "%.", "%d", "%s", "def "})
        if (contains(text, w)) return true;
    return false;
}

// An evaluation's rate: its name says so ("eval_throughput", "Validation ... Throughput is"), or
// the words before it do and none says training ("| Translated 3003 sentences ... tokens/s").
bool isEvaluationRate(std::string_view text, const RatePhrase& phrase) {
    if (isEvaluationLine(phrase.token)) return true;
    const std::string_view before = text.substr(0, phrase.tokenPos);
    if (!isEvaluationLine(before)) return false;
    std::string l(before);
    for (char& c : l)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return !contains(l, "train");
}

struct Series {
    std::string templ;
    RatePhrase phrase; // of its first line (token and unit views into firstText)
    std::string firstText;
    std::int64_t firstLine = 0, lastLine = 0;
    int count = 0;
    bool evaluation = false, summary = false, mlperf = false;
    // A step time whose own lines state the global batch (Megatron's "elapsed time per iteration
    // (ms): 484.7 | ... | global batch size: 256"): the trainer's whole step, wall clock.
    bool batchedSteps = false;
};

bool statesGlobalBatch(std::string_view text) {
    return contains(text, "global batch size") || contains(text, "global_batch_size");
}

std::string hex8(std::size_t h) {
    static const char* digits = "0123456789abcdef";
    std::string s(8, '0');
    for (int i = 7; i >= 0; --i, h >>= 4)
        s[static_cast<std::size_t>(i)] = digits[h & 15];
    return s;
}

const LogFormat& registerSpec(const Series& best, double globalBatch) {
    const std::string marker(best.phrase.token);
    std::string slug;
    for (char c : marker)
        if (std::isalnum(static_cast<unsigned char>(c)))
            slug.push_back(static_cast<char>(std::tolower(c)));
    const std::string id = "general-" + (slug.empty() ? std::string("rate") : slug.substr(0, 24)) +
                           "-" +
                           hex8(std::hash<std::string>{}(best.templ + "|" + marker + "|" +
                                                         std::to_string(globalBatch)));
    std::lock_guard lock(specMutex());
    for (const auto& s : specs())
        if (s.id == id) return s.format;
    GeneralSpec& spec = specs().emplace_back();
    spec.id = id;
    spec.marker = marker;
    spec.templ = best.templ;
    spec.kind = best.phrase.kind;
    spec.globalBatch = globalBatch;
    spec.unit = best.phrase.kind == Kind::Rate ? std::string(best.phrase.unit) : "samples/s";
    LogFormat& f = spec.format;
    f.id = spec.id;
    f.framework = "general reader";
    f.unit = spec.unit;
    f.defaultWarmup = kSteadyStateWindow.warmup;
    f.defaultIterations = kSteadyStateWindow.iterations;
    f.family = FormatFamily::Own;
    f.message = MessageFormat{"general", spec.marker, &parseNothing};
    f.message.context = &spec;
    f.message.parseWith = &parseGeneral;
    const bool stepSeconds = spec.kind != Kind::Rate && globalBatch <= 0.0;
    // One device's rate ("Iter #3: 245.3 img/sec per GPU", Horovod's synthetic benchmark on 8
    // GPUs): the job's figure is it times the GPUs, as a format file's per_gpu values are.
    const bool perDevice = spec.kind == Kind::Rate && saysPerDevice(best.firstText);
    f.makeAnalyzer = stepSeconds ? &makeStepSecondsAnalyzer
                     : perDevice ? &makePerDeviceRateAnalyzer
                                 : &makeSteadyStateAnalyzer;
    f.speedIsThroughput = !stepSeconds;
    return f;
}

std::string describe(const Series& s, double globalBatch, const std::string& batchEvidence) {
    const std::string token(s.phrase.token);
    const std::string where = s.firstLine > 0
                                  ? "in its first lines, from line " + std::to_string(s.firstLine)
                                  : "at its end";
    std::string w = "read by the general reader: its `" + token + "` lines (" +
                    std::to_string(s.count) + (s.count == 1 ? " report" : " reports") + " " +
                    where + "; template \"" + s.templ.substr(0, 120) + "\")";
    switch (s.phrase.kind) {
    case Kind::Rate:
        w += ", in " + std::string(s.phrase.unit) +
             (s.phrase.unitPrinted ? "" : " (the log prints no unit: samples/s assumed)");
        break;
    case Kind::StepSeconds:
        w += globalBatch > 0
                 ? ", step times: the global batch " + batchEvidence + " over the seconds per step"
                 : ", step times: the batch size times the GPUs over the seconds "
                   "per step";
        // Keras prints whole milliseconds: "6ms/step" is 5.5 to 6.5, each report 8 % either way.
        if (token == "ms/step") {
            const double ms = s.phrase.value * 1000.0;
            if (ms >= 1.0 && std::fabs(ms - std::round(ms)) < 1e-6)
                w += " (the log prints whole milliseconds: " + formatFixed(ms, 0) +
                     " ms/step is within " + formatFixed(50.0 / ms, 1) + " % of the step's time)";
        }
        break;
    case Kind::StepRate:
        w += globalBatch > 0 ? ", steps per second times the global batch " + batchEvidence
                             : ", steps per second times the batch size times the GPUs";
        break;
    }
    w += "; scope: " +
         scopeOf(s.firstText, s.mlperf, globalBatch > 0 && s.phrase.kind != Kind::Rate);
    if (s.count == 1) w += "; a single closing summary, counted as one report";
    return w;
}

} // namespace

bool isDocumentName(std::string_view name) {
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos) return false;
    std::string ext(name.substr(dot + 1));
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static constexpr std::array<std::string_view, 22> kExt{
        "md",  "rst",  "html", "htm", "py",  "sh",  "ipynb", "yaml", "yml", "json", "csv",
        "tsv", "toml", "cfg",  "ini", "xml", "tex", "c",     "cc",   "cpp", "h",    "pdf"};
    return std::find(kExt.begin(), kExt.end(), ext) != kExt.end();
}

bool holdsRateLine(std::string_view text) {
    while (!text.empty()) {
        const auto nl = text.find('\n');
        if (findRatePhrase(untagged(text.substr(0, nl)))) return true;
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    }
    return false;
}

bool isGeneralFormat(const LogFormat& format) {
    return format.message.parseWith == &parseGeneral;
}

const LogFormat* findGeneralFormat(std::string_view id) {
    if (id.rfind("general-", 0) != 0) return nullptr;
    std::lock_guard lock(specMutex());
    for (const auto& s : specs())
        if (s.id == id) return &s.format;
    return nullptr;
}

const LogFormat* detectGeneralFormat(std::string_view head, std::string* why,
                                     RateCandidate* candidate, std::string_view tail) {
    std::map<std::string, Series> series;
    std::string_view rest = head;
    std::int64_t n = 0;
    bool fence = false;
    // The tail's lines have no known number: they count from -1 down, and are said "at its end".
    bool inTail = false;
    while (!rest.empty() || (!inTail && !tail.empty())) {
        if (rest.empty()) {
            inTail = true;
            rest = tail;
            n = 0;
            fence = false;
        }
        const auto nl = rest.find('\n');
        const std::string_view raw = rest.substr(0, nl);
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
        ++n;
        if (raw.rfind("```", 0) == 0 || raw.rfind("~~~", 0) == 0) fence = !fence;
        if (fence || raw.size() > (std::size_t{1} << 16)) continue;
        const std::string_view text = untagged(raw);
        const auto phrase = phraseOf(text);
        if (!phrase || !std::isfinite(phrase->value) || phrase->value <= 0.0 || looksLikeCode(text))
            continue;
        Series& s = series[templateOf(text)];
        if (s.count++ == 0) {
            s.templ = templateOf(text);
            s.firstText.assign(text);
            s.phrase = *phraseOf(s.firstText);
            s.firstLine = inTail ? -1 : n;
            s.evaluation = isEvaluationRate(s.firstText, s.phrase);
            s.summary = summaryWords(text);
            s.mlperf = contains(text, ":::MLLOG");
            s.batchedSteps = s.phrase.kind == Kind::StepSeconds && statesGlobalBatch(text);
        }
        s.lastLine = n;
    }
    // The series: training rates that repeat, the most reports first, rates before step times;
    // else a single closing summary.
    const Series* best = nullptr;
    // A closing summary in a throughput unit beats a series of step times or progress bars;
    // step times that state their global batch on their own lines beat a rate series: they time
    // the whole step, where a timer's samples/s (DeepSpeed's, in a Megatron-DeepSpeed log) may
    // time part of it (the log's timestamps agree with Megatron's line, not with the timer).
    auto rank = [](const Series& s) {
        const bool rate = s.phrase.kind == Kind::Rate;
        return std::tuple(!s.evaluation, s.count >= 2 || (rate && s.summary),
                          s.batchedSteps && s.count >= 2, rate, s.count, -s.firstLine);
    };
    for (const auto& [t, s] : series)
        if (!best || rank(s) > rank(*best)) best = &s;
    if (candidate && best) {
        candidate->line = best->firstLine;
        candidate->text = best->firstText.substr(0, 300);
        candidate->token = std::string(best->phrase.token);
        candidate->reports = best->count;
    }
    if (!best || best->evaluation) return nullptr;
    if (best->count < 2 && !(best->summary && best->phrase.kind == Kind::Rate)) return nullptr;
    // A single summary stands for a run only where nothing else is a rate series.
    std::string batchEvidence;
    const double globalBatch =
        best->phrase.kind == Kind::Rate ? 0.0 : statedGlobalBatch(head, &batchEvidence);
    const LogFormat& f = registerSpec(*best, globalBatch);
    if (why) *why = describe(*best, globalBatch, batchEvidence);
    return &f;
}

} // namespace sv
