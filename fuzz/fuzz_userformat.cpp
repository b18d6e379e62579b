// Fuzzes user formats: a format file's text and a log read with it, and the match hint derived
// from a pattern. The input is split at its first NUL: the part before it is a format file (or,
// when it starts with '~', a bare line pattern), the rest the log. Nothing may crash; a hint
// (requiredLiteral) must be in every line RE2 matches, or lines would be skipped without a word.

#include "core/formats/userformat.h"
#include "core/measure/formatanalyzer.h"
#include "core/model/runresult.h"
#include "core/parse/logparser.h"

#include <re2/re2.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void checkHint(std::string_view pattern, std::string_view log) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(1 << 20);
    const re2::RE2 re(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re.ok()) return;
    const std::string hint = sv::requiredLiteral(pattern);
    if (hint.empty()) return;
    while (!log.empty()) {
        const auto nl = log.find('\n');
        const std::string_view line = log.substr(0, nl);
        if (re2::RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), re) &&
            line.find(hint) == std::string_view::npos)
            std::abort(); // the hint would skip a line the pattern matches
        if (nl == std::string_view::npos) break;
        log.remove_prefix(nl + 1);
    }
}

void readWithFormat(std::string_view json, std::string_view log) {
    sv::UserFormatError error;
    const auto format = sv::UserFormat::parse(json, "fuzz.json", &error);
    if (!format) {
        if (error.reason.empty()) std::abort(); // a refusal always says why
        return;
    }
    const sv::LogFormat& lf = format->logFormat();
    sv::ParseOptions options;
    options.format = lf.message;
    options.maxLineBytes = 4096;
    const auto analyzer = lf.makeAnalyzer(lf, sv::Topology{1, 2}, 32, {2, 5});
    sv::LogParser parser(options, [&](const sv::SpeedSample& s) { analyzer->add(s); });
    parser.feed(log);
    parser.finishTail();
    sv::RunResult r;
    analyzer->finish(r, parser.counters(), false);
    if (r.status != sv::RunStatus::Complete && r.reason.empty()) std::abort();
    (void)format->facts(log.substr(0, 4096));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto cut = input.find('\0');
    const std::string_view head = input.substr(0, cut);
    const std::string_view log =
        cut == std::string_view::npos ? std::string_view{} : input.substr(cut + 1);
    if (!head.empty() && head.front() == '~')
        checkHint(head.substr(1), log);
    else
        readWithFormat(head, log);
    return 0;
}
