#include "core/formats/userformatfacts.h"

#include "core/formats/userformat.h"

#include <re2/re2.h>

namespace sv {

RunFacts userFormatRunFacts(const UserFormat& format, std::string_view text) {
    RunFacts out;
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
