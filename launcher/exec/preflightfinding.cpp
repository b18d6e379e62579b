#include "launcher/exec/preflightfinding.h"

namespace sv::launcher {

PreflightHeadline preflightHeadline(const std::vector<PreflightFinding>& findings) {
    PreflightHeadline h;
    const PreflightFinding* firstFailure = nullptr;
    const PreflightFinding* firstWarning = nullptr;
    for (const auto& f : findings) {
        if (!f.ok) {
            if (h.failures++ == 0) firstFailure = &f;
        } else if (f.warning) {
            if (h.warnings++ == 0) firstWarning = &f;
        }
    }
    const auto line = [](const PreflightFinding& f) {
        return f.host + " · " + f.check + ": " + f.message;
    };
    const auto count = [](int n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    if (firstFailure)
        h.text = "Preflight found " + count(h.failures, "problem", "problems") +
                 (h.warnings ? " and " + count(h.warnings, "warning", "warnings") : "") + ". " +
                 line(*firstFailure);
    else if (firstWarning)
        // A check with a warning did not pass cleanly: "3 of 4 checks passed", not "4 passed,
        // but with 1 warning".
        h.text = "Preflight: " + std::to_string(static_cast<int>(findings.size()) - h.warnings) +
                 " of " + count(static_cast<int>(findings.size()), "check", "checks") +
                 " passed; " + count(h.warnings, "warning", "warnings") + ". " +
                 line(*firstWarning);
    else
        h.text = findings.size() == 1
                     ? std::string("Preflight: the one check passed.")
                     : "Preflight: all " +
                           count(static_cast<int>(findings.size()), "check", "checks") + " passed.";
    return h;
}

} // namespace sv::launcher
