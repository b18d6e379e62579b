#include "core/formats/userformatfacts.h"

#include "core/formats/userformat.h"

#include <re2/re2.h>

namespace sv {

RunFacts userFormatRunFacts(const UserFormat& format, std::string_view text) {
    RunFacts out;
    if (const auto gpus = format.gpus())
        out.formatGpus = RunFact{std::to_string(*gpus), 0,
                                 "\"gpus\": " + std::to_string(*gpus) + " (user format " +
                                     format.id() + ", " + format.file() + ")"};
    for (const auto& [key, re] : format.metadata()) {
        std::string_view rest = text;
        std::int64_t line = 0;
        while (!rest.empty()) {
            const auto nl = rest.find('\n');
            std::string_view l = rest.substr(0, nl);
            ++line;
            re2::StringPiece capture;
            if (l.size() <= (std::size_t{1} << 20) &&
                re2::RE2::PartialMatch(re2::StringPiece(l.data(), l.size()), *re, &capture)) {
                RunFact f;
                f.value = std::string(capture.data(), capture.size());
                f.line = line;
                f.evidence = std::string(l.substr(0, 80)) + " (user format " + format.id() + ")";
                // A count that is no whole number above 0 is no fact (and never reaches stoi).
                if ((key == "batch" || key == "gpus") &&
                    (f.value.empty() || f.value.size() > 7 ||
                     f.value.find_first_not_of("0123456789") != std::string::npos ||
                     std::stoi(f.value) < 1))
                    break;
                if (key == "precision") {
                    const std::string p = normalizePrecision(f.value);
                    if (!p.empty()) f.value = p;
                }
                if (key == "batch")
                    out.batch = f;
                else if (key == "gpus")
                    out.gpus = f;
                else if (key == "precision")
                    out.precision = f;
                else if (key == "model")
                    out.model = f;
                break;
            }
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
        }
    }
    return out;
}

} // namespace sv
