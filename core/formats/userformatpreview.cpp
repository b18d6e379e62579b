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

UserFormatPreview previewUserFormat(const UserFormat& format, const std::filesystem::path& log,
                                    std::int64_t batchPerDevice, int ranks) {
    UserFormatPreview out;
    std::vector<UserWindowValue> values;
    // The head for the metadata patterns: the first MiB, as detection reads.
    std::string head;
    ParseOptions options;
    options.format = format.logFormat().message;
    // Lines the pattern matched whose value is left out, with why: never "no match".
    std::int64_t otherRanks = 0, unusable = 0, firstUnusable = 0;
    LogParser parser(options, [&](const SpeedSample& s) {
        if (!s.hasSpeed) return;
        if (s.rank > 0) {
            ++otherRanks;
            return;
        }
        if (!std::isfinite(s.speed)) {
            if (unusable++ == 0) firstUnusable = s.line;
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
    if (format.perGpu()) {
        // One GPU's rates: the run's are them times the GPUs the log (or the format) states.
        const RunFacts logFacts = readRunFacts(head);
        out.gpus = ranks > 0 ? ranks : out.facts.gpus.value_or(0);
        if (out.gpus <= 0 && logFacts.gpus && !logFacts.gpus->counted)
            out.gpus = std::stoi(logFacts.gpus->value);
        if (out.gpus <= 0) out.gpus = format.gpus().value_or(0);
        if (out.gpus <= 0) {
            out.problem = "the values are one GPU's rate: the run's needs the GPU count, which "
                          "the log does not state (give a \"metadata\" gpus pattern or number)";
            return out;
        }
        for (auto& v : values)
            v.value *= out.gpus;
    }
    for (const auto& v : values)
        out.values.push_back(v.value);
    const UserWindowFigure f = userWindowFigure(format.rule(), values, std::nullopt);
    out.figure = f.figure;
    out.rule = f.rule;
    out.problem = f.problem;
    if (values.empty() && (unusable > 0 || otherRanks > 0))
        out.problem =
            unusable > 0
                ? std::to_string(unusable) +
                      " lines match, none with a usable value (the first at "
                      "line " +
                      std::to_string(firstUnusable) + ": a scale not in \"scales\", or no number)"
                : std::to_string(otherRanks) + " lines match, all of ranks other than 0 (only rank "
                                               "0's are counted)";
    if (out.figure)
        if (auto why = implausibleThroughput(*out.figure, format.unit())) {
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
