#include "core/formats/userformat.h"

#include "core/formats/formatregistry.h"
#include "core/measure/userformatanalyzer.h"
#include "core/model/plausibility.h"
#include "core/parse/logread.h"
#include "core/parse/logparser.h"
#include "core/parse/runfacts.h"

#include <cmath>
#include <cstdio>

namespace sv {

namespace {

// The first MiB of the log, as detection reads it: what the metadata patterns look at.
std::string headOf(const std::filesystem::path& log) {
    std::string head;
    if (std::FILE* f = std::fopen(log.c_str(), "rb")) {
        head.resize(kDetectBytes);
        head.resize(std::fread(head.data(), 1, head.size(), f));
        std::fclose(f);
    }
    return head;
}

// The GPUs the log states: the caller's, the metadata's, the log's own words (a stated count,
// never one counted from one rank's tags), the format's number; 0 where none says.
int statedGpus(const UserFormat& format, const std::string& head, int ranks,
               const UserFormatFacts& facts) {
    if (ranks > 0) return ranks;
    if (facts.gpus && *facts.gpus > 0) return *facts.gpus;
    const RunFacts logFacts = readRunFacts(head);
    if (logFacts.gpus && !logFacts.gpus->counted) return std::stoi(logFacts.gpus->value);
    return format.gpus().value_or(0);
}

// Steps/s become samples/s with the step's global batch (batch per GPU x GPUs) where both are
// stated; else the values stay steps/s and out.stepsOnly says what is missing.
void stepRatesToRunRates(const UserFormat& format, const std::string& head,
                         std::int64_t batchPerDevice, int ranks,
                         std::vector<UserWindowValue>& values, UserFormatPreview& out) {
    const int batch = batchPerDevice > 0 ? static_cast<int>(batchPerDevice)
                                         : out.facts.batch.value_or(format.batch().value_or(0));
    const int gpus = statedGpus(format, head, ranks, out.facts);
    if (batch <= 0 || gpus <= 0) {
        out.stepsOnly = std::string(batch <= 0 && gpus <= 0 ? "the batch size and the GPU count are"
                                    : batch <= 0            ? "the batch size is"
                                                            : "the GPU count is") +
                        " not stated, so the figure stays in steps/s (no guess): give the batch "
                        "per GPU and a GPU count (here, in the format's metadata, or Set batch, "
                        "GPUs, precision… on the run)";
        return;
    }
    out.stepBatch = batch * gpus;
    for (auto& v : values)
        v.value *= out.stepBatch;
}

// Step times become rates, one GPU's rates the run's: false with out.problem said when what
// that needs (the batch, the GPU count) is stated nowhere.
bool toRunRates(const UserFormat& format, const std::string& head, std::int64_t batchPerDevice,
                int ranks, std::vector<UserWindowValue>& values, UserFormatPreview& out) {
    if (format.value() == UserFormat::Value::StepTime) {
        const int batch = batchPerDevice > 0 ? static_cast<int>(batchPerDevice)
                                             : out.facts.batch.value_or(format.batch().value_or(0));
        const int gpus = ranks > 0 ? ranks : out.facts.gpus.value_or(1);
        if (batch <= 0) {
            out.problem = "the values are step times: a rate needs the batch size (give "
                          "\"batch\" or a \"metadata\" batch pattern)";
            return false;
        }
        for (auto& v : values)
            v.value = userStepRate(v.value, batch, gpus).value_or(std::nan(""));
    }
    if (format.value() == UserFormat::Value::StepRate)
        stepRatesToRunRates(format, head, batchPerDevice, ranks, values, out);
    if (format.perGpu()) {
        // One GPU's rates: the run's are them times the GPUs the log (or the format) states.
        out.gpus = statedGpus(format, head, ranks, out.facts);
        if (out.gpus <= 0) {
            out.problem = "the values are one GPU's rate: the run's needs the GPU count, which "
                          "the log does not state (give a \"metadata\" gpus pattern or number)";
            return false;
        }
        for (auto& v : values)
            v.value *= out.gpus;
    }
    return true;
}

// Lines the pattern matched whose value is left out, with why: never "no match".
struct LeftOut {
    std::int64_t otherRanks = 0, unusable = 0, firstUnusable = 0;
    std::string why() const {
        return unusable > 0 ? std::to_string(unusable) +
                                  " lines match, none with a usable value (the first at line " +
                                  std::to_string(firstUnusable) +
                                  ": a scale not in \"scales\", or no number)"
                            : std::to_string(otherRanks) +
                                  " lines match, all of ranks other than 0 (only rank 0's are "
                                  "counted)";
    }
};

} // namespace

UserFormatPreview previewUserFormat(const UserFormat& format, const std::filesystem::path& log,
                                    std::int64_t batchPerDevice, int ranks) {
    UserFormatPreview out;
    std::vector<UserWindowValue> values;
    ParseOptions options;
    options.format = format.logFormat().message;
    LeftOut left;
    LogParser parser(options, [&](const SpeedSample& s) {
        if (!s.hasSpeed) return;
        if (s.rank > 0) {
            ++left.otherRanks;
            return;
        }
        if (!std::isfinite(s.speed)) {
            if (left.unusable++ == 0) left.firstUnusable = s.line;
            return;
        }
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
    const std::string head = headOf(log);
    out.facts = format.facts(head);
    if (!toRunRates(format, head, batchPerDevice, ranks, values, out)) return out;
    for (const auto& v : values)
        out.values.push_back(v.value);
    const UserWindowFigure f = userWindowFigure(format.rule(), values, std::nullopt);
    out.figure = f.figure;
    out.rule = f.rule;
    out.problem = f.problem;
    if (values.empty() && (left.unusable > 0 || left.otherRanks > 0)) out.problem = left.why();
    if (out.figure)
        if (auto why = implausibleThroughput(*out.figure,
                                             out.stepsOnly.empty() ? format.unit() : "steps/s")) {
            out.problem = "the figure cannot be a throughput: " + *why;
            out.figure.reset();
        }
    if (const ParseCounters& c = parser.counters(); c.budgetLine > 0) {
        out.problem = "the line pattern took more than " + quoteFigure(c.budgetSeconds) +
                      " s over this log: reading stopped at line " + std::to_string(c.budgetLine) +
                      " (a pattern slow on every line?)";
        out.figure.reset();
    }
    return out;
}

} // namespace sv
