#include "core/formats/formatregistry.h"
#include "core/formats/realworld.h"

#include "core/formats/generalreader.h"

#include "core/model/textscan.h"
#include "core/measure/steadystateanalyzer.h"
#include "core/parse/lineformat.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace sv {
namespace {

// The number (digits, '.', exponent) that starts at text[at], blanks before it skipped; the
// position after it in *end.
bool readNumberAt(std::string_view text, std::size_t at, double& value,
                  std::size_t* end = nullptr) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t'))
        ++at;
    if (at >= text.size()) return false;
    auto [p, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
    if (ec != std::errc()) return false;
    if (end) *end = static_cast<std::size_t>(p - text.data());
    return true;
}

bool readIntAt(std::string_view text, std::size_t at, std::int64_t& value,
               std::size_t* end = nullptr) {
    while (at < text.size() && text[at] == ' ')
        ++at;
    auto [p, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
    if (ec != std::errc()) return false;
    if (end) *end = static_cast<std::size_t>(p - text.data());
    return true;
}

// The number after the first `label` in text.
bool readAfter(std::string_view text, std::string_view label, double& value,
               std::size_t* end = nullptr) {
    const auto at = text.find(label);
    return at != std::string_view::npos && readNumberAt(text, at + label.size(), value, end);
}
bool readIntAfter(std::string_view text, std::string_view label, std::int64_t& value,
                  std::size_t* end = nullptr) {
    const auto at = text.find(label);
    return at != std::string_view::npos && readIntAt(text, at + label.size(), value, end);
}

void setStep(SpeedSample& s, std::int64_t first, std::int64_t last) {
    s.hasIteration = true;
    s.batchFirst = first;
    s.batchLast = last;
}

// ---- MXNet Speedometer: "[tag]2019-06-18 09:10:44,633 Node[0] Epoch[0] Batch [0-20]\tSpeed:
// 18756.58 samples/sec\taccuracy=0.000916"; "Batch [49]", "Batch[49]"; "Epoch[3]\tSpeed: ..." is
// an epoch's summary.
void parseSpeedometer(std::string_view text, std::size_t, SpeedSample& s) {
    std::int64_t v = 0;
    if (readIntAfter(text, "Epoch[", v)) s.epoch = static_cast<int>(v);
    if (s.rank < 0 && readIntAfter(text, "Node[", v)) s.rank = static_cast<int>(v);
    auto batch = text.find("Batch [");
    std::size_t skip = 7;
    if (batch == std::string_view::npos) {
        batch = text.find("Batch[");
        skip = 6;
    }
    if (batch != std::string_view::npos) {
        std::int64_t a = 0, b = 0;
        std::size_t end = 0;
        if (readIntAt(text, batch + skip, a, &end)) {
            b = a;
            if (end < text.size() && text[end] == '-') readIntAt(text, end + 1, b, &end);
            setStep(s, a, b);
        }
    }
    double speed = 0.0;
    std::size_t end = 0;
    if (readAfter(text, "Speed: ", speed, &end) && contains(text.substr(end), "samples/sec")) {
        s.hasSpeed = true;
        s.speed = speed;
    }
}

bool isSpeedometerLine(std::string_view line) {
    const auto at = line.find("Epoch[");
    return at != std::string_view::npos && contains(line.substr(at), "Batch") &&
           contains(line.substr(at), "Speed: ") && contains(line.substr(at), "samples/sec");
}

// ---- DLLogger text, PyTorch: "DLL 2020-03-09 03:39:31.419192 - Epoch: 0 Iteration: 1
// train.loss : 7.08172  train.total_ips : 126.04 img/s"; without "Iteration:" an epoch's or the
// run's summary.
void parseDllPytorch(std::string_view text, std::size_t, SpeedSample& s) {
    std::int64_t v = 0;
    if (readIntAfter(text, "Epoch: ", v)) s.epoch = static_cast<int>(v);
    if (readIntAfter(text, "Iteration: ", v)) setStep(s, v, v);
    double ips = 0.0;
    if (readAfter(text, "total_ips : ", ips)) {
        s.hasSpeed = true;
        s.speed = ips;
    }
}

bool isDllPytorchLine(std::string_view line) {
    return contains(line, "DLL ") && contains(line, "Iteration: ") &&
           contains(line, "total_ips : ");
}

// ---- DLLogger text, TensorFlow: "DLL 2020-06-20 01:16:39.766736 - (0, 50) total_ips :
// 6724.37"; "() train_throughput : X" is the run's summary (another marker: not read).
void parseDllTf(std::string_view text, std::size_t, SpeedSample& s) {
    const auto open = text.find(" - (");
    if (open != std::string_view::npos) {
        std::int64_t e = 0, k = 0;
        std::size_t end = 0;
        if (readIntAt(text, open + 4, e, &end) && end + 1 < text.size() && text[end] == ',' &&
            readIntAt(text, end + 1, k, &end) && end < text.size() && text[end] == ')') {
            s.epoch = static_cast<int>(e);
            setStep(s, k, k);
        }
    }
    double ips = 0.0;
    if (readAfter(text, "total_ips : ", ips)) {
        s.hasSpeed = true;
        s.speed = ips;
    }
}

bool isDllTfLine(std::string_view line) {
    const auto at = line.find("DLL ");
    return at != std::string_view::npos && contains(line.substr(at), " - (") &&
           contains(line.substr(at), ") total_ips : ");
}

// ---- DLLogger JSON: DLLL {"timestamp": "...", "type": "LOG", "step": [0, 50], "data":
// {"total_ips": 6724.37}}; a step of [e], [] or a string is a summary.
void parseDllJson(std::string_view text, std::size_t, SpeedSample& s) {
    const auto step = text.find("\"step\": [");
    if (step != std::string_view::npos) {
        std::size_t at = step + 9;
        std::int64_t last = -1, v = 0;
        std::size_t end = 0;
        int count = 0;
        while (readIntAt(text, at, v, &end)) {
            last = v;
            if (count++ == 0) s.epoch = static_cast<int>(v);
            if (end < text.size() && text[end] == ',')
                at = end + 1;
            else
                break;
        }
        // [e, i]: a report; [e] is an epoch's summary (NGC PyTorch ConvNets), [] the run's.
        if (count >= 2) setStep(s, last, last);
    }
    double ips = 0.0;
    if (readAfter(text, "\"total_ips\": ", ips) || readAfter(text, "\"train.total_ips\": ", ips)) {
        s.hasSpeed = true;
        s.speed = ips;
    }
}

bool isDllJsonLine(std::string_view line) {
    return contains(line, "DLLL {") && contains(line, "total_ips\": ") &&
           contains(line, "\"step\": [");
}

// ---- gluon-nlp: "INFO:root:[step 249]\tmlm_loss=9.24962 ... throughput=122.0K tks/s\tlr=...";
// its translation and language-model scripts: "[Epoch 0 Batch 10/6000] loss=9.12, ppl=...,
// throughput=41.23K wps, wc=...".
bool readEpochBatch(std::string_view text, std::int64_t& epoch, std::int64_t& batch) {
    const auto at = text.find("[Epoch ");
    std::size_t end = 0;
    return at != std::string_view::npos && readIntAt(text, at + 7, epoch, &end) &&
           text.substr(end, 7) == " Batch " && readIntAt(text, end + 7, batch, &end) &&
           end < text.size() && (text[end] == '/' || text[end] == ']');
}

void parseGluonnlpThroughput(std::string_view text, std::size_t, SpeedSample& s) {
    std::int64_t v = 0, e = 0;
    if (readIntAfter(text, "[step ", v))
        setStep(s, v, v);
    else if (readEpochBatch(text, e, v)) {
        s.epoch = static_cast<int>(e);
        setStep(s, v, v);
    }
    double x = 0.0;
    std::size_t end = 0;
    if (readAfter(text, "throughput=", x, &end)) {
        if (end < text.size()) {
            if (text[end] == 'K' || text[end] == 'k')
                x *= 1e3;
            else if (text[end] == 'M')
                x *= 1e6;
            else if (text[end] == 'G')
                x *= 1e9;
        }
        s.hasSpeed = true;
        s.speed = x;
    }
}

bool isGluonnlpThroughputLine(std::string_view line) {
    auto at = line.find("[step ");
    if (at == std::string_view::npos) at = line.find("[Epoch ");
    return at != std::string_view::npos && contains(line.substr(at), "throughput=") &&
           (contains(line, "/s") || contains(line, "/sec") || contains(line, " wps"));
}

// ---- tf_cnn_benchmarks: "100\timages/sec: 215.3 +/- 0.0 (jitter = 0.0)\t7.863";
// "total images/sec: 1234.56" is the run's summary.
void parseTfCnn(std::string_view text, std::size_t markerPos, SpeedSample& s) {
    std::int64_t k = 0;
    std::size_t end = 0;
    if (!contains(text, "total images/sec") && readIntAt(text, 0, k, &end) && end < text.size() &&
        (text[end] == '\t' || text[end] == ' '))
        setStep(s, k, k);
    double x = 0.0;
    if (markerPos != std::string_view::npos ? readNumberAt(text, markerPos + 12, x)
                                            : readAfter(text, "images/sec: ", x)) {
        s.hasSpeed = true;
        s.speed = x;
    }
}

bool isTfCnnLine(std::string_view line) {
    return contains(line, "images/sec: ") && (contains(line, "+/-") || contains(line, "jitter"));
}

// ---- Keras TimeHistory: "TimeHistory: 50.43 seconds, 2538.10 examples/second between steps 0
// and 100"
void parseTimeHistory(std::string_view text, std::size_t, SpeedSample& s) {
    const auto at = text.find(" examples/second");
    if (at == std::string_view::npos) return;
    auto start = text.rfind(", ", at);
    double x = 0.0;
    if (start != std::string_view::npos && readNumberAt(text, start + 2, x)) {
        s.hasSpeed = true;
        s.speed = x;
    }
    std::int64_t k = 0;
    const auto andAt = text.find(" and ", at);
    if (andAt != std::string_view::npos && readIntAt(text, andAt + 5, k)) setStep(s, k, k);
}

bool isTimeHistoryLine(std::string_view line) {
    return contains(line, "examples/second between steps");
}

// ---- PyTorch ImageNet example: "Epoch: [0][  10/5005]\tTime  0.312 ( 0.745)\tData ..."
void parseProgressMeter(std::string_view text, std::size_t, SpeedSample& s) {
    const auto at = text.find("Epoch: [");
    if (at == std::string_view::npos) return;
    std::int64_t e = 0, k = 0;
    std::size_t end = 0;
    if (!readIntAt(text, at + 8, e, &end) || text.substr(end, 2) != "][") return;
    if (!readIntAt(text, end + 2, k, &end)) return;
    s.epoch = static_cast<int>(e);
    setStep(s, k, k);
    double t = 0.0;
    if (readAfter(text.substr(end), "Time ", t)) {
        s.hasSpeed = true;
        s.speed = t;
    }
}

bool isProgressMeterLine(std::string_view line) {
    const auto at = line.find("Epoch: [");
    return at != std::string_view::npos && contains(line.substr(at), "][") &&
           contains(line.substr(at), "Time ") && contains(line.substr(at), "Data ");
}

// tf_cnn_benchmarks under Horovod (Open MPI's rank tags on its lines): each process prints the
// images/sec of its own batch (benchmark_cnn's batch_size is the process's), one GPU per process
// as Horovod runs it, so the job's throughput is a tagged report times the ranks. Untagged
// lines are one process driving all its GPUs (variable_update replicated and the like): the
// job's already. The run's notes say which.
class PerProcessRates : public FormatAnalyzer {
  public:
    PerProcessRates(std::unique_ptr<FormatAnalyzer> inner, int ranks)
        : m_inner(std::move(inner)), m_ranks(ranks) {}
    void add(const SpeedSample& sample) override {
        SpeedSample s = sample;
        if (s.rank >= 0 && m_ranks > 1) {
            s.speed *= m_ranks;
            m_scaled = true;
        }
        m_inner->add(s);
    }
    void finish(RunResult& result, const ParseCounters& counters,
                bool unterminatedTail) const override {
        m_inner->finish(result, counters, unterminatedTail);
        if (m_scaled)
            result.notes.push_back("rank-tagged images/sec lines are one Horovod process's "
                                   "(its own batch): each taken times the " +
                                   std::to_string(m_ranks) + " ranks");
    }

  private:
    std::unique_ptr<FormatAnalyzer> m_inner;
    int m_ranks;
    bool m_scaled = false;
};

std::unique_ptr<FormatAnalyzer> makeTfCnnAnalyzer(const LogFormat& format, Topology topology,
                                                  int batchPerDevice, MeasureOptions options) {
    return std::make_unique<PerProcessRates>(
        makeSteadyStateAnalyzer(format, topology, batchPerDevice, options), topology.ranks());
}

// A line is one of a format's only where its parse finds both a step and a positive value:
// prose that quotes the shape (a README: "Batch [a-b]\tSpeed: ... samples/sec") is not.
template <void (*Parse)(std::string_view, std::size_t, SpeedSample&),
          bool (*Shape)(std::string_view)>
bool detectBy(std::string_view line) {
    if (!Shape(line)) return false;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    SpeedSample s;
    if (mayHaveTag(line))
        for (const TagFormat& tag : tagFormats()) {
            std::size_t length = 0;
            if (tag.match(line, s.rank, length)) {
                line.remove_prefix(length);
                break;
            }
        }
    Parse(line, std::string_view::npos, s);
    return s.hasIteration && s.hasSpeed && std::isfinite(s.speed) && s.speed > 0.0;
}

LogFormat steady(std::string_view id, std::string_view framework, std::string_view unit,
                 MessageFormat message, bool (*detect)(std::string_view)) {
    LogFormat f;
    f.id = id;
    f.framework = framework;
    f.unit = unit;
    f.defaultWarmup = kSteadyStateWindow.warmup;
    f.defaultIterations = kSteadyStateWindow.iterations;
    f.family = FormatFamily::Own;
    f.message = message;
    f.detect = detect;
    f.makeAnalyzer = &makeSteadyStateAnalyzer;
    return f;
}

const LogFormat kRealWorld[] = {
    steady("mxnet-speedometer", "MXNet", "samples/s",
           MessageFormat{"speedometer", "Speed: ", &parseSpeedometer},
           &detectBy<&parseSpeedometer, &isSpeedometerLine>),
    steady("gluoncv-speedometer", "MXNet gluon-cv", "samples/s",
           MessageFormat{"speedometer", "Speed: ", &parseSpeedometer},
           &detectBy<&parseSpeedometer, &isSpeedometerLine>),
    steady("insightface-speedometer", "InsightFace MXNet", "samples/s",
           MessageFormat{"speedometer", "Speed: ", &parseSpeedometer},
           &detectBy<&parseSpeedometer, &isSpeedometerLine>),
    steady("dllogger-pytorch", "PyTorch DLLogger", "images/s",
           MessageFormat{"dllogger-pytorch-ips", "total_ips : ", &parseDllPytorch},
           &detectBy<&parseDllPytorch, &isDllPytorchLine>),
    steady("dllogger-tf", "TensorFlow DLLogger", "images/s",
           MessageFormat{"dllogger-tf-ips", "total_ips : ", &parseDllTf},
           &detectBy<&parseDllTf, &isDllTfLine>),
    steady("dllogger-json", "DLLogger JSON", "images/s",
           MessageFormat{"dllogger-json-ips", "DLLL {", &parseDllJson},
           &detectBy<&parseDllJson, &isDllJsonLine>),
    steady("gluonnlp-throughput", "MXNet gluon-nlp", "tokens/s",
           MessageFormat{"gluonnlp-throughput", "throughput=", &parseGluonnlpThroughput},
           &detectBy<&parseGluonnlpThroughput, &isGluonnlpThroughputLine>),
    [] {
        LogFormat f = steady("tf-cnn-benchmarks", "TensorFlow tf_cnn_benchmarks", "images/s",
                             MessageFormat{"tf-cnn-images-sec", "images/sec: ", &parseTfCnn},
                             &detectBy<&parseTfCnn, &isTfCnnLine>);
        f.makeAnalyzer = &makeTfCnnAnalyzer;
        return f;
    }(),
    steady("keras-timehistory", "Keras TimeHistory", "samples/s",
           MessageFormat{"keras-timehistory", " examples/second", &parseTimeHistory},
           &detectBy<&parseTimeHistory, &isTimeHistoryLine>),
    [] {
        LogFormat f = steady("pytorch-progressmeter", "PyTorch ImageNet example", "images/s",
                             MessageFormat{"progressmeter", "Time ", &parseProgressMeter},
                             &detectBy<&parseProgressMeter, &isProgressMeterLine>);
        f.makeAnalyzer = &makeStepSecondsAnalyzer;
        f.speedIsThroughput = false;
        return f;
    }(),
};

const LogFormat& realWorld(std::string_view id) {
    for (const auto& f : kRealWorld)
        if (f.id == id) return f;
    return kRealWorld[0];
}

} // namespace

std::span<const LogFormat> realWorldFormats() {
    return kRealWorld;
}

bool looksLikeText(std::string_view head) {
    const std::string_view probe = head.substr(0, 8192);
    if (probe.find('\0') != std::string_view::npos) return false;
    std::size_t control = 0;
    for (unsigned char c : probe)
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b) ++control;
    return control * 100 <= probe.size(); // at most 1 %
}

// Whether line `at` of head is a Speedometer line as DLPerf's NGC MXNet runner writes it: behind
// Open MPI's rank tag, one iteration per line ("Batch [19-19]"). MLPerf's and gluon-cv's MXNet
// logs report ranges of iterations ("Batch [0-20]").
bool dlperfRunnerLines(std::string_view head, std::int64_t at) {
    std::string_view rest = head;
    for (std::int64_t line = 1; line < at && !rest.empty(); ++line) {
        const auto nl = rest.find('\n');
        rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    }
    const std::string_view text = rest.substr(0, rest.find('\n'));
    int rank = -1;
    std::size_t length = 0;
    if (!matchOpenMpiTag(text, rank, length)) return false;
    const auto batch = text.find("Batch [");
    if (batch == std::string_view::npos) return false;
    std::int64_t a = -1, b = -2;
    std::size_t end = 0;
    return readIntAt(text, batch + 7, a, &end) && end < text.size() && text[end] == '-' &&
           readIntAt(text, end + 1, b, &end) && a == b;
}

const LogFormat* detectAnyLogFormat(std::string_view head, std::string* why,
                                    RateCandidate* candidate) {
    const LogFormat* found = nullptr;
    std::int64_t foundLine = 0;
    // Evidence for the speedometer's families, from any line of the head.
    bool insightface = false, gluoncv = false, mlperf = false;
    std::string_view rest = head;
    std::int64_t line = 0;
    while (!rest.empty() && line < kDetectLines) {
        const auto nl = rest.find('\n');
        const std::string_view text = rest.substr(0, nl);
        ++line;
        if (!found)
            for (const auto& f : kRealWorld)
                if (f.detect(text)) {
                    found = &f;
                    foundLine = line;
                    break;
                }
        if (contains(text, "[lfw]") || contains(text, "testing verification") ||
            (contains(text, "Speed: ") &&
             (contains(text, "\tacc=") || contains(text, "lossvalue="))))
            insightface = true;
        if (contains(text, "num_gpus=") ||
            (contains(text, "[Epoch ") && contains(text, "] speed: ")))
            gluoncv = true;
        if (contains(text, ":::MLL")) mlperf = true;
        if (nl == std::string_view::npos) break;
        rest.remove_prefix(nl + 1);
    }
    std::int64_t dlperfLine = 0;
    const LogFormat* dlperf = detectLogFormat(head, &dlperfLine);
    if (!found) {
        if (dlperf && why)
            *why = "read as " + std::string(dlperf->id) + ": line " + std::to_string(dlperfLine) +
                   " is one of its lines";
        // No known family: a log that says its throughput in words is read by the general
        // reader before it is called another file.
        return dlperf ? dlperf : detectGeneralFormat(head, why, candidate);
    }
    if (found->message.parse == &parseSpeedometer) {
        if (insightface)
            found = &realWorld("insightface-speedometer");
        else if (gluoncv)
            found = &realWorld("gluoncv-speedometer");
        else if (!mlperf && dlperf == &ngcMxnetFormat() && dlperfRunnerLines(head, foundLine)) {
            // The most specific reading: DLPerf's own NGC MXNet log, wherever it was copied.
            if (why)
                *why = "read as ngc-mxnet: line " + std::to_string(foundLine) +
                       " and the Speed lines after it report one iteration each (Batch [k-k]) "
                       "from rank-tagged processes, as DLPerf's NGC MXNet runner writes them";
            return dlperf;
        }
    }
    if (why) {
        *why = "read as " + std::string(found->id) + ": line " + std::to_string(foundLine) +
               " is one of its lines";
        if (found->message.parse == &parseSpeedometer)
            *why += insightface ? " (it prints InsightFace's verification or acc= lines)"
                    : gluoncv
                        ? " (it prints gluon-cv's num_gpus= or \"[Epoch e] speed:\" lines and none "
                          "of InsightFace's verification lines, so it is taken for gluon-cv, not "
                          "InsightFace ArcFace)"
                    : mlperf ? " (it prints MLPerf's :::MLL lines)"
                             : "";
        if (dlperf && dlperf->family != FormatFamily::Own)
            *why +=
                "; DLPerf's " + std::string(dlperf->id) +
                " reader would take its lines too, but only in DLPerf's runner layout "
                "(logs/.../bz128/4n8g/...) with a line per iteration of every rank, so here the "
                "log's own reports give the figure";
        else if (dlperf)
            *why += "; DLPerf's " + std::string(dlperf->id) +
                    " reader would take its lines too, but it reads DLPerf's runner logs only";
    }
    return found;
}

} // namespace sv
